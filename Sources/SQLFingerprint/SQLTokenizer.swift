/// A lexical token of SQL text, as SQLite's own tokenizer splits it (https://sqlite.org/lang_expr.html).
package struct SQLToken: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A bare word: keyword or identifier.
        case word
        /// `"name"`, `` `name` `` or `[name]`.
        case quotedIdentifier
        /// `'text'`.
        case string
        /// `x'00ff'`.
        case blob
        /// `42`, `3.5e2`, `0x1F`.
        case number
        /// `?`, `?3`, `:name`, `@name`, `$name`.
        case parameter
        /// Operators and punctuation: `(`, `,`, `<=`, `||`…
        case symbol
        /// `;`
        case semicolon
        /// White space and comments.
        case trivia
    }

    package var kind: Kind
    /// Byte offsets into the UTF-8 text.
    package var start: Int
    package var end: Int
}

/// Splits SQL text into tokens. Never fails: an unterminated string or comment runs to the end.
package enum SQLTokenizer {
    /// The tokens of `text`, trivia included.
    package static func tokenize(_ text: String) -> [SQLToken] {
        var copy = text
        return copy.withUTF8 { tokenize($0) }
    }

    /// The tokens of UTF-8 `bytes`, trivia included.
    package static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>) -> [SQLToken] {
        var tokens: [SQLToken] = []
        tokens.reserveCapacity(bytes.count / 4)
        var i = 0
        let n = bytes.count
        while i < n {
            let start = i
            let c = bytes[i]
            var kind: SQLToken.Kind
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                while i < n, isSpace(bytes[i]) { i += 1 }
                kind = .trivia
            case UInt8(ascii: "-") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "-"):
                while i < n, bytes[i] != 0x0A { i += 1 }
                kind = .trivia
            case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "*"):
                i += 2
                while i < n, !(bytes[i] == UInt8(ascii: "*") && i + 1 < n && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i = min(n, i + 2)
                kind = .trivia
            case UInt8(ascii: "'"):
                i = skipQuoted(bytes, from: i, close: UInt8(ascii: "'"))
                kind = .string
            case UInt8(ascii: "\""), UInt8(ascii: "`"):
                i = skipQuoted(bytes, from: i, close: c)
                kind = .quotedIdentifier
            case UInt8(ascii: "["):
                i += 1
                while i < n, bytes[i] != UInt8(ascii: "]") { i += 1 }
                i = min(n, i + 1)
                kind = .quotedIdentifier
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                if i + 1 < n, bytes[i + 1] == UInt8(ascii: "'") {
                    i = skipQuoted(bytes, from: i + 1, close: UInt8(ascii: "'"))
                    kind = .blob
                } else {
                    while i < n, isIdentifierByte(bytes[i]) { i += 1 }
                    kind = .word
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                i = skipNumber(bytes, from: i)
                kind = .number
            case UInt8(ascii: ".") where i + 1 < n && isDigit(bytes[i + 1]):
                i = skipNumber(bytes, from: i)
                kind = .number
            case UInt8(ascii: "?"):
                i += 1
                while i < n, isDigit(bytes[i]) { i += 1 }
                kind = .parameter
            case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                i += 1
                while i < n, isIdentifierByte(bytes[i]) { i += 1 }
                kind = i - start > 1 ? .parameter : .symbol
            case UInt8(ascii: ";"):
                i += 1
                kind = .semicolon
            default:
                if isIdentifierByte(c) {
                    while i < n, isIdentifierByte(bytes[i]) { i += 1 }
                    kind = .word
                } else {
                    i += symbolLength(bytes, at: i)
                    kind = .symbol
                }
            }
            tokens.append(SQLToken(kind: kind, start: start, end: i))
        }
        return tokens
    }

    /// The text of `token` in `text`.
    package static func text(of token: SQLToken, in utf8: [UInt8]) -> String {
        String(decoding: utf8[token.start..<token.end], as: UTF8.self)
    }

    @inline(__always) package static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C
    }

    @inline(__always) package static func isDigit(_ c: UInt8) -> Bool {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    /// Letters, digits, `_`, `$` and every byte of a multi-byte UTF-8 character, as SQLite's tokenizer.
    @inline(__always) package static func isIdentifierByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || isDigit(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || c >= 0x80
    }

    private static func skipQuoted(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, close: UInt8) -> Int {
        var i = start + 1
        while i < bytes.count {
            if bytes[i] == close {
                if i + 1 < bytes.count, bytes[i + 1] == close { i += 2; continue }
                return i + 1
            }
            i += 1
        }
        return bytes.count
    }

    private static func skipNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        let n = bytes.count
        if i + 1 < n, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] | 0x20 == UInt8(ascii: "x") {
            i += 2
            while i < n, isDigit(bytes[i]) || (bytes[i] | 0x20 >= UInt8(ascii: "a") && bytes[i] | 0x20 <= UInt8(ascii: "f")) { i += 1 }
            return i
        }
        while i < n, isDigit(bytes[i]) || bytes[i] == UInt8(ascii: "_") { i += 1 }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
            var j = i + 1
            if j < n, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            if j < n, isDigit(bytes[j]) {
                i = j
                while i < n, isDigit(bytes[i]) { i += 1 }
            }
        }
        return i
    }

    private static func symbolLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        guard i + 1 < bytes.count else { return 1 }
        let pair = (bytes[i], bytes[i + 1])
        switch pair {
        case (UInt8(ascii: "<"), UInt8(ascii: "=")), (UInt8(ascii: ">"), UInt8(ascii: "=")),
             (UInt8(ascii: "!"), UInt8(ascii: "=")), (UInt8(ascii: "<"), UInt8(ascii: ">")),
             (UInt8(ascii: "="), UInt8(ascii: "=")), (UInt8(ascii: "|"), UInt8(ascii: "|")),
             (UInt8(ascii: "<"), UInt8(ascii: "<")), (UInt8(ascii: ">"), UInt8(ascii: ">")):
            return 2
        case (UInt8(ascii: "-"), UInt8(ascii: ">")):
            return i + 2 < bytes.count && bytes[i + 2] == UInt8(ascii: ">") ? 3 : 2
        default:
            return 1
        }
    }
}
