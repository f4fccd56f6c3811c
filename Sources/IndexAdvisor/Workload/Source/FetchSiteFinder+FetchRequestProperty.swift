/// SwiftUI's `@FetchRequest`: the attribute with its arguments, or the `FetchRequest(…)` an initializer
/// assigns to its `_name`.
extension FetchSiteFinder {
    mutating func fetchRequestAttribute(at index: Int) -> Int {
        // `@FetchRequest var zimFiles: FetchedResults<ZimFile>` with `_zimFiles = FetchRequest(…)` in an initializer: that is the site.
        propertyWrapperAttribute(at: index, form: .fetchRequestProperty,
                                 assignedInInitializer: { finder, name in finder.declarations.initializedFetchRequests.contains(name) },
                                 read: { finder, arguments, spec in finder.readFetchRequestArguments(arguments, into: &spec) })
    }

    /// `_zimFiles = FetchRequest(sortDescriptors:predicate:)` in an initializer: the entity from the
    /// `@FetchRequest var zimFiles: FetchedResults<ZimFile>` it configures when the call does not name it.
    mutating func fetchRequestCall(at index: Int, open: Int) -> Int {
        let close = tokens.closing(open)
        var spec = FetchSpec(entity: genericArgument(after: index) ?? propertyType(named: String(tokens[index - 2].text.dropFirst())))
        readFetchRequestArguments(tokens.arguments(open), into: &spec)
        sites.append(FoundFetchSite(line: tokens[index].line, form: .fetchRequestProperty, spec: spec))
        consume(index..<(close + 1))
        return close + 1
    }

    private mutating func readFetchRequestArguments(_ arguments: [(label: String?, range: Range<Int>)], into spec: inout FetchSpec) {
        do {
            for argument in arguments {
                switch argument.label {
                case "sortDescriptors"?: spec.sort = try sortTerms(argument.range, spec: &spec)
                case "predicate"?: spec.predicate = try predicate(argument.range, spec: &spec)
                case "entity"?, "animation"?, "transaction"?: continue
                case "fetchRequest"?: throw Untranslatable(reason: "@FetchRequest(fetchRequest:) with a request built elsewhere")
                default: continue
                }
            }
        } catch let error as Untranslatable {
            spec.untranslatable = error.reason
        } catch {}
    }
}
