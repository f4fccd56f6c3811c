/// Why a fetch site cannot be translated: one line for the report.
struct Untranslatable: Error, Equatable {
    var reason: String

    /// How deep a predicate or sort may nest (parentheses, `!`, compound predicates, names followed; a chain
    /// `a && b && …` is one level however long) before the site is reported untranslated: the readers
    /// recurse per level, and the stack is finite.
    static let maxNesting = 500

    /// A site nested deeper than ``maxNesting``.
    static let tooDeep = Untranslatable(reason: "the predicate or sort is nested deeper than \(maxNesting) levels: not read")

    /// The most terms one predicate or sort may have once its names are followed (``PredicateNode/terms``;
    /// a sort's terms are its keys): a predicate past it is SQL no real fetch prints, and names that each use
    /// the one before twice would double it at every level.
    static let maxTerms = 1_000

    /// A predicate or sort (`what`) of more than ``maxTerms`` terms: `terms` where reading it stopped.
    static func tooLarge(_ what: String, terms: Int) -> Untranslatable {
        Untranslatable(reason: "\(what) too large (\(Figures.count(terms)) terms, limit \(Figures.count(maxTerms)))")
    }
}

/// Reads the closure of a `#Predicate<T> { … }` into a ``PredicateNode``: comparisons of key paths with
/// values (`==`, `!=`, `<`, `<=`, `>`, `>=`, either side), `&&`, `||`, `!`, optional chaining (`?.`), `nil`,
/// `contains` and `localizedStandardContains`, and a Bool key path on its own. Anything that does not use
/// the closure's parameter is a value captured at run time (a `?` parameter). What Core Data cannot turn
/// into SQL from the source alone — a `#Expression`, a method other than those, a value that decides the
/// predicate's shape at run time, several statements — throws ``Untranslatable`` with the reason.
struct SwiftPredicateParser {
    private let tokens: SwiftTokens
    private var position: Int
    private let end: Int
    /// `$0` or the closure's named parameter.
    private let parameter: String
    /// Levels of nesting entered so far (bounded by ``Untranslatable/maxNesting``).
    private var depth: Int

    /// Parses the closure whose `{` is at `open`.
    static func parse(_ tokens: SwiftTokens, closureAt open: Int) throws -> PredicateNode {
        let close = tokens.closing(open)
        guard close > open, tokens[close].isPunctuation("}") else { throw Untranslatable(reason: "the #Predicate's closure is not closed") }
        var start = open + 1
        var parameter = "$0"
        // `{ note in …}`, `{ (note: Note) in …}`, `{ note -> Bool in …}`.
        if let inIndex = (start..<min(close, start + 12)).first(where: { tokens[$0].isWord("in") }) {
            if let name = (start..<inIndex).first(where: { tokens[$0].kind == .identifier }).map({ tokens[$0].text }) { parameter = name }
            start = inIndex + 1
        }
        if start < close, tokens[start].isWord("return") { start += 1 }
        guard start < close else { return .always }
        var parser = SwiftPredicateParser(tokens: tokens, position: start, end: close, parameter: parameter, depth: 0)
        let term = try parser.expression()
        if parser.position < close {
            throw Untranslatable(reason: "the closure has more than one expression (from `\(tokens.text(parser.position..<min(close, parser.position + 6)))`): only a single expression is read")
        }
        return try parser.predicate(term)
    }

    private enum Term {
        case predicate(PredicateNode)
        case keyPath(KeyPathReference)
        /// A literal (its value) or a value captured at run time (nil), with its source text.
        case value(SQLValue?, String)
        case null
        case boolean(Bool)
    }

    private init(tokens: SwiftTokens, position: Int, end: Int, parameter: String, depth: Int) {
        self.tokens = tokens
        self.position = position
        self.end = end
        self.parameter = parameter
        self.depth = depth
    }

    /// Counts one more level of nesting (an operand: parentheses and `!` nest, a chain's links do not).
    private mutating func enter() throws {
        depth += 1
        if depth > Untranslatable.maxNesting { throw Untranslatable.tooDeep }
    }

    private var current: SwiftLexer.Token? { position < end ? tokens[position] : nil }

    private mutating func expression() throws -> Term {
        try disjunction()
    }

    private mutating func disjunction() throws -> Term {
        try chain("||", .or) { try $0.conjunction() }
    }

    private mutating func conjunction() throws -> Term {
        try chain("&&", .and) { try $0.comparison() }
    }

    /// `operand (symbol operand)*`: one operand alone, or a ``PredicateNode/chain(_:_:)`` of them (one
    /// level however long: a chain is long, not deep).
    private mutating func chain(_ symbol: String, _ junction: PredicateJunction,
                                of operand: (inout SwiftPredicateParser) throws -> Term) throws -> Term {
        let first = try operand(&self)
        var parts: [PredicateNode] = []
        while let op = tokens.infixOperator(at: position), position < end, op.text == symbol {
            if parts.isEmpty { parts.append(try predicate(first)) }
            position += op.length
            parts.append(try predicate(try operand(&self)))
        }
        return parts.isEmpty ? first : .predicate(.chain(junction, parts))
    }

    private mutating func comparison() throws -> Term {
        let left = try coalescing()
        guard position < end, let op = tokens.infixOperator(at: position), ["==", "!=", "<", "<=", ">", ">=", "===", "!=="].contains(op.text) else {
            return left
        }
        position += op.length
        let right = try coalescing()
        return .predicate(try compare(left, op.text, right))
    }

    private mutating func coalescing() throws -> Term {
        let left = try unary()
        if position < end, let op = tokens.infixOperator(at: position), op.text == "??" {
            throw Untranslatable(reason: "`??` in the predicate: Core Data's SQL for a nil-coalescing default is not known")
        }
        return left
    }

    private mutating func unary() throws -> Term {
        try enter()
        defer { depth -= 1 }
        guard let token = current else { throw Untranslatable(reason: "the predicate ends early") }
        if token.isPunctuation("!") {
            position += 1
            return .predicate(.not(try predicate(try unary())))
        }
        if token.isPunctuation("-"), position + 1 < end, tokens[position + 1].kind == .number {
            // `-9223372036854775808` is Int64.min, whose magnitude alone is no Int64.
            let digits = tokens[position + 1].text
            if let integer = Int64("-" + digits.replacingOccurrences(of: "_", with: "")) {
                position += 2
                return .value(.integer(integer), "-" + digits)
            }
            position += 1
            if case .value(let value?, let text) = try primary() {
                switch value {
                case .integer(let number): return .value(.integer(-number), "-" + text)
                case .real(let number): return .value(.real(-number), "-" + text)
                default: break
                }
            }
            return .value(nil, "-")
        }
        return try primary()
    }

    private mutating func primary() throws -> Term {
        guard let token = current else { throw Untranslatable(reason: "the predicate ends early") }
        switch token.kind {
        case .punctuation where token.text == "(":
            let close = tokens.closing(position)
            var inner = SwiftPredicateParser(tokens: tokens, position: position + 1, end: close, parameter: parameter, depth: depth)
            let term = try inner.expression()
            if inner.position < close { throw Untranslatable(reason: "a tuple or unexpected `\(tokens.text(inner.position..<close))` in the predicate") }
            position = close + 1
            return term
        case .punctuation where token.text == "$":
            if "$" + (position + 1 < end ? tokens[position + 1].text : "") == parameter {
                position += 2
                return try keyPath()
            }
            throw Untranslatable(reason: "`$\(position + 1 < end ? tokens[position + 1].text : "")` is not the closure's parameter")
        case .identifier where token.text == parameter:
            position += 1
            return try keyPath()
        case .identifier where token.text == "true" || token.text == "false":
            position += 1
            return .boolean(token.text == "true")
        case .identifier where token.text == "nil":
            position += 1
            return .null
        case .number:
            position += 1
            let text = token.text.replacingOccurrences(of: "_", with: "")
            if let integer = Int64(text) { return .value(.integer(integer), token.text) }
            if let real = Double(text) { return .value(.real(real), token.text) }
            return .value(nil, token.text)
        case .string:
            position += 1
            return .value(token.text.contains("\\(") ? nil : .text(token.text), "\"" + token.text + "\"")
        case .pound where token.text == "Expression":
            throw Untranslatable(reason: "a #Expression in the predicate: Core Data evaluates it, its SQL cannot be read from the source")
        default:
            return try capturedValue()
        }
    }

    /// The key path after the parameter: `.a`, `?.b`, `!.c`, and a method at its end.
    private mutating func keyPath() throws -> Term {
        var path = KeyPathReference(components: [])
        while position < end {
            let token = tokens[position]
            if token.isPunctuation("?") || token.isPunctuation("!"), !token.precededBySpace, position + 1 < end, tokens[position + 1].isPunctuation(".") {
                path.optionalChain = path.optionalChain || token.text == "?"
                position += 1
                continue
            }
            guard token.isPunctuation("."), position + 1 < end, tokens[position + 1].kind == .identifier else { break }
            let name = tokens[position + 1].text
            position += 2
            if position < end, tokens[position].isPunctuation("("), !tokens[position].precededBySpace {
                return try method(name, on: path)
            }
            if position < end, tokens[position].isPunctuation("{") {
                throw Untranslatable(reason: "`\(name) { … }` on `\(path.text)`: a closure over a relationship is not translated")
            }
            path.components.append(name)
        }
        if path.components.isEmpty { throw Untranslatable(reason: "the predicate uses its parameter itself, not a property of it") }
        return .keyPath(path)
    }

    private mutating func method(_ name: String, on path: KeyPathReference) throws -> Term {
        let open = position
        let close = tokens.closing(open)
        guard close > open, close < end else { throw Untranslatable(reason: "`\(path.text).\(name)(` is not closed") }
        let arguments = tokens.arguments(open)
        position = close + 1
        switch name {
        case "contains", "localizedStandardContains":
            guard arguments.count == 1, arguments[0].label == nil else {
                throw Untranslatable(reason: "`\(path.text).\(name)(\(tokens.text((open + 1)..<close)))`: a closure or labelled argument is not a string search")
            }
            var inner = SwiftPredicateParser(tokens: tokens, position: arguments[0].range.lowerBound, end: arguments[0].range.upperBound,
                                             parameter: parameter, depth: depth)
            let argument = try inner.expression()
            guard case .value(let value, _) = argument else {
                throw Untranslatable(reason: "`\(path.text).\(name)(…)` searches for something other than a value")
            }
            return .predicate(.search(path, name == "contains" ? .contains : .containsInsensitive, .value(value)))
        default:
            throw Untranslatable(reason: "`\(path.text).\(name)(…)` in the predicate: only contains and localizedStandardContains are translated")
        }
    }

    /// A value that does not involve the parameter: an identifier chain with calls and subscripts
    /// (`folder.id`, `Date.now`, `.distantPast`, `f(x)`), captured at run time.
    private mutating func capturedValue() throws -> Term {
        let start = position
        var depthEnd = position
        while depthEnd < end {
            let token = tokens[depthEnd]
            let afterDot = depthEnd > start && tokens[depthEnd - 1].isPunctuation(".")
            if token.kind == .identifier || token.kind == .number {
                if depthEnd > start && !afterDot { break }
                depthEnd += 1
            } else if token.isPunctuation(".") {
                guard depthEnd + 1 < end, tokens[depthEnd + 1].kind == .identifier else { break }
                depthEnd += 1
            } else if (token.isPunctuation("?") || token.isPunctuation("!")) && !token.precededBySpace && depthEnd > start
                        && depthEnd + 1 < end && tokens[depthEnd + 1].isPunctuation(".") {
                depthEnd += 1
            } else if token.isPunctuation("(") || token.isPunctuation("[") {
                if depthEnd > start && token.precededBySpace { break }
                depthEnd = tokens.closing(depthEnd) + 1
            } else {
                break
            }
        }
        guard depthEnd > start else { throw Untranslatable(reason: "unexpected `\(tokens[start].text)` in the predicate") }
        let range = start..<depthEnd
        if range.contains(where: { tokens[$0].text == parameter || ("$" + ($0 + 1 < end ? tokens[$0 + 1].text : "") == parameter && tokens[$0].isPunctuation("$")) }) {
            throw Untranslatable(reason: "`\(tokens.text(range))` passes the fetched object to a function: Core Data cannot run it in SQL")
        }
        position = depthEnd
        return .value(nil, tokens.text(range))
    }

    private func compare(_ left: Term, _ op: String, _ right: Term) throws -> PredicateNode {
        if op == "===" || op == "!==" {
            throw Untranslatable(reason: "`\(op)` compares identity: an identity comparison is not translated")
        }
        let flipped = ["<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="]
        let sqlOp = op
        switch (left, right) {
        case (.keyPath(let path), .value(let value, _)): return .comparison(path, sqlOp, .value(value))
        case (.value(let value, _), .keyPath(let path)): return .comparison(path, flipped[op] ?? op, .value(value))
        case (.keyPath(let path), .boolean(let flag)): return .comparison(path, sqlOp, .value(.integer(flag ? 1 : 0)))
        case (.boolean(let flag), .keyPath(let path)): return .comparison(path, flipped[op] ?? op, .value(.integer(flag ? 1 : 0)))
        case (.keyPath(let path), .null), (.null, .keyPath(let path)):
            guard op == "==" || op == "!=" else { throw Untranslatable(reason: "`\(path.text)` ordered against nil") }
            return .comparison(path, op, .null)
        case (.predicate(let node), .boolean(let flag)), (.boolean(let flag), .predicate(let node)):
            guard op == "==" || op == "!=" else { throw Untranslatable(reason: "a condition ordered against a Bool") }
            return (flag == (op == "==")) ? node : .not(node)
        case (.keyPath(let a), .keyPath(let b)):
            throw Untranslatable(reason: "`\(a.text)` compared with `\(b.text)`: two key paths of the fetched object")
        case (.value(_, let text), _), (_, .value(_, let text)):
            throw Untranslatable(reason: "`\(text)` is compared without a key path of the fetched object: the predicate depends on a value captured at run time")
        default:
            throw Untranslatable(reason: "a comparison without a key path of the fetched object")
        }
    }

    private func predicate(_ term: Term) throws -> PredicateNode {
        switch term {
        case .predicate(let node): return node
        case .keyPath(let path): return .truth(path)
        case .boolean(let flag): return flag ? .always : .not(.always)
        case .value(_, let text):
            throw Untranslatable(reason: "`\(text)` decides the predicate at run time: a dynamic predicate, its SQL depends on values the source does not show")
        case .null: throw Untranslatable(reason: "`nil` used as a condition")
        }
    }
}
