/// What the fetch-site scanner looks up by name in one file, gathered in one pass over its tokens, so that
/// no site scans the file (or the rest of its scope) again: with a site per line, those scans made the
/// scanner's time grow with the square of the file.
struct SourceDeclarations {
    /// `name` → index of the first token of its initializer, for every `let`/`var name … = value` in the file
    /// (the first of each name).
    private(set) var initializers: [String: Int] = [:]
    /// The names `name` whose `_name` is assigned a `Query(…)` (a `@Query` configured in an initializer).
    private(set) var initializedQueries: Set<String> = []
    /// The names `name` whose `_name` is assigned a `FetchRequest(…)` (a `@FetchRequest` configured in an initializer).
    private(set) var initializedFetchRequests: Set<String> = []
    /// `name` → the index of each `var name`, in order.
    private(set) var variables: [String: [Int]] = [:]
    /// `name` → each `let`/`var name`, in order (``binding(of:at:qualified:in:)``).
    private(set) var declarations: [String: [NameDeclaration]] = [:]
    /// `name` → each `name = value`, `self.name = value` and `&name`, in order.
    private(set) var assignments: [String: [NameAssignment]] = [:]
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
            if token.text.hasPrefix("_"), index + 2 < tokens.count, tokens.isPunctuation(index + 1, UInt8(ascii: "=")), tokens[index + 2].isWord("FetchRequest") {
                initializedFetchRequests.insert(String(token.text.dropFirst()))
            }
            if let assignment = Self.assignment(at: index, tokens) { assignments[token.text, default: []].append(assignment) }
            guard token.text == "let" || token.text == "var", index + 2 < tokens.count, tokens[index + 1].kind == .identifier else { continue }
            let name = tokens[index + 1].text
            if token.text == "var" { variables[name, default: []].append(index) }
            // `if let p = p {`, `guard let p = p else`: bound by a condition, a value only at run time.
            let isCondition = index > 0 && (tokens[index - 1].isWord("if") || tokens[index - 1].isWord("guard") || tokens[index - 1].isWord("while")
                || tokens[index - 1].isWord("case") || tokens.isPunctuation(index - 1, UInt8(ascii: ",")))
            let value = isCondition ? nil : Self.initializer(after: index, tokens)
            declarations[name, default: []].append(NameDeclaration(keyword: index, value: value, isCondition: isCondition))
            if initializers[name] == nil, let value { initializers[name] = value }
        }
    }

    /// The index of the first token of the initializer of the `let`/`var` at `keyword` (after its name and
    /// type: `var p: NSPredicate = …`), nil when it has none on its line.
    private static func initializer(after keyword: Int, _ tokens: SwiftTokens) -> Int? {
        var j = keyword + 2
        var depth = 0
        while j < tokens.count, j < keyword + 40 {
            let next = tokens[j]
            if next.kind == .punctuation && (next.text == "(" || next.text == "[" || next.text == "<") { depth += 1 }
            if next.kind == .punctuation && (next.text == ")" || next.text == "]" || next.text == ">") { depth -= 1 }
            if depth <= 0, next.isPunctuation("="), tokens.infixOperator(at: j)?.text != "==" { return j + 1 }
            if depth <= 0, next.isPunctuation("{") || next.isPunctuation("}") || (next.startsLine && j > keyword + 2) { return nil }
            j += 1
        }
        return nil
    }

    /// The assignment whose name is the identifier at `index`: `name = value` or `self.name = value` where a
    /// statement starts (its line, or after `;`, `{`, `}` or a closure's `in`), or `&name` passed `inout`.
    private static func assignment(at index: Int, _ tokens: SwiftTokens) -> NameAssignment? {
        // `f(&name)`, `f(into: &name)`: an argument, not `a & b` or `a &&b`.
        if index > 1, tokens.isPunctuation(index - 1, UInt8(ascii: "&")), !tokens[index].precededBySpace,
           [UInt8(ascii: "("), UInt8(ascii: ","), UInt8(ascii: ":")].contains(where: { tokens.isPunctuation(index - 2, $0) }) {
            return NameAssignment(name: index, value: nil)
        }
        guard index + 2 < tokens.count, tokens.isPunctuation(index + 1, UInt8(ascii: "=")), tokens.infixOperator(at: index + 1) == nil else { return nil }
        var first = index
        if index >= 2, tokens.isPunctuation(index - 1, UInt8(ascii: ".")), tokens[index - 2].isWord("self") || tokens[index - 2].isWord("Self") {
            first = index - 2
        }
        let startsStatement = first == 0 || tokens[first].startsLine || tokens.isPunctuation(first - 1, UInt8(ascii: ";"))
            || tokens.isPunctuation(first - 1, UInt8(ascii: "{")) || tokens.isPunctuation(first - 1, UInt8(ascii: "}")) || tokens[first - 1].isWord("in")
        return startsStatement ? NameAssignment(name: index, value: index + 2) : nil
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
