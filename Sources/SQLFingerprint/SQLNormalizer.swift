/// A statement made runnable with parameters, and its fingerprint.
package struct NormalizedSQL: Sendable {
    /// The statement with each literal replaced by `?` (the statement's own placeholders kept), trimmed of
    /// surrounding white space and a trailing `;`.
    package var parameterizedSQL: String
    /// One entry per parameter of `parameterizedSQL`, in order: the literal it replaced, or nil for a
    /// placeholder that was already in the statement (a value the app bound).
    package var parameterValues: [SQLLiteral?]
    /// The normalised text the fingerprint is computed from, e.g. `SELECT * FROM T WHERE A = ? AND B IN ( ?+ )`.
    package var fingerprintText: String
    /// 64-bit FNV-1a of `fingerprintText`'s UTF-8 bytes, as 16 lower-case hex digits.
    package var fingerprintID: String
    package var kind: SQLStatementKind
    /// The deepest parenthesis nesting in the statement (0 for none), an unclosed `(` counted as open to the end.
    package var nesting: Int = 0
}

/// The one normalisation every workload source goes through: a Core Data log, a `.sql` file, a JSON Lines
/// workload and the in-process recorder all fingerprint statements with it, so one statement has one
/// fingerprint whatever the source.
///
/// Literals (strings, numbers, blobs) and bound parameters become `?`; `IN (…)` lists and multi-row
/// `VALUES` of any length collapse to one shape; white space, comments and the letter case of keywords
/// and names do not matter (SQLite folds ASCII letters only: https://sqlite.org/lang_keywords.html);
/// quoting of identifiers does not matter. Names, table aliases (`t0`) included, stay as written: an
/// alias is never taken for a literal. Integer literals that are column numbers in `ORDER BY`/`GROUP BY`
/// stay, because replacing them would change the statement's meaning; so do literals that are arguments of
/// a function call (`json_extract(doc, '$.k')`, `substr(name, 1, 3)`) and literals that are an operand of
/// arithmetic, `||` or a JSON arrow with a column (`a + 1`, `data ->> '$.kind'`): they shape the expression,
/// and SQLite matches an index on an expression only when its literals are written the same
/// (https://sqlite.org/expridx.html). Statements with named parameters
/// (`:name`, `@name`, `$name`, `?NNN`) keep their literals, because numbering would shift.
package enum SQLNormalizer {
    /// Normalises `sql`.
    package static func normalize(_ sql: String) -> NormalizedSQL {
        var copy = sql
        return copy.withUTF8 { normalize($0) }
    }

    /// Normalises the UTF-8 statement text `bytes` (invalid UTF-8 is carried through as replacement characters).
    package static func normalize(_ bytes: UnsafeBufferPointer<UInt8>) -> NormalizedSQL {
        let tokens = SQLTokenizer.tokenize(bytes).filter { $0.kind != .trivia }
        let kind = SQLStatementKind.of(tokens, in: bytes)
        let hasNamedParameters = tokens.contains { $0.kind == .parameter && $0.end - $0.start != 1 }
        let parameterize = kind.isAnalysed && !hasNamedParameters

        func slice(_ token: SQLToken) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
        }
        func isWord(_ i: Int, _ word: StaticString) -> Bool {
            i >= 0 && i < tokens.count && tokens[i].kind == .word && SQLLiteral.asciiEqual(slice(tokens[i]), word)
        }
        func isSymbol(_ i: Int, _ symbol: UInt8) -> Bool {
            i >= 0 && i < tokens.count && tokens[i].kind == .symbol && tokens[i].end - tokens[i].start == 1
                && bytes[tokens[i].start] == symbol
        }
        let sortClauseEnd: [StaticString] = ["LIMIT", "HAVING", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "FROM", "WHERE", "SELECT"]

        var parts: [String] = []
        parts.reserveCapacity(tokens.count)
        var values: [SQLLiteral?] = []
        var cuts: [Range<Int>] = []
        var inSortClause = false
        var sortDepth = 0
        var depth = 0
        var deepest = 0
        /// For each open parenthesis, whether it opens a function call's arguments.
        var callStack: [Bool] = []
        func isFunctionName(_ i: Int) -> Bool {
            guard i >= 0, tokens[i].kind == .word else { return false }
            let word = asciiUppercased(slice(tokens[i]))
            if nonFunctionWords.contains(word) { return false }
            // INSERT INTO t (a, b) and CREATE … ON t (…): a name after INTO/TABLE/ON is a table, not a function.
            return !(isWord(i - 1, "INTO") || isWord(i - 1, "TABLE") || isWord(i - 1, "ON"))
        }

        /// True when token `i` is a name, not a keyword nor a function's name: a column (or a table before `.`).
        func isName(_ j: Int) -> Bool {
            guard j >= 0, j < tokens.count, !isSymbol(j + 1, UInt8(ascii: "(")) else { return false }
            if tokens[j].kind == .quotedIdentifier { return true }
            guard tokens[j].kind == .word else { return false }
            let word = asciiUppercased(slice(tokens[j]))
            return !nonFunctionWords.contains(word) && !operandKeywords.contains(word)
        }
        func isExpressionOperator(_ j: Int) -> Bool {
            guard j >= 0, j < tokens.count, tokens[j].kind == .symbol else { return false }
            return expressionOperators.contains(String(decoding: slice(tokens[j]), as: UTF8.self))
        }
        /// A literal that is an operand of arithmetic, `||` or a JSON arrow with a column (`a + 1`,
        /// `data ->> '$.kind'`, `'#' || tag`): part of an expression an index can be built on, kept like a
        /// function's argument.
        func isOperandOfColumnExpression(_ i: Int) -> Bool {
            (isExpressionOperator(i - 1) && isName(i - 2)) || (isExpressionOperator(i + 1) && isName(i + 2))
        }

        for i in 0..<tokens.count {
            let token = tokens[i]
            switch token.kind {
            case .symbol:
                if isSymbol(i, UInt8(ascii: "(")) {
                    depth += 1
                    deepest = max(deepest, depth)
                    callStack.append(isFunctionName(i - 1))
                }
                if isSymbol(i, UInt8(ascii: ")")) {
                    if inSortClause, depth == sortDepth { inSortClause = false }
                    depth -= 1
                    _ = callStack.popLast()
                }
                let text = String(decoding: slice(token), as: UTF8.self)
                parts.append(text == "==" ? "=" : (text == "<>" ? "!=" : text))
            case .word:
                if isWord(i, "BY"), isWord(i - 1, "ORDER") || isWord(i - 1, "GROUP") {
                    inSortClause = true
                    sortDepth = depth
                } else if inSortClause, depth == sortDepth, sortClauseEnd.contains(where: { isWord(i, $0) }) {
                    inSortClause = false
                }
                parts.append(asciiUppercased(slice(token)))
            case .quotedIdentifier:
                parts.append(asciiUppercased(SQLLiteral.unquoted(slice(token))))
            case .parameter:
                values.append(nil)
                parts.append("?")
            case .string, .number, .blob:
                let isColumnNumber = token.kind == .number && inSortClause && depth == sortDepth
                    && (isWord(i - 1, "BY") || isSymbol(i - 1, UInt8(ascii: ",")))
                // 9223372036854775808 after a unary minus is the INTEGER -2^63 to SQLite (lang_expr.html#literal_values),
                // but bound alone it is a REAL that no integer key equals: it stays in the text.
                if callStack.last == true || isOperandOfColumnExpression(i) || (token.kind == .number && SQLLiteral.asciiEqual(slice(token), "9223372036854775808")) {
                    parts.append(String(decoding: slice(token), as: UTF8.self))
                } else if parameterize && !isColumnNumber {
                    values.append(SQLLiteral.parse(slice(token), kind: token.kind))
                    cuts.append(token.start..<token.end)
                    parts.append("?")
                } else {
                    parts.append(isColumnNumber ? String(decoding: slice(token), as: UTF8.self) : "?")
                }
            case .semicolon, .trivia:
                continue
            }
        }
        let text = collapseLists(parts).joined(separator: " ")
        return NormalizedSQL(
            parameterizedSQL: trimmed(replacing(cuts, in: bytes)),
            parameterValues: values,
            fingerprintText: text,
            fingerprintID: hexID(fnv1a(text)),
            kind: kind,
            nesting: deepest)
    }

    /// Words that can stand before `(` without being a function call (upper case).
    package static let nonFunctionWords: Set<String> = [
        "IN", "VALUES", "EXISTS", "AS", "ON", "USING", "WHERE", "AND", "OR", "NOT", "SELECT", "FROM", "JOIN", "BY",
        "SET", "INTO", "TABLE", "INDEX", "OVER", "FILTER", "WITH", "RECURSIVE", "KEY", "CHECK", "UNIQUE", "REFERENCES",
        "WHEN", "THEN", "ELSE", "CASE", "IS", "LIKE", "GLOB", "BETWEEN", "DISTINCT", "ALL", "UNION", "EXCEPT",
        "INTERSECT", "LIMIT", "OFFSET", "HAVING", "RETURNING", "DO", "UPDATE", "CONFLICT", "PRIMARY", "FOREIGN",
        "DEFAULT", "COLLATE", "ESCAPE", "MATCH", "REGEXP", "END", "WINDOW", "PARTITION", "ORDER", "GROUP",
    ]

    /// Binary operators whose literal operand next to a column stays in the text (see `normalize`).
    static let expressionOperators: Set<String> = ["+", "-", "*", "/", "%", "||", "->", "->>", "&", "|", "<<", ">>"]

    /// Keywords that can stand next to an operator without being a column (upper case).
    static let operandKeywords: Set<String> = [
        "NULL", "TRUE", "FALSE", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "ASC", "DESC", "NOTNULL", "ISNULL",
        "RAISE", "CAST", "ROWS", "RANGE", "GROUPS", "PRECEDING", "FOLLOWING", "ROW", "CURRENT", "UNBOUNDED",
    ]

    /// `IN ( ? , ? , ? )` → `IN ( ?+ )`; `VALUES ( ? , ? ) , ( ? , ? )` → `VALUES ( ? , ? ) , …`.
    /// Linear in the parts: each `(`'s match is found once, and an IN list is read only as far as its first
    /// part that is not a value (hostile round 7, F7: a search to the next `)` from every `IN (` or `VALUES (`
    /// of a nested statement cost N² steps).
    package static func collapseLists(_ parts: [String]) -> [String] {
        let closes = closingParentheses(parts)
        var result: [String] = []
        result.reserveCapacity(parts.count)
        var i = 0
        while i < parts.count {
            if parts[i] == "IN", i + 1 < parts.count, parts[i + 1] == "(" {
                var close = i + 2
                while close < parts.count, ["?", ",", "-", "+"].contains(parts[close]) { close += 1 }
                if close > i + 2, close < parts.count, parts[close] == ")" {
                    result.append(contentsOf: ["IN", "(", "?+", ")"])
                    i = close + 1
                    continue
                }
            }
            if parts[i] == "VALUES", let first = group(at: i + 1, closes) {
                result.append("VALUES")
                result.append(contentsOf: parts[first])
                var next = first.upperBound
                var repeated = false
                while next + 1 < parts.count, parts[next] == ",", let row = group(at: next + 1, closes),
                      parts[row].elementsEqual(parts[first]) {
                    repeated = true
                    next = row.upperBound
                }
                if repeated { result.append(contentsOf: [",", "…"]) }
                i = next
                continue
            }
            result.append(parts[i])
            i += 1
        }
        return result
    }

    /// For each part that is `(`, the index of the `)` that closes it; -1 for other parts and an unclosed `(`.
    private static func closingParentheses(_ parts: [String]) -> [Int] {
        var closes = [Int](repeating: -1, count: parts.count)
        var open: [Int] = []
        for (j, part) in parts.enumerated() {
            if part == "(" { open.append(j) } else if part == ")", let opened = open.popLast() { closes[opened] = j }
        }
        return closes
    }

    /// The range of a parenthesised group starting at `start` (which must be "("), closing parenthesis included.
    private static func group(at start: Int, _ closes: [Int]) -> Range<Int>? {
        guard start < closes.count, closes[start] >= 0 else { return nil }
        return start..<(closes[start] + 1)
    }

    /// `bytes` with each range in `cuts` (ascending, disjoint) replaced by `?`.
    static func replacing(_ cuts: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        for cut in cuts {
            result.append(contentsOf: bytes[position..<cut.lowerBound])
            result.append(UInt8(ascii: "?"))
            position = cut.upperBound
        }
        result.append(contentsOf: bytes[position...])
        return result
    }

    /// The text without leading white space and without trailing white space and semicolons.
    package static func trimmed(_ bytes: [UInt8]) -> String {
        var start = 0
        var end = bytes.count
        while start < end, isTrimmable(bytes[start], semicolon: false) { start += 1 }
        while end > start, isTrimmable(bytes[end - 1], semicolon: true) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The text without leading white space and without trailing white space and semicolons.
    package static func trimmed(_ sql: String) -> String {
        trimmed(Array(sql.utf8))
    }

    private static func isTrimmable(_ byte: UInt8, semicolon: Bool) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) || (semicolon && byte == UInt8(ascii: ";"))
    }

    /// ASCII letters upper-cased, every other byte unchanged (how SQLite compares keywords and names).
    static func asciiUppercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes.lazy.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }, as: UTF8.self)
    }

    static func asciiUppercased(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { asciiUppercased($0) }
    }

    /// 64-bit FNV-1a of the UTF-8 bytes of `text` (http://www.isthe.com/chongo/tech/comp/fnv/).
    package static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// `value` as 16 lower-case hex digits.
    package static func hexID(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
