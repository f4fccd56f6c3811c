import Testing
import Foundation
@testable import IndexAdvisor

/// `--source` on unusual input: names that refer to themselves, line endings, deep nesting, encodings,
/// overlapping paths. Each case is one the scanner once crashed on or misread.
@Suite("Fetch sites in unusual Swift source")
struct SourceRobustnessTests {
    static let model = """
        @Model final class Recipe {
            var title: String
            var rating: Int
            var createdAt: Date
        }
        """

    func sites(_ code: String) -> [FetchSite] {
        SourceScanner.scan([(path: "Recipe.swift", text: Self.model), (path: "Code.swift", text: code)]).sites
    }

    // Regression: following a name to its initializer recursed without end when the initializer named
    // itself (a shadowed parameter, `self.x`, two statics naming each other), and crashed the scan.
    @Test("a predicate or sort named by itself is reported as built at run time, not followed for ever")
    func selfReferringNames() {
        let cases = [
            "func load(_ context: ModelContext, predicate: Predicate<Recipe>?) throws {\n    let predicate = predicate\n    _ = try context.fetch(FetchDescriptor<Recipe>(predicate: predicate))\n}",
            "struct Q {\n    let predicate: Predicate<Recipe>\n    func run(_ context: ModelContext) throws {\n        let predicate = self.predicate\n        _ = try context.fetch(FetchDescriptor<Recipe>(predicate: predicate))\n    }\n}",
            "enum Filters {\n    static let recent = Filters.favourites\n    static let favourites = Filters.recent\n}\nfunc load(_ context: ModelContext) throws {\n    _ = try context.fetch(FetchDescriptor<Recipe>(predicate: Filters.recent))\n}",
        ]
        for code in cases {
            let found = sites(code)
            #expect(found.count == 1, "\(code)")
            #expect(found.first?.sql == nil)
            #expect(found.first?.untranslatedReason?.hasSuffix("is built at run time (a dynamic predicate, not a #Predicate or format literal in this file)") == true, "\(code)")
        }
        let sorted = sites("final class S {\n    var sort: [SortDescriptor<Recipe>]\n    init(sort: [SortDescriptor<Recipe>]) { self.sort = sort }\n    func load(_ context: ModelContext) throws {\n        let sort = self.sort\n        _ = try context.fetch(FetchDescriptor<Recipe>(sortBy: sort))\n    }\n}")
        #expect(sorted.count == 1)
        #expect(sorted.first?.untranslatedReason == "the sort `self.sort` is built at run time")
        // A name followed once, then again beside it, is still read.
        let twice = sites("let byTitle = [SortDescriptor(\\Recipe.title)]\nlet both = FetchDescriptor<Recipe>(predicate: #Predicate { $0.rating > 3 }, sortBy: byTitle)\nlet again = FetchDescriptor<Recipe>(sortBy: byTitle)")
        #expect(twice.compactMap(\.sql).count == 2)
    }
}
