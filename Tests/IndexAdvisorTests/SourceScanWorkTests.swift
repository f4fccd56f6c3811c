import Testing
@testable import IndexAdvisor

/// The fetch-site scanner's work grows in proportion to its input: measured as the tokens it reads
/// (``TokenReadCounter``), which no clock or machine load changes.
@Suite("Fetch-site scanning is linear in the input")
struct SourceScanWorkTests {
    static let model = "@Model final class Hike {\n    var name: String\n    var climb: Int\n}\n"

    /// The tokens the scanner read for `code`, the tokens there are, and the sites it found.
    func work(_ code: String) -> (reads: Int, tokens: Int, sites: [FoundFetchSite]) {
        var tokens = SwiftLexer.tokenize(Self.model + code)
        let counter = TokenReadCounter()
        tokens.reads = counter
        let sites = FetchSiteFinder.find(tokens, modelNames: ["Hike"])
        return (counter.count, tokens.count, sites)
    }

    /// Checks that twice the input (`make(2 * size)`) costs at most a little over twice the reads, and that
    /// each token is read a bounded number of times.
    /// `sites`: how many sites `make(size)` has (twice as many at twice the size unless `sitesGrow` is false).
    func expectLinear(_ name: String, size: Int, sites: Int, sitesGrow: Bool = true, _ make: (Int) -> String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let small = work(make(size))
        let large = work(make(2 * size))
        #expect(small.sites.count == sites, "\(name): sites", sourceLocation: sourceLocation)
        #expect(large.sites.count == (sitesGrow ? 2 * sites : sites), "\(name): sites", sourceLocation: sourceLocation)
        #expect(Double(large.reads) <= 2.2 * Double(small.reads), "\(name): \(small.reads) → \(large.reads) reads", sourceLocation: sourceLocation)
        #expect(large.reads <= 20 * large.tokens, "\(name): \(large.reads) reads of \(large.tokens) tokens", sourceLocation: sourceLocation)
    }

    // Regression (issue 39, item 12): each level of a nested sort array scanned the rest of the array to
    // find its closing bracket, and each site scanned the rest of its scope for assignments: a 400 KB
    // file took 161 s.
    @Test("nested sort arrays below the depth limit, one site or many: reads grow with the input, not its square")
    func nestedSortArrays() {
        func site(_ number: Int, depth: Int) -> String {
            "let hikes\(number) = FetchDescriptor<Hike>(sortBy: " + String(repeating: "[", count: depth) + "SortDescriptor(\\.climb, order: .reverse)"
                + String(repeating: "]", count: depth) + ")\n"
        }
        expectLinear("one site, deeper", size: 220, sites: 1, sitesGrow: false) { depth in site(0, depth: depth) }
        expectLinear("more sites", size: 60, sites: 60) { count in (0..<count).map { site($0, depth: 240) }.joined() }
        let one = work(site(7, depth: 480))
        #expect(one.sites.first?.spec.sort.count == 1)
        #expect(one.sites.first?.spec.untranslatable == nil)
    }

    @Test("many sites in one long scope, each with assignments after it; many @Query properties; many generic `<`")
    func manySitesInOneScope() {
        expectLinear("descriptors with assignments", size: 300, sites: 300) { count in
            "func load(_ context: ModelContext) throws {\n" + (0..<count).map { index in
                "    var walk\(index) = FetchDescriptor<Hike>()\n    walk\(index).fetchLimit = \(index + 1)\n    _ = try context.fetchCount(walk\(index))\n"
            }.joined() + "}\n"
        }
        expectLinear("requests at the top level", size: 300, sites: 300) { count in
            (0..<count).map { "let trek\($0) = NSFetchRequest<Hike>(entityName: \"Hike\")\ntrek\($0).predicate = NSPredicate(format: \"climb > %d\", \($0))\n" }.joined()
        }
        expectLinear("@Query properties", size: 400, sites: 400) { count in
            "struct Views {\n" + (0..<count).map { "    @Query var list\($0): [Hike]\n" }.joined() + "}\n"
        }
        // A predicate named by `base<N`: a `<` no `>` closes, looked at within a bounded window, not to the end.
        expectLinear("less-than signs", size: 300, sites: 300) { count in
            (0..<count).map { "let rule\($0) = base<\($0)\nlet search\($0) = FetchDescriptor<Hike>(predicate: rule\($0))\n" }.joined()
        }
        let sites = work("var d = FetchDescriptor<Hike>()\nd.fetchLimit = 5\nlet c = try context.fetchCount(d)").sites
        #expect(sites.first?.spec.limit == 5)
        #expect(sites.first?.spec.isCount == true)
    }

    @Test("40 levels of names that each use the one before twice: every name read once")
    func doublingNamesRead() {
        expectLinear("doubling names", size: 40, sites: 1, sitesGrow: false) { levels in
            var lines = ["let when0 = #Predicate<Hike> { $0.climb > 100 }"]
            for level in 1...levels { lines.append("let when\(level) = NSCompoundPredicate(andPredicateWithSubpredicates: [when\(level - 1), when\(level - 1)])") }
            return (lines + ["let request = FetchDescriptor<Hike>(predicate: when\(levels))"]).joined(separator: "\n")
        }
    }
}
