import IndexAdvisor

/// One statement of a benchmark pair's workload: its text (with `?1`… parameters, or literals), how often
/// the app runs it, and how its parameters' values are drawn.
package struct PairStatement: Sendable {
    /// How one or more parameters get their values, from a `-- draw…:` line of the workload file.
    package enum Draw: Sendable, Equatable {
        /// `-- draw: SELECT a, b FROM t`: one row of the query's result, chosen uniformly, fills the next
        /// parameters, one per column: values follow the data's own distribution (a skewed key stays skewed).
        case row(query: String)
        /// `-- draw each N: SELECT id FROM t`: the next N parameters each get their own row's first column (an IN list).
        case each(count: Int, query: String)
        /// `-- draw sequence: N`: N, N+1, … (new keys for inserts); the scorer's start 10,000,000 above the advisor's.
        case sequence(start: Int64)
        /// `-- draw uniform: LO HI`: an integer uniform in LO…HI.
        case uniform(low: Int64, high: Int64)
        /// `-- draw real: LO HI`: a real uniform in LO…HI.
        case real(low: Double, high: Double)
        /// `-- draw text: PREFIX`: PREFIX followed by 12 random hexadecimal digits.
        case text(prefix: String)
    }

    package var sql: String
    package var count: Int
    package var draws: [Draw]
    /// A read marked `-- hot`: the advice must not leave it with a full table scan (a deterministic check).
    package var isHot: Bool

    package init(sql: String, count: Int, draws: [Draw] = [], isHot: Bool = false) {
        self.sql = sql
        self.count = count
        self.draws = draws
        self.isHot = isHot
    }

    /// INSERT, UPDATE, DELETE, REPLACE, or a `WITH … ` statement that writes.
    package var isWrite: Bool {
        let words = SQLWords.split(sql)
        guard let first = words.first else { return false }
        if ["INSERT", "UPDATE", "DELETE", "REPLACE"].contains(where: { first.isKeyword($0) }) { return true }
        return first.isKeyword("WITH") && words.contains { ["INSERT", "UPDATE", "DELETE"].contains($0.text.uppercased()) && $0.kind == .keyword }
    }

    /// How many distinct parameters the text has (`?`, `?N`, `:name`…): the highest `?N`, or the count of the others.
    package var parameterCount: Int {
        var plain = 0, highest = 0
        var named = Set<String>()
        for word in SQLWords.split(sql) where word.kind == .parameter {
            if word.text == "?" { plain += 1 } else if let n = Int(word.text.dropFirst()), word.text.hasPrefix("?") { highest = max(highest, n) } else { named.insert(word.text) }
        }
        return max(highest, plain) + named.count
    }

    /// The text with each parameter replaced by the literal of `values` (for a `.sql` workload the advisor reads).
    package func literalSQL(_ values: [SQLValue]) -> String {
        let scalars = Array(sql.unicodeScalars)
        var out = String.UnicodeScalarView()
        var plain = 0
        var named: [String: Int] = [:]
        var cursor = 0
        for word in SQLWords.split(sql) where word.kind == .parameter {
            let index: Int
            if word.text == "?" {
                index = plain
                plain += 1
            } else if word.text.hasPrefix("?"), let n = Int(word.text.dropFirst()) {
                index = n - 1
            } else if let known = named[word.text] {
                index = known
            } else {
                index = plain + named.count
                named[word.text] = index
            }
            out.append(contentsOf: scalars[cursor..<word.start])
            out.append(contentsOf: (index < values.count ? values[index].sqlLiteral : "NULL").unicodeScalars)
            cursor = word.end
        }
        out.append(contentsOf: scalars[cursor...])
        return String(out)
    }
}
