/// Splits Swift source into the tokens ``ModelSourceReader`` needs: identifiers (back-ticks removed),
/// attributes (`@Model` → `Model`), pound directives and macros (`#Unique` → `Unique`), string literals
/// (their text, escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\u{…}` decoded; interpolations kept as written), numbers and single
/// punctuation characters. Comments (nested `/* */` too) and white space are dropped; each token knows its
/// line, whether it starts one, and whether white space precedes it. A line ends at `\n`, `\r\n` or a lone
/// `\r`, as in the compiler and editors (``lines(of:)`` splits text the same way). Never fails: an unterminated string or
/// comment runs to the end of the text.
///
/// Reads the text's UTF-8 bytes once, front to back (a scalar is decoded only where a character outside
/// ASCII may start an identifier), into ``SwiftTokens``.
struct SwiftLexer {
    struct Token: Equatable {
        enum Kind: UInt8, Equatable {
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

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var line = 1
    private var tokens = SwiftTokens()
    private var atLineStart = true
    private var sawSpace = true
    /// A string literal's text as it is read (its escapes decoded), reused from one literal to the next.
    private var literal: [UInt8] = []

    static func tokenize(_ source: String) -> SwiftTokens {
        var source = source
        return source.withUTF8 { bytes in
            var lexer = SwiftLexer(bytes: bytes)
            lexer.run()
            lexer.tokens.finish()
            return lexer.tokens
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The byte `offset` bytes on, nil past the end.
    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// The scalar starting `offset` bytes on and its length in bytes, nil past the end. The bytes are a
    /// `String`'s, so valid UTF-8.
    private func scalar(at offset: Int = 0) -> (scalar: Unicode.Scalar, length: Int)? {
        let index = position + offset
        guard index < bytes.count else { return nil }
        return UTF8Scalar.read(bytes, at: index)
    }

    /// The text of the bytes from `start` to the current position.
    private func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// The lines of `text` as the lexer counts them: split at `\r\n`, `\r` and `\n`, empty ones kept.
    static func lines(of text: String) -> SourceLines {
        SourceLines(text)
    }

    private static func isLineEnd(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }

    /// Steps over the line end (`\n`, `\r\n` or `\r`) at the current position and counts the line.
    private mutating func skipLineEnd() {
        position += peek() == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n") ? 2 : 1
        line += 1
    }

    private mutating func emit(_ kind: Token.Kind, _ text: String, line: Int) {
        tokens.append(kind, text, line: line, startsLine: atLineStart, precededBySpace: sawSpace)
        atLineStart = false
        sawSpace = false
    }

    private mutating func emit(_ kind: Token.Kind, ascii byte: UInt8) {
        tokens.append(kind, ascii: byte, line: line, startsLine: atLineStart, precededBySpace: sawSpace)
        atLineStart = false
        sawSpace = false
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || (scalar.isASCII ? (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") : scalar.properties.isAlphabetic)
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar) || (!scalar.isASCII && scalar.properties.generalCategory == .nonspacingMark)
    }

    private static func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }

    private mutating func run() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                skipLineEnd()
                atLineStart = true
                sawSpace = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                position += 1
                sawSpace = true
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                while let next = peek(), !Self.isLineEnd(next) { position += 1 }
                sawSpace = true
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                skipBlockComment()
                sawSpace = true
            case UInt8(ascii: "\""):
                let start = line
                emit(.string, readString(hashes: 0), line: start)
            case UInt8(ascii: "#") where peek(1) == UInt8(ascii: "\"") || peek(1) == UInt8(ascii: "#"):
                var hashes = 0
                while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
                if peek(hashes) == UInt8(ascii: "\"") {
                    position += hashes
                    let start = line
                    emit(.string, readString(hashes: hashes), line: start)
                } else {
                    position += 1
                    emit(.punctuation, ascii: byte)
                }
            case UInt8(ascii: "@"), UInt8(ascii: "#"):
                position += 1
                if let next = scalar(), Self.isIdentifierStart(next.scalar) {
                    emit(byte == UInt8(ascii: "@") ? .attribute : .pound, readIdentifier(), line: line)
                } else {
                    emit(.punctuation, ascii: byte)
                }
            case UInt8(ascii: "`"):
                position += 1
                let start = position
                while let next = peek(), next != UInt8(ascii: "`"), !Self.isLineEnd(next) { position += 1 }
                let name = text(from: start)
                if peek() == UInt8(ascii: "`") { position += 1 }
                emit(.identifier, name, line: line)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                while let next = scalar(), Self.isIdentifierPart(next.scalar) || (next.scalar == "." && Self.isDigit(peek(1))) {
                    position += next.length
                }
                emit(.number, text(from: start), line: line)
            default:
                guard let (character, length) = scalar() else { return }
                if Self.isIdentifierStart(character) {
                    emit(.identifier, readIdentifier(), line: line)
                } else if length == 1 {
                    position += 1
                    emit(.punctuation, ascii: byte)
                } else {
                    let start = position
                    position += length
                    emit(.punctuation, text(from: start), line: line)
                }
            }
        }
    }

    private mutating func readIdentifier() -> String {
        let start = position
        while let next = scalar(), Self.isIdentifierPart(next.scalar) { position += next.length }
        return text(from: start)
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while let byte = peek() {
            if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                depth += 1
                position += 2
            } else if byte == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                depth -= 1
                position += 2
                if depth == 0 { return }
            } else if Self.isLineEnd(byte) {
                skipLineEnd()
            } else {
                position += 1
            }
        }
    }

    /// True when `hashes` `#`s follow `offset` bytes on.
    private func hashesFollow(_ offset: Int, _ hashes: Int) -> Bool {
        (0..<hashes).allSatisfy { peek(offset + $0) == UInt8(ascii: "#") }
    }

    /// True when the closing delimiter of a literal (multi-line or not, with `hashes` `#`s) starts here.
    private func atClosingQuote(multiline: Bool, hashes: Int) -> Bool {
        let quote = UInt8(ascii: "\"")
        guard peek() == quote, !multiline || (peek(1) == quote && peek(2) == quote) else { return false }
        return hashesFollow(multiline ? 3 : 1, hashes)
    }

    /// Reads a string literal whose opening `"` is at the current position (after `hashes` `#`s), up to
    /// and including its closing delimiter, and returns its text.
    private mutating func readString(hashes: Int) -> String {
        let quote = UInt8(ascii: "\"")
        let multiline = peek(0) == quote && peek(1) == quote && peek(2) == quote
        position += multiline ? 3 : 1
        // A literal without escapes or line ends (most are): its text is one copy of its bytes, not a
        // buffer grown byte by byte and then copied (three times a long literal's size at the peak).
        var end = position
        while end < bytes.count, bytes[end] != quote, bytes[end] != UInt8(ascii: "\\"), !Self.isLineEnd(bytes[end]) { end += 1 }
        let plain = position
        position = end
        if !multiline, atClosingQuote(multiline: false, hashes: hashes) {
            defer { position += 1 + hashes }
            return text(from: plain)
        }
        position = plain
        literal.removeAll(keepingCapacity: true)
        defer { if literal.capacity > 1 << 16 { literal = [] } }
        while let byte = peek() {
            if atClosingQuote(multiline: multiline, hashes: hashes) {
                position += (multiline ? 3 : 1) + hashes
                return String(decoding: literal, as: UTF8.self)
            }
            if Self.isLineEnd(byte) {
                if !multiline { return String(decoding: literal, as: UTF8.self) }
                // A multi-line literal's line ends are `\n` whatever the file uses.
                skipLineEnd()
                literal.append(UInt8(ascii: "\n"))
                continue
            }
            if byte == UInt8(ascii: "\\") && hashesFollow(1, hashes) {
                let escaped = peek(1 + hashes)
                if escaped == UInt8(ascii: "(") {
                    position += 1 + hashes
                    literal += Array("\\(".utf8)
                    let inside = readInterpolation()
                    literal += UnsafeBufferPointer(rebasing: bytes[inside])
                    literal.append(UInt8(ascii: ")"))
                    continue
                }
                if Self.isLineEnd(escaped) {
                    // A line continuation in a multi-line literal.
                    position += 1 + hashes
                    skipLineEnd()
                    continue
                }
                position += 1 + hashes
                switch escaped {
                case UInt8(ascii: "n"): literal.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): literal.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "r"): literal.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "0"): literal.append(0)
                case UInt8(ascii: "u") where peek(1) == UInt8(ascii: "{"):
                    // `\u{1F600}`: one to eight hex digits.
                    position += 1
                    var digits = ""
                    var offset = 1
                    while let digit = peek(offset), Unicode.Scalar(digit).properties.isASCIIHexDigit, digits.count < 8 {
                        digits.unicodeScalars.append(Unicode.Scalar(digit))
                        offset += 1
                    }
                    if peek(offset) == UInt8(ascii: "}"), let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) {
                        literal += Array(String(scalar).utf8)
                        position += offset + 1
                    } else {
                        literal.append(UInt8(ascii: "u"))
                    }
                    continue
                default:
                    // The escaped character itself (`\"`, `\\`, `\'`…), however many bytes it takes.
                    guard let (_, length) = scalar() else { continue }
                    literal += UnsafeBufferPointer(rebasing: bytes[position..<(position + length)])
                    position += length
                    continue
                }
                position += 1
                continue
            }
            literal.append(byte)
            position += 1
        }
        return String(decoding: literal, as: UTF8.self)
    }

    /// Reads `( … )` of an interpolation, whose `(` is at the current position, and returns where the inside
    /// is (its bytes as written). Nested strings, raw strings and interpolations are followed with a stack,
    /// not by recursion, so no depth of nesting can overflow the call stack.
    private mutating func readInterpolation() -> Range<Int> {
        enum Frame {
            /// Code inside `\( … )`: how many parentheses are open (the interpolation's own included).
            case code(parentheses: Int)
            case string(hashes: Int, multiline: Bool)
        }
        let quote = UInt8(ascii: "\"")
        let hash = UInt8(ascii: "#")
        position += 1
        let start = position
        var stack: [Frame] = [.code(parentheses: 1)]
        while let byte = peek(), let frame = stack.last {
            switch frame {
            case .code(let parentheses):
                if byte == quote || byte == hash {
                    var hashes = 0
                    while peek(hashes) == hash { hashes += 1 }
                    if peek(hashes) == quote {
                        let multiline = peek(hashes + 1) == quote && peek(hashes + 2) == quote
                        position += hashes + (multiline ? 3 : 1)
                        stack.append(.string(hashes: hashes, multiline: multiline))
                        continue
                    }
                }
                if byte == UInt8(ascii: "(") { stack[stack.count - 1] = .code(parentheses: parentheses + 1) }
                if byte == UInt8(ascii: ")") {
                    if parentheses == 1 {
                        stack.removeLast()
                        if stack.isEmpty {
                            defer { position += 1 }
                            return start..<position
                        }
                        position += 1
                        continue
                    }
                    stack[stack.count - 1] = .code(parentheses: parentheses - 1)
                }
                if Self.isLineEnd(byte) {
                    skipLineEnd()
                    continue
                }
                position += 1
            case .string(let hashes, let multiline):
                if atClosingQuote(multiline: multiline, hashes: hashes) {
                    position += (multiline ? 3 : 1) + hashes
                    stack.removeLast()
                    continue
                }
                if Self.isLineEnd(byte) {
                    if !multiline {
                        // An unterminated string ends at the line's end, in the code around it.
                        stack.removeLast()
                        continue
                    }
                    skipLineEnd()
                    continue
                }
                if byte == UInt8(ascii: "\\") && hashesFollow(1, hashes) {
                    let escaped = peek(1 + hashes)
                    if escaped == UInt8(ascii: "(") {
                        // The interpolation's `(` opens the code frame.
                        position += 2 + hashes
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
        return start..<min(position, bytes.count)
    }
}
