/// The values an application bound to a statement, recovered by lining up the statement's text with
/// SQLite's expansion of it (`sqlite3_expanded_sql`, https://sqlite.org/c3ref/expanded_sql.html), which
/// renders each bound parameter as a literal: integers and reals as numbers (negative ones with a
/// leading `-`), text as a quoted string, blobs as `x'…'`, NULL as `NULL`.
package enum BoundValues {
    /// One value per parameter token of `original`, in order; nil when the two texts do not line up
    /// (e.g. the expansion was cut at SQLite's length limit).
    package static func values(original: UnsafeBufferPointer<UInt8>, expanded: UnsafeBufferPointer<UInt8>) -> [SQLLiteral]? {
        let left = SQLTokenizer.tokenize(original).filter { $0.kind != .trivia }
        let right = SQLTokenizer.tokenize(expanded).filter { $0.kind != .trivia }
        var values: [SQLLiteral] = []
        var j = 0
        for token in left {
            guard j < right.count else { return nil }
            if token.kind == .parameter {
                var negative = false
                var value = right[j]
                if value.kind == .symbol, value.end - value.start == 1, expanded[value.start] == UInt8(ascii: "-"), j + 1 < right.count {
                    negative = true
                    j += 1
                    value = right[j]
                }
                switch value.kind {
                case .number, .string, .blob:
                    values.append(SQLLiteral.parse(UnsafeBufferPointer(rebasing: expanded[value.start..<value.end]), kind: value.kind, negative: negative))
                case .word where !negative && SQLLiteral.asciiEqual(UnsafeBufferPointer(rebasing: expanded[value.start..<value.end]), "NULL"):
                    values.append(.null)
                default:
                    return nil
                }
                j += 1
            } else {
                // Everything else is copied as is.
                guard right[j].end - right[j].start == token.end - token.start,
                      original[token.start..<token.end].elementsEqual(expanded[right[j].start..<right[j].end]) else { return nil }
                j += 1
            }
        }
        return j == right.count ? values : nil
    }
}
