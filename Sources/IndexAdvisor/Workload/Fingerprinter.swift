/// A statement made runnable with parameters, and its fingerprint.
package struct NormalizedStatement: Sendable {
    /// The statement with each literal replaced by `?` (original placeholders kept).
    package var parameterizedSQL: String
    /// One entry per parameter of `parameterizedSQL`, in order: the literal it replaced, or nil for a
    /// placeholder that was already in the statement.
    package var parameterValues: [SQLValue?]
    package var fingerprint: Fingerprint
    package var kind: StatementKind
}

/// The one normalisation every workload source goes through.
///
/// Literals (strings, numbers, blobs) and bound parameters become `?`; `IN (…)` lists and multi-row
/// `VALUES` of any length collapse to one shape; white space, comments and the letter case of bare words
/// do not matter; quoting of identifiers does not matter. Integer literals that are column numbers in
/// `ORDER BY`/`GROUP BY` stay, because replacing them would change the statement's meaning; so do literals
/// that are arguments of a function call (`json_extract(doc, '$.k')`, `substr(name, 1, 3)`): they shape the
/// expression, and SQLite only matches an index on an expression whose literals are written the same.
package enum Fingerprinter {
    package static func normalize(_ sql: String) -> NormalizedStatement {
        let list = SQLTokenList(sql)
        let kind = statementKind(list)
        let hasNamedParameters = list.tokens.contains { token in
            token.kind == .parameter && !(token.end - token.start == 1)
        }
        let parameterize = kind.isAnalysed && !hasNamedParameters

        var keyParts: [String] = []
        keyParts.reserveCapacity(list.count)
        var values: [SQLValue?] = []
        var cuts: [Range<Int>] = []
        var inSortClause = false
        var sortDepth = 0
        var depth = 0
        /// For each open parenthesis, whether it opens a function call's arguments.
        var callStack: [Bool] = []

        for i in 0..<list.count {
            let token = list.tokens[i]
            switch token.kind {
            case .symbol:
                let text = list.text(at: i)
                if text == "(" {
                    depth += 1
                    callStack.append(i > 0 && isFunctionName(list, i - 1))
                }
                if text == ")" {
                    if inSortClause, depth == sortDepth { inSortClause = false }
                    depth -= 1
                    _ = callStack.popLast()
                }
                keyParts.append(text == "==" ? "=" : (text == "<>" ? "!=" : text))
            case .word:
                let upper = list.text(at: i).uppercased()
                if upper == "BY", i > 0, list.isWord(i - 1, "ORDER") || list.isWord(i - 1, "GROUP") {
                    inSortClause = true
                    sortDepth = depth
                } else if inSortClause, depth == sortDepth, ["LIMIT", "HAVING", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "FROM", "WHERE", "SELECT"].contains(upper) {
                    inSortClause = false
                }
                keyParts.append(upper)
            case .quotedIdentifier:
                keyParts.append(SQLTokenList.unquote(list.text(at: i)).uppercased())
            case .parameter:
                values.append(nil)
                keyParts.append("?")
            case .string, .number, .blob:
                let isColumnNumber = token.kind == .number && inSortClause && depth == sortDepth
                    && (list.isWord(i - 1, "BY") || list.isSymbol(i - 1, ","))
                let isFunctionArgument = callStack.last == true
                if isFunctionArgument {
                    keyParts.append(list.text(at: i))
                } else if parameterize && !isColumnNumber {
                    values.append(literalValue(list, i))
                    cuts.append(token.start..<token.end)
                    keyParts.append("?")
                } else {
                    keyParts.append(isColumnNumber ? list.text(at: i) : "?")
                }
            case .semicolon, .trivia:
                continue
            }
        }
        let text = collapseLists(keyParts).joined(separator: " ")
        return NormalizedStatement(
            parameterizedSQL: cuts.isEmpty ? trimmed(sql) : trimmed(replacing(cuts, in: list.utf8)),
            parameterValues: parameterize ? values : values.filter { $0 == nil },
            fingerprint: Fingerprint(id: fnv1a(text), text: text),
            kind: kind)
    }

    /// Words that can stand before `(` without being a function call.
    static let nonFunctionWords: Set<String> = [
        "IN", "VALUES", "EXISTS", "AS", "ON", "USING", "WHERE", "AND", "OR", "NOT", "SELECT", "FROM", "JOIN", "BY",
        "SET", "INTO", "TABLE", "INDEX", "OVER", "FILTER", "WITH", "RECURSIVE", "KEY", "CHECK", "UNIQUE", "REFERENCES",
        "WHEN", "THEN", "ELSE", "CASE", "IS", "LIKE", "GLOB", "BETWEEN", "DISTINCT", "ALL", "UNION", "EXCEPT",
        "INTERSECT", "LIMIT", "OFFSET", "HAVING", "RETURNING", "DO", "UPDATE", "CONFLICT", "PRIMARY", "FOREIGN",
        "DEFAULT", "COLLATE", "ESCAPE", "MATCH", "REGEXP", "END", "WINDOW", "PARTITION", "ORDER", "GROUP",
    ]

    /// True when token `i` is a word that, followed by `(`, calls a function (not `IN (`, `VALUES (`, a table's column list…).
    static func isFunctionName(_ list: SQLTokenList, _ i: Int) -> Bool {
        guard list.tokens[i].kind == .word else { return false }
        if nonFunctionWords.contains(list.text(at: i).uppercased()) { return false }
        // INSERT INTO t (a, b) and CREATE … t (…): a name after INTO/TABLE/ON is a table, not a function.
        if i > 0, list.isWord(i - 1, "INTO") || list.isWord(i - 1, "TABLE") || list.isWord(i - 1, "ON") { return false }
        return true
    }

    /// The kind of statement from its leading keyword (`WITH` looks further for the main verb).
    package static func statementKind(_ list: SQLTokenList) -> StatementKind {
        let index = 0
        guard index < list.count, !list.isWord(index, "EXPLAIN") else { return .other }
        if list.isWord(index, "WITH") {
            for verb in ["INSERT", "REPLACE", "UPDATE", "DELETE"] where list.firstTopLevelWord(verb) != nil {
                return verb == "UPDATE" ? .update : (verb == "DELETE" ? .delete : .insert)
            }
            return .select
        }
        let first = list.text(at: index).uppercased()
        switch first {
        case "SELECT", "VALUES": return .select
        case "INSERT", "REPLACE": return .insert
        case "UPDATE": return .update
        case "DELETE": return .delete
        case "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE": return .transaction
        case "PRAGMA": return .pragma
        case "CREATE", "DROP", "ALTER", "ANALYZE", "VACUUM", "REINDEX", "ATTACH", "DETACH": return .schema
        default: return .other
        }
    }

    /// The value of the literal token `i`.
    static func literalValue(_ list: SQLTokenList, _ i: Int) -> SQLValue {
        let raw = list.text(at: i)
        switch list.tokens[i].kind {
        case .string:
            return .text(SQLTokenList.unquote(raw))
        case .blob:
            return .blob(SQLValue.bytes(fromHex: String(raw.dropFirst(2).dropLast())))
        default:
            let digits = raw.replacingOccurrences(of: "_", with: "")
            if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
                return .integer(Int64(bitPattern: UInt64(digits.dropFirst(2), radix: 16) ?? 0))
            }
            if !digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let integer = Int64(digits) {
                return .integer(integer)
            }
            return .real(Double(digits) ?? 0)
        }
    }

    /// `IN ( ? , ? , ? )` → `IN ( ?+ )`; `VALUES ( ? , ? ) , ( ? , ? )` → `VALUES ( ? , ? ) , …`.
    static func collapseLists(_ parts: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(parts.count)
        var i = 0
        while i < parts.count {
            if parts[i] == "IN", i + 1 < parts.count, parts[i + 1] == "(",
               let close = parts[(i + 2)...].firstIndex(of: ")"), close > i + 2,
               parts[(i + 2)..<close].allSatisfy({ ["?", ",", "-", "+"].contains($0) }) {
                result.append(contentsOf: ["IN", "(", "?+", ")"])
                i = close + 1
                continue
            }
            if parts[i] == "VALUES", let first = group(in: parts, at: i + 1) {
                result.append("VALUES")
                result.append(contentsOf: parts[first])
                var next = first.upperBound
                var repeated = false
                while next + 1 < parts.count, parts[next] == ",", let row = group(in: parts, at: next + 1),
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

    /// The range of a parenthesised group starting at `start` (which must be "("), closing parenthesis included.
    private static func group(in parts: [String], at start: Int) -> Range<Int>? {
        guard start < parts.count, parts[start] == "(" else { return nil }
        var depth = 0
        for j in start..<parts.count {
            if parts[j] == "(" { depth += 1 }
            if parts[j] == ")" {
                depth -= 1
                if depth == 0 { return start..<(j + 1) }
            }
        }
        return nil
    }

    static func replacing(_ cuts: [Range<Int>], in utf8: [UInt8]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var position = 0
        for cut in cuts {
            bytes.append(contentsOf: utf8[position..<cut.lowerBound])
            bytes.append(UInt8(ascii: "?"))
            position = cut.upperBound
        }
        bytes.append(contentsOf: utf8[position...])
        return String(decoding: bytes, as: UTF8.self)
    }

    static func trimmed(_ sql: String) -> String {
        var text = Substring(sql)
        while let last = text.last, last.isWhitespace || last == ";" { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }

    /// 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
