import Foundation

/// Reads `EXPLAIN QUERY PLAN` detail text into a ``PlanRow``.
///
/// Accepts the forms of SQLite 3.7 to 3.4x: `SCAN TABLE t AS a` and `SCAN a`, `SEARCH … USING
/// [COVERING|AUTOMATIC [PARTIAL] COVERING] INDEX i (…)`, `USING INTEGER PRIMARY KEY`, `USE TEMP B-TREE FOR …`,
/// `MULTI-INDEX OR`, and `… SUBQUERY n` (https://sqlite.org/eqp.html).
package enum PlanRowReader {
    /// The row for one detail line. `names` maps ASCII-lower-cased aliases and table names (``folded(_:)``) to
    /// table names. `indexNames` are the connection's index names: the longest one the text after `USING INDEX`
    /// starts with wins, so names holding " (" or plan words are read whole.
    package static func row(for full: String, names: [String: String], indexNames: [String] = []) -> PlanRow {
        var row = PlanRow(kind: .other)
        // An outer join's inner loop ends in ` LEFT-JOIN` (or ` RIGHT-JOIN`, 3.39+): not part of the
        // constraints or the index name.
        var detail = full
        for suffix in [" LEFT-JOIN", " RIGHT-JOIN"] where detail.hasSuffix(suffix) { detail.removeLast(suffix.count) }
        let words = detail.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first else { return row }

        if detail.hasPrefix("USE TEMP B-TREE FOR ") {
            row.kind = .tempBTree
            row.purpose = String(detail.dropFirst("USE TEMP B-TREE FOR ".count))
            return row
        }
        if detail.hasPrefix("MULTI-INDEX OR") {
            row.kind = .multiIndexOr
            return row
        }
        if detail.contains("SUBQUERY") && !(first == "SCAN" || first == "SEARCH") {
            row.kind = .subquery
            return row
        }
        guard first == "SCAN" || first == "SEARCH", words.count >= 2 else { return row }

        // Name (after an optional TABLE) and optional "AS alias". Names may hold spaces ("my table"), so
        // the longest table or alias name the statement mentions wins over the first word.
        var body = Substring(detail.dropFirst(first.count + 1))
        if body.hasPrefix("TABLE "), name(in: body, names: names).map({ $0.utf8.count }) ?? 0 < 6 { body = body.dropFirst(6) }
        let named = name(in: body, names: names) ?? String(body.prefix { $0 != " " })
        body = body.dropFirst(named.count).drop { $0 == " " }
        var alias = named
        if body.hasPrefix("AS ") {
            let rest = body.dropFirst(3)
            alias = name(in: rest, names: names) ?? String(rest.prefix { $0 != " " })
            body = rest.dropFirst(alias.count).drop { $0 == " " }
        }
        row.alias = alias
        row.table = names[folded(alias)] ?? names[folded(named)]
        // `FROM main.note` without an alias: the plan names it `main.note` (a schema, a dot, the table).
        if row.table == nil, alias == named, let dot = named.firstIndex(of: "."), ["main", "temp"].contains(named[..<dot].lowercased()) {
            row.table = names[folded(String(named[named.index(after: dot)...]))]
        }
        if named.hasPrefix("(") || named == "CONSTANT" || named == "SUBQUERY" { row.table = nil }
        let rest = String(body)

        if let open = detail.firstIndex(of: "("), detail.hasSuffix(")"), first == "SEARCH" || detail.contains("USING") {
            let inner = detail[detail.index(after: open)..<detail.index(before: detail.endIndex)]
            if !inner.isEmpty, detail[..<open].contains("USING") { row.constraints = String(inner) }
        }

        if rest.hasPrefix("USING AUTOMATIC") {
            row.kind = .automaticIndex
        } else if rest.hasPrefix("USING COVERING INDEX ") || rest.hasPrefix("USING INDEX ") {
            let covering = rest.hasPrefix("USING COVERING INDEX ")
            let indexWords = rest.dropFirst(covering ? "USING COVERING INDEX ".count : "USING INDEX ".count)
            // A known name, whole; else the name runs to the constraints' " (" or to the end: index names may
            // hold spaces ("Z_My Entity_title").
            let known = indexNames.filter { name in
                indexWords.hasPrefix(name) && (indexWords.count == name.count || indexWords.dropFirst(name.count).hasPrefix(" ("))
            }.max { $0.count < $1.count }
            let name = known.map { Substring($0) } ?? (indexWords.hasSuffix(")") ? indexWords.range(of: " (").map { indexWords[..<$0.lowerBound] } ?? indexWords : indexWords)
            row.index = name.isEmpty ? nil : String(name)
            if first == "SCAN" || isMinMaxWalk(detail) {
                // `SEARCH t USING INDEX i` with no constraint is the min/max loop walking `i` from one end: a
                // walk of every entry unless it stops at the first (hostile round 8, F2; ``oneRowKind(of:)``).
                row.kind = .fullIndexScan
            } else {
                row.kind = covering ? .coveringIndexSearch : .indexSearch
            }
        } else if rest.hasPrefix("USING INTEGER PRIMARY KEY") {
            row.kind = first == "SCAN" ? .fullTableScan : .rowidLookup
        } else if rest.hasPrefix("USING PRIMARY KEY") {
            row.kind = first == "SCAN" ? .fullTableScan : .primaryKeyLookup
        } else if rest.hasPrefix("VIRTUAL TABLE") {
            row.kind = .other
        } else if first == "SCAN" {
            row.kind = row.table == nil ? .other : .fullTableScan
        } else if rest.isEmpty, row.table != nil {
            // A bare `SEARCH t`: a min() or max() that no index serves. where.c marks the loop a search for the
            // min/max optimisation, yet the program walks every row of `t` (hostile round 8, F1), unless the
            // table's own order serves it (``stopsAtFirstRow(_:program:rootPages:)``).
            row.kind = .fullTableScan
        }
        return row
    }

    /// True for a plan `detail` that is SQLite's min/max loop: a `SEARCH t` with no constraint, bare (no index
    /// serves the aggregate: a walk of the table) or `USING [COVERING] INDEX i` (a walk of `i` from one end).
    /// The loop walks every row or entry unless it stops at the first (``stopsAtFirstRow(_:program:rootPages:)``).
    package static func isMinMaxWalk(_ detail: String) -> Bool {
        guard detail.hasPrefix("SEARCH ") else { return false }
        guard detail.contains(" USING ") else { return true }
        return (detail.contains(" USING INDEX ") || detail.contains(" USING COVERING INDEX ")) && !detail.hasSuffix(")")
    }

    /// The kind of a min/max loop's row (``isMinMaxWalk(_:)``) that stops at its first row: a search of its
    /// index, or of the table's own order (``PlanRowKind/other``).
    package static func oneRowKind(of detail: String) -> PlanRowKind {
        detail.contains(" USING COVERING INDEX ") ? .coveringIndexSearch : detail.contains(" USING INDEX ") ? .indexSearch : .other
    }

    /// One instruction of a program as `EXPLAIN` lists it: its opcode and its P1 and P2 operands (for a jump,
    /// P2 is the address it jumps to, an instruction's address being its position; for `OpenRead`, P1 is the
    /// cursor and P2 the root page of the b-tree it reads). https://sqlite.org/opcode.html
    package struct Instruction: Equatable, Sendable {
        package var opcode: String
        package var p1: Int
        package var p2: Int
        package init(_ opcode: String, _ p2: Int = 0, p1: Int = 0) {
            self.opcode = opcode
            self.p1 = p1
            self.p2 = p2
        }
    }

    /// Opcodes that jump to their P2 on a test of a value: how a WHERE term skips a row.
    private static let tests: Set<String> = ["Eq", "Ne", "Lt", "Le", "Gt", "Ge", "If", "IfNot", "IsNull", "NotNull", "IfNullRow",
                                             "NotFound", "Found", "NotExists", "ElseEq", "Goto"]

    /// For each b-tree (by root page), how many of the program's min/max loops over it stop at their first
    /// row: an `AggStep` followed by a `Goto` out of the loop is where.c's min/max early out, emitted when the
    /// loop's order serves the aggregate (`max(rowid)`, or `max(x)` over an index on `x`). A loop counts only
    /// when nothing in it before the `AggStep` jumps to its `Next` or `Prev` (a WHERE term passing over a row:
    /// `max(x) WHERE y = ?` walks on until a row matches, which may be every row). The loop's b-tree is the
    /// root page its cursor (the `Last`'s or `Rewind`'s P1) was opened on, so that one served aggregate
    /// excuses no other (hostile round 8, F21: `max(x)` over an index beside an unindexed `max(y)`).
    package static func oneRowLoops(in program: [Instruction]) -> [Int: Int] {
        let starts: Set<String> = ["Last", "Rewind", "SeekLT", "SeekLE", "SeekGT", "SeekGE"]
        var roots: [Int: Int] = [:]
        var counts: [Int: Int] = [:]
        for (index, instruction) in program.enumerated() {
            if instruction.opcode == "OpenRead" { roots[instruction.p1] = instruction.p2 }
            guard instruction.opcode == "AggStep", index + 1 < program.count, program[index + 1].opcode == "Goto",
                  let start = program[..<index].lastIndex(where: { starts.contains($0.opcode) }),
                  let root = roots[program[start].p1] else { continue }
            let skipsRow = program[(start + 1)..<index].contains { step in
                tests.contains(step.opcode) && program.indices.contains(step.p2) && ["Next", "Prev"].contains(program[step.p2].opcode)
            }
            if !skipsRow { counts[root, default: 0] += 1 }
        }
        return counts
    }

    /// For each min/max walk (``isMinMaxWalk(_:)``), named by the b-tree it walks (its index, else its table,
    /// as `rootPages` keys them: ``folded(_:)`` names), true when it stops at its first row: the program has
    /// at least as many such loops over that b-tree (``oneRowLoops(in:)``) as the plan has walks of it.
    package static func stopsAtFirstRow(_ walks: [String?], program: [Instruction], rootPages: [String: Int]) -> [Bool] {
        let loops = oneRowLoops(in: program)
        let roots = walks.map { $0.flatMap { rootPages[folded($0)] } }
        var walksPerRoot: [Int: Int] = [:]
        for root in roots.compactMap({ $0 }) { walksPerRoot[root, default: 0] += 1 }
        return roots.map { root in root.map { loops[$0, default: 0] >= walksPerRoot[$0, default: 1] } ?? false }
    }

    /// `name` with ASCII `A`–`Z` lower-cased and everything else unchanged: how SQLite compares identifiers,
    /// and how the keys of `names` are spelled.
    package static func folded(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The longest key of `names` that `text` starts with (as a whole name: followed by a space or the end).
    private static func name(in text: Substring, names: [String: String]) -> String? {
        let foldedText = Array(folded(String(text)).utf8)
        var best: Int?
        for key in names.keys {
            let bytes = Array(key.utf8)
            guard bytes.count <= foldedText.count, foldedText.starts(with: bytes),
                  bytes.count == foldedText.count || foldedText[bytes.count] == UInt8(ascii: " ") else { continue }
            if bytes.count > (best ?? 0) { best = bytes.count }
        }
        guard let length = best else { return nil }
        return String(decoding: Array(String(text).utf8.prefix(length)), as: UTF8.self)
    }
}
