/// Splits Swift source into the tokens ``ModelSourceReader`` needs: identifiers (back-ticks removed),
/// attributes (`@Model` → `Model`), pound directives and macros (`#Unique` → `Unique`), string literals
/// (their text, escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\u{…}` decoded; interpolations kept as written), numbers and single
/// punctuation characters. Comments (nested `/* */` too) and white space are dropped; each token knows its
/// line, whether it starts one, and whether white space precedes it. A line ends at `\n`, `\r\n` or a lone
/// `\r`, as in the compiler and editors (``lines(of:)`` splits text the same way). Never fails: an unterminated string or
/// comment runs to the end of the text.
struct SwiftLexer {
    struct Token: Equatable {
        enum Kind: Equatable {
            case identifier, attribute, pound, string, number, punctuation
        }

        var kind: Kind
        var text: String
        /// 1-based.
        var line: Int
        var startsLine: Bool
        var precededBySpace: Bool

        func isWord(_ word: String) -> Bool { kind == .identifier && text == word }
        func isPunctuation(_ symbol: String) -> Bool { kind == .punctuation && text == symbol }
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1
    private var tokens: [Token] = []
    private var atLineStart = true
    private var sawSpace = true

    static func tokenize(_ source: String) -> [Token] {
        var lexer = SwiftLexer(scalars: Array(source.unicodeScalars))
        lexer.run()
        return lexer.tokens
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    /// The lines of `text` as the lexer counts them: split at `\r\n`, `\r` and `\n`, empty ones kept.
    /// Reads UTF-8 bytes, not Characters: splitting a large file into grapheme clusters is slow.
    static func lines(of text: String) -> [Substring] {
        var result: [Substring] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index = bytes.index(after: index)
                continue
            }
            result.append(text[start..<index])
            var next = bytes.index(after: index)
            if byte == UInt8(ascii: "\r"), next != bytes.endIndex, bytes[next] == UInt8(ascii: "\n") { next = bytes.index(after: next) }
            start = next
            index = next
        }
        result.append(text[start..<bytes.endIndex])
        return result
    }

    private static func isLineEnd(_ scalar: Unicode.Scalar?) -> Bool { scalar == "\n" || scalar == "\r" }

    /// Steps over the line end (`\n`, `\r\n` or `\r`) at the current position and counts the line.
    private mutating func skipLineEnd() {
        position += peek() == "\r" && peek(1) == "\n" ? 2 : 1
        line += 1
    }

    private mutating func emit(_ kind: Token.Kind, _ text: String, line: Int) {
        tokens.append(Token(kind: kind, text: text, line: line, startsLine: atLineStart, precededBySpace: sawSpace))
        atLineStart = false
        sawSpace = false
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar) || scalar.properties.generalCategory == .nonspacingMark
    }

    private mutating func run() {
        while let scalar = peek() {
            switch scalar {
            case "\n", "\r":
                skipLineEnd()
                atLineStart = true
                sawSpace = true
            case " ", "\t", "\u{0B}", "\u{0C}":
                position += 1
                sawSpace = true
            case "/" where peek(1) == "/":
                while let next = peek(), !Self.isLineEnd(next) { position += 1 }
                sawSpace = true
            case "/" where peek(1) == "*":
                skipBlockComment()
                sawSpace = true
            case "\"":
                let start = line
                emit(.string, readString(hashes: 0), line: start)
            case "#" where peek(1) == "\"" || peek(1) == "#":
                var hashes = 0
                while peek(hashes) == "#" { hashes += 1 }
                if peek(hashes) == "\"" {
                    position += hashes
                    let start = line
                    emit(.string, readString(hashes: hashes), line: start)
                } else {
                    position += 1
                    emit(.punctuation, "#", line: line)
                }
            case "@", "#":
                if let next = peek(1), Self.isIdentifierStart(next) {
                    position += 1
                    let name = readIdentifier()
                    emit(scalar == "@" ? .attribute : .pound, name, line: line)
                } else {
                    position += 1
                    emit(.punctuation, String(scalar), line: line)
                }
            case "`":
                position += 1
                var name = ""
                while let next = peek(), next != "`", !Self.isLineEnd(next) {
                    name.unicodeScalars.append(next)
                    position += 1
                }
                if peek() == "`" { position += 1 }
                emit(.identifier, name, line: line)
            case "0"..."9":
                var text = ""
                while let next = peek(), Self.isIdentifierPart(next) || (next == "." && peek(1).map { ("0"..."9").contains($0) } == true) {
                    text.unicodeScalars.append(next)
                    position += 1
                }
                emit(.number, text, line: line)
            default:
                if Self.isIdentifierStart(scalar) {
                    emit(.identifier, readIdentifier(), line: line)
                } else {
                    position += 1
                    emit(.punctuation, String(scalar), line: line)
                }
            }
        }
    }

    private mutating func readIdentifier() -> String {
        var name = ""
        while let next = peek(), Self.isIdentifierPart(next) {
            name.unicodeScalars.append(next)
            position += 1
        }
        return name
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while let scalar = peek() {
            if scalar == "/" && peek(1) == "*" {
                depth += 1
                position += 2
            } else if scalar == "*" && peek(1) == "/" {
                depth -= 1
                position += 2
                if depth == 0 { return }
            } else if Self.isLineEnd(scalar) {
                skipLineEnd()
            } else {
                position += 1
            }
        }
    }

    /// Reads a string literal whose opening `"` is at the current position (after `hashes` `#`s), up to
    /// and including its closing delimiter, and returns its text.
    private mutating func readString(hashes: Int) -> String {
        let multiline = peek(0) == "\"" && peek(1) == "\"" && peek(2) == "\""
        position += multiline ? 3 : 1
        var text = ""
        while let scalar = peek() {
            if scalar == "\"" && (!multiline || (peek(1) == "\"" && peek(2) == "\"")) {
                let quoteLength = multiline ? 3 : 1
                if (0..<hashes).allSatisfy({ peek(quoteLength + $0) == "#" }) {
                    position += quoteLength + hashes
                    return text
                }
            }
            if Self.isLineEnd(scalar) {
                if !multiline { return text }
                // A multi-line literal's line ends are `\n` whatever the file uses.
                skipLineEnd()
                text += "\n"
                continue
            }
            if scalar == "\\" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                let escaped = peek(1 + hashes)
                if escaped == "(" {
                    position += 1 + hashes
                    text += "\\(" + readInterpolation() + ")"
                    continue
                }
                if Self.isLineEnd(escaped) {
                    // A line continuation in a multi-line literal.
                    position += 1 + hashes
                    skipLineEnd()
                    continue
                }
                position += 2 + hashes
                switch escaped {
                case "n": text += "\n"
                case "t": text += "\t"
                case "r": text += "\r"
                case "0": text += "\u{0}"
                case "u" where peek() == "{":
                    // `\u{1F600}`: one to eight hex digits.
                    var digits = ""
                    var offset = 1
                    while let digit = peek(offset), digit.properties.isASCIIHexDigit, digits.count < 8 {
                        digits.unicodeScalars.append(digit)
                        offset += 1
                    }
                    if peek(offset) == "}", let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) {
                        text.unicodeScalars.append(scalar)
                        position += offset + 1
                    } else {
                        text += "u"
                    }
                default: if let escaped { text.unicodeScalars.append(escaped) }
                }
                continue
            }
            text.unicodeScalars.append(scalar)
            position += 1
        }
        return text
    }

    /// Reads `( … )` of an interpolation, whose `(` is at the current position, and returns the inside as
    /// written. Nested strings, raw strings and interpolations are followed with a stack, not by recursion,
    /// so no depth of nesting can overflow the call stack.
    private mutating func readInterpolation() -> String {
        enum Frame {
            /// Code inside `\( … )`: how many parentheses are open (the interpolation's own included).
            case code(parentheses: Int)
            case string(hashes: Int, multiline: Bool)
        }
        position += 1
        let start = position
        var stack: [Frame] = [.code(parentheses: 1)]
        while let scalar = peek(), let frame = stack.last {
            switch frame {
            case .code(let parentheses):
                if scalar == "\"" || scalar == "#" {
                    var hashes = 0
                    while peek(hashes) == "#" { hashes += 1 }
                    if peek(hashes) == "\"" {
                        let multiline = peek(hashes + 1) == "\"" && peek(hashes + 2) == "\""
                        position += hashes + (multiline ? 3 : 1)
                        stack.append(.string(hashes: hashes, multiline: multiline))
                        continue
                    }
                }
                if scalar == "(" { stack[stack.count - 1] = .code(parentheses: parentheses + 1) }
                if scalar == ")" {
                    if parentheses == 1 {
                        stack.removeLast()
                        if stack.isEmpty {
                            let inside = String(String.UnicodeScalarView(scalars[start..<position]))
                            position += 1
                            return inside
                        }
                        position += 1
                        continue
                    }
                    stack[stack.count - 1] = .code(parentheses: parentheses - 1)
                }
                if Self.isLineEnd(scalar) {
                    skipLineEnd()
                    continue
                }
                position += 1
            case .string(let hashes, let multiline):
                if scalar == "\"" && (!multiline || (peek(1) == "\"" && peek(2) == "\"")) {
                    let quoteLength = multiline ? 3 : 1
                    if (0..<hashes).allSatisfy({ peek(quoteLength + $0) == "#" }) {
                        position += quoteLength + hashes
                        stack.removeLast()
                        continue
                    }
                }
                if Self.isLineEnd(scalar) {
                    if !multiline {
                        // An unterminated string ends at the line's end, in the code around it.
                        stack.removeLast()
                        continue
                    }
                    skipLineEnd()
                    continue
                }
                if scalar == "\\" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                    let escaped = peek(1 + hashes)
                    if escaped == "(" {
                        position += 1 + hashes
                        // The interpolation's `(` opens the code frame.
                        position += 1
                        stack.append(.code(parentheses: 1))
                        continue
                    }
                    position += 1 + hashes
                    if Self.isLineEnd(escaped) { skipLineEnd() } else if escaped != nil { position += 1 }
                    continue
                }
                position += 1
            }
        }
        return String(String.UnicodeScalarView(scalars[start..<min(position, scalars.count)]))
    }
}
