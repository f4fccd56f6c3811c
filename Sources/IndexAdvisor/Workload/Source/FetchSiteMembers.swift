/// A member function's predicate or sort parameter, read from the argument the call passes.
enum BoundArgument {
    case predicate(Result<PredicateNode?, Untranslatable>)
    case sort(Result<[FetchSortTerm], Untranslatable>)
    /// A literal (`"thai"`, `3`, `true`, `nil`): the value an `NSPredicate(format:)` argument of that name binds.
    case value(FormatArgument)
    /// A key path (`\Book.title`) and the type it is written on, or why it is known only at run time.
    case keyPath(Result<(KeyPathReference, String?), Untranslatable>)
    /// A metatype (`Book.self`): the entity it names.
    case type(GenericBinding)
}

/// A static member a site names (`Status.sortedFetchRequest`, `Self.defaultSortDescriptors`,
/// `Status.predicate(domain: d, id: i)`), the entity it is read for, and the `(` of the call's arguments.
struct MemberReference {
    var member: SourceMember
    var type: String?
    var call: Int?
    /// The tokens of the reference at the site.
    var range: Range<Int>
    /// The entity of the type annotation the call's result is assigned to (`let r: NSFetchRequest<Book> = …`).
    var annotatedEntity: GenericBinding? = nil
}

/// Following Core Data's shared idioms across the `--source` files: static properties and functions of an
/// entity's extensions and of protocol extensions (the `Managed` pattern), read for the concrete entity.
extension FetchSiteFinder {
    /// The entity `Self` is at `index`: the one a member is being read for, or the type whose body (not a
    /// protocol's or a protocol extension's) holds the token.
    func contextType(at index: Int) -> String? {
        if let selfType { return selfType }
        guard let members, let enclosing = members.enclosingType(of: index, in: file), !enclosing.isProtocol, !members.isProtocol(enclosing.owner) else { return nil }
        return enclosing.owner
    }

    /// The model class `name` is, itself or through a `typealias` of the source; nil for other names.
    func modelName(_ name: String) -> String? {
        if modelNames.contains(name) { return name }
        return members?.aliases[name].flatMap { modelNames.contains($0) ? $0 : nil }
    }

    /// The static member `range` is, when it is one: `name`, `Self.name`, `Type.name`, or a call of one of
    /// them with labelled arguments (the whole range).
    func staticMember(_ range: Range<Int>) -> MemberReference? {
        guard let members, !range.isEmpty else { return nil }
        var start = range.lowerBound
        var qualifier: String?
        // `Type.name`, and `Type.Nested.name` for a helper in a type nested in the entity (`Tab.Predicate.noZimFile()`).
        while start + 2 < range.upperBound, tokens[start].kind == .identifier, tokens[start + 1].isPunctuation("."), tokens[start + 2].kind == .identifier {
            qualifier = qualifier.map { "\($0).\(tokens[start].text)" } ?? tokens[start].text
            start += 2
        }
        guard tokens[start].kind == .identifier else { return nil }
        var labels: [String]?
        var call: Int?
        if start + 1 < range.upperBound {
            guard tokens[start + 1].isPunctuation("("), !tokens[start + 1].precededBySpace, tokens.closing(start + 1) == range.upperBound - 1 else { return nil }
            call = start + 1
            labels = tokens.arguments(start + 1).map { $0.label ?? "_" }
        }
        let type: String?
        switch qualifier {
        case nil, "Self"?, "self"?:
            type = contextType(at: range.lowerBound)
        case let name?:
            // `request.predicate`, `context.x`: a value's property, not a type's.
            guard name.first?.isUppercase ?? false else { return nil }
            type = modelName(name) ?? name
        }
        var resolved = type
        // `Predicate.isDownloaded()` inside `ZimFile`: the type nested in the one the reference is written in.
        if let qualifier, qualifier != "Self", let context = contextType(at: range.lowerBound),
           members.member(tokens[start].text, labels: labels, of: "\(context).\(qualifier)")?.path == "\(context).\(qualifier)" {
            resolved = "\(context).\(qualifier)"
        }
        guard let member = members.member(tokens[start].text, labels: labels, of: resolved) else { return nil }
        // A type the source does not know takes only its own members, not a protocol's.
        if let resolved, member.owner != resolved, member.path != resolved, !modelNames.contains(resolved) { return nil }
        return MemberReference(member: member, type: resolved, call: call, range: range)
    }

    /// A finder of the member's file, reading for the entity the reference names, with the call's predicate
    /// and sort arguments bound to the function's parameters.
    mutating func makeReader(for reference: MemberReference) -> FetchSiteFinder? {
        guard let members else { return nil }
        let member = reference.member
        var reader = FetchSiteFinder(file: member.file, in: members, modelNames: modelNames, reading: true)
        reader.selfType = reference.type ?? (members.isProtocol(member.owner) ? nil : member.owner)
        reader.nesting = nesting
        reader.deepest = nesting
        if let call = reference.call, let parameters = member.parameters {
            let arguments = tokens.arguments(call)
            let bound = member.binding(arguments.map { $0.label ?? "_" }) ?? []
            for (position, parameter) in parameters.enumerated() {
                if let argument = bound.firstIndex(of: position) {
                    Self.bind(parameter, to: arguments[argument].range, in: &self, into: &reader)
                } else if let defaultValue = parameter.defaultValue {
                    // Left out: the default value, read in the member's own file.
                    var inner = reader
                    Self.bind(parameter, to: defaultValue, in: &inner, into: &reader)
                }
            }
            reader.generics = genericBindings(for: reference, arguments: arguments, bound: bound)
        } else if !member.genericParameters.isEmpty {
            reader.generics = genericBindings(for: reference, arguments: [], bound: [])
        }
        return reader
    }

    /// Binds `parameter` in `reader` to the predicate, sort or literal that `range` of `source`'s tokens holds.
    private static func bind(_ parameter: (label: String, name: String, type: String, defaultValue: Range<Int>?), to range: Range<Int>,
                      in source: inout FetchSiteFinder, into reader: inout FetchSiteFinder) {
        var scratch = FetchSpec(entity: nil)
        if parameter.type.contains("Predicate") {
            do { reader.boundParameters[parameter.name] = .predicate(.success(try source.predicate(range, spec: &scratch))) }
            catch let error as Untranslatable { reader.boundParameters[parameter.name] = .predicate(.failure(error)) }
            catch {}
        } else if parameter.type.contains("SortDescriptor") {
            do { reader.boundParameters[parameter.name] = .sort(.success(try source.sortTerms(range, spec: &scratch))) }
            catch let error as Untranslatable { reader.boundParameters[parameter.name] = .sort(.failure(error)) }
            catch {}
        } else if parameter.type.contains("KeyPath") || source.tokens[range.lowerBound].isPunctuation("\\") {
            do { reader.boundParameters[parameter.name] = .keyPath(.success(try source.keyPathArgument(range))) }
            catch let error as Untranslatable { reader.boundParameters[parameter.name] = .keyPath(.failure(error)) }
            catch {}
        } else if parameter.type.contains(".Type"), let type = source.metatype(range) {
            reader.boundParameters[parameter.name] = .type(type)
        } else if let value = source.literalBool(range) {
            // `getMax: true`, `ascending: !reversed` with `reversed` bound to a literal.
            reader.boundParameters[parameter.name] = .value(.literal(.integer(value ? 1 : 0)))
        } else if case let value = source.formatArgument(range), value.isLiteral {
            reader.boundParameters[parameter.name] = .value(value)
        }
    }

    /// Where a member is declared, for reasons: `Status.predicate(domain:id:) (Status+Fetch.swift:12)`.
    func describe(_ reference: MemberReference) -> String {
        let member = reference.member
        let file = members.map { $0.files[member.file].name } ?? ""
        return "`\(reference.type ?? member.owner).\(member.signature)` (\(file):\(member.line))"
    }

    /// The value of the member `reference` names, read as `what` (predicate, sort) in its own file.
    mutating func readMember<Value>(_ reference: MemberReference, spec: inout FetchSpec, what: String,
                                    _ read: (inout FetchSiteFinder, Range<Int>, inout FetchSpec) throws -> Value) throws -> Value {
        let member = reference.member
        guard let members, let value = member.value else {
            throw Untranslatable(reason: "the \(what) \(describe(reference)) is computed in several statements: built at run time")
        }
        let key = [member.file, value.lowerBound]
        guard members.following.insert(key).inserted else {
            throw Untranslatable(reason: "the \(what) \(describe(reference)) leads back to itself")
        }
        defer { members.following.remove(key) }
        guard var reader = makeReader(for: reference) else { throw Untranslatable(reason: "the \(what) \(describe(reference)) is built at run time") }
        var inner = FetchSpec(entity: nil)
        let result = try read(&reader, value, &inner)
        deepest = max(deepest, reader.deepest)
        spec.entity = spec.entity ?? inner.entity
        return result
    }

    // MARK: Requests made by members

    /// The member at `index` (`Status.sortedFetchRequest`, `Status.sortedFetchRequest(for: p)`) when it
    /// makes a fetch request.
    func requestMember(at index: Int) -> MemberReference? {
        guard let members, index + 2 < tokens.count else { return nil }
        var end = index + 3
        if end < tokens.count, tokens[end].isPunctuation("("), !tokens[end].precededBySpace { end = tokens.closing(end) + 1 }
        guard var reference = staticMember(index..<end), members.buildsRequest(reference.member) else { return nil }
        reference.annotatedEntity = annotatedRequestEntity(before: index)
        return reference
    }

    /// The request member named at `index` without a type (`sortedFetchRequest`, `fetch(in: context)`) in a member's body.
    func bareRequestMember(at index: Int, before end: Int) -> MemberReference? {
        guard let members, index == 0 || !tokens[index - 1].isPunctuation(".") else { return nil }
        var last = index + 1
        if last < end, tokens[last].isPunctuation("("), !tokens[last].precededBySpace { last = tokens.closing(last) + 1 }
        guard var reference = staticMember(index..<last), members.buildsRequest(reference.member) else { return nil }
        reference.annotatedEntity = annotatedRequestEntity(before: index)
        return reference
    }

    /// A site made of a request member: its request as the member makes it, then what this scope sets on it.
    mutating func memberRequestSite(at index: Int, _ reference: MemberReference) -> Int {
        var spec = request(of: reference)
        let end = reference.range.upperBound
        consume(index..<end)
        if isBatchDeleteArgument(at: index) { spec.untranslatable = spec.untranslatable ?? Self.batchDeleteReason }
        if spec.untranslatable == nil, let name = declaredName(before: index) {
            applyAssignments(to: name, from: end, into: &spec, predicateKey: "predicate", sortKey: "sortDescriptors")
        }
        spec.notes.insert("the request is made by \(describe(reference))", at: 0)
        sites.append(FoundFetchSite(line: tokens[index].line, form: .fetchRequest, spec: spec))
        return end
    }

    /// The request a member makes, read in its file for the entity the reference names: the first
    /// `NSFetchRequest<…>(…)`, `fetchRequest()` or request member in its body, and what the body sets on it.
    mutating func request(of reference: MemberReference) -> FetchSpec {
        let member = reference.member
        guard let members, var reader = makeReader(for: reference) else { return FetchSpec(entity: reference.type) }
        let start = member.body ?? member.value?.lowerBound ?? 0
        let end = member.body.map { reader.tokens.closing($0) } ?? member.value?.upperBound ?? 0
        let key = [member.file, start]
        guard members.following.insert(key).inserted else {
            return FetchSpec(entity: reference.type, untranslatable: "the request \(describe(reference)) leads back to itself")
        }
        defer { members.following.remove(key) }
        let tokens = reader.tokens
        var index = start
        while index < end {
            let token = tokens[index]
            guard token.kind == .identifier else { index += 1; continue }
            var spec: FetchSpec?
            var after = index + 1
            if token.text == "NSFetchRequest", let open = reader.callOpen(after: index) {
                let written = reader.genericArgument(after: index)
                var entity = written.map { reader.typeName($0, at: index) }
                if written == "Self" { entity = reader.selfType.map { .entity($0) } }
                spec = FetchSpec(entity: nil)
                switch entity ?? reader.entityNameArgument(open) ?? reader.selfType.map({ .entity($0) }) {
                case .entity(let name)?: spec?.entity = name
                case .unbound(let why)?: spec?.untranslatable = why
                case nil: break
                }
                after = tokens.closing(open) + 1
            } else if token.text == "fetchRequest", index + 1 < end, tokens[index + 1].isPunctuation("(") {
                var entity = reader.selfType
                // `super.fetchRequest()` in an entity's own `class func fetchRequest(…)`: the entity's request.
                var unbound: String?
                if index >= 2, tokens[index - 1].isPunctuation("."), tokens[index - 2].kind == .identifier,
                   !["Self", "self", "super"].contains(tokens[index - 2].text) {
                    // `T.fetchRequest()` of a type parameter, `type.fetchRequest()` of a metatype parameter: the entity the call binds.
                    let named = tokens[index - 2].text
                    var binding = reader.typeName(named, at: index - 2)
                    if case .type(let bound)? = reader.boundParameters[named] { binding = bound }
                    switch binding {
                    case .entity(let name): entity = name
                    case .unbound(let why): unbound = why
                    }
                }
                spec = FetchSpec(entity: entity, untranslatable: unbound)
                after = tokens.closing(index + 1) + 1
            } else if let inner = reader.requestMember(at: index) ?? reader.bareRequestMember(at: index, before: end),
                      inner.member.body != member.body || inner.member.file != member.file {
                spec = reader.request(of: inner)
                after = inner.range.upperBound
            }
            guard var found = spec else { index += 1; continue }
            // `Type.name` / `Self.name`: the request starts at the qualifier.
            let first = index >= 2 && tokens[index - 1].isPunctuation(".") ? index - 2 : index
            if reader.isBatchDeleteArgument(at: first) { found.untranslatable = found.untranslatable ?? FetchSiteFinder.batchDeleteReason }
            if found.untranslatable == nil, let name = reader.declaredName(before: first) {
                reader.applyAssignments(to: name, from: after, into: &found, predicateKey: "predicate", sortKey: "sortDescriptors")
            }
            if found.entity == nil { found.untranslatable = found.untranslatable ?? "the entity of the request \(describe(reference)) is not named" }
            return found
        }
        return FetchSpec(entity: reference.type, untranslatable: "\(describe(reference)) makes its request in a way the reader does not follow")
    }
}
