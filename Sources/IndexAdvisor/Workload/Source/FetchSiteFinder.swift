/// A fetch site found in one file, before translation.
struct FoundFetchSite: Equatable {
    var line: Int
    var form: FetchSite.Form
    var spec: FetchSpec
}

/// Finds the fetch sites in one Swift file's tokens (``SwiftLexer``): `@Query(…)` and `Query(…)`,
/// `FetchDescriptor<T>(…)` (with `fetchLimit`, `fetchOffset`, `predicate`, `sortBy` set on it later in
/// the same scope, and `fetchCount` making it a count), `#Predicate<T> { … }` that nothing in the file
/// uses, `NSFetchRequest` (`NSFetchRequest<T>(entityName:)`, `T.fetchRequest()`, with `predicate`,
/// `sortDescriptors`, `fetchLimit`, `fetchOffset` assigned and `count(for:)`), and `@FetchRequest(…)`.
/// Predicates and sort descriptors given by name (`let recent = #Predicate…`, `static let byDate =
/// [SortDescriptor…]`) are looked up among the file's declarations; a name not declared in the file, or
/// declared as something other than a literal predicate or sort, makes the site untranslatable ("built at
/// run time"), never skipped.
struct FetchSiteFinder {
    let tokens: SwiftTokens
    let modelNames: Set<String>
    /// The file's names, looked up instead of scanned for.
    let declarations: SourceDeclarations
    /// The static members of every `--source` file, and this file's place among them (nil: a file read alone).
    let members: SourceMembers?
    let file: Int
    /// The entity `Self` is while a member is read for it (`Status.sortedFetchRequest` read in a protocol extension).
    var selfType: String?
    /// A member function's predicate and sort parameters, read from the call's arguments.
    var boundParameters: [String: BoundArgument] = [:]
    /// A generic member's type parameters, bound from the call (`T` is `Book` in `fetchRequest(Book.self)`).
    var generics: [String: GenericBinding] = [:]
    /// `name` → index of the first token of its initializer, for every `let`/`var name … = value` in the file.
    private var initializers: [String: Int] { declarations.initializers }
    /// Names of predicates, sorts and descriptors a site used.
    private var usedNames: Set<String> = []
    /// The values (their first tokens) of names being followed now: a value that leads back to itself
    /// (`let predicate = self.predicate` shadowing nothing the file declares) is not followed again.
    private var following: Set<Int> = []
    /// Levels of predicate and sort arguments entered (compound predicates, arrays, names followed).
    var nesting = 0
    /// The deepest ``nesting`` reached while the name followed now was read.
    var deepest = 0
    /// Each name's predicate or sort, read once where the name is first followed (keyed by its initializer's
    /// first token): a chain of names that each use the one before twice is read once per name, not 2^N times.
    private var followedPredicates: [Int: Followed<PredicateNode?>] = [:]
    private var followedSorts: [Int: Followed<[FetchSortTerm]>] = [:]
    /// Tokens that belong to a site already read (one flag per token: looked up for every token).
    private var consumedTokens: [Bool]
    var sites: [FoundFetchSite] = []

    static func find(_ tokens: SwiftTokens, modelNames: Set<String>) -> [FoundFetchSite] {
        var finder = FetchSiteFinder(tokens: tokens, modelNames: modelNames)
        finder.scan()
        return finder.sites.sorted { $0.line < $1.line }
    }

    /// The sites of the file at `file` among `members`' files, with static members followed across them.
    static func find(file: Int, in members: SourceMembers, modelNames: Set<String>) -> [FoundFetchSite] {
        var finder = FetchSiteFinder(file: file, in: members, modelNames: modelNames, reading: false)
        finder.scan()
        return finder.sites.sorted { $0.line < $1.line }
    }

    private init(tokens: SwiftTokens, modelNames: Set<String>) {
        self.tokens = tokens
        self.modelNames = modelNames
        declarations = SourceDeclarations(tokens)
        members = nil
        file = 0
        consumedTokens = Array(repeating: false, count: tokens.count)
    }

    /// A finder of `members`' file `file`; one `reading` a member's value for another file's site keeps no
    /// per-token state (it finds no sites of its own).
    init(file: Int, in members: SourceMembers, modelNames: Set<String>, reading: Bool) {
        let source = members.files[file]
        tokens = source.tokens
        self.modelNames = modelNames
        declarations = source.declarations
        self.members = members
        self.file = file
        consumedTokens = reading ? [] : Array(repeating: false, count: source.tokens.count)
    }

    private func isConsumed(_ index: Int) -> Bool { index >= 0 && index < consumedTokens.count && consumedTokens[index] }

    mutating func consume(_ range: Range<Int>) {
        for index in range where index >= 0 && index < consumedTokens.count { consumedTokens[index] = true }
    }

    // MARK: Scanning

    private mutating func scan() {
        // `Query(descriptor)`: the query is the site, not the descriptor declared before it.
        for (index, token) in tokens.enumerated() where token.text == "Query" && (token.kind == .attribute || token.kind == .identifier) {
            guard let open = index + 1 < tokens.count && tokens[index + 1].isPunctuation("(") ? index + 1 : callOpen(after: index),
                  let first = tokens.arguments(open).first, first.label == nil, first.range.count == 1,
                  tokens[first.range.lowerBound].kind == .identifier, initializers[tokens[first.range.lowerBound].text] != nil else { continue }
            usedNames.insert(tokens[first.range.lowerBound].text)
        }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if isConsumed(index) {
                index += 1
                continue
            }
            if token.kind == .attribute && token.text == "Query" {
                index = queryAttribute(at: index)
            } else if token.kind == .attribute && token.text == "FetchRequest" {
                index = fetchRequestAttribute(at: index)
            } else if token.isWord("FetchRequest"), let open = callOpen(after: index), index >= 2, tokens[index - 1].isPunctuation("="),
                      tokens[index - 2].text.hasPrefix("_") {
                index = fetchRequestCall(at: index, open: open)
            } else if token.isWord("Query"), let open = callOpen(after: index), index == 0 || tokens[index - 1].kind != .attribute,
                      index < 2 || !tokens[index - 1].isPunctuation(".") || tokens[index - 2].isWord("SwiftData") {
                // (`Mastodon.API.DomainBlock.Query(…)` is another type named Query.)
                index = queryCall(at: index, open: open)
            } else if token.isWord("FetchDescriptor"), let open = callOpen(after: index) {
                index = descriptor(at: index, open: open)
            } else if token.isWord("NSFetchRequest"), let open = callOpen(after: index) {
                index = fetchRequest(at: index, open: open, entity: genericArgument(after: index))
            } else if token.kind == .identifier, modelName(token.text) != nil, index + 2 < tokens.count, tokens[index + 1].isPunctuation("."),
                      !tokens[index + 2].isWord("fetchRequest"), let found = requestMember(at: index) {
                index = memberRequestSite(at: index, found)
            } else if token.kind == .identifier, modelNames.contains(token.text), index + 4 < tokens.count, tokens[index + 1].isPunctuation("."),
                      tokens[index + 2].isWord("fetchRequest"), tokens[index + 3].isPunctuation("(") {
                // The entity's own `fetchRequest(predicate:…)` / `fetchRequest(fileID:)` is followed like any request member.
                if !madeInUsedBuilder(index), let found = requestMember(at: index) {
                    index = memberRequestSite(at: index, found)
                } else {
                    index = fetchRequest(at: index, open: index + 3, entity: token.text)
                }
            } else if token.kind == .identifier, token.text.first?.isUppercase ?? false, index + 3 < tokens.count, tokens[index + 1].isPunctuation("."),
                      tokens[index + 3].isPunctuation("("), let found = requestMember(at: index), found.member.isGenericOverEntity {
                // A generic request helper of another type (`NSManagedObject.fetchRequest(Book.self, limit: 1)`): a site
                // where it is called, for the entity the call binds; inside a request member that is used, read there.
                if madeInUsedBuilder(index) {
                    consume(index..<found.range.upperBound)
                    index = found.range.upperBound
                } else {
                    index = memberRequestSite(at: index, found)
                }
            } else {
                index += 1
            }
        }
        // A #Predicate that no site used: a fetch of its entity.
        for (index, token) in tokens.enumerated() where token.kind == .pound && token.text == "Predicate" && !isConsumed(index) {
            if let name = declaredName(before: index), usedNames.contains(name) { continue }
            var spec = FetchSpec(entity: genericArgument(after: index))
            do {
                spec.predicate = try predicate(index..<(closureEnd(from: index) + 1), spec: &spec)
            } catch let error as Untranslatable {
                spec.untranslatable = error.reason
            } catch {}
            spec.notes.append("a #Predicate used outside a FetchDescriptor or @Query in this file: read as a fetch of its entity without sort or limit")
            sites.append(FoundFetchSite(line: token.line, form: .predicate, spec: spec))
        }
    }

    /// The `(` of a call `Name(…)` or `Name<T>(…)` at `index`, or nil when the name is not called there.
    func callOpen(after index: Int) -> Int? {
        var next = index + 1
        if next < tokens.count, tokens[next].isPunctuation("<"), !tokens[next].precededBySpace {
            guard let close = tokens.angleClosing(next) else { return nil }
            next = close + 1
        }
        guard next < tokens.count, tokens[next].isPunctuation("("), !tokens[next].precededBySpace else { return nil }
        return next
    }

    /// `T` in `Name<T>` at `index`, when written.
    func genericArgument(after index: Int) -> String? {
        guard index + 2 < tokens.count, tokens[index + 1].isPunctuation("<"), tokens[index + 2].kind == .identifier else { return nil }
        let name = tokens[index + 2].text
        // A request's result type, not its entity (`NSFetchRequest<NSManagedObjectID>(entityName: "Tab")`).
        return ["NSFetchRequestResult", "NSManagedObject", "NSManagedObjectID", "NSDictionary"].contains(name) ? nil : name
    }

    /// `name` in `let name = …` / `var name: T = …` / `name = …` ending just before `index`.
    func declaredName(before index: Int) -> String? {
        guard index > 1, tokens[index - 1].isPunctuation("=") else { return nil }
        var j = index - 2
        while j >= 0, j > index - 12 {
            if tokens[j].isWord("let") || tokens[j].isWord("var") { return j + 1 < index ? tokens[j + 1].text : nil }
            if tokens[j].startsLine, tokens[j].kind == .identifier, j == index - 2 { return tokens[j].text }
            if tokens[j].isPunctuation("{") || tokens[j].isPunctuation("}") || tokens[j].isPunctuation(";") { break }
            j -= 1
        }
        return tokens[index - 2].kind == .identifier ? tokens[index - 2].text : nil
    }

    /// The index of the `}` closing the `#Predicate`'s closure that starts after `index` (after its generic
    /// argument and any parenthesised arguments), or of the token where a closure was expected.
    private func closureEnd(from index: Int) -> Int {
        var j = index + 1
        if j < tokens.count, tokens[j].isPunctuation("<"), let close = tokens.angleClosing(j) { j = close + 1 }
        while j < tokens.count, tokens[j].isPunctuation("(") { j = tokens.closing(j) + 1 }
        return j < tokens.count ? tokens.closing(j) : tokens.count - 1
    }

    // MARK: Sites

    private mutating func queryAttribute(at index: Int) -> Int {
        propertyWrapperAttribute(at: index, form: .query, assignedInInitializer: { finder, name in finder.hasInitializerQuery(for: name) },
                                 read: { finder, arguments, spec in finder.readQueryArguments(arguments, into: &spec) })
    }

    /// A property wrapper's attribute (`@Query(…)`, `@FetchRequest(…)`) with its arguments, on the property
    /// it wraps: a site of `form`, unless it has no arguments and an initializer assigns the wrapper instead
    /// (`assignedInInitializer`: that assignment is the site).
    mutating func propertyWrapperAttribute(at index: Int, form: FetchSite.Form,
                                           assignedInInitializer: (Self, String) -> Bool,
                                           read: (inout Self, [(label: String?, range: Range<Int>)], inout FetchSpec) -> Void) -> Int {
        var end = index + 1
        var arguments: [(label: String?, range: Range<Int>)] = []
        if end < tokens.count, tokens[end].isPunctuation("("), !tokens[end].precededBySpace {
            arguments = tokens.arguments(end)
            end = tokens.closing(end) + 1
        }
        let property = propertyDeclaration(from: end)
        if arguments.isEmpty, let name = property?.name, assignedInInitializer(self, name) {
            consume(index..<end)
            return end
        }
        var spec = FetchSpec(entity: property?.element)
        read(&self, arguments, &spec)
        sites.append(FoundFetchSite(line: tokens[index].line, form: form, spec: spec))
        consume(index..<end)
        return end
    }

    private mutating func queryCall(at index: Int, open: Int) -> Int {
        let close = tokens.closing(open)
        var spec = FetchSpec(entity: genericArgument(after: index))
        // `_notes = Query(…)`: the entity from `@Query var notes: [Note]`.
        if spec.entity == nil, index >= 2, tokens[index - 1].isPunctuation("="), tokens[index - 2].text.hasPrefix("_") {
            spec.entity = propertyType(named: String(tokens[index - 2].text.dropFirst()))
        }
        readQueryArguments(tokens.arguments(open), into: &spec)
        sites.append(FoundFetchSite(line: tokens[index].line, form: .query, spec: spec))
        consume(index..<(close + 1))
        return close + 1
    }

    private mutating func readQueryArguments(_ arguments: [(label: String?, range: Range<Int>)], into spec: inout FetchSpec) {
        do {
            var keyPathSort: KeyPathReference?
            var reverse = false
            for argument in arguments {
                switch argument.label {
                case nil:
                    // `Query(descriptor)` or `Query(FetchDescriptor<Note>(…))`.
                    var start = argument.range.lowerBound
                    var name: String?
                    if tokens[start].kind == .identifier, !tokens[start].isWord("FetchDescriptor"), let value = initializers[tokens[start].text] {
                        name = tokens[start].text
                        usedNames.insert(tokens[start].text)
                        start = value
                    }
                    guard start < tokens.count, tokens[start].isWord("FetchDescriptor"), let open = callOpen(after: start) else {
                        throw Untranslatable(reason: "the query's descriptor `\(tokens.text(argument.range))` is built at run time")
                    }
                    var inner = readDescriptor(at: start, open: open)
                    if let name {
                        // `descriptor.fetchLimit = 50` between its declaration and the query.
                        applyAssignments(to: name, from: tokens.closing(open) + 1, into: &inner, predicateKey: "predicate", sortKey: "sortBy")
                        spec.limit = inner.limit
                        spec.offset = inner.offset
                        spec.notes += inner.notes
                    } else {
                        consume(start..<(tokens.closing(open) + 1))
                    }
                    spec.predicate = inner.predicate
                    spec.sort = inner.sort
                    spec.entity = inner.entity ?? spec.entity
                    if let reason = inner.untranslatable { throw Untranslatable(reason: reason) }
                case "filter"?:
                    spec.predicate = try predicate(argument.range, spec: &spec)
                case "sort"?:
                    if tokens[argument.range.lowerBound].isPunctuation("\\") {
                        let (path, type) = try keyPath(argument.range)
                        keyPathSort = path
                        spec.entity = spec.entity ?? type
                    } else {
                        spec.sort = try sortTerms(argument.range, spec: &spec)
                    }
                case "order"?:
                    reverse = tokens.text(argument.range).contains("reverse")
                default:
                    continue
                }
            }
            if let keyPathSort { spec.sort = [FetchSortTerm(path: keyPathSort, descending: reverse, comparator: .standard)] }
        } catch let error as Untranslatable {
            spec.untranslatable = error.reason
        } catch {}
    }

    private mutating func descriptor(at index: Int, open: Int) -> Int {
        let close = tokens.closing(open)
        let name = declaredName(before: index)
        consume(index..<(close + 1))
        if let name, usedNames.contains(name) { return close + 1 }
        var spec = readDescriptor(at: index, open: open)
        if let name {
            applyAssignments(to: name, from: close + 1, into: &spec, predicateKey: "predicate", sortKey: "sortBy")
        }
        if index >= 2, tokens[index - 1].isPunctuation("("), tokens[index - 2].isWord("fetchCount") { spec.isCount = true }
        sites.append(FoundFetchSite(line: tokens[index].line, form: .fetchDescriptor, spec: spec))
        return close + 1
    }

    private mutating func readDescriptor(at index: Int, open: Int) -> FetchSpec {
        var spec = FetchSpec(entity: genericArgument(after: index))
        do {
            for argument in tokens.arguments(open) {
                switch argument.label {
                case "predicate"?: spec.predicate = try predicate(argument.range, spec: &spec)
                case "sortBy"?: spec.sort = try sortTerms(argument.range, spec: &spec)
                default: continue
                }
            }
        } catch let error as Untranslatable {
            spec.untranslatable = error.reason
        } catch {}
        return spec
    }

    /// True when the request at `index` is made in the body of an entity's or a protocol's static member that
    /// the source uses (`Status.sortedFetchRequest`): it is read where the member is used. A request made inside
    /// `enum Languages { static func fetch() }` or another type's helper is a site where it is made.
    private func madeInUsedBuilder(_ index: Int) -> Bool {
        guard let members, let builder = members.usedBuilder(around: index, in: file) else { return false }
        return modelName(builder.owner) != nil || members.isProtocol(builder.owner) || builder.isGenericOverEntity
    }

    private mutating func fetchRequest(at index: Int, open: Int, entity: String?) -> Int {
        let close = tokens.closing(open)
        // A static member's request (`sortedFetchRequest` of a protocol extension) is read where it is used.
        if madeInUsedBuilder(index) {
            consume(index..<(close + 1))
            return close + 1
        }
        var spec = FetchSpec(entity: entity == "Self" ? contextType(at: index) : entity)
        let unresolvedSelf = entity == "Self" && spec.entity == nil
        if spec.entity == nil, !unresolvedSelf, case .entity(let named)? = entityNameArgument(open) { spec.entity = named }
        // `NSFetchRequest<T>` in a generic function: the entity its callers choose.
        if let written = spec.entity, case .unbound(let why) = typeName(written, at: index) { spec.untranslatable = why }
        consume(index..<(close + 1))
        if isBatchDeleteArgument(at: index) { spec.untranslatable = spec.untranslatable ?? Self.batchDeleteReason }
        if let name = declaredName(before: index) {
            applyAssignments(to: name, from: close + 1, into: &spec, predicateKey: "predicate", sortKey: "sortDescriptors")
        } else if spec.entity == nil && !unresolvedSelf {
            return close + 1
        }
        if unresolvedSelf {
            spec.untranslatable = "a request for `Self` in a protocol extension, and nothing in the --source files uses the member that makes it: translated where an entity uses it"
        }
        sites.append(FoundFetchSite(line: tokens[index].line, form: .fetchRequest, spec: spec))
        return close + 1
    }

    /// Reads `name.fetchLimit = 20`, `name.predicate = …`, `name.sortBy = […]` in the rest of the scope, and
    /// `fetchCount(name)` / `count(for: name)`, which make the site a count.
    mutating func applyAssignments(to name: String, from start: Int, into spec: inout FetchSpec, predicateKey: String, sortKey: String) {
        let end = tokens.scopeEnd(containing: start)
        // Only the name's own uses in the scope can be `name.x = …` or `count(for: name)`: looked up, not
        // scanned for (a scan per site of the rest of a long scope is quadratic in a file of sites).
        var resume = start
        for j in declarations.uses(of: name, in: start..<end) where j >= resume {
            if j + 3 < end, tokens[j + 1].isPunctuation("."), tokens[j + 2].kind == .identifier, tokens[j + 3].isPunctuation("="),
               tokens.infixOperator(at: j + 3)?.text != "==" {
                let property = tokens[j + 2].text
                let valueStart = j + 4
                var valueEnd = valueStart
                while valueEnd < end {
                    let token = tokens[valueEnd]
                    if valueEnd > valueStart && (token.startsLine || token.isPunctuation(";") || token.isPunctuation("}")) { break }
                    if token.kind == .punctuation && "([{".contains(token.text) { valueEnd = tokens.closing(valueEnd) + 1 } else { valueEnd += 1 }
                }
                let range = valueStart..<valueEnd
                consume(j..<valueEnd)
                do {
                    switch property {
                    case "fetchLimit", "fetchOffset":
                        switch assignedNumber(range) {
                        case .number(let number): if property == "fetchLimit" { spec.limit = number } else { spec.offset = number }
                        case .nothing: break
                        case .runTime: spec.notes.append("\(property) is set to `\(tokens.text(range))`, not a literal: translated without it")
                        }
                    case predicateKey: spec.predicate = try predicate(range, spec: &spec)
                    case sortKey: spec.sort = try sortTerms(range, spec: &spec)
                    case "fetchBatchSize":
                        switch assignedNumber(range) {
                        case .number(let number) where number > 0: spec.batchSize = number
                        case .number, .nothing: break
                        case .runTime: spec.notes.append("fetchBatchSize is set to `\(tokens.text(range))`, not a literal: translated as a fetch of every column at once")
                        }
                    case "relationshipKeyPathsForPrefetching":
                        spec.notes.append("relationshipKeyPathsForPrefetching \(tokens.text(range)): each relationship is fetched after it by key (`… WHERE … IN (SELECT * FROM _Z_intarray0)`), not listed")
                    default: break
                    }
                } catch let error as Untranslatable {
                    spec.untranslatable = error.reason
                } catch {}
                resume = valueEnd
                continue
            }
            // `fetchCount(name)`, `count(for: name)`: the call two or four tokens before.
            if j + 1 < end, tokens[j + 1].isPunctuation(")") {
                let counted = [j - 2, j - 4].contains { call in
                    call >= resume && (tokens[call].isWord("fetchCount") || tokens[call].isWord("count")) && tokens[call + 1].isPunctuation("(")
                        && (call == j - 2 || (tokens[j - 2].isWord("for") && tokens[j - 1].isPunctuation(":")))
                }
                if counted { spec.isCount = true }
                // `NSBatchDeleteRequest(fetchRequest: name)`.
                if isBatchDeleteArgument(at: j) {
                    spec.untranslatable = spec.untranslatable ?? Self.batchDeleteReason
                }
            }
        }
    }

    // MARK: Parts

    /// The property a `@Query`/`@FetchRequest` decorates: its name and its element type (`[Note]` → `Note`,
    /// `FetchedResults<Note>` → `Note`).
    func propertyDeclaration(from index: Int) -> (name: String, element: String?)? {
        var j = index
        while j < tokens.count, j < index + 8, !tokens[j].isWord("var") { j += 1 }
        guard j + 1 < tokens.count, tokens[j].isWord("var"), tokens[j + 1].kind == .identifier else { return nil }
        let name = tokens[j + 1].text
        var element: String?
        if j + 3 < tokens.count, tokens[j + 2].isPunctuation(":") {
            let k = j + 3
            if tokens[k].isPunctuation("["), k + 1 < tokens.count, tokens[k + 1].kind == .identifier { element = tokens[k + 1].text }
            if tokens[k].isWord("FetchedResults"), k + 2 < tokens.count, tokens[k + 2].kind == .identifier { element = tokens[k + 2].text }
        }
        return (name, element)
    }

    /// The element type of `@Query var name: [T]` declared in the file.
    func propertyType(named name: String) -> String? {
        for index in declarations.variables[name] ?? [] {
            if let element = propertyDeclaration(from: index)?.element { return element }
        }
        return nil
    }

    /// True when the file assigns `_name = Query(…)` (the `@Query` is configured in an initializer).
    private func hasInitializerQuery(for name: String) -> Bool {
        declarations.initializedQueries.contains(name)
    }

    /// A predicate argument: `#Predicate<T> { … }`, `NSPredicate(format:…)`, `NSCompoundPredicate(…)`, a name
    /// declared in the file, or `nil`.
    /// What reading a name's initializer gave: the value, the entity it named (`#Predicate<Note>`), and how
    /// many levels of nesting reading it took (``Untranslatable/maxNesting`` holds wherever it is used again).
    private struct Followed<Value> {
        var value: Value
        var entity: String?
        var levels: Int
    }

    /// When `range` ends in the single name at `start` that the file declares, `read` of the value that
    /// reaches this use of it (``SourceDeclarations/binding(of:at:qualified:in:)``: its initializer, or the
    /// last assignment before the use in straight-line code), from `cache` when it was read before; nil
    /// otherwise, and when that value is already being followed: a name that leads back to itself gets its
    /// value elsewhere, at run time. A value assigned where the reader cannot tell which reaches the use
    /// throws: `what` (predicate, sort) built at run time, and why. Only what was read is kept: a failure is
    /// read again, and is as cheap to find again as it was the first time (the first part that fails ends the reading).
    private mutating func follow<Value>(_ start: Int, in range: Range<Int>, spec: inout FetchSpec, what: String,
                                        cache: WritableKeyPath<FetchSiteFinder, [Int: Followed<Value>]>,
                                        _ read: (inout FetchSiteFinder, Range<Int>, inout FetchSpec) throws -> Value) throws -> Value? {
        guard start == range.upperBound - 1, tokens[start].kind == .identifier else { return nil }
        let name = tokens[start].text
        let value: Int
        switch declarations.binding(of: name, at: start, qualified: start != range.lowerBound, in: tokens) {
        case .undeclared: return nil
        case .runTime(let why):
            // A computed static property or a protocol's requirement: the member the entity declares.
            if staticMember(range) != nil { return nil }
            throw Untranslatable(reason: "the \(what) `\(tokens.text(range))` is built at run time (\(why))")
        case .value(let found): value = found
        }
        guard !following.contains(value) else { return nil }
        usedNames.insert(name)
        if let known = self[keyPath: cache][value] {
            if nesting + known.levels > Untranslatable.maxNesting { throw Untranslatable.tooDeep }
            deepest = max(deepest, nesting + known.levels)
            spec.entity = spec.entity ?? known.entity
            return known.value
        }
        following.insert(value)
        let outerDeepest = deepest
        deepest = nesting
        defer {
            following.remove(value)
            deepest = max(outerDeepest, deepest)
        }
        var found = FetchSpec(entity: nil)
        let result = try read(&self, value..<tokens.expressionEnd(from: value), &found)
        self[keyPath: cache][value] = Followed(value: result, entity: found.entity, levels: deepest - nesting)
        spec.entity = spec.entity ?? found.entity
        return result
    }

    /// Enters one more level of a predicate or sort.
    private mutating func enter() throws {
        nesting += 1
        deepest = max(deepest, nesting)
        if nesting > Untranslatable.maxNesting { throw Untranslatable.tooDeep }
    }

    /// `node`, when it has at most ``Untranslatable/maxTerms`` terms.
    private func bounded(_ node: PredicateNode) throws -> PredicateNode {
        let terms = node.terms
        if terms > Untranslatable.maxTerms { throw Untranslatable.tooLarge("predicate", terms: terms) }
        return node
    }

    mutating func predicate(_ range: Range<Int>, spec: inout FetchSpec) throws -> PredicateNode? {
        guard !range.isEmpty else { return nil }
        defer { nesting -= 1 }
        try enter()
        var start = range.lowerBound
        let token = tokens[start]
        if range.count == 1, case .predicate(let bound)? = boundParameters[token.text] { return try bound.get() }
        if token.kind == .pound && token.text == "Predicate" {
            if let entity = genericArgument(after: start) { spec.entity = spec.entity ?? entity }
            var open = start + 1
            if open < tokens.count, tokens[open].isPunctuation("<") { open = (tokens.angleClosing(open) ?? open) + 1 }
            guard open < tokens.count, tokens[open].isPunctuation("{") else {
                throw Untranslatable(reason: "a #Predicate without a closure")
            }
            consume(start..<(tokens.closing(open) + 1))
            return try bounded(SwiftPredicateParser.parse(tokens, closureAt: open))
        }
        if token.isWord("nil") && range.count == 1 { return nil }
        if token.isWord("NSPredicate"), let open = callOpen(after: start) {
            let arguments = tokens.arguments(open)
            if let first = arguments.first, first.label == "value" { return tokens.text(first.range) == "true" ? .always : .not(.always) }
            guard let first = arguments.first, first.label == "format" else {
                throw Untranslatable(reason: "`\(tokens.text(range))`: only NSPredicate(format:) is translated")
            }
            guard first.range.count == 1, tokens[first.range.lowerBound].kind == .string, !tokens[first.range.lowerBound].text.contains("\\(") else {
                throw Untranslatable(reason: "NSPredicate(format: \(tokens.text(first.range))): a format string built at run time")
            }
            let values = arguments.dropFirst().map { formatArgument($0.range) }
            return try bounded(PredicateFormatParser.parse(tokens[first.range.lowerBound].text, arguments: values))
        }
        if token.isWord("NSCompoundPredicate"), let open = callOpen(after: start), let first = tokens.arguments(open).first {
            let kind = first.label ?? ""
            if kind == "notPredicateWithSubpredicate" {
                return try predicate(first.range, spec: &spec).map { try bounded(.not($0)) }
            }
            guard kind == "andPredicateWithSubpredicates" || kind == "orPredicateWithSubpredicates" || kind == "type",
                  tokens[first.range.lowerBound].isPunctuation("[") || kind == "type" else {
                throw Untranslatable(reason: "`\(tokens.text(range))`: a compound predicate built at run time")
            }
            guard kind != "type" else { throw Untranslatable(reason: "NSCompoundPredicate(type:subpredicates:) is not translated") }
            // A part given twice is one condition (`[p, p]`): kept once, so that a chain of names each
            // doubling the one before stays one term; a single part is the compound's SQL on its own.
            var parts: [PredicateNode] = []
            var terms = 1
            var names: Set<Int> = []
            for element in tokens.arguments(first.range.lowerBound) {
                if element.range.count == 1, case .value(let value) = declarations.binding(of: tokens[element.range.lowerBound].text, at: element.range.lowerBound, qualified: false, in: tokens),
                   !names.insert(value).inserted { continue }
                guard let part = try predicate(element.range, spec: &spec) else { continue }
                // Past the limit only the count goes on (a part is compared with at most the limit's terms).
                if terms <= Untranslatable.maxTerms {
                    if parts.contains(part) { continue }
                    parts.append(part)
                }
                terms += part.terms
            }
            if terms > Untranslatable.maxTerms { throw Untranslatable.tooLarge("predicate", terms: terms) }
            if parts.count == 1 { return parts[0] }
            return kind == "andPredicateWithSubpredicates" ? .and(parts) : .or(parts)
        }
        // A name declared in the file (`predicate`, `Self.recent`, `Note.recent`).
        while start + 2 < range.upperBound, tokens[start + 1].isPunctuation("."), tokens[start + 2].kind == .identifier { start += 2 }
        if let node = try follow(start, in: range, spec: &spec, what: "predicate", cache: \.followedPredicates, { finder, value, found in try finder.predicate(value, spec: &found) }) {
            return node
        }
        if let found = staticMember(range) {
            return try readMember(found, spec: &spec, what: "predicate") { finder, value, inner in try finder.predicate(value, spec: &inner) }
        }
        throw Untranslatable(reason: "the predicate `\(tokens.text(range))` is built at run time (a dynamic predicate, not a #Predicate or format literal in this file)")
    }

    func formatArgument(_ range: Range<Int>) -> FormatArgument {
        let first = tokens[range.lowerBound]
        if range.count == 1, case .value(let bound)? = boundParameters[first.text] { return bound }
        if range.count == 1 {
            switch first.kind {
            case .string: return first.text.contains("\\(") ? .captured(tokens.text(range)) : .literal(.text(first.text))
            case .number: return Int64(first.text).map { .literal(.integer($0)) } ?? Double(first.text).map { .literal(.real($0)) } ?? .captured(first.text)
            case .identifier where first.text == "true" || first.text == "false": return .literal(.integer(first.text == "true" ? 1 : 0))
            case .identifier where first.text == "nil": return .null
            default: break
            }
        }
        if first.kind == .pound, first.text == "keyPath", range.count >= 4 {
            let names = range.filter { tokens[$0].kind == .identifier }.map { tokens[$0].text }
            let components = names.first.map { modelNames.contains($0) || $0 == "Self" ? Array(names.dropFirst()) : names } ?? []
            return .key(components.joined(separator: "."))
        }
        if first.isPunctuation("\\"), let (path, _) = try? keyPath(range) { return .key(path.text) }
        return .captured(tokens.text(range))
    }

    /// `\Note.folder?.name` or `\.title`: the key path and the type written, if any.
    func keyPath(_ range: Range<Int>) throws -> (KeyPathReference, String?) {
        var j = range.lowerBound
        guard j < range.upperBound, tokens[j].isPunctuation("\\") else { throw Untranslatable(reason: "`\(tokens.text(range))` is not a key path") }
        j += 1
        var type: String?
        if j < range.upperBound, tokens[j].kind == .identifier {
            type = tokens[j].text
            j += 1
        }
        var path = KeyPathReference(components: [])
        while j < range.upperBound {
            if tokens[j].isPunctuation("?") || tokens[j].isPunctuation("!") {
                path.optionalChain = path.optionalChain || tokens[j].text == "?"
                j += 1
                continue
            }
            guard tokens[j].isPunctuation("."), j + 1 < range.upperBound, tokens[j + 1].kind == .identifier else { break }
            path.components.append(tokens[j + 1].text)
            j += 2
        }
        guard !path.components.isEmpty else { throw Untranslatable(reason: "`\(tokens.text(range))` is not a key path") }
        return (path, type)
    }

    /// Sort descriptors: an array of `SortDescriptor(…)`, `.init(…)`, `NSSortDescriptor(…)`, one of them,
    /// or a name declared in the file.
    mutating func sortTerms(_ range: Range<Int>, spec: inout FetchSpec) throws -> [FetchSortTerm] {
        guard !range.isEmpty else { return [] }
        defer { nesting -= 1 }
        try enter()
        var start = range.lowerBound
        if range.count == 1, case .sort(let bound)? = boundParameters[tokens[start].text] { return try bound.get() }
        if tokens[start].isPunctuation("[") {
            var terms: [FetchSortTerm] = []
            var count = 0
            for element in tokens.arguments(start) {
                let part = try sortTerms(element.range, spec: &spec)
                count += part.count
                if count <= Untranslatable.maxTerms { terms += part }
            }
            if count > Untranslatable.maxTerms { throw Untranslatable.tooLarge("sort", terms: count) }
            return terms
        }
        if tokens[start].isPunctuation("\\") {
            let (path, type) = try keyPath(range)
            spec.entity = spec.entity ?? type
            return [FetchSortTerm(path: path, descending: false, comparator: .standard)]
        }
        let isInit = tokens[start].isPunctuation(".") && start + 1 < range.upperBound && tokens[start + 1].isWord("init")
        if tokens[start].isWord("SortDescriptor") || isInit {
            let nameIndex = isInit ? start + 1 : start
            if let type = genericArgument(after: nameIndex) { spec.entity = spec.entity ?? type }
            guard let open = callOpen(after: nameIndex) else { throw Untranslatable(reason: "`\(tokens.text(range))` is not a sort descriptor") }
            var term: FetchSortTerm?
            var descending = false
            var comparator = FetchSortTerm.Comparator.standard
            for argument in tokens.arguments(open) {
                switch argument.label {
                case nil:
                    let (path, type) = try keyPath(argument.range)
                    spec.entity = spec.entity ?? type
                    term = FetchSortTerm(path: path, descending: false, comparator: .standard)
                case "order"?:
                    let text = tokens.text(argument.range)
                    guard text.hasSuffix("reverse") || text.hasSuffix("forward") else {
                        throw Untranslatable(reason: "the sort order `\(text)` is chosen at run time")
                    }
                    descending = text.hasSuffix("reverse")
                case "comparator"?:
                    let text = tokens.text(argument.range)
                    if text.hasSuffix("localizedStandard") { comparator = .localizedStandard }
                    else if text.hasSuffix("localized") { comparator = .localized }
                    else if text.hasSuffix("lexical") { comparator = .lexical }
                    else { throw Untranslatable(reason: "the sort comparator `\(text)` is not translated") }
                default: continue
                }
            }
            guard var found = term else { throw Untranslatable(reason: "`\(tokens.text(range))` sorts without a key path") }
            found.descending = descending
            found.comparator = comparator
            return [found]
        }
        if tokens[start].isWord("NSSortDescriptor"), let open = callOpen(after: start) {
            return try nsSortDescriptor(range, open: open, spec: &spec)
        }
        while start + 2 < range.upperBound, tokens[start + 1].isPunctuation("."), tokens[start + 2].kind == .identifier { start += 2 }
        if let terms = try follow(start, in: range, spec: &spec, what: "sort", cache: \.followedSorts, { finder, value, found in try finder.sortTerms(value, spec: &found) }) {
            return terms
        }
        if let found = staticMember(range) {
            return try readMember(found, spec: &spec, what: "sort") { finder, value, inner in try finder.sortTerms(value, spec: &inner) }
        }
        throw Untranslatable(reason: "the sort `\(tokens.text(range))` is built at run time")
    }
}
