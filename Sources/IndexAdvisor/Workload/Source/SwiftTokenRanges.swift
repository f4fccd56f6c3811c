/// Bracket matching, argument lists and multi-character operators over ``SwiftLexer`` tokens (which
/// splits punctuation into single characters), for the fetch-site scanner.
extension Array where Element == SwiftLexer.Token {
    /// The index of the bracket closing the one at `open` (`(`, `[`, `{`, or `<` of a generic argument
    /// list), or the last index when it is not closed.
    func closing(_ open: Int) -> Int {
        let pairs: [String: String] = ["(": ")", "[": "]", "{": "}", "<": ">"]
        guard open < count, let closer = pairs[self[open].text], self[open].kind == .punctuation else { return open }
        let opener = self[open].text
        var depth = 0
        var index = open
        while index < count {
            let token = self[index]
            if token.kind == .punctuation {
                if token.text == opener { depth += 1 }
                if token.text == closer {
                    // `->` inside generic arguments is no closing angle bracket.
                    if !(closer == ">" && index > 0 && self[index - 1].isPunctuation("-") && !token.precededBySpace) {
                        depth -= 1
                        if depth == 0 { return index }
                    }
                }
            }
            index += 1
        }
        return count - 1
    }

    /// The top-level arguments between the parentheses (or brackets) at `open`: each with its label
    /// (`predicate` in `predicate: p`) and the token range of its value.
    func arguments(_ open: Int) -> [(label: String?, range: Range<Int>)] {
        let close = closing(open)
        var result: [(String?, Range<Int>)] = []
        var start = open + 1
        var depth = 0
        var index = open + 1
        func finish(_ end: Int) {
            guard start < end else { return }
            if end - start >= 2, self[start].kind == .identifier, self[start + 1].isPunctuation(":"),
               !(start + 2 < end && self[start + 2].isPunctuation(":")) {
                result.append((self[start].text, (start + 2)..<end))
            } else {
                result.append((nil, start..<end))
            }
        }
        while index < close {
            let token = self[index]
            if token.kind == .punctuation {
                if "([{".contains(token.text) { depth += 1 }
                if ")]}".contains(token.text) { depth -= 1 }
                if token.text == "," && depth == 0 {
                    finish(index)
                    start = index + 1
                }
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
        let candidates = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "<", ">"]
        for candidate in candidates {
            let characters = candidate.map(String.init)
            guard index + characters.count <= count else { continue }
            var matches = true
            for (offset, character) in characters.enumerated() {
                let token = self[index + offset]
                if !token.isPunctuation(character) || (offset > 0 && token.precededBySpace) {
                    matches = false
                    break
                }
            }
            if matches { return (candidate, characters.count) }
        }
        return nil
    }

    /// The end of the innermost `{ … }` scope that contains `index` (its closing brace), or the end of the tokens.
    func scopeEnd(containing index: Int) -> Int {
        var depth = 0
        var position = index
        while position < count {
            if self[position].isPunctuation("{") { depth += 1 }
            if self[position].isPunctuation("}") {
                depth -= 1
                if depth < 0 { return position }
            }
            position += 1
        }
        return count
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
