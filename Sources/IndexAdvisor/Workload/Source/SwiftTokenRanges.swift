/// Bracket matching, argument lists and multi-character operators over ``SwiftLexer`` tokens (which
/// splits punctuation into single characters), for the fetch-site scanner. Brackets come matched from
/// ``SwiftTokens``, so none of these scans a nested group to step over it.
extension SwiftTokens {
    /// How many tokens a generic argument list may hold at its own level (``angleClosing(_:)``).
    static let angleScanLimit = 256

    /// The index of the bracket closing the one at `open` (`(`, `[`, `{`, or `<` of a generic argument
    /// list), or the last index when it is not closed; `open` itself for any other token.
    func closing(_ open: Int) -> Int {
        guard open >= 0, open < count else { return open }
        if let bracket = bracket(at: open) {
            guard bracket.opens else { return open }
            return partner(of: open) ?? count - 1
        }
        guard isPunctuation(open, UInt8(ascii: "<")) else { return open }
        return angleClosing(open) ?? count - 1
    }

    /// The `>` closing the generic argument list that the `<` at `open` starts; nil when it is a less-than
    /// sign: no `>` closes it before a token that no argument list holds (`{`, `}`, `;`, `=`, a bracket
    /// closing a group around it, an unclosed one) or within ``angleScanLimit`` tokens. Bracketed groups inside count as one token.
    func angleClosing(_ open: Int) -> Int? {
        var depth = 0
        var index = open
        var steps = 0
        while index < count, steps < Self.angleScanLimit {
            steps += 1
            if let bracket = bracket(at: index) {
                guard bracket.opens, bracket.pair != 2, let close = partner(of: index) else { return nil }
                index = close + 1
                continue
            }
            let token = self[index]
            if token.kind == .punctuation {
                switch token.text {
                case "<": depth += 1
                // `->` inside generic arguments is no closing angle bracket.
                case ">" where !(index > 0 && isPunctuation(index - 1, UInt8(ascii: "-")) && !token.precededBySpace):
                    depth -= 1
                    if depth == 0 { return index }
                case ";", "=": return nil
                default: break
                }
            }
            index += 1
        }
        return nil
    }

    /// The top-level arguments between the parentheses (or brackets) at `open`: each with its label
    /// (`predicate` in `predicate: p`) and the token range of its value.
    /// In a declaration's parameter list (`declaration`), a generic argument list is one group (`KeyPath<Root, Value>`).
    func arguments(_ open: Int, declaration: Bool = false) -> [(label: String?, range: Range<Int>)] {
        let close = closing(open)
        var result: [(String?, Range<Int>)] = []
        var start = open + 1
        var index = open + 1
        func finish(_ end: Int) {
            guard start < end else { return }
            if end - start >= 2, self[start].kind == .identifier, isPunctuation(start + 1, UInt8(ascii: ":")),
               !(start + 2 < end && isPunctuation(start + 2, UInt8(ascii: ":"))) {
                result.append((self[start].text, (start + 2)..<end))
            } else {
                result.append((nil, start..<end))
            }
        }
        while index < close {
            if let bracket = bracket(at: index), bracket.opens, let inner = partner(of: index), inner < close {
                index = inner + 1
                continue
            }
            if declaration, isPunctuation(index, UInt8(ascii: "<")), let inner = angleClosing(index), inner < close {
                index = inner + 1
                continue
            }
            if isPunctuation(index, UInt8(ascii: ",")) {
                finish(index)
                start = index + 1
            }
            index += 1
        }
        finish(close)
        return result
    }

    /// The operator starting at `index` made of adjacent punctuation (`==`, `!=`, `<=`, `&&`, `||`, `??`),
    /// longest first, and its length in tokens; nil when there is none.
    func infixOperator(at index: Int) -> (text: String, length: Int)? {
        guard index < count, self[index].kind == .punctuation else { return nil }
        for candidate in Self.infixOperators {
            let length = candidate.bytes.count
            guard index + length <= count else { continue }
            var matches = true
            for offset in 0..<length where !isPunctuation(index + offset, candidate.bytes[offset]) || (offset > 0 && self[index + offset].precededBySpace) {
                matches = false
                break
            }
            if matches { return (candidate.text, length) }
        }
        return nil
    }

    /// The operators ``infixOperator(at:)`` reads, longest first.
    private static let infixOperators: [(text: String, bytes: [UInt8])] = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "<", ">"]
        .map { ($0, Array($0.utf8)) }

    /// The end of the innermost `{ … }` scope that contains `index` (its closing brace), or the end of the
    /// tokens: a closing brace at `index` is its own scope's end, groups at `index` are stepped over whole.
    func scopeEnd(containing index: Int) -> Int {
        var position = index
        while position < count {
            guard let bracket = bracket(at: position) else {
                guard let brace = enclosingBrace(of: position) else { return count }
                return partner(of: brace) ?? count
            }
            if bracket.pair == 2 && !bracket.opens { return position }
            position = bracket.opens ? (partner(of: position) ?? position) + 1 : position + 1
        }
        return count
    }

    /// The end of an initializer's or assignment's expression starting at `start` (its first line, brackets
    /// followed).
    func expressionEnd(from start: Int) -> Int {
        var end = start
        while end < count {
            let token = self[end]
            if end > start && (token.startsLine || token.isPunctuation(";") || token.isPunctuation("}") || token.isPunctuation(")")) { break }
            if token.kind == .punctuation && "([{".contains(token.text) { end = closing(end) + 1 }
            else if token.kind == .punctuation && token.text == "<" && !token.precededBySpace { end = (angleClosing(end) ?? end) + 1 }
            else { end += 1 }
        }
        return end
    }

    /// The innermost `{` around the token at `index`, which may be a bracket itself (a `{`'s is the brace
    /// around it, not itself); nil outside every brace.
    func brace(around index: Int) -> Int? {
        var position = index - 1
        while position >= 0 {
            guard let bracket = bracket(at: position) else { return enclosingBrace(of: position) }
            if bracket.opens {
                if bracket.pair == 2 { return position }
                position -= 1
            } else {
                position = (partner(of: position) ?? position) - 1
            }
        }
        return nil
    }

    /// True when the brace `brace` (nil: the whole file) holds the token at `index`.
    func brace(_ brace: Int?, holds index: Int) -> Bool {
        guard let brace else { return true }
        return brace < index && index < (partner(of: brace) ?? count)
    }

    /// The words that begin the statement or declaration the `{` at `brace` opens (`final class Note:
    /// NSManagedObject`, `for item in items`, `} else`), from the first token of its line or after the `;`,
    /// `{` or `}` before it, groups stepped over: identifiers only.
    func head(ofBrace brace: Int) -> [String] {
        var words: [String] = []
        var position = brace - 1
        while position >= 0 {
            if let bracket = bracket(at: position) {
                if bracket.pair == 2 { break }
                if !bracket.opens { position = partner(of: position) ?? position }
                if self[position].startsLine { break }
                position -= 1
                continue
            }
            let token = self[position]
            if token.isPunctuation(";") { break }
            if token.kind == .identifier { words.append(token.text) }
            if token.startsLine { break }
            position -= 1
        }
        return words.reversed()
    }

    /// The text of the tokens in `range`, separated as they were (a space where white space was).
    func text(_ range: Range<Int>) -> String {
        var result = ""
        for index in range where index < count {
            let token = self[index]
            if index != range.lowerBound && token.precededBySpace { result += " " }
            switch token.kind {
            case .string: result += "\"" + token.text + "\""
            case .attribute: result += "@" + token.text
            case .pound: result += "#" + token.text
            default: result += token.text
            }
        }
        return result
    }
}
