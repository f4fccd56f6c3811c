/// A token of an `NSPredicate(format:)` string.
enum PredicateFormatToken: Equatable {
    /// A key path or keyword (`folder.name`, `AND`, `YES`, `@count`).
    case word(String)
    /// `%K`: a key given as an argument.
    case key
    /// `%@`, `%d`, `%f`…: a value given as an argument.
    case argument
    /// A quoted constant's text (`"…"` or `'…'`), its backslash escapes dropped.
    case string(String)
    case number(String)
    /// An operator, a parenthesis, or an option list such as `[cd]`.
    case symbol(String)
}

/// Splits an `NSPredicate(format:)` string into ``PredicateFormatToken``s, reading its UTF-8 bytes once
/// front to back: each token's text is made from its own bytes, so that the tokens take about the size of
/// the string (a `[Character]` of it took 16 bytes a character, and a 100 MB format string ran the process
/// out of memory). A scalar is decoded only where a byte outside ASCII starts one; what counts as white
/// space, a letter and a digit is Unicode's, as `Character`'s properties have it.
struct PredicateFormatTokenizer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var tokens: [PredicateFormatToken] = []

    /// The tokens of `format`.
    /// - Throws: ``Untranslatable`` when the format ends with `%`.
    static func tokenize(_ format: String) throws -> [PredicateFormatToken] {
        var format = format
        return try format.withUTF8 { bytes in
            var tokenizer = PredicateFormatTokenizer(bytes: bytes)
            try tokenizer.run()
            return tokenizer.tokens
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The scalar starting at `index` and its length in bytes (the bytes are a `String`'s: valid UTF-8).
    private func scalar(at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        UTF8Scalar.read(bytes, at: index)
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || ("\t"..."\r").contains(scalar) : scalar.properties.isWhitespace
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? ("0"..."9").contains(scalar) : scalar.properties.numericType != nil
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) : scalar.properties.isAlphabetic
    }

    /// A mark that combines with the scalar before it (one `Character` with it).
    private static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The operators of two characters, read before one-character ones.
    private static let pairs: Set<[UInt8]> = Set(["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"].map { Array($0.utf8) })

    private mutating func run() throws {
        while position < bytes.count {
            let byte = bytes[position]
            let (character, length) = scalar(at: position)
            if Self.isWhitespace(character) {
                position += length
            } else if byte == UInt8(ascii: "%") {
                var end = position + 1
                while end < bytes.count, bytes[end] == UInt8(ascii: "l") { end += 1 }
                guard end < bytes.count else { throw Untranslatable(reason: "NSPredicate format ends with `%`") }
                tokens.append(bytes[end] == UInt8(ascii: "K") ? .key : .argument)
                position = end + scalar(at: end).length
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                readQuoted(byte)
            } else if Self.isDigit(character) {
                let start = position
                while position < bytes.count {
                    let next = scalar(at: position)
                    guard Self.isDigit(next.scalar) || next.scalar == "." else { break }
                    position += next.length
                }
                tokens.append(.number(text(start..<position)))
            } else if Self.isLetter(character) || "_$@".unicodeScalars.contains(character) {
                let start = position
                while position < bytes.count {
                    let next = scalar(at: position)
                    guard Self.isLetter(next.scalar) || Self.isDigit(next.scalar) || Self.isCombining(next.scalar)
                            || "_.$@".unicodeScalars.contains(next.scalar) else { break }
                    position += next.length
                }
                tokens.append(.word(text(start..<position)))
            } else if byte == UInt8(ascii: "[") {
                var end = position
                while end < bytes.count, bytes[end] != UInt8(ascii: "]") { end += 1 }
                tokens.append(.symbol(text(position..<min(end + 1, bytes.count))))
                position = end + 1
            } else if position + 1 < bytes.count, Self.pairs.contains([byte, bytes[position + 1]]) {
                tokens.append(.symbol(text(position..<(position + 2))))
                position += 2
            } else {
                tokens.append(.symbol(text(position..<(position + length))))
                position += length
            }
        }
    }

    /// A constant quoted by `quote` from the current position to its closing quote (or the end): a
    /// backslash is dropped and the byte after it kept whatever it is. Without escapes, its text is one
    /// copy of its bytes.
    private mutating func readQuoted(_ quote: UInt8) {
        var end = position + 1
        var start = end
        var unescaped: [UInt8] = []
        while end < bytes.count, bytes[end] != quote {
            if bytes[end] == UInt8(ascii: "\\"), end + 1 < bytes.count {
                unescaped += UnsafeBufferPointer(rebasing: bytes[start..<end])
                end += 1
                start = end
            }
            end += 1
        }
        if unescaped.isEmpty && start == position + 1 {
            tokens.append(.string(text(start..<end)))
        } else {
            unescaped += UnsafeBufferPointer(rebasing: bytes[start..<end])
            tokens.append(.string(String(decoding: unescaped, as: UTF8.self)))
        }
        position = end + 1
    }
}
