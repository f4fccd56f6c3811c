/// What kind of statement SQL text is, from its first keyword (`WITH` looks further for the main verb).
/// The raw values are the library's `StatementKind` raw values.
package enum SQLStatementKind: String, Sendable {
    case select, insert, update, delete, transaction, pragma, schema, other

    /// True for the statements the advisor plans and measures (reads and writes).
    package var isAnalysed: Bool {
        switch self {
        case .select, .insert, .update, .delete: return true
        default: return false
        }
    }

    /// The kind of the statement whose non-trivia tokens are `tokens` in `bytes`.
    package static func of(_ tokens: [SQLToken], in bytes: UnsafeBufferPointer<UInt8>) -> SQLStatementKind {
        guard let first = tokens.first, first.kind == .word else { return .other }
        func word(_ token: SQLToken) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
        }
        let verb = word(first)
        if SQLLiteral.asciiEqual(verb, "WITH") {
            // The first top-level INSERT/REPLACE/UPDATE/DELETE, in that order of preference.
            var found: [SQLStatementKind] = []
            var depth = 0
            for token in tokens {
                if token.kind == .symbol, token.end - token.start == 1 {
                    if bytes[token.start] == UInt8(ascii: "(") { depth += 1 } else if bytes[token.start] == UInt8(ascii: ")") { depth -= 1 }
                }
                guard depth == 0, token.kind == .word else { continue }
                let w = word(token)
                if SQLLiteral.asciiEqual(w, "INSERT") || SQLLiteral.asciiEqual(w, "REPLACE") { found.append(.insert) }
                else if SQLLiteral.asciiEqual(w, "UPDATE") { found.append(.update) }
                else if SQLLiteral.asciiEqual(w, "DELETE") { found.append(.delete) }
            }
            for kind in [SQLStatementKind.insert, .update, .delete] where found.contains(kind) { return kind }
            return .select
        }
        let table: [(StaticString, SQLStatementKind)] = [
            ("SELECT", .select), ("VALUES", .select), ("INSERT", .insert), ("REPLACE", .insert), ("UPDATE", .update),
            ("DELETE", .delete), ("BEGIN", .transaction), ("COMMIT", .transaction), ("END", .transaction),
            ("ROLLBACK", .transaction), ("SAVEPOINT", .transaction), ("RELEASE", .transaction), ("PRAGMA", .pragma),
            ("CREATE", .schema), ("DROP", .schema), ("ALTER", .schema), ("ANALYZE", .schema), ("VACUUM", .schema),
            ("REINDEX", .schema), ("ATTACH", .schema), ("DETACH", .schema),
        ]
        for (keyword, kind) in table where SQLLiteral.asciiEqual(verb, keyword) { return kind }
        return .other
    }
}
