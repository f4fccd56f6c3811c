/// A static property or function declared in a type, an extension or a protocol extension of the `--source`
/// files: how Core Data code shares its requests, sorts and predicates (`Status.sortedFetchRequest`,
/// `Status.defaultSortDescriptors`, `Status.predicate(domain:id:)`).
struct SourceMember {
    /// The file (its position in ``SourceMembers/files``).
    var file: Int
    /// The type the member belongs to: the class, the extended type, or the protocol of a protocol extension.
    var owner: String
    /// The owner with the types it is nested in: `Tab.Predicate` for `enum Predicate` inside `class Tab` (or an
    /// extension of it); the owner itself at the top level.
    var path: String
    var name: String
    /// A function's parameters (nil for a property): label (`_` for none), name inside the body, type as written,
    /// and the tokens of its default value (`= nil`, `= []`) when it has one.
    var parameters: [(label: String, name: String, type: String, defaultValue: Range<Int>?)]?
    /// The `{` of a computed property's or a function's body.
    var body: Int?
    /// The expression that gives the member's value: an initializer, a body's only expression, or the
    /// expression of the body's last top-level `return`; nil when the body has no such one expression.
    var value: Range<Int>?
    var line: Int
    /// A generic function's type parameters (`T` in `func fetchRequest<T: NSManagedObject>(_ type: T.Type)`).
    var genericParameters: [String] = []
    /// The type argument of the `NSFetchRequest<…>` a function returns (`T` in `-> NSFetchRequest<T>`).
    var resultEntity: String?

    var isFunction: Bool { parameters != nil }

    /// True for a function generic over the entity it fetches: it returns `NSFetchRequest<T>` or takes `T.Type`
    /// for a type parameter `T` (`static func fetchRequest<T: NSManagedObject>(_ type: T.Type) -> NSFetchRequest<T>`).
    var isGenericOverEntity: Bool {
        genericParameters.contains { generic in
            resultEntity == generic || (parameters ?? []).contains { ["\(generic).Type", "\(generic).Type?"].contains($0.type.filter { !$0.isWhitespace }) }
        }
    }

    /// The parameter each argument of a call with `labels` binds, in order, when the call fits this function:
    /// the labels in the declared order, a parameter left out only when it has a default value
    /// (`fetchRequest(predicate: p)` calls `fetchRequest(predicate: NSPredicate? = nil, sortDescriptors: [NSSortDescriptor] = [])`).
    func binding(_ labels: [String]) -> [Int]? {
        guard let parameters else { return nil }
        var bound: [Int] = []
        var next = 0
        for (position, parameter) in parameters.enumerated() {
            if next < labels.count, labels[next] == parameter.label {
                bound.append(position)
                next += 1
            } else if parameter.defaultValue == nil {
                return nil
            }
        }
        return next == labels.count ? bound : nil
    }
    /// `name(domain:id:)` or `name`, as a reason names it.
    var signature: String {
        guard let parameters else { return name }
        return name + "(" + parameters.map { $0.label + ":" }.joined() + ")"
    }
}

/// One Swift file of the `--source` set, with what the fetch-site scanner looks up in it.
struct SourceFile {
    var name: String
    var tokens: SwiftTokens
    var declarations: SourceDeclarations
    /// Each type body `{` in the file (class, struct, enum, extension, protocol) → the type it belongs to.
    var typeBodies: [Int: (owner: String, isProtocol: Bool)] = [:]
    /// Each type body `{` → the type's name with the types it is nested in (`Tab.Predicate`).
    var typePaths: [Int: String] = [:]
}

/// The static members of every `--source` file, by owner and name, with the protocols declared and the
/// conformances written (`class Status: NSManagedObject, Managed`, `extension Status: Managed`), so that a
/// member used in one file is read from the file that declares it, for the concrete entity it is used on.
final class SourceMembers {
    private(set) var files: [SourceFile] = []
    private var members: [String: [SourceMember]] = [:]
    /// Protocols the source declares.
    private var protocols: Set<String> = []
    /// Type → the protocols (and classes) it is declared or extended to conform to.
    private var conformances: [String: Set<String>] = [:]
    /// The `(file, token)` of each member value being read now: a member that leads back to itself is not followed again.
    var following: Set<[Int]> = []
    /// `typealias NotificationSubscription = Subscription`: each alias and the type it names.
    private(set) var aliases: [String: String] = [:]
    /// How often each identifier occurs in all the files (a member used nowhere but where it is declared occurs once).
    private var occurrences: [String: Int] = [:]
    /// Members found to build a fetch request (or not), by ``key(_:)``.
    private var builders: [[Int]: Bool] = [:]
    /// The initializers declared in a type or an extension, by type (`extension NSSortDescriptor {
    /// convenience init<Root, Value>(_ keyPath: KeyPath<Root, Value>, ascending: Bool = true) { … } }`).
    private var initializers: [String: [SourceMember]] = [:]

    init(_ sources: [(name: String, tokens: SwiftTokens)]) {
        for (position, source) in sources.enumerated() {
            var file = SourceFile(name: source.name, tokens: source.tokens, declarations: SourceDeclarations(source.tokens))
            read(&file, at: position)
            files.append(file)
            let tokens = source.tokens
            for index in tokens.indices where tokens[index].kind == .identifier {
                occurrences[tokens[index].text, default: 0] += 1
                if tokens[index].text == "typealias", index + 3 < tokens.count, tokens[index + 1].kind == .identifier, tokens[index + 2].isPunctuation("="),
                   tokens[index + 3].kind == .identifier, index + 4 >= tokens.count || !tokens[index + 4].isPunctuation(".") {
                    aliases[tokens[index + 1].text] = tokens[index + 3].text
                }
            }
        }
    }

    private func key(_ member: SourceMember) -> [Int] { [member.file, member.body ?? member.value?.lowerBound ?? -1] }

    /// True when the member's value or body makes an `NSFetchRequest` (`NSFetchRequest<Self>(entityName:)`,
    /// `fetchRequest()`, or another member that does): `Status.sortedFetchRequest` is then a fetch site.
    func buildsRequest(_ member: SourceMember) -> Bool {
        let key = key(member)
        if let known = builders[key] { return known }
        builders[key] = false
        let tokens = files[member.file].tokens
        let range = member.body.map { $0..<tokens.closing($0) } ?? member.value ?? 0..<0
        var found = false
        for index in range where tokens[index].kind == .identifier {
            let text = tokens[index].text
            if text == "NSFetchRequest" || (text == "fetchRequest" && index + 1 < tokens.count && tokens[index + 1].isPunctuation("(")) { found = true; break }
            guard let other = members[text] else { continue }
            // `case .all:` is an enum case (or another type's member), and `Migrations.all()` is that type's member:
            // only a bare name, `Self.name` or a member of the type named can be a request member.
            var qualifier: String?
            if index > 0, tokens[index - 1].isPunctuation(".") {
                guard index > 1, tokens[index - 2].kind == .identifier else { continue }
                qualifier = tokens[index - 2].text
            }
            let fits = { (candidate: SourceMember) -> Bool in
                guard let qualifier, !["Self", "self"].contains(qualifier) else { return true }
                let named = self.aliases[qualifier] ?? qualifier
                return candidate.owner == named || candidate.path == named || self.protocols.contains(candidate.owner)
            }
            if other.contains(where: { self.key($0) != key && fits($0) && buildsRequest($0) }) { found = true; break }
        }
        builders[key] = found
        return found
    }

    /// The request-building static member whose body holds the token at `index` of `file`, when the source
    /// uses that member somewhere: its request is then read where it is used, for the entity it is used on.
    func usedBuilder(around index: Int, in file: Int) -> SourceMember? {
        for member in members.values.joined() where member.file == file {
            guard let body = member.body, body < index, index < files[file].tokens.closing(body) else { continue }
            return buildsRequest(member) && (occurrences[member.name] ?? 0) > 1 ? member : nil
        }
        return nil
    }

    /// The member `name` (a function with `labels`, or a property when `labels` is nil) for the type `type`:
    /// the type's own, else a protocol extension's of a protocol it conforms to, else of any protocol the
    /// source declares (a conformance the reader did not see). For `type` nil, the protocol extensions' only.
    func member(_ name: String, labels: [String]?, of type: String?) -> SourceMember? {
        let candidates = (members[name] ?? []).filter { member in
            guard let labels else { return !member.isFunction }
            return member.binding(labels) != nil
        }
        guard !candidates.isEmpty else { return nil }
        if let type {
            if let own = candidates.first(where: { $0.path == type }) ?? candidates.first(where: { $0.owner == type }) { return own }
            let conforming = conformances[type] ?? []
            if let inherited = candidates.first(where: { conforming.contains($0.owner) && protocols.contains($0.owner) }) { return inherited }
        }
        // A member of an extension of the class it inherits from (`extension NSManagedObject { static func … }`).
        if let type, let inherited = candidates.first(where: { conformances[type]?.contains($0.owner) ?? false }) { return inherited }
        return candidates.first { protocols.contains($0.owner) }
    }

    /// The initializers of `type` the source declares that a call with `labels` fits, in the order declared.
    func initializers(of type: String, labels: [String]) -> [SourceMember] {
        (initializers[type] ?? []).filter { $0.binding(labels) != nil }
    }

    /// The type whose body holds the token at `index` of `file`: the innermost class, struct, enum, extension or protocol.
    func enclosingType(of index: Int, in file: Int) -> (owner: String, isProtocol: Bool)? {
        let tokens = files[file].tokens
        var brace = tokens.brace(around: index)
        while let current = brace {
            if let type = files[file].typeBodies[current] { return type }
            brace = tokens.brace(around: current)
        }
        return nil
    }

    func isProtocol(_ name: String) -> Bool { protocols.contains(name) }

    // MARK: Reading

    private static let typeKeywords: Set<String> = ["class", "struct", "enum", "extension", "protocol", "actor"]

    private func read(_ file: inout SourceFile, at position: Int) {
        let tokens = file.tokens
        for index in tokens.indices where tokens[index].kind == .identifier && Self.typeKeywords.contains(tokens[index].text) {
            guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { continue }
            // `class func` / `class var` is a member, not a type.
            if tokens[index].text == "class", ["func", "var", "let"].contains(tokens[index + 1].text) { continue }
            let keyword = tokens[index].text
            let owner = tokens[index + 1].text
            var j = index + 2
            var inherited: [String] = []
            var afterColon = false
            while j < tokens.count, j < index + 200, !tokens[j].isPunctuation("{") {
                if tokens[j].isPunctuation(":") { afterColon = true }
                if tokens[j].isWord("where") { afterColon = false }
                if afterColon, tokens[j].kind == .identifier, tokens[j - 1].isPunctuation(":") || tokens[j - 1].isPunctuation(",") { inherited.append(tokens[j].text) }
                if tokens[j].isPunctuation("}") || tokens[j].isPunctuation(";") { break }
                j += 1
            }
            guard j < tokens.count, tokens[j].isPunctuation("{") else { continue }
            if keyword == "protocol" { protocols.insert(owner) }
            conformances[owner, default: []].formUnion(inherited)
            file.typeBodies[j] = (owner, keyword == "protocol")
            // Outer types come first in the file, so the enclosing one's path is known.
            var outer = tokens.brace(around: index)
            while let brace = outer, file.typePaths[brace] == nil { outer = tokens.brace(around: brace) }
            file.typePaths[j] = outer.flatMap { file.typePaths[$0] }.map { "\($0).\(owner)" } ?? owner
        }
        for index in tokens.indices where tokens[index].isWord("static") || tokens[index].isWord("class") {
            // A protocol's own body holds requirements, not values (`static var x: T { get }`).
            guard let open = tokens.brace(around: index), let type = file.typeBodies[open], !type.isProtocol else { continue }
            var k = index + 1
            while k < tokens.count, k < index + 4, ["final", "public", "private", "internal", "fileprivate", "override", "nonisolated"].contains(tokens[k].text) { k += 1 }
            guard k + 1 < tokens.count, ["var", "let", "func"].contains(tokens[k].text), tokens[k + 1].kind == .identifier else { continue }
            if let member = Self.member(at: k, owner: type.owner, path: file.typePaths[open] ?? type.owner, file: position, tokens) {
                members[member.name, default: []].append(member)
            }
        }
        // `convenience init(…)` and `init(…)` of a type or an extension (not `self.init(…)`).
        for index in tokens.indices where tokens[index].isWord("init") && (index == 0 || !tokens[index - 1].isPunctuation(".")) {
            guard let open = tokens.brace(around: index), let type = file.typeBodies[open], !type.isProtocol,
                  let member = Self.member(at: index, owner: type.owner, path: file.typePaths[open] ?? type.owner, file: position, tokens),
                  member.body != nil else { continue }
            initializers[type.owner, default: []].append(member)
        }
    }

    /// The member whose `var`/`let`/`func` keyword is at `keyword`, or the initializer whose `init` is there.
    private static func member(at keyword: Int, owner: String, path: String, file: Int, _ tokens: SwiftTokens) -> SourceMember? {
        let isInit = tokens[keyword].text == "init"
        let name = isInit ? "init" : tokens[keyword + 1].text
        var member = SourceMember(file: file, owner: owner, path: path, name: name, line: tokens[keyword].line)
        var j = isInit ? keyword + 1 : keyword + 2
        if isInit || tokens[keyword].text == "func" {
            // `init?(…)`, `init!(…)`.
            if isInit, j < tokens.count, tokens[j].isPunctuation("?") || tokens[j].isPunctuation("!") { j += 1 }
            if j < tokens.count, tokens[j].isPunctuation("<"), let close = tokens.angleClosing(j) {
                member.genericParameters = Self.genericParameters((j + 1)..<close, tokens)
                j = close + 1
            }
            guard j < tokens.count, tokens[j].isPunctuation("(") else { return nil }
            member.parameters = tokens.arguments(j, declaration: true).map { argument in
                let range = argument.range
                if let label = argument.label {
                    let (type, defaultValue) = Self.typeAndDefault(range, tokens)
                    return (label, label, type, defaultValue)
                }
                // `label name: Type`, `_ name: Type`.
                let start = range.lowerBound
                guard range.count >= 4, tokens[start + 1].kind == .identifier, tokens.isPunctuation(start + 2, UInt8(ascii: ":")) else {
                    return (tokens[start].text, tokens[start].text, "", nil)
                }
                let (type, defaultValue) = Self.typeAndDefault((start + 3)..<range.upperBound, tokens)
                return (tokens[start].text, tokens[start + 1].text, type, defaultValue)
            }
            j = tokens.closing(j) + 1
            member.resultEntity = Self.resultEntity(after: j, tokens)
        }
        // To the `=` of an initializer or the `{` of the body, at the same depth.
        while j < tokens.count, j < keyword + 200 {
            let token = tokens[j]
            if token.isPunctuation("(") || token.isPunctuation("[") { j = tokens.closing(j) + 1; continue }
            if token.isPunctuation("<"), !token.precededBySpace, let close = tokens.angleClosing(j) { j = close + 1; continue }
            if token.isPunctuation("="), tokens.infixOperator(at: j)?.text != "==" {
                member.value = (j + 1)..<tokens.expressionEnd(from: j + 1)
                return member
            }
            if token.isPunctuation("{") { break }
            if token.isPunctuation("}") || token.isPunctuation(";") || (token.startsLine && j > keyword + 2) { return member }
            j += 1
        }
        guard j < tokens.count, tokens[j].isPunctuation("{") else { return member }
        var body = j
        // `{ get { … } }`
        if body + 2 < tokens.count, tokens[body + 1].isWord("get"), tokens[body + 2].isPunctuation("{") { body += 2 }
        member.body = body
        member.value = returnedExpression(body: body, tokens)
        return member
    }

    /// The names of the type parameters between `<` and `>`: `T: NSManagedObject, Value` → `T`, `Value`.
    static func genericParameters(_ range: Range<Int>, _ tokens: SwiftTokens) -> [String] {
        var names: [String] = []
        var depth = 0
        var expectsName = true
        for index in range {
            let token = tokens[index]
            if token.isPunctuation("<") || token.isPunctuation("(") || token.isPunctuation("[") { depth += 1 }
            if token.isPunctuation(">") || token.isPunctuation(")") || token.isPunctuation("]") { depth -= 1 }
            if depth == 0, token.isPunctuation(",") { expectsName = true; continue }
            if depth == 0, expectsName, token.kind == .identifier { names.append(token.text) }
            expectsName = false
        }
        return names
    }

    /// `T` in the `-> NSFetchRequest<T>` that follows a function's parameters at `index`, when it returns a request.
    private static func resultEntity(after index: Int, _ tokens: SwiftTokens) -> String? {
        var j = index
        while j < tokens.count, j < index + 4, !tokens[j].isPunctuation("-") {
            guard tokens[j].kind == .identifier, ["throws", "rethrows", "async"].contains(tokens[j].text) else { return nil }
            j += 1
        }
        guard j + 5 < tokens.count, tokens[j].isPunctuation("-"), tokens[j + 1].isPunctuation(">"), tokens[j + 2].isWord("NSFetchRequest"),
              tokens[j + 3].isPunctuation("<"), tokens[j + 4].kind == .identifier, tokens[j + 5].isPunctuation(">") else { return nil }
        return tokens[j + 4].text
    }

    /// A parameter's type as written and the tokens of its default value: `NSPredicate? = nil` → (`NSPredicate?`, `nil`).
    private static func typeAndDefault(_ range: Range<Int>, _ tokens: SwiftTokens) -> (type: String, defaultValue: Range<Int>?) {
        var j = range.lowerBound
        while j < range.upperBound {
            if tokens[j].isPunctuation("(") || tokens[j].isPunctuation("[") { j = tokens.closing(j) + 1; continue }
            if tokens[j].isPunctuation("="), tokens.infixOperator(at: j)?.text != "==", j + 1 < range.upperBound {
                return (tokens.text(range.lowerBound..<j), (j + 1)..<range.upperBound)
            }
            j += 1
        }
        return (tokens.text(range), nil)
    }

    /// The expression a body gives: its only expression, or that of its last top-level `return` when the
    /// return is the body's last statement.
    private static func returnedExpression(body: Int, _ tokens: SwiftTokens) -> Range<Int>? {
        let close = tokens.closing(body)
        guard body + 1 < close else { return nil }
        var lastReturn: Int?
        var j = body + 1
        while j < close {
            if tokens[j].isPunctuation("(") || tokens[j].isPunctuation("[") || tokens[j].isPunctuation("{") { j = tokens.closing(j) + 1; continue }
            if tokens[j].isWord("return") { lastReturn = j }
            // A branch may return something else: no one expression.
            if tokens[j].isWord("if") || tokens[j].isWord("guard") || tokens[j].isWord("switch") { return nil }
            j += 1
        }
        if let lastReturn {
            let end = tokens.expressionEnd(from: lastReturn + 1)
            return end == close && lastReturn + 1 < end ? (lastReturn + 1)..<end : nil
        }
        let end = tokens.expressionEnd(from: body + 1)
        return end == close ? (body + 1)..<end : nil
    }
}
