/// Which value of a name declared in the file reaches one use of it (``SourceDeclarations/binding(of:at:qualified:in:)``).
enum NameBinding: Equatable {
    /// The first token of the value that reaches the use: the declaration's initializer, or the last
    /// `name = value` before the use in straight-line code.
    case value(Int)
    /// Why the value at the use is decided at run time: assigned in a branch, a loop, a closure or another
    /// function, or passed `inout`.
    case runTime(String)
    /// The file declares no such name (a parameter, or a name from another file).
    case undeclared
}

/// A `let`/`var` of a name: the index of its keyword and of its initializer's first token (nil without one).
struct NameDeclaration: Equatable {
    var keyword: Int
    var value: Int?
    /// Bound by a condition (`if let p = p`, `guard let`, `while let`, `case let`): its value is known only at run time.
    var isCondition = false
}

/// A statement that gives a name a new value: `name = value`, `self.name = value` (the index of `name` and
/// of the value's first token), or `&name` passed `inout` (no value the reader can see).
struct NameAssignment: Equatable {
    var name: Int
    var value: Int?
}

extension SourceDeclarations {
    /// The value of `name` at the token `use` (the name itself, as a use writes it), by Swift's rules for
    /// straight-line code: the nearest declaration before the use whose scope holds it (not one whose own
    /// initializer the use is in: `let p = p` reads an outer `p`), or, when there is none, the file's first
    /// declaration of the name (a property of another type, `Note.recent`); then the last assignment to it
    /// before the use, when that assignment is in a block that holds the use.
    ///
    /// The value is decided at run time when the last assignment before the use is in a block that does not
    /// hold it (`if`, `else`, a loop, a closure, another function), when the name is passed `inout`, when a
    /// loop around the use assigns it after the use (the next turn reads that value), and, for a property or
    /// a global, when a function other than the use's own assigns it.
    /// - Parameter qualified: true for `self.name`, `Self.name`, `Note.name`: a local declaration is no candidate.
    func binding(of name: String, at use: Int, qualified: Bool, in tokens: SwiftTokens) -> NameBinding {
        let all = declarations[name] ?? []
        let visible = all[..<Self.first(in: all, atLeast: use) { $0.keyword }].last { declaration in
            guard declaration.keyword < use else { return false }
            let scope = tokens.brace(around: declaration.keyword)
            guard tokens.brace(scope, holds: use) else { return false }
            if qualified && !isTypeOrFile(scope, tokens) { return false }
            // `let p = p`, `p = [p, q]`: the use inside a declaration's own value reads the name before it.
            if let value = declaration.value, value <= use, use < tokens.expressionEnd(from: value) { return false }
            return true
        }
        guard let declaration = visible ?? all.first else { return .undeclared }
        let scope = tokens.brace(around: declaration.keyword)
        // Where statements run in order: the declaration's scope, or for a property or a global used in a
        // function, the body of that function (the outermost block around the use inside the scope).
        var region = scope
        if isTypeOrFile(scope, tokens) {
            var block = tokens.brace(around: use)
            while let inner = block, inner != scope {
                region = inner
                block = tokens.brace(around: inner)
            }
        }
        let assignments = Assignments(name: name, declaration: declaration, scope: scope, use: use, declarations: self, tokens: tokens)
        if let last = assignments.last(before: use, in: region) {
            let line = tokens[last.name].line
            guard let value = last.value else { return .runTime("`\(name)` is passed inout on line \(line)") }
            guard tokens.brace(tokens.brace(around: last.name), holds: use) else {
                return .runTime("`\(name)` is assigned in a branch, loop or closure on line \(line)")
            }
            if let reason = assignments.loopReason(after: last.name, region: region) { return .runTime(reason) }
            return .value(value)
        }
        if region != scope, let elsewhere = assignments.first(outside: region) {
            return .runTime("`\(name)` is assigned in another function on line \(tokens[elsewhere.name].line)")
        }
        if let reason = assignments.loopReason(after: declaration.keyword, region: region) { return .runTime(reason) }
        if declaration.isCondition { return .runTime("`\(name)` is bound by a condition on line \(tokens[declaration.keyword].line)") }
        guard let value = declaration.value else { return .runTime("`\(name)` is declared without a value") }
        return .value(value)
    }

    /// The position in `sorted` (in order of `key`) of its first element whose key is at least `value`.
    static func first<Element>(in sorted: [Element], atLeast value: Int, _ key: (Element) -> Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if key(sorted[middle]) < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// True unless the block at `brace` runs at most once each time its statement does (`if`, `else`,
    /// `guard`, `switch`, `do`, `catch`, `defer`): a loop's body, a closure, a function's body.
    fileprivate static func mayRepeat(_ brace: Int, _ tokens: SwiftTokens) -> Bool {
        let head = tokens.head(ofBrace: brace)
        return !head.contains { ["if", "else", "guard", "switch", "do", "catch", "defer"].contains($0) }
    }

    /// True when `scope` is a type's body (`class`, `struct`, `enum`, `extension`, `actor`, `protocol`) or
    /// the file itself (nil): what is declared there is a property or a global, set from any function.
    fileprivate func isTypeOrFile(_ scope: Int?, _ tokens: SwiftTokens) -> Bool {
        guard let scope else { return true }
        let head = tokens.head(ofBrace: scope)
        let types = ["class", "struct", "enum", "extension", "actor", "protocol"]
        let code = ["func", "init", "deinit", "subscript", "var", "let", "get", "set", "willSet", "didSet"]
        return head.contains { types.contains($0) } && !head.contains { code.contains($0) }
    }
}

/// The assignments of one declaration's name that can reach one use, looked up by position (binary search
/// in the file's sorted list, then a step or two), so that resolving every use of a name stays linear in a
/// file of many functions that each assign it.
private struct Assignments {
    let name: String
    let declaration: NameDeclaration
    let scope: Int?
    let use: Int
    let all: [NameAssignment]
    /// Declarations of the name after this one in its scope (in blocks inside it: they shadow it there).
    let later: ArraySlice<NameDeclaration>
    let tokens: SwiftTokens

    init(name: String, declaration: NameDeclaration, scope: Int?, use: Int, declarations: SourceDeclarations, tokens: SwiftTokens) {
        self.name = name
        self.declaration = declaration
        self.scope = scope
        self.use = use
        self.tokens = tokens
        all = declarations.assignments[name] ?? []
        let declared = declarations.declarations[name] ?? []
        let scopeEnd = scope.map { tokens.partner(of: $0) ?? tokens.count } ?? tokens.count
        later = declared[SourceDeclarations.first(in: declared, atLeast: declaration.keyword + 1) { $0.keyword }
                         ..< SourceDeclarations.first(in: declared, atLeast: scopeEnd) { $0.keyword }]
    }

    /// The assignments whose names are in `range`, in order.
    private func within(_ range: Range<Int>) -> ArraySlice<NameAssignment> {
        all[SourceDeclarations.first(in: all, atLeast: range.lowerBound) { $0.name }..<SourceDeclarations.first(in: all, atLeast: range.upperBound) { $0.name }]
    }

    /// The token range inside `brace` (nil: the whole file), after the declaration.
    private func inside(_ brace: Int?) -> Range<Int> {
        let start = max(brace.map { $0 + 1 } ?? 0, declaration.keyword + 1)
        let end = brace.map { tokens.partner(of: $0) ?? tokens.count } ?? tokens.count
        return start..<max(start, end)
    }

    /// True when `assignment` sets this declaration's name: not one declared again in a block around it.
    private func isOurs(_ assignment: NameAssignment) -> Bool {
        !later.contains { other in
            other.keyword < assignment.name && tokens.brace(around: other.keyword) != scope
                && tokens.brace(tokens.brace(around: other.keyword), holds: assignment.name)
        }
    }

    /// The last assignment before the use in `region`, leaving out the one whose value holds the use
    /// (`p = [p, q]` reads the `p` before it).
    func last(before use: Int, in region: Int?) -> NameAssignment? {
        let range = inside(region)
        for assignment in within(range.lowerBound..<max(range.lowerBound, min(use, range.upperBound))).reversed() where isOurs(assignment) {
            if let value = assignment.value, value <= use, use < tokens.expressionEnd(from: value) { continue }
            return assignment
        }
        return nil
    }

    /// An assignment in the declaration's scope outside `region` (another function's).
    func first(outside region: Int?) -> NameAssignment? {
        let scopeRange = inside(scope)
        let regionRange = inside(region)
        let before = within(scopeRange.lowerBound..<max(scopeRange.lowerBound, regionRange.lowerBound)).first(where: isOurs)
        return before ?? within(min(regionRange.upperBound, scopeRange.upperBound)..<scopeRange.upperBound).first(where: isOurs)
    }

    /// Why a loop (or a closure, which may run again) around the use, inside `region` and after the token
    /// `after` (the value that reaches the use), makes its value depend on the turn: it assigns the name
    /// after the use. Nil when none does.
    func loopReason(after: Int, region: Int?) -> String? {
        var block = tokens.brace(around: use)
        while let current = block, current != region, current > after {
            if SourceDeclarations.mayRepeat(current, tokens), let again = within((use + 1)..<(tokens.partner(of: current) ?? tokens.count)).first(where: isOurs) {
                return "`\(name)` is assigned again on line \(tokens[again.name].line), in a loop or closure around its use"
            }
            block = tokens.brace(around: current)
        }
        return nil
    }
}
