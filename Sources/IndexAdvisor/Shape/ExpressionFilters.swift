import SQLFingerprint

/// A filter that applies a deterministic function to a column: `lower(name) = lower(?)`,
/// `json_extract(doc, '$.k') > ?`, `date(created) = ?`. An index on the expression can serve it
/// (https://sqlite.org/expridx.html); an index on the column cannot.
public struct ExpressionFilter: Sendable, Codable, Hashable {
    public var table: String
    /// The expression with table aliases removed, as it goes into `CREATE INDEX … ON t (<expression>)`.
    public var expression: String
    /// The comparison (`=`, `<`, `LIKE`…).
    public var op: ConstraintOperator
    /// The 1-based parameter compared with the expression, when there is one.
    public var parameter: Int?
    /// The literal compared with the expression as written (`0` in `(flags & 2) != 0`), when it is one.
    public var literal: String?
}

/// Finds expression filters in a statement's text. SQLite's virtual-table interface offers only
/// constraints on plain columns, so this one look-up is lexical: a call of a known deterministic function
/// whose arguments name columns of exactly one of the statement's tables, followed by a comparison.
/// SQLite itself then decides, in the what-if planner, whether an index on the expression would be used.
enum ExpressionFilters {
    /// Built-in SQL functions that are deterministic for their arguments (https://sqlite.org/deterministic.html)
    /// and commonly filtered on. `date`/`datetime`/`strftime` with `'now'` are refused by SQLite in an index.
    static let deterministic: Set<String> = [
        "lower", "upper", "substr", "substring", "trim", "ltrim", "rtrim", "replace", "length", "instr", "abs", "round",
        "coalesce", "ifnull", "nullif", "json_extract", "json_type", "date", "datetime", "time", "julianday", "strftime",
        "unixepoch", "hex", "unicode", "typeof", "printf", "format", "cast",
    ]

    static func find(in sql: String, shape: StatementShape, schema: Schema) -> [ExpressionFilter] {
        let tokens = SQLTokenList(sql)
        let aliases = tokens.tableAliases()
        let tableNames = shape.tables.map(\.table)
        var parameterIndex = 0
        var parameterAt: [Int: Int] = [:]
        for i in 0..<tokens.count where tokens.tokens[i].kind == .parameter {
            parameterIndex += 1
            parameterAt[i] = parameterIndex
        }
        var result: [ExpressionFilter] = []
        var i = 0
        while i + 1 < tokens.count {
            defer { i += 1 }
            guard tokens.tokens[i].kind == .word, tokens.isSymbol(i + 1, "("),
                  deterministic.contains(tokens.text(at: i).sqlFolded),
                  // Only the outermost call of an expression: `lower(trim(x))` is one expression.
                  !(i > 0 && tokens.isSymbol(i - 1, "(") && i > 1 && tokens.tokens[i - 2].kind == .word
                    && deterministic.contains(tokens.text(at: i - 2).sqlFolded)) else { continue }
            let close = tokens.matchingParenthesis(from: i + 1)
            guard let op = comparison(tokens, at: close + 1) else { continue }
            // The columns inside, each resolved to one of the statement's tables.
            var tables = Set<String>()
            var columns = 0
            var skip = Set<Int>()
            var j = i + 2
            while j < close {
                let kind = tokens.tokens[j].kind
                if kind == .parameter { tables.insert("?"); break }
                if (kind == .word || kind == .quotedIdentifier), !tokens.isSymbol(j + 1, "("),
                   !(kind == .word && SQLNormalizer.nonFunctionWords.contains(tokens.text(at: j).uppercased())) {
                    if tokens.isSymbol(j + 1, "."), j + 2 < close {
                        if let table = aliases[tokens.identifier(at: j).sqlFolded],
                           schema.table(named: table)?.column(named: tokens.identifier(at: j + 2)) != nil {
                            tables.insert(table)
                            columns += 1
                            skip.formUnion([j, j + 1])
                        }
                        j += 3
                        continue
                    }
                    let name = tokens.identifier(at: j)
                    let owners = tableNames.filter { schema.table(named: $0)?.column(named: name) != nil }
                    if owners.count == 1 {
                        tables.insert(owners[0])
                        columns += 1
                    }
                }
                j += 1
            }
            guard columns > 0, tables.count == 1, let table = tables.first, table != "?" else { continue }
            var expression = ""
            var previousIsWordLike = false
            for k in i...close where !skip.contains(k) {
                let kind = tokens.tokens[k].kind
                let isWordLike = kind == .word || kind == .quotedIdentifier || kind == .number || kind == .string
                if isWordLike && previousIsWordLike { expression += " " }
                expression += tokens.text(at: k)
                previousIsWordLike = isWordLike
            }
            // The value side: `?`, or a function of `?` such as `lower(?)`.
            var parameter: Int?
            var k = close + 2
            while k < tokens.count, k <= close + 6 {
                if let index = parameterAt[k] { parameter = index; break }
                if tokens.isWord(k, "AND") || tokens.isWord(k, "OR") || tokens.isSymbol(k, ")") { break }
                k += 1
            }
            let filter = ExpressionFilter(table: table, expression: expression, op: op, parameter: parameter,
                                          literal: literal(tokens, at: close + 2))
            if !result.contains(filter) { result.append(filter) }
            i = close
        }
        for filter in operatorExpressions(tokens, aliases: aliases, tableNames: tableNames, schema: schema, parameterAt: parameterAt)
        where !result.contains(filter) {
            result.append(filter)
        }
        return result
    }

    /// Filters on a column combined with a literal by arithmetic, `||` or a JSON arrow (`a + 1 = ?`,
    /// `data ->> '$.kind' = ?`, `'#' || tag = ?`), which the fingerprint keeps as written (see
    /// `SQLNormalizer`): an index on exactly that expression serves them.
    private static func operatorExpressions(_ tokens: SQLTokenList, aliases: [String: String], tableNames: [String],
                                            schema: Schema, parameterAt: [Int: Int]) -> [ExpressionFilter] {
        let operators: Set<String> = ["+", "-", "*", "/", "%", "||", "->", "->>", "&", "|", "<<", ">>"]
        func isOperator(_ i: Int) -> Bool { i >= 0 && i < tokens.count && tokens.tokens[i].kind == .symbol && operators.contains(tokens.text(at: i)) }
        func isLiteral(_ i: Int) -> Bool {
            i >= 0 && i < tokens.count && [.string, .number, .blob].contains(tokens.tokens[i].kind)
        }
        /// The column at `i` (or `alias . column` ending at `i`) with its table and the token where it starts.
        func column(endingAt i: Int) -> (table: String, name: String, start: Int)? {
            guard i >= 0, i < tokens.count, tokens.tokens[i].kind == .word || tokens.tokens[i].kind == .quotedIdentifier,
                  !tokens.isSymbol(i + 1, "(") else { return nil }
            let name = tokens.identifier(at: i)
            if tokens.isSymbol(i - 1, "."), i >= 2, let table = aliases[tokens.identifier(at: i - 2).sqlFolded] {
                return schema.table(named: table)?.column(named: name) != nil ? (table, name, i - 2) : nil
            }
            let owners = tableNames.filter { schema.table(named: $0)?.column(named: name) != nil }
            return owners.count == 1 ? (owners[0], name, i) : nil
        }
        var result: [ExpressionFilter] = []
        for i in 0..<tokens.count where isOperator(i) {
            // column op literal, or literal op column; not part of a longer expression.
            let forward = column(endingAt: i - 1).flatMap { column in isLiteral(i + 1) ? (column, column.start, i + 1) : nil }
            let backward = isLiteral(i - 1) ? column(endingAt: i + 1).map { ($0, i - 1, i + 1) } : nil
            guard let (target, start, end) = forward ?? backward,
                  !isOperator(start - 1), !isOperator(end + 1), !tokens.isSymbol(start - 1, ".") else { continue }
            // In parentheses of its own (`(flags & 4) != 0`), not a function's (`abs(a - 1)` is found above).
            let enclosed = tokens.isSymbol(start - 1, "(") && tokens.isSymbol(end + 1, ")")
                && !(start >= 2 && tokens.tokens[start - 2].kind == .word && !SQLNormalizer.nonFunctionWords.contains(tokens.text(at: start - 2).uppercased()))
            let opAt = enclosed ? end + 2 : end + 1
            guard let op = comparison(tokens, at: opAt) else { continue }
            let columnText = SQLIdentifier.quote(target.name)
            let expression = forward != nil
                ? "\(columnText) \(tokens.text(at: i)) \(tokens.text(at: end))"
                : "\(tokens.text(at: start)) \(tokens.text(at: i)) \(columnText)"
            var parameter: Int?
            var k = opAt + 1
            while k < tokens.count, k <= opAt + 5 {
                if let index = parameterAt[k] { parameter = index; break }
                if tokens.isWord(k, "AND") || tokens.isWord(k, "OR") || tokens.isSymbol(k, ")") { break }
                k += 1
            }
            let filter = ExpressionFilter(table: target.table, expression: expression, op: op, parameter: parameter,
                                          literal: literal(tokens, at: opAt + 1))
            if !result.contains(filter) { result.append(filter) }
        }
        return result
    }

    /// The number or string at `i` when it ends the comparison (nothing but `AND`, `OR`, `)`, `ORDER`,
    /// `GROUP`, `LIMIT` or the end follows); nil otherwise.
    private static func literal(_ tokens: SQLTokenList, at i: Int) -> String? {
        guard i < tokens.count, [.number, .string].contains(tokens.tokens[i].kind) else { return nil }
        let next = i + 1
        guard next >= tokens.count || tokens.isSymbol(next, ")") || tokens.tokens[next].kind == .semicolon
                || ["AND", "OR", "ORDER", "GROUP", "LIMIT"].contains(where: { tokens.isWord(next, $0) }) else { return nil }
        return tokens.text(at: i)
    }

    private static func comparison(_ tokens: SQLTokenList, at i: Int) -> ConstraintOperator? {
        guard i < tokens.count else { return nil }
        if tokens.isWord(i, "LIKE") { return .like }
        if tokens.isWord(i, "GLOB") { return .glob }
        if tokens.isWord(i, "BETWEEN") { return .greaterOrEqual }
        if tokens.isWord(i, "IN") { return .in }
        if tokens.isWord(i, "IS") { return tokens.isWord(i + 1, "NOT") ? .isNot : .is }
        switch tokens.tokens[i].kind == .symbol ? tokens.text(at: i) : "" {
        case "=", "==": return .equal
        case "<": return .lessThan
        case "<=": return .lessOrEqual
        case ">": return .greaterThan
        case ">=": return .greaterOrEqual
        case "!=", "<>": return .notEqual
        default: return nil
        }
    }
}
