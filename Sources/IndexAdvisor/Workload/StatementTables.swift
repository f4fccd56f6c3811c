/// A lexical look at which tables a statement names and which columns an UPDATE assigns. Not a parser:
/// the `workload` command and the write counts need names without a store; the advisor itself learns
/// a statement's tables from SQLite (see `ShapeExtractor`).
extension SQLTokenList {
    /// Words that end a table reference list or cannot be a table name or alias.
    private static let stopWords: Set<String> = [
        "WHERE", "JOIN", "ON", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER", "ORDER", "GROUP",
        "LIMIT", "USING", "INDEXED", "NOT", "UNION", "EXCEPT", "INTERSECT", "SET", "VALUES", "SELECT", "DEFAULT",
        "HAVING", "WINDOW", "RETURNING", "AS", "OFFSET", "OR", "ROLLBACK", "ABORT", "REPLACE", "FAIL", "IGNORE",
    ]

    /// Tables named after FROM, JOIN, INTO, UPDATE and in comma-separated FROM lists, in order of first
    /// appearance, as written (quotes removed; `main.t` gives `t`). Aliases, common table expression names,
    /// table-valued functions and Core Data's `_Z_intarrayN` key lists are left out.
    package func namedTables() -> [String] {
        var commonTableNames: Set<String> = []
        for i in 0..<count where isName(i) && isWord(i + 1, "AS") && isSymbol(i + 2, "(") {
            commonTableNames.insert(identifier(at: i).sqlFolded)
        }
        for i in 0..<count where isName(i) && isSymbol(i + 1, "(") && isWord(matchingParenthesis(from: i + 1) + 1, "AS") {
            // `name (a, b) AS (…)` in a WITH clause.
            if i > 0, isWord(i - 1, "WITH") || isWord(i - 1, "RECURSIVE") || isSymbol(i - 1, ",") {
                commonTableNames.insert(identifier(at: i).sqlFolded)
            }
        }
        var tables: [String] = []
        var seen: Set<String> = []
        var inFrom = false
        var fromDepth = 0
        var depth = 0
        var i = 0
        while i < count {
            if isSymbol(i, "(") { depth += 1 }
            if isSymbol(i, ")") {
                if inFrom, depth == fromDepth { inFrom = false }
                depth -= 1
            }
            if isWord(i, "FROM") {
                inFrom = true
                fromDepth = depth
            } else if inFrom, depth == fromDepth,
                      isWord(i, "WHERE") || isWord(i, "GROUP") || isWord(i, "ORDER") || isWord(i, "LIMIT")
                        || isWord(i, "UNION") || isWord(i, "EXCEPT") || isWord(i, "INTERSECT") || isWord(i, "RETURNING") {
                inFrom = false
            }
            var introducer = isWord(i, "FROM") || isWord(i, "JOIN") || isWord(i, "INTO") || isWord(i, "UPDATE")
                || (inFrom && depth == fromDepth && isSymbol(i, ","))
            // UPDATE OR FAIL t
            var nameIndex = i + 1
            if isWord(i, "UPDATE"), isWord(i + 1, "OR") { nameIndex = i + 3 }
            // `ON CONFLICT … DO UPDATE SET` names no table.
            if isWord(i, "UPDATE"), isWord(nameIndex, "SET") { introducer = false }
            if introducer, isName(nameIndex) {
                if isSymbol(nameIndex + 1, "."), isName(nameIndex + 2) { nameIndex += 2 }
                let name = identifier(at: nameIndex)
                let folded = name.sqlFolded
                let isFunction = isSymbol(nameIndex + 1, "(") && !isWord(i, "INTO")
                if !isFunction, !commonTableNames.contains(folded), !folded.hasPrefix("_z_intarray"), seen.insert(folded).inserted {
                    tables.append(name)
                }
                i = nameIndex + 1
                continue
            }
            i += 1
        }
        return tables
    }

    /// The columns assigned by an UPDATE's top-level SET clause (`SET a = ?, (b, c) = (?, ?)` gives a, b, c),
    /// or an upsert's `ON CONFLICT … DO UPDATE SET` (https://sqlite.org/lang_upsert.html), as written; empty
    /// for other statements.
    package func updatedColumns() -> [String] {
        guard let set = firstTopLevelWord("SET"), firstTopLevelWord("UPDATE") != nil else { return [] }
        var columns: [String] = []
        var depth = 0
        var expectTarget = true
        var i = set + 1
        while i < count {
            if depth == 0, isWord(i, "WHERE") || isWord(i, "FROM") || isWord(i, "RETURNING") || isWord(i, "ORDER") || isWord(i, "LIMIT") {
                break
            }
            if expectTarget {
                if isSymbol(i, "(") {
                    // (a, b) = (…)
                    let close = matchingParenthesis(from: i)
                    for j in (i + 1)..<max(i + 1, close) where isName(j) { columns.append(identifier(at: j)) }
                    i = close + 1
                } else {
                    if isName(i) { columns.append(identifier(at: isSymbol(i + 1, ".") && isName(i + 2) ? i + 2 : i)) }
                    i += 1
                }
                expectTarget = false
                continue
            }
            if isSymbol(i, "(") { depth += 1 } else if isSymbol(i, ")") { depth -= 1 }
            if depth == 0, isSymbol(i, ",") { expectTarget = true }
            i += 1
        }
        return columns
    }

    private func isName(_ i: Int) -> Bool {
        guard i >= 0, i < count else { return false }
        if tokens[i].kind == .quotedIdentifier { return true }
        return tokens[i].kind == .word && !Self.stopWords.contains(text(at: i).uppercased())
    }
}

/// Core Data's bookkeeping tables and SQLite's own: statements that touch only these are housekeeping.
enum HousekeepingTables {
    static let names: Set<String> = [
        "z_primarykey", "z_metadata", "z_modelcache", "sqlite_master", "sqlite_schema", "sqlite_temp_master",
        "sqlite_temp_schema", "sqlite_sequence", "sqlite_stat1", "sqlite_stat4",
    ]

    /// True when `tables` is not empty and every one of them is a bookkeeping table.
    static func only(_ tables: [String]) -> Bool {
        !tables.isEmpty && tables.allSatisfy { names.contains($0.sqlFolded) }
    }
}
