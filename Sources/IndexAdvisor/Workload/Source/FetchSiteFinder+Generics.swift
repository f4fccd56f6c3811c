/// What a type parameter stands for where a generic request helper is read for one call.
enum GenericBinding {
    /// The entity the call binds it to (`Book` from `Book.self`).
    case entity(String)
    /// Why no entity is known, one line (the site's reason).
    case unbound(String)
}

/// A `fetchLimit`, `fetchOffset` or `fetchBatchSize` value as the source gives it.
enum AssignedNumber {
    /// A literal, or a parameter the call binds to one (`limit: 1` for `fetchRequest.fetchLimit = limit`).
    case number(Int)
    /// A parameter bound to `nil`: the `if let limit = limit { … }` around the assignment does not run.
    case nothing
    /// A value known only at run time.
    case runTime
}

/// Generic request helpers across the `--source` files (issue 41, item 3): `static func fetchRequest<T:
/// NSManagedObject>(_ type: T.Type, limit: Int? = nil) -> NSFetchRequest<T>` in an extension of
/// `NSManagedObject`, called as `NSManagedObject.fetchRequest(Book.self, limit: 1)`. The type parameter is bound
/// from the call: a metatype argument (`Book.self`), a key path argument (`\Book.title` for a `KeyPath<T, V>`
/// parameter), or the type annotation the result is assigned to (`let r: NSFetchRequest<Book> = …`).
extension FetchSiteFinder {
    /// The entity `name` stands for at `index`: a type parameter bound for the member read now, `Self`, a type
    /// parameter of the function or type around the token (unbound: each caller chooses it), or the name itself.
    func typeName(_ name: String, at index: Int) -> GenericBinding {
        if let bound = generics[name] { return bound }
        if name == "Self" { return .entity(contextType(at: index) ?? name) }
        if modelName(name) == nil, let declaration = genericDeclaration(declaring: name, around: index) {
            let file = members.map { $0.files[self.file].name } ?? ""
            return .unbound("the entity is `\(name)`, a generic parameter of `\(declaration.name)` (\(file):\(declaration.line)), which each of its callers chooses (not followed)")
        }
        return .entity(modelName(name) ?? name)
    }

    /// The entity of a metatype argument: `Book.self`, `T.self`, or a parameter the call binds to one.
    func metatype(_ range: Range<Int>) -> GenericBinding? {
        guard !range.isEmpty else { return nil }
        let first = range.lowerBound
        if range.count == 1, case .type(let bound)? = boundParameters[tokens[first].text] { return bound }
        guard range.count == 3, tokens[first].kind == .identifier, tokens[first + 1].isPunctuation("."), tokens[first + 2].isWord("self") else { return nil }
        return typeName(tokens[first].text, at: first)
    }

    /// The entity an `entityName:` argument names in the call whose `(` is at `open`: a string literal,
    /// `String(describing: type)` of a metatype (`Book.self`, `T.self`, a parameter bound to one).
    func entityNameArgument(_ open: Int) -> GenericBinding? {
        guard let argument = tokens.arguments(open).first(where: { $0.label == "entityName" }) else { return nil }
        let start = argument.range.lowerBound
        if argument.range.count == 1, tokens[start].kind == .string, !tokens[start].text.contains("\\(") { return .entity(tokens[start].text) }
        guard tokens[start].isWord("String"), let call = callOpen(after: start), tokens.closing(call) == argument.range.upperBound - 1,
              let described = tokens.arguments(call).first, described.label == "describing" else { return nil }
        if described.range.count == 1, tokens[described.range.lowerBound].kind == .identifier, boundParameters[tokens[described.range.lowerBound].text] == nil {
            // `String(describing: T)`.
            return typeName(tokens[described.range.lowerBound].text, at: described.range.lowerBound)
        }
        return metatype(described.range)
    }

    /// `Book` in `let request: NSFetchRequest<Book> = …` ending just before `index`.
    func annotatedRequestEntity(before index: Int) -> GenericBinding? {
        guard index >= 6, tokens[index - 1].isPunctuation("="), tokens[index - 2].isPunctuation(">"), tokens[index - 3].kind == .identifier,
              tokens[index - 4].isPunctuation("<"), tokens[index - 5].isWord("NSFetchRequest"), tokens[index - 6].isPunctuation(":"),
              let written = genericArgument(after: index - 5) else { return nil }
        return typeName(written, at: index - 3)
    }

    /// The type parameters of the member a call at `call` reads, each bound from the call's arguments
    /// (`bound[k]`: the parameter argument `k` binds) or from the annotation its result is assigned to.
    func genericBindings(for reference: MemberReference, arguments: [(label: String?, range: Range<Int>)], bound: [Int]) -> [String: GenericBinding] {
        let member = reference.member
        var bindings: [String: GenericBinding] = [:]
        for generic in member.genericParameters {
            var binding: GenericBinding?
            for (argument, position) in bound.enumerated() {
                guard let parameter = member.parameters?[position] else { continue }
                let type = parameter.type.filter { !$0.isWhitespace }
                if type == "\(generic).Type" || type == "\(generic).Type?" {
                    binding = metatype(arguments[argument].range)
                } else if ["KeyPath<", "ReferenceWritableKeyPath<", "WritableKeyPath<"].contains(where: { type.hasPrefix($0 + generic + ",") }),
                          let (_, root) = try? keyPath(arguments[argument].range), let root {
                    binding = typeName(root, at: arguments[argument].range.lowerBound)
                }
                if binding != nil { break }
            }
            if binding == nil, member.resultEntity == generic { binding = reference.annotatedEntity }
            bindings[generic] = binding ?? .unbound("the entity is the generic parameter `\(generic)` of \(describe(reference)), which the call binds "
                + "neither with a metatype argument (`Book.self`) nor with a type annotation (`let request: NSFetchRequest<Book> = …`)")
        }
        return bindings
    }

    /// The function or type around `index` (the innermost first) that declares the type parameter `name`.
    private func genericDeclaration(declaring name: String, around index: Int) -> (name: String, line: Int)? {
        var brace = tokens.brace(around: index)
        while let current = brace {
            if let declaration = declarationHead(ofBrace: current), declaration.generics.contains(name) { return (declaration.name, declaration.line) }
            brace = tokens.brace(around: current)
        }
        return nil
    }

    /// The declaration a `{` opens when it is a function's, an initializer's or a type's: its name, line and type parameters.
    private func declarationHead(ofBrace brace: Int) -> (name: String, line: Int, generics: [String])? {
        let keywords: Set<String> = ["func", "init", "class", "struct", "enum", "extension", "actor", "protocol"]
        var position = brace - 1
        var steps = 0
        while position >= 0, steps < 400 {
            steps += 1
            let token = tokens[position]
            if let bracket = tokens.bracket(at: position) {
                if bracket.opens { return nil }
                position = (tokens.partner(of: position) ?? position) - 1
                continue
            }
            if token.isPunctuation(";") { return nil }
            if token.kind == .identifier, keywords.contains(token.text), position == 0 || !tokens[position - 1].isPunctuation(".") {
                let isInit = token.text == "init"
                guard isInit || position + 1 < tokens.count else { return nil }
                let name = isInit ? "init" : tokens[position + 1].text
                var open = isInit ? position + 1 : position + 2
                if open < tokens.count, tokens[open].isPunctuation("?") || tokens[open].isPunctuation("!") { open += 1 }
                var generics: [String] = []
                if open < tokens.count, tokens[open].isPunctuation("<"), let close = tokens.angleClosing(open) {
                    generics = SourceMembers.genericParameters((open + 1)..<close, tokens)
                }
                return (name, token.line, generics)
            }
            position -= 1
        }
        return nil
    }

    /// Why a request that an `NSBatchDeleteRequest` executes is no fetch site's statement.
    static let batchDeleteReason = "the request is executed by an NSBatchDeleteRequest: a batch delete, whose SQL the format notes do not show (not a fetch)"

    /// True when the request starting at `index` is the `fetchRequest:` argument of an `NSBatchDeleteRequest(…)`.
    func isBatchDeleteArgument(at index: Int) -> Bool {
        index >= 4 && tokens[index - 1].isPunctuation(":") && tokens[index - 2].isWord("fetchRequest") && tokens[index - 3].isPunctuation("(")
            && tokens[index - 4].isWord("NSBatchDeleteRequest")
    }

    /// The value a `fetchLimit`, `fetchOffset` or `fetchBatchSize` assignment gives: a number literal, or the
    /// literal (or `nil`) that the call binds to the member's parameter of that name.
    func assignedNumber(_ range: Range<Int>) -> AssignedNumber {
        guard range.count == 1 else { return .runTime }
        let token = tokens[range.lowerBound]
        if token.kind == .number, let number = Int(token.text) { return .number(number) }
        guard token.kind == .identifier else { return .runTime }
        switch boundParameters[token.text] {
        case .value(.literal(.integer(let value)))?: return Int(exactly: value).map { .number($0) } ?? .runTime
        case .value(.null)?: return .nothing
        default: return .runTime
        }
    }

    /// The Bool that `range` spells out: `true`, `false`, a parameter the call binds to one, `!` of either.
    func literalBool(_ range: Range<Int>) -> Bool? {
        guard !range.isEmpty else { return nil }
        let first = tokens[range.lowerBound]
        if first.isPunctuation("!"), range.count > 1 { return literalBool((range.lowerBound + 1)..<range.upperBound).map { !$0 } }
        if first.isPunctuation("("), tokens.closing(range.lowerBound) == range.upperBound - 1 {
            return literalBool((range.lowerBound + 1)..<(range.upperBound - 1))
        }
        guard range.count == 1, first.kind == .identifier else { return nil }
        if first.isWord("true") || first.isWord("false") { return first.text == "true" }
        if case .value(.literal(.integer(let value)))? = boundParameters[first.text] { return value != 0 }
        return nil
    }
}
