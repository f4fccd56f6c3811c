/// A plan's rows drawn as a tree, as the sqlite3 shell prints `EXPLAIN QUERY PLAN` (https://sqlite.org/eqp.html):
/// ```
/// QUERY PLAN
/// |--SCAN t0
/// `--USE TEMP B-TREE FOR ORDER BY
/// ```
package enum PlanTree {
    /// The tree of `rows`, each its `id`, its `parent`'s id (0 at the top) and its `detail` text.
    ///
    /// Each row is drawn once, so rows that form a cycle (a row its own parent, a repeated id: a plan read
    /// from an edited report) still draw instead of recursing without end, and none deeper than
    /// ``maximumDepth``, so a chain of thousands (an edited report's) does not run the stack out.
    package static func draw(_ rows: [(id: Int, parent: Int, detail: String)]) -> String {
        var lines = ["QUERY PLAN"]
        var drawn = Set<Int>()
        func draw(parent: Int, prefix: String, depth: Int) {
            guard depth < maximumDepth else { return }
            let children = rows.indices.filter { rows[$0].parent == parent && !drawn.contains($0) }
            drawn.formUnion(children)
            for (offset, index) in children.enumerated() {
                let row = rows[index]
                let last = offset == children.count - 1
                lines.append(prefix + (last ? "`--" : "|--") + row.detail)
                if row.id != parent { draw(parent: row.id, prefix: prefix + (last ? "   " : "|  "), depth: depth + 1) }
            }
        }
        draw(parent: 0, prefix: "", depth: 0)
        return lines.joined(separator: "\n")
    }

    /// The deepest a drawn plan goes: far below any plan SQLite makes (its nesting follows the statement's
    /// subqueries, which its parser limits), far above what any reader follows.
    package static let maximumDepth = 100
}
