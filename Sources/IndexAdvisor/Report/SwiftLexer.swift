/// Splits Swift source into the tokens ``ModelSourceReader`` needs: identifiers (back-ticks removed),
/// attributes (`@Model` → `Model`), pound directives and macros (`#Unique` → `Unique`), string literals
/// (their text, escapes `\"`, `\\`, `\n`, `\t` decoded; interpolations kept as written), numbers and single
/// punctuation characters. Comments (nested `/* */` too) and white space are dropped; each token knows its
/// line, whether it starts one, and whether white space precedes it. Never fails: an unterminated string or
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
            case "\n":
                line += 1
                position += 1
                atLineStart = true
                sawSpace = true
            case " ", "\t", "\r", "\u{0B}", "\u{0C}":
                position += 1
                sawSpace = true
            case "/" where peek(1) == "/":
                while let next = peek(), next != "\n" { position += 1 }
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
                while let next = peek(), next != "`", next != "\n" {
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
            } else {
                if scalar == "\n" { line += 1 }
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
            if scalar == "\n" {
                if !multiline { return text }
                line += 1
            }
            if scalar == "\\" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                let escaped = peek(1 + hashes)
                if escaped == "(" {
                    position += 1 + hashes
                    text += "\\(" + readInterpolation() + ")"
                    continue
                }
                position += 2 + hashes
                switch escaped {
                case "n": text += "\n"
                case "t": text += "\t"
                case "0": text += "\u{0}"
                case "\n": line += 1
                default: if let escaped { text.unicodeScalars.append(escaped) }
                }
                continue
            }
            text.unicodeScalars.append(scalar)
            position += 1
        }
        return text
    }

    /// Reads `( … )` of an interpolation, nested strings and parentheses included, and returns the inside.
    private mutating func readInterpolation() -> String {
        var depth = 0
        var text = ""
        while let scalar = peek() {
            if scalar == "\"" {
                text += "\"" + readString(hashes: 0) + "\""
                continue
            }
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                depth -= 1
                if depth == 0 {
                    position += 1
                    return String(text.dropFirst())
                }
            }
            if scalar == "\n" { line += 1 }
            text.unicodeScalars.append(scalar)
            position += 1
        }
        return String(text.dropFirst())
    }
}
