/// A small SQL tokenizer of the benchmark's own, so that its candidate generator shares no code with the
/// advisor's: identifiers (bare, "quoted", [bracketed], `backticked`), string and blob literals, numbers,
/// parameters (`?`, `?NNN`, `:name`, `@name`, `$name`), keywords and symbols. Comments and white space are
/// dropped (https://sqlite.org/lang_keywords.html, lang_expr.html).
package enum SQLWords {
    package struct Word: Sendable, Equatable {
        package enum Kind: Sendable, Equatable { case identifier, keyword, string, number, parameter, symbol }
        package var kind: Kind
        /// The text as written.
        package var text: String
        /// An identifier's name without its quotes; otherwise the text.
        package var value: String
        /// Where the word starts and ends in the text, in Unicode scalars.
        package var start = 0
        package var end = 0

        package func isKeyword(_ word: String) -> Bool { kind == .keyword && text.uppercased() == word }
        package func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }
    }

    /// Words that are keywords wherever they appear in the statements the benchmark reads (a bare word
    /// outside this list is an identifier).
    static let keywords: Set<String> = [
        "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "GLOB", "BETWEEN", "ORDER", "BY",
        "GROUP", "HAVING", "LIMIT", "OFFSET", "ASC", "DESC", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS",
        "NATURAL", "ON", "USING", "AS", "DISTINCT", "ALL", "UNION", "INTERSECT", "EXCEPT", "INSERT", "INTO", "VALUES",
        "UPDATE", "SET", "DELETE", "REPLACE", "UPSERT", "CONFLICT", "DO", "NOTHING", "EXISTS", "CASE", "WHEN", "THEN",
        "ELSE", "END", "COLLATE", "CREATE", "INDEX", "UNIQUE", "IF", "WITH", "RECURSIVE", "ESCAPE", "CAST", "RETURNING",
        "INDEXED", "DEFAULT", "TRUE", "FALSE", "MATCH", "REGEXP", "ISNULL", "NOTNULL", "NULLS", "FIRST", "LAST", "FILTER",
        "OVER", "WINDOW", "PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "TABLE", "VIEW", "TRIGGER", "DROP", "ABORT", "FAIL", "IGNORE",
    ]

    /// The words of `sql`.
    package static func split(_ sql: String) -> [Word] {
        let scalars = Array(sql.unicodeScalars)
        var words: [Word] = []
        var i = 0
        var start = 0
        func append(_ kind: Word.Kind, _ text: String, _ value: String) {
            words.append(Word(kind: kind, text: text, value: value, start: start, end: i))
        }
        func text(_ from: Int, _ to: Int) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[from..<to])
            return String(s)
        }
        func isIdentifierStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || c.value > 127 }
        func isIdentifierPart(_ c: Unicode.Scalar) -> Bool { isIdentifierStart(c) || ("0"..."9").contains(c) || c == "$" }
        while i < scalars.count {
            let c = scalars[i]
            if c.properties.isWhitespace { i += 1; continue }
            if c == "-", i + 1 < scalars.count, scalars[i + 1] == "-" {
                while i < scalars.count, scalars[i] != "\n" { i += 1 }
                continue
            }
            if c == "/", i + 1 < scalars.count, scalars[i + 1] == "*" {
                i += 2
                while i + 1 < scalars.count, !(scalars[i] == "*" && scalars[i + 1] == "/") { i += 1 }
                i = min(scalars.count, i + 2)
                continue
            }
            start = i
            if c == "'" || ((c == "x" || c == "X") && i + 1 < scalars.count && scalars[i + 1] == "'") {
                if c != "'" { i += 1 }
                i += 1
                while i < scalars.count {
                    if scalars[i] == "'" {
                        if i + 1 < scalars.count, scalars[i + 1] == "'" { i += 2; continue }
                        i += 1
                        break
                    }
                    i += 1
                }
                let t = text(start, i)
                append(.string, t, t)
                continue
            }
            if c == "\"" || c == "`" || c == "[" {
                let close: Unicode.Scalar = c == "[" ? "]" : c
                i += 1
                var value = String.UnicodeScalarView()
                while i < scalars.count {
                    if scalars[i] == close {
                        if close != "]", i + 1 < scalars.count, scalars[i + 1] == close { value.append(close); i += 2; continue }
                        i += 1
                        break
                    }
                    value.append(scalars[i])
                    i += 1
                }
                append(.identifier, text(start, i), String(value))
                continue
            }
            if ("0"..."9").contains(c) || (c == "." && i + 1 < scalars.count && ("0"..."9").contains(scalars[i + 1])) {
                while i < scalars.count, isIdentifierPart(scalars[i]) || scalars[i] == "." ||
                    ((scalars[i] == "+" || scalars[i] == "-") && (scalars[i - 1] == "e" || scalars[i - 1] == "E")) { i += 1 }
                let t = text(start, i)
                append(.number, t, t)
                continue
            }
            if c == "?" || c == ":" || c == "@" || c == "$" {
                i += 1
                while i < scalars.count, isIdentifierPart(scalars[i]) { i += 1 }
                let t = text(start, i)
                if t == ":" || t == "@" || t == "$" { append(.symbol, t, t); continue }
                append(.parameter, t, t)
                continue
            }
            if isIdentifierStart(c) {
                while i < scalars.count, isIdentifierPart(scalars[i]) { i += 1 }
                let t = text(start, i)
                append(keywords.contains(t.uppercased()) ? .keyword : .identifier, t, t)
                continue
            }
            // Symbols, the two-character ones first.
            let two = i + 1 < scalars.count ? text(i, i + 2) : ""
            if ["<=", ">=", "<>", "!=", "==", "||", "<<", ">>", "->"].contains(two) {
                i += 2
                append(.symbol, two, two)
                continue
            }
            let one = String(c)
            i += 1
            append(.symbol, one, one)
        }
        return words
    }
}
