/// `NSSortDescriptor(…)` (issue 41, item 3): Foundation's initializers (`key:ascending:selector:`,
/// `keyPath:ascending:`), and one the app declares in the `--source` files (`extension NSSortDescriptor {
/// convenience init<Root, Value>(_ keyPath: KeyPath<Root, Value>, ascending: Bool = true) { self.init(keyPath:
/// keyPath, ascending: ascending) } }`), read through the `self.init(…)` its body calls with the call's arguments
/// (and the defaults it leaves out) in place of its parameters. A key, key path or direction passed into a helper
/// as a literal is that literal (`ascending: !getMax` with `getMax: true` at the call sorts descending).
extension FetchSiteFinder {
    /// The sort term of the `NSSortDescriptor(…)` call in `range` whose `(` is at `open`.
    mutating func nsSortDescriptor(_ range: Range<Int>, open: Int, spec: inout FetchSpec) throws -> [FetchSortTerm] {
        let arguments = tokens.arguments(open)
        let labels = arguments.map { $0.label ?? "_" }
        guard labels.first == "key" || labels.first == "keyPath" else {
            guard let members, let initializer = members.initializers(of: "NSSortDescriptor", labels: labels).first(where: { fits($0, arguments) }) else {
                throw Untranslatable(reason: "`\(tokens.text(range))`: `NSSortDescriptor(\(labels.map { $0 + ":" }.joined()))` is no initializer "
                    + "of Foundation's, and the --source files declare none that fits")
            }
            return try sortInitializer(initializer, range: range, open: open, spec: &spec)
        }
        var path: KeyPathReference?
        var descending = false
        var comparator = FetchSortTerm.Comparator.lexical
        for argument in arguments {
            let text = tokens.text(argument.range)
            let single = argument.range.count == 1 ? tokens[argument.range.lowerBound] : nil
            switch argument.label {
            case "key"?:
                if let single, single.kind == .string {
                    path = KeyPathReference(components: single.text.split(separator: ".").map(String.init))
                } else if let single, case .value(.literal(.text(let key)))? = boundParameters[single.text] {
                    path = KeyPathReference(components: key.split(separator: ".").map(String.init))
                } else {
                    throw Untranslatable(reason: "NSSortDescriptor(key: \(text)): a key chosen at run time")
                }
            case "keyPath"?:
                let (keyPath, type) = try keyPathArgument(argument.range)
                path = keyPath
                spec.entity = spec.entity ?? type
            case "ascending"?:
                guard let ascending = literalBool(argument.range) else {
                    throw Untranslatable(reason: "NSSortDescriptor(ascending: \(text)): a direction chosen at run time")
                }
                descending = !ascending
            case "selector"?:
                if text.contains("localizedStandardCompare") { comparator = .localizedStandard }
                else if text.contains("localizedCaseInsensitiveCompare") { comparator = .localizedCaseInsensitive }
                else if text.contains("localizedCompare") { comparator = .localized }
                else if text.contains("caseInsensitiveCompare") { comparator = .caseInsensitive }
                else if text.contains("compare") { comparator = .lexical }
                else { throw Untranslatable(reason: "NSSortDescriptor(selector: \(text)) is not translated") }
            default: continue
            }
        }
        guard let path else { throw Untranslatable(reason: "`\(tokens.text(range))` sorts without a key") }
        return [FetchSortTerm(path: path, descending: descending, comparator: comparator)]
    }

    /// True when the call's `arguments` fit `initializer` by kind: a key path literal (`\Book.title`) only a
    /// `KeyPath` parameter, a string literal any other (`init(_ key: String)` beside `init(_ keyPath: KeyPath<R, V>)`).
    private func fits(_ initializer: SourceMember, _ arguments: [(label: String?, range: Range<Int>)]) -> Bool {
        guard let parameters = initializer.parameters, let bound = initializer.binding(arguments.map { $0.label ?? "_" }) else { return false }
        return zip(arguments, bound).allSatisfy { argument, position in
            let first = tokens[argument.range.lowerBound]
            let takesKeyPath = parameters[position].type.contains("KeyPath")
            if first.isPunctuation("\\") { return takesKeyPath }
            if argument.range.count == 1, first.kind == .string { return !takesKeyPath }
            return true
        }
    }

    /// A key path argument: `\Book.title`, or a parameter the call binds to one; a parameter of the function
    /// around it otherwise, chosen at run time.
    func keyPathArgument(_ range: Range<Int>) throws -> (KeyPathReference, String?) {
        if range.count == 1, case .keyPath(let bound)? = boundParameters[tokens[range.lowerBound].text] { return try bound.get() }
        guard !range.isEmpty, tokens[range.lowerBound].isPunctuation("\\") else {
            throw Untranslatable(reason: "the sort's key path `\(tokens.text(range))` is chosen at run time")
        }
        return try keyPath(range)
    }

    /// The sort an app-declared `NSSortDescriptor` initializer makes for the call in `range`: the `self.init(…)` of
    /// its body, read in its own file with the call's arguments bound to its parameters.
    private mutating func sortInitializer(_ initializer: SourceMember, range: Range<Int>, open: Int, spec: inout FetchSpec) throws -> [FetchSortTerm] {
        let reference = MemberReference(member: initializer, type: "NSSortDescriptor", call: open, range: range)
        guard let members, let body = initializer.body else { throw Untranslatable(reason: "the sort initializer \(describe(reference)) has no body") }
        let key = [initializer.file, body]
        guard members.following.insert(key).inserted else {
            throw Untranslatable(reason: "the sort initializer \(describe(reference)) leads back to itself")
        }
        defer { members.following.remove(key) }
        guard var reader = makeReader(for: reference) else { throw Untranslatable(reason: "the sort initializer \(describe(reference)) is not read") }
        let tokens = reader.tokens
        let end = tokens.closing(body)
        var index = body + 1
        while index < end {
            if tokens[index].isWord("init"), index >= 2, tokens[index - 1].isPunctuation("."), tokens[index - 2].isWord("self"),
               let call = reader.callOpen(after: index) {
                var inner = FetchSpec(entity: nil)
                let terms = try reader.nsSortDescriptor((index - 2)..<(tokens.closing(call) + 1), open: call, spec: &inner)
                deepest = max(deepest, reader.deepest)
                spec.entity = spec.entity ?? inner.entity
                return terms
            }
            index += 1
        }
        throw Untranslatable(reason: "the sort initializer \(describe(reference)) does not call `self.init(key:…)` or `self.init(keyPath:…)`")
    }
}
