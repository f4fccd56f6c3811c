/// What the fetch-site scanner looks up by name in one file, gathered in one pass over its tokens, so that
/// no site scans the file (or the rest of its scope) again: with a site per line, those scans made the
/// scanner's time grow with the square of the file.
struct SourceDeclarations {
    /// `name` → index of the first token of its initializer, for every `let`/`var name … = value` in the file
    /// (the first of each name).
    private(set) var initializers: [String: Int] = [:]
    /// The names `name` whose `_name` is assigned a `Query(…)` (a `@Query` configured in an initializer).
    private(set) var initializedQueries: Set<String> = []
    /// `name` → the index of each `var name`, in order.
    private(set) var variables: [String: [Int]] = [:]
    /// `name` → the index of each `name` that a `.` or a `)` follows (`name.fetchLimit = 20`,
    /// `count(for: name)`), in order.
    private var uses: [String: [Int]] = [:]

    init(_ tokens: SwiftTokens) {
        let dot = UInt8(ascii: ".")
        let close = UInt8(ascii: ")")
        for index in tokens.indices {
            let token = tokens[index]
            guard token.kind == .identifier else { continue }
            if index + 1 < tokens.count, tokens.isPunctuation(index + 1, dot) || tokens.isPunctuation(index + 1, close) {
                uses[token.text, default: []].append(index)
            }
            if token.text.hasPrefix("_"), index + 2 < tokens.count, tokens.isPunctuation(index + 1, UInt8(ascii: "=")), tokens[index + 2].isWord("Query") {
                initializedQueries.insert(String(token.text.dropFirst()))
            }
            guard token.text == "let" || token.text == "var", index + 2 < tokens.count, tokens[index + 1].kind == .identifier else { continue }
            let name = tokens[index + 1].text
            if token.text == "var" { variables[name, default: []].append(index) }
            guard initializers[name] == nil else { continue }
            var j = index + 2
            var depth = 0
            while j < tokens.count, j < index + 40 {
                let next = tokens[j]
                if next.kind == .punctuation && (next.text == "(" || next.text == "[" || next.text == "<") { depth += 1 }
                if next.kind == .punctuation && (next.text == ")" || next.text == "]" || next.text == ">") { depth -= 1 }
                if depth <= 0, next.isPunctuation("="), tokens.infixOperator(at: j)?.text != "==" {
                    initializers[name] = j + 1
                    break
                }
                if depth <= 0, next.isPunctuation("{") || next.isPunctuation("}") || (next.startsLine && j > index + 2) { break }
                j += 1
            }
        }
    }

    /// The indices of `name` followed by `.` or `)` within `range`, in order.
    func uses(of name: String, in range: Range<Int>) -> ArraySlice<Int> {
        guard let all = uses[name] else { return [] }
        return all[first(in: all, atLeast: range.lowerBound)..<first(in: all, atLeast: range.upperBound)]
    }

    /// The position in `sorted` of its first value at least `value`.
    private func first(in sorted: [Int], atLeast value: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
