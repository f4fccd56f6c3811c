/// The tokens of one Swift file (``SwiftLexer/tokenize(_:)``), stored compactly: 13 bytes a token (the
/// number of its text in a table of the file's distinct texts, its line, its kind and spacing, and its
/// bracket link) instead of a `String` and an `Int` each, so that a file's tokens take a small multiple of
/// its size. Reading one (`tokens[i]`) gives a ``SwiftLexer/Token``.
///
/// Brackets are matched once, when the tokens are made: ``partner(of:)`` and ``enclosingBrace(of:)`` answer
/// in constant time what a scan from the bracket would find, so that reading nested arguments level by
/// level takes time in proportion to the tokens, not to the tokens times the depth.
struct SwiftTokens: RandomAccessCollection {
    typealias Index = Int
    typealias Element = SwiftLexer.Token

    /// Each distinct text once; the first 128 are the ASCII characters (a punctuation token's is its byte).
    private var texts: [String]
    private var numbers: [UInt32] = []
    private var lines: [UInt32] = []
    /// The kind's raw value in the low three bits, then `startsLine` (8) and `precededBySpace` (16).
    private var flags: [UInt8] = []
    /// For a bracket (`(`, `[`, `{`, `)`, `]`, `}`): the index of the bracket matching it, -1 when none does.
    /// For any other token: the index of the innermost `{` around it, -1 outside every brace.
    private var links: [Int32] = []
    /// The number of each text while tokens are added (dropped by ``finish()``).
    private var numberOfText: [String: UInt32] = [:]
    /// Counts the tokens read, when set: how tests bound the work a scan does, without a clock.
    var reads: TokenReadCounter?

    var startIndex: Int { 0 }
    var endIndex: Int { numbers.count }

    init() {
        texts = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
    }

    subscript(position: Int) -> SwiftLexer.Token {
        reads?.count += 1
        let flag = flags[position]
        return SwiftLexer.Token(kind: SwiftLexer.Token.Kind(rawValue: flag & 7) ?? .punctuation, text: texts[Int(numbers[position])],
                                line: Int(lines[position]), startsLine: flag & 8 != 0, precededBySpace: flag & 16 != 0)
    }

    // MARK: Making

    /// Adds a token whose text is the ASCII character `byte`.
    mutating func append(_ kind: SwiftLexer.Token.Kind, ascii byte: UInt8, line: Int, startsLine: Bool, precededBySpace: Bool) {
        add(kind, number: UInt32(byte), line: line, startsLine: startsLine, precededBySpace: precededBySpace)
    }

    /// Adds a token with `text`.
    mutating func append(_ kind: SwiftLexer.Token.Kind, _ text: String, line: Int, startsLine: Bool, precededBySpace: Bool) {
        let number: UInt32
        if text.utf8.count == 1, let byte = text.utf8.first, byte < 128 {
            number = UInt32(byte)
        } else if let known = numberOfText[text] {
            number = known
        } else {
            number = UInt32(texts.count)
            texts.append(text)
            numberOfText[text] = number
        }
        add(kind, number: number, line: line, startsLine: startsLine, precededBySpace: precededBySpace)
    }

    private mutating func add(_ kind: SwiftLexer.Token.Kind, number: UInt32, line: Int, startsLine: Bool, precededBySpace: Bool) {
        numbers.append(number)
        lines.append(UInt32(clamping: line))
        flags.append(kind.rawValue | (startsLine ? 8 : 0) | (precededBySpace ? 16 : 0))
    }

    /// Matches the brackets, in one pass with a stack, and drops what only making needed. A closing bracket
    /// matches the innermost open one of its kind; those open inside it stay unclosed, and one with none of
    /// its kind open matches nothing.
    mutating func finish() {
        numberOfText = [:]
        links = Array(repeating: -1, count: count)
        // The open brackets, innermost last, and the open braces among them (4 bytes each: a file of
        // brackets that never close keeps them all).
        var open: [Int32] = []
        var braces: [Int32] = []
        var openOfPair = [0, 0, 0]
        for index in 0..<count {
            guard let bracket = bracket(at: index) else {
                links[index] = braces.last ?? -1
                continue
            }
            if bracket.opens {
                open.append(Int32(index))
                if bracket.pair == 2 { braces.append(Int32(index)) }
                openOfPair[bracket.pair] += 1
                continue
            }
            guard openOfPair[bracket.pair] > 0 else { continue }
            while let last = open.popLast() {
                let pair = self.bracket(at: Int(last))?.pair ?? 0
                openOfPair[pair] -= 1
                if pair == 2 { braces.removeLast() }
                if pair == bracket.pair {
                    links[index] = last
                    links[Int(last)] = Int32(index)
                    break
                }
            }
        }
    }

    // MARK: Reading

    /// The bracket at `index`: its pair (0 parentheses, 1 square brackets, 2 braces) and whether it opens
    /// one; nil for any other token.
    func bracket(at index: Int) -> (pair: Int, opens: Bool)? {
        reads?.count += 1
        guard flags[index] & 7 == SwiftLexer.Token.Kind.punctuation.rawValue else { return nil }
        switch numbers[index] {
        case 0x28: return (0, true)
        case 0x29: return (0, false)
        case 0x5B: return (1, true)
        case 0x5D: return (1, false)
        case 0x7B: return (2, true)
        case 0x7D: return (2, false)
        default: return nil
        }
    }

    /// True when the token at `index` is the punctuation whose text is the ASCII character `byte`.
    func isPunctuation(_ index: Int, _ byte: UInt8) -> Bool {
        reads?.count += 1
        return numbers[index] == UInt32(byte) && flags[index] & 7 == SwiftLexer.Token.Kind.punctuation.rawValue
    }

    /// The bracket matching the one at `index`; nil when none does, or when the token is no bracket.
    func partner(of index: Int) -> Int? {
        guard bracket(at: index) != nil, links[index] >= 0 else { return nil }
        return Int(links[index])
    }

    /// The innermost `{` around the token at `index`, which is no bracket; nil outside every brace.
    func enclosingBrace(of index: Int) -> Int? {
        guard bracket(at: index) == nil, links[index] >= 0 else { return nil }
        return Int(links[index])
    }
}

/// Counts the tokens a scan reads (``SwiftTokens/reads``): a measure of its work that no clock affects.
final class TokenReadCounter {
    var count = 0
}
