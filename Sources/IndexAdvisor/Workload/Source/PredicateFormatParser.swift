/// An argument of `NSPredicate(format:…)` as the source shows it.
enum FormatArgument: Equatable {
    /// A literal (`"Groceries"`, `42`, `true`): its value.
    case literal(SQLValue)
    /// `nil`.
    case null
    /// A key path for `%K`: a string literal or `#keyPath(Note.title)`.
    case key(String)
    /// A value captured at run time, with its source text.
    case captured(String)

    /// True for a literal or `nil`: a value the source spells out.
    var isLiteral: Bool {
        switch self {
        case .literal, .null: return true
        case .key, .captured: return false
        }
    }
}

/// Reads an `NSPredicate(format:)` string into a ``PredicateNode``: comparisons (`==`, `=`, `!=`, `<>`,
/// `<`, `<=`, `=<`, `>`, `>=`, `=>`) of key paths with `%@`/`%d`/`%f`… arguments, literals, `nil`, `YES`/`NO`,
/// `%K` keys, `AND`/`&&`, `OR`/`||`, `NOT`/`!`, parentheses, `CONTAINS` and `CONTAINS[cd]`, and
/// `TRUEPREDICATE`. `%K IN %@` on an attribute; `ANY`/`ALL`/`SUBQUERY`, `BEGINSWITH`, `LIKE`, `MATCHES` and other string options
/// throw ``Untranslatable`` naming the construct.
///
/// A chain (`a AND b AND …`) is one level however long (``PredicateNode/chain(_:_:)``); parentheses and
/// `NOT` nest. The terms are counted as they are read: past ``Untranslatable/maxTerms`` the rest is read on
/// for its count only, and the predicate is refused as too large with the whole count. A format string
/// longer than ``maxFormatBytes`` is not read.
struct PredicateFormatParser {
    private typealias Token = PredicateFormatToken

    /// The longest format string read, in UTF-8 bytes: a predicate of at most ``Untranslatable/maxTerms``
    /// terms that no real fetch prints is longer only by its constants, and its SQL would bind them.
    static let maxFormatBytes = 1_000_000

    private var tokens: [Token] = []
    private var position = 0
    private var arguments: [FormatArgument]
    /// The next argument to take (``arguments`` are not removed from the front: that copies the rest).
    private var nextArgumentIndex = 0
    /// Levels of nesting entered so far (bounded by ``Untranslatable/maxNesting``).
    private var depth = 0
    /// The terms read so far: each comparison, Bool key path, `TRUEPREDICATE`, NOT, and each link of a chain.
    private var terms = 0

    private mutating func enter() throws {
        depth += 1
        if depth > Untranslatable.maxNesting { throw Untranslatable.tooDeep }
    }

    static func parse(_ format: String, arguments: [FormatArgument]) throws -> PredicateNode {
        let size = format.utf8.count
        if size > maxFormatBytes {
            throw Untranslatable(reason: "NSPredicate format string too long (\(Figures.count(size)) bytes, limit \(Figures.count(maxFormatBytes))): not read")
        }
        var parser = PredicateFormatParser(arguments: arguments)
        parser.tokens = try PredicateFormatTokenizer.tokenize(format)
        let node = try parser.disjunction()
        if parser.position < parser.tokens.count {
            throw Untranslatable(reason: "NSPredicate format `\(excerpt(format))`: unexpected text after the predicate")
        }
        if parser.terms > Untranslatable.maxTerms { throw Untranslatable.tooLarge("predicate", terms: parser.terms) }
        return node
    }

    /// `format` for a message: its first 80 characters, then `…` when there are more.
    static func excerpt(_ format: String) -> String {
        let head = format.prefix(80)
        return head.endIndex == format.endIndex ? format : head + "…"
    }

    private init(arguments: [FormatArgument]) {
        self.arguments = arguments
    }

    private var current: Token? { position < tokens.count ? tokens[position] : nil }

    private func isWord(_ word: String) -> Bool {
        if case .word(let text)? = current { return text.uppercased() == word }
        return false
    }

    private mutating func disjunction() throws -> PredicateNode {
        try chain(.or, joinedBy: "OR", "||") { try $0.conjunction() }
    }

    private mutating func conjunction() throws -> PredicateNode {
        try chain(.and, joinedBy: "AND", "&&") { try $0.negation() }
    }

    /// `operand (word|symbol operand)*`: one operand alone, or a ``PredicateNode/chain(_:_:)`` of them. Past
    /// ``Untranslatable/maxTerms`` terms the operands are read and dropped (only ``terms`` goes on).
    private mutating func chain(_ junction: PredicateJunction, joinedBy word: String, _ symbol: String,
                                of operand: (inout PredicateFormatParser) throws -> PredicateNode) throws -> PredicateNode {
        var parts = [try operand(&self)]
        while isWord(word) || current == .symbol(symbol) {
            position += 1
            terms += 1
            let part = try operand(&self)
            if terms <= Untranslatable.maxTerms { parts.append(part) }
        }
        return parts.count == 1 ? parts[0] : .chain(junction, parts)
    }

    private mutating func negation() throws -> PredicateNode {
        try enter()
        defer { depth -= 1 }
        if isWord("NOT") || current == .symbol("!") {
            position += 1
            terms += 1
            return .not(try negation())
        }
        return try comparison()
    }

    private enum Operand {
        case keyPath(KeyPathReference)
        case value(SQLValue?)
        case null
    }

    private mutating func comparison() throws -> PredicateNode {
        if current == .symbol("(") {
            position += 1
            let inner = try disjunction()
            guard current == .symbol(")") else { throw Untranslatable(reason: "NSPredicate format: a parenthesis is not closed") }
            position += 1
            return inner
        }
        // What follows is one term (or is refused).
        terms += 1
        if isWord("TRUEPREDICATE") {
            position += 1
            return .always
        }
        for word in ["ANY", "ALL", "SOME", "NONE", "SUBQUERY", "FALSEPREDICATE"] where isWord(word) {
            throw Untranslatable(reason: "NSPredicate format: \(word) (a to-many relationship or aggregate) is not translated")
        }
        let left = try operand()
        guard let op = current else {
            if case .keyPath(let path) = left { return .truth(path) }
            throw Untranslatable(reason: "NSPredicate format: a value without a comparison")
        }
        position += 1
        var symbol: String
        switch op {
        case .symbol(let text): symbol = text
        case .word(let text): symbol = text.uppercased()
        default: throw Untranslatable(reason: "NSPredicate format: a comparison operator was expected")
        }
        if symbol == "CONTAINS" {
            var options = ""
            if case .symbol(let text)? = current, text.hasPrefix("[") {
                options = text
                position += 1
            }
            let right = try operand()
            guard case .keyPath(let path) = left, case .value(let value) = right else {
                throw Untranslatable(reason: "NSPredicate format: CONTAINS between two key paths or two values")
            }
            switch options.lowercased() {
            case "": return .search(path, .contains, .value(value))
            case "[cd]", "[dc]": return .search(path, .containsInsensitive, .value(value))
            default: throw Untranslatable(reason: "NSPredicate format: CONTAINS\(options): the code Core Data prints for these options is not known")
            }
        }
        if symbol == "IN" {
            let right = try operand()
            switch (left, right) {
            case (.keyPath(let path), .value(let value)): return .membership(path, .value(value))
            case (.value, .keyPath(let path)):
                throw Untranslatable(reason: "NSPredicate format: a value IN `\(path.text)` (a to-many relationship or a collection) is not translated")
            default: throw Untranslatable(reason: "NSPredicate format: IN needs a key path and a list")
            }
        }
        if ["BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN"].contains(symbol) {
            throw Untranslatable(reason: "NSPredicate format: \(symbol) is not translated (its Core Data SQL is not in the format notes)")
        }
        let operators = ["==": "==", "=": "==", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", "=<": "<=", ">": ">", ">=": ">=", "=>": ">="]
        guard let normalized = operators[symbol] else { throw Untranslatable(reason: "NSPredicate format: unknown operator `\(symbol)`") }
        let right = try operand()
        let flipped = ["<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="]
        switch (left, right) {
        case (.keyPath(let path), .value(let value)): return .comparison(path, normalized, .value(value))
        case (.value(let value), .keyPath(let path)): return .comparison(path, flipped[normalized] ?? normalized, .value(value))
        case (.keyPath(let path), .null), (.null, .keyPath(let path)):
            guard normalized == "==" || normalized == "!=" else { throw Untranslatable(reason: "NSPredicate format: \(path.text) ordered against nil") }
            return .comparison(path, normalized, .null)
        default: throw Untranslatable(reason: "NSPredicate format: a comparison needs one key path and one value")
        }
    }

    private mutating func operand() throws -> Operand {
        guard let token = current else { throw Untranslatable(reason: "NSPredicate format ends early") }
        position += 1
        switch token {
        case .word(let word):
            switch word.uppercased() {
            case "NIL", "NULL": return .null
            case "YES", "TRUE": return .value(.integer(1))
            case "NO", "FALSE": return .value(.integer(0))
            case "SELF": throw Untranslatable(reason: "NSPredicate format: SELF is not translated")
            default: return .keyPath(KeyPathReference(components: word.split(separator: ".").map(String.init)))
            }
        case .key:
            guard case .key(let name)? = nextArgument() else {
                throw Untranslatable(reason: "NSPredicate format: %K takes a key the source does not spell out")
            }
            return .keyPath(KeyPathReference(components: name.split(separator: ".").map(String.init)))
        case .argument:
            switch nextArgument() {
            case .literal(let value)?: return .value(value)
            case .null?: return .null
            case .key(let text)?: return .value(.text(text))
            case .captured?, nil: return .value(nil)
            }
        case .string(let text): return .value(.text(text))
        case .number(let text): return .value(Int64(text).map(SQLValue.integer) ?? Double(text).map(SQLValue.real))
        case .symbol(let text): throw Untranslatable(reason: "NSPredicate format: unexpected `\(text)`")
        }
    }

    private mutating func nextArgument() -> FormatArgument? {
        guard nextArgumentIndex < arguments.count else { return nil }
        defer { nextArgumentIndex += 1 }
        return arguments[nextArgumentIndex]
    }
}
