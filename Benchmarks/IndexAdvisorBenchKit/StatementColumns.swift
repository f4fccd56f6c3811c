/// What one statement does with one table, read from its text by the benchmark's own scanner
/// (``SQLWords``), so that the benchmark's candidates owe nothing to the advisor's shapes: the columns it
/// compares by equality (a join's too), by range (`<`, `BETWEEN`, `LIKE`), the terms it sorts and groups
/// by, and the WHERE terms that hold a literal (candidates for a partial index's predicate,
/// https://sqlite.org/partialindex.html).
package struct TableAccess: Sendable, Equatable {
    package struct SortTerm: Sendable, Equatable {
        package var column: String
        package var isDescending: Bool
        /// `COLLATE name` when the term names one.
        package var collation: String?
    }

    /// The table's name as the schema spells it.
    package var table: String
    package var equality: [String] = []
    package var range: [String] = []
    package var orderBy: [SortTerm] = []
    package var groupBy: [String] = []
    /// Top-level WHERE conjuncts on this table with no parameter: `flag = 1`, `deleted IS NULL`,
    /// `(bits & 4) != 0`, written with bare column names.
    package var literalTerms: [String] = []
    /// Function terms compared in WHERE (`lower(email)`), for expression keys.
    package var expressions: [String] = []
    package var isWrite = false

    /// Every column named in a filter, sort or group, in first-seen order, each once.
    package var columns: [String] {
        var seen = Set<String>()
        return (equality + range + orderBy.map(\.column) + groupBy).filter { seen.insert($0.lowercased()).inserted }
    }
}

/// Reads the table accesses of a statement against a schema (table → column names).
package enum StatementColumns {
    /// The accesses of `sql`, one per table it names (a table named twice, in a self-join, is one access).
    /// - Parameter schema: each table's name and its columns' names, as the store declares them.
    package static func accesses(of sql: String, schema: [String: [String]]) -> [TableAccess] {
        var scanner = Scanner(words: SQLWords.split(sql), schema: schema)
        scanner.run()
        return scanner.accesses
    }

    private struct Scanner {
        let words: [SQLWords.Word]
        let schema: [String: [String]]
        var accesses: [TableAccess] = []
        /// Alias or table name (lower-cased) → the table's name.
        var aliases: [String: String] = [:]

        init(words: [SQLWords.Word], schema: [String: [String]]) {
            self.words = words
            self.schema = schema
        }

        func schemaTable(_ name: String) -> String? {
            schema.keys.first { $0.lowercased() == name.lowercased() }
        }

        mutating func access(_ table: String) -> Int {
            if let index = accesses.firstIndex(where: { $0.table == table }) { return index }
            accesses.append(TableAccess(table: table))
            return accesses.count - 1
        }

        /// First pass: the tables and their aliases. Second: the columns in their clauses.
        mutating func run() {
            findTables()
            guard !accesses.isEmpty else { return }
            if let first = words.first, first.isKeyword("INSERT") || first.isKeyword("UPDATE") || first.isKeyword("DELETE") || first.isKeyword("REPLACE") {
                accesses[0].isWrite = true
            }
            findColumns()
        }

        mutating func findTables() {
            var i = 0
            var inFrom = false
            var depth = 0
            var fromDepth = -1
            while i < words.count {
                let word = words[i]
                if word.isSymbol("(") { depth += 1 }
                if word.isSymbol(")") { depth -= 1; if depth < fromDepth { inFrom = false } }
                let introduces = word.isKeyword("FROM") || word.isKeyword("JOIN") || word.isKeyword("UPDATE") || word.isKeyword("INTO")
                    || (inFrom && depth == fromDepth && word.isSymbol(","))
                if word.isKeyword("FROM") { inFrom = true; fromDepth = depth }
                if ["WHERE", "GROUP", "ORDER", "LIMIT", "HAVING", "SET", "VALUES", "ON", "UNION", "EXCEPT", "INTERSECT", "RETURNING"].contains(where: { word.isKeyword($0) }),
                   depth == fromDepth { inFrom = false }
                if introduces, i + 1 < words.count, words[i + 1].kind == .identifier, let table = schemaTable(words[i + 1].value) {
                    _ = access(table)
                    aliases[table.lowercased()] = table
                    var next = i + 2
                    if next < words.count, words[next].isKeyword("AS") { next += 1 }
                    if next < words.count, words[next].kind == .identifier, !(next + 1 < words.count && words[next + 1].isSymbol("(")) {
                        aliases[words[next].value.lowercased()] = table
                    }
                }
                i += 1
            }
        }

        /// The table of a column reference at `i` (`col` or `alias.col`), and the index after it.
        func column(at i: Int) -> (table: String, column: String, end: Int)? {
            guard i < words.count, words[i].kind == .identifier else { return nil }
            if i + 2 < words.count, words[i + 1].isSymbol("."), words[i + 2].kind == .identifier {
                guard let table = aliases[words[i].value.lowercased()],
                      let name = schema[table]?.first(where: { $0.lowercased() == words[i + 2].value.lowercased() }) else { return nil }
                return (table, name, i + 3)
            }
            if i > 0, words[i - 1].isSymbol(".") { return nil }
            if i + 1 < words.count, words[i + 1].isSymbol("(") || words[i + 1].isSymbol(".") { return nil }
            for access in accesses {
                if let name = schema[access.table]?.first(where: { $0.lowercased() == words[i].value.lowercased() }) {
                    return (access.table, name, i + 1)
                }
            }
            return nil
        }

        enum Clause { case other, filter, order, group, set }

        enum Operator { case equality, range, none }

        /// The comparison after a column ending at `end` (past any `COLLATE x`), and where its other side starts.
        func comparison(after end: Int) -> (Operator, Int) {
            var i = end
            if i + 1 < words.count, words[i].isKeyword("COLLATE") { i += 2 }
            guard i < words.count else { return (.none, i) }
            let word = words[i]
            if word.isSymbol("=") || word.isSymbol("==") { return (.equality, i + 1) }
            if word.isKeyword("IS") {
                if i + 1 < words.count, words[i + 1].isKeyword("NOT") { return (.none, i + 2) }
                return (.equality, i + 1)
            }
            if word.isKeyword("IN") { return (.equality, i + 1) }
            if ["<", "<=", ">", ">="].contains(where: { word.isSymbol($0) }) { return (.range, i + 1) }
            if word.isKeyword("BETWEEN") || word.isKeyword("LIKE") || word.isKeyword("GLOB") { return (.range, i + 1) }
            return (.none, i + 1)
        }

        /// The comparison before a column starting at `start`, when the column is its right-hand side.
        func comparison(before start: Int) -> Operator {
            guard start > 0 else { return .none }
            let word = words[start - 1]
            if word.isSymbol("=") || word.isSymbol("==") { return .equality }
            if ["<", "<=", ">", ">="].contains(where: { word.isSymbol($0) }) { return .range }
            return .none
        }

        mutating func add(_ column: String, table: String, to keyPath: WritableKeyPath<TableAccess, [String]>) {
            let index = access(table)
            if !accesses[index][keyPath: keyPath].contains(where: { $0.lowercased() == column.lowercased() }) {
                accesses[index][keyPath: keyPath].append(column)
            }
        }

        mutating func findColumns() {
            var clauses: [Clause] = [.other]
            var i = 0
            while i < words.count {
                let word = words[i]
                if word.isSymbol("(") {
                    clauses.append(clauses.last ?? .other)
                    i += 1
                    continue
                }
                if word.isSymbol(")") {
                    if clauses.count > 1 { clauses.removeLast() }
                    i += 1
                    continue
                }
                if word.kind == .keyword {
                    switch word.text.uppercased() {
                    case "WHERE", "ON", "HAVING": clauses[clauses.count - 1] = .filter
                        if word.isKeyword("WHERE") { literalConjuncts(from: i + 1) }
                    case "ORDER": clauses[clauses.count - 1] = .order; i += 2; readSortTerms(&i, group: false); continue
                    case "GROUP": clauses[clauses.count - 1] = .group; i += 2; readSortTerms(&i, group: true); continue
                    case "SET": clauses[clauses.count - 1] = .set
                    case "SELECT", "FROM", "LIMIT", "VALUES", "RETURNING", "UNION", "EXCEPT", "INTERSECT", "DO":
                        clauses[clauses.count - 1] = .other
                    default: break
                    }
                }
                if clauses.last == .filter {
                    if let found = column(at: i) {
                        var op = comparison(after: found.end).0
                        if op == .none { op = comparison(before: i) }
                        // `a.x = b.y`: a join; the other side is recorded when the scan reaches it.
                        switch op {
                        case .equality: add(found.column, table: found.table, to: \.equality)
                        case .range: add(found.column, table: found.table, to: \.range)
                        case .none: break
                        }
                        i = found.end
                        continue
                    }
                    if word.kind == .identifier, i + 1 < words.count, words[i + 1].isSymbol("("),
                       let close = matching(i + 1), let inner = column(at: i + 2), inner.end <= close {
                        let (op, _) = comparison(after: close + 1)
                        if op != .none {
                            let expression = unqualified(Array(words[i...close]))
                            let index = access(inner.table)
                            if !accesses[index].expressions.contains(expression) { accesses[index].expressions.append(expression) }
                        }
                    }
                }
                i += 1
            }
        }

        /// The index of the `)` that closes the `(` at `open`.
        func matching(_ open: Int) -> Int? {
            var depth = 0
            for i in open..<words.count {
                if words[i].isSymbol("(") { depth += 1 }
                if words[i].isSymbol(")") { depth -= 1; if depth == 0 { return i } }
            }
            return nil
        }

        /// The ORDER BY or GROUP BY terms from `i`, up to the clause's end; `i` ends past them.
        mutating func readSortTerms(_ i: inout Int, group: Bool) {
            var depth = 0
            while i < words.count {
                let word = words[i]
                if word.isSymbol("(") { depth += 1 }
                if word.isSymbol(")") { if depth == 0 { return }; depth -= 1 }
                if depth == 0, word.kind == .keyword, ["LIMIT", "HAVING", "ORDER", "UNION", "EXCEPT", "INTERSECT", "WINDOW", "RETURNING", "ON", "DO"].contains(word.text.uppercased()) { return }
                if depth == 0, let found = column(at: i) {
                    var j = found.end
                    var collation: String?
                    if j + 1 < words.count, words[j].isKeyword("COLLATE") { collation = words[j + 1].value; j += 2 }
                    var descending = false
                    if j < words.count, words[j].isKeyword("DESC") { descending = true; j += 1 } else if j < words.count, words[j].isKeyword("ASC") { j += 1 }
                    // Only a bare column term (then `,` or the clause's end) is a sort a key can serve.
                    let ends = j >= words.count || words[j].isSymbol(",") || words[j].isSymbol(")") || words[j].isSymbol(";")
                        || (words[j].kind == .keyword && !["COLLATE"].contains(words[j].text.uppercased()))
                    if ends {
                        let index = access(found.table)
                        if group {
                            if !accesses[index].groupBy.contains(found.column) { accesses[index].groupBy.append(found.column) }
                        } else if !accesses[index].orderBy.contains(where: { $0.column == found.column }) {
                            accesses[index].orderBy.append(TableAccess.SortTerm(column: found.column, isDescending: descending, collation: collation))
                        }
                    }
                    i = j
                    continue
                }
                i += 1
            }
        }

        /// `words` as text with every `alias.` qualifier dropped, one space between words but around `(`, `)` and `,`.
        func unqualified(_ words: [SQLWords.Word]) -> String {
            var out = ""
            var k = 0
            var previous: SQLWords.Word?
            while k < words.count {
                if k + 1 < words.count, words[k].kind == .identifier, words[k + 1].isSymbol("."), aliases[words[k].value.lowercased()] != nil {
                    k += 2
                    continue
                }
                let word = words[k]
                let text = word.kind == .identifier ? SQLQuote.identifier(word.value) : word.text
                if let previous, !(previous.isSymbol("(") || word.isSymbol(")") || word.isSymbol(",") || word.isSymbol("(") && previous.kind == .identifier) {
                    out += " "
                }
                out += text
                previous = word
                k += 1
            }
            return out
        }

        /// The WHERE clause's top-level conjuncts from `start` that name one column of one table and hold no
        /// parameter; none when the clause has a top-level OR.
        mutating func literalConjuncts(from start: Int) {
            var depth = 0
            var terms: [[SQLWords.Word]] = [[]]
            var i = start
            var sawBetween = false
            while i < words.count {
                let word = words[i]
                if word.isSymbol("(") { depth += 1 }
                if word.isSymbol(")") { if depth == 0 { break }; depth -= 1 }
                if depth == 0, word.kind == .keyword, ["GROUP", "ORDER", "LIMIT", "HAVING", "UNION", "EXCEPT", "INTERSECT", "RETURNING", "WINDOW"].contains(word.text.uppercased()) { break }
                if depth == 0, word.isKeyword("OR") { return }
                if depth == 0, word.isKeyword("BETWEEN") { sawBetween = true }
                if depth == 0, word.isKeyword("AND") {
                    if sawBetween { sawBetween = false } else { terms.append([]); i += 1; continue }
                }
                terms[terms.count - 1].append(word)
                i += 1
            }
            for term in terms where !term.isEmpty && !term.contains(where: { $0.kind == .parameter || $0.isKeyword("SELECT") }) {
                var tables = Set<String>()
                var columnCount = 0
                var k = 0
                while k < term.count {
                    if term[k].kind == .identifier, !(k + 1 < term.count && term[k + 1].isSymbol("(")) {
                        let sub = Scanner(words: term, schema: schema, aliases: aliases, accesses: accesses)
                        if let found = sub.column(at: k) { tables.insert(found.table); columnCount += 1; k = found.end; continue }
                    }
                    k += 1
                }
                guard tables.count == 1, columnCount == 1, let table = tables.first else { continue }
                let text = unqualified(term)
                let index = access(table)
                if !accesses[index].literalTerms.contains(text) { accesses[index].literalTerms.append(text) }
            }
        }

        init(words: [SQLWords.Word], schema: [String: [String]], aliases: [String: String], accesses: [TableAccess]) {
            self.words = words
            self.schema = schema
            self.aliases = aliases
            self.accesses = accesses
        }
    }
}

/// Quoting for the SQL the benchmark writes (https://sqlite.org/lang_keywords.html).
package enum SQLQuote {
    /// `"name"`, with `"` doubled.
    package static func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
