import Testing
@testable import IndexAdvisor

/// Predicates and sorts built from names that use each other: each name is read once, a part given twice
/// is one condition, and what would still be too large is listed with its size instead of being expanded.
@Suite("Named compound predicates and sorts that double")
struct SourcePredicateSizeTests {
    static let model = """
        import CoreData

        final class Ticket: NSManagedObject {
            @NSManaged var priority: Int64
            @NSManaged var title: String
            @NSManaged var openedAt: Date
        }
        """

    /// The sites of `code` beside the model, and what the finder read for each (before translation).
    func scan(_ code: String) -> (sites: [FetchSite], specs: [FetchSpec]) {
        let scan = SourceScanner.scan([(path: "Ticket.swift", text: Self.model), (path: "Filters.swift", text: code)])
        let specs = FetchSiteFinder.find(SwiftLexer.tokenize(code), modelNames: ["Ticket"]).map(\.spec)
        return (scan.sites, specs)
    }

    /// `levels` names after `leaf`, each `compound(previous)`, and a fetch request using the last.
    static func chain(_ levels: Int, leaf: String, compound: (String) -> String) -> String {
        var lines = ["let rule0 = \(leaf)"]
        for level in 1...levels { lines.append("let rule\(level) = \(compound("rule\(level - 1)"))") }
        lines += ["func open(_ context: NSManagedObjectContext) throws {",
                  "    let request = NSFetchRequest<Ticket>(entityName: \"Ticket\")",
                  "    request.predicate = rule\(levels)",
                  "    _ = try context.fetch(request)",
                  "}"]
        return lines.joined(separator: "\n")
    }

    // Regression (issue 39, item 11): every use of a name read its initializer again, so 20 levels of
    // `[p, p]` took 27 s and 936 MB and 40 levels ran out of memory.
    @Test("45 levels of OR compounds doubling one name: read once per name, one term, its SQL")
    func doublingCollapses() {
        let code = Self.chain(45, leaf: "NSPredicate(format: \"priority >= 3\")") {
            "NSCompoundPredicate(orPredicateWithSubpredicates: [\($0), \($0)])"
        }
        let found = scan(code)
        #expect(found.sites.count == 1)
        #expect(found.sites.first?.sql?.hasSuffix("FROM ZTICKET t0 WHERE  t0.ZPRIORITY >= ?") == true)
        #expect(found.specs.first?.predicate?.terms == 1)
        // Two different parts and one repeated: the repeat is dropped, the compound kept.
        let mixed = scan("let hot = NSPredicate(format: \"priority > 8\")\nlet r = NSFetchRequest<Ticket>(entityName: \"Ticket\")\n"
            + "r.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [hot, NSPredicate(format: \"title != nil\"), hot, NSPredicate(format: \"priority > 8\")])")
        #expect(mixed.sites.first?.sql?.hasSuffix("WHERE ( t0.ZPRIORITY > ? AND  t0.ZTITLE IS NOT NULL)") == true)
        #expect(mixed.specs.first?.predicate?.terms == 3)
    }

    @Test("a doubling that no repeat removes, 35 levels: listed as too large, with its size and the limit")
    func doublingTooLarge() {
        // rule(k) = rule(k-1) OR NOT rule(k-1): 1, 4, 10, 22, …, 1,534 terms at level 9.
        let code = Self.chain(35, leaf: "NSPredicate(format: \"priority == 1\")") {
            "NSCompoundPredicate(orPredicateWithSubpredicates: [\($0), NSCompoundPredicate(notPredicateWithSubpredicate: \($0))])"
        }
        let found = scan(code)
        #expect(found.sites.count == 1)
        #expect(found.sites.first?.sql == nil)
        #expect(found.sites.first?.untranslatedReason == "predicate too large (1,534 terms, limit 1,000)")
        // At the limit a predicate is translated: eight levels are 766 terms.
        let eight = scan(Self.chain(8, leaf: "NSPredicate(format: \"priority == 1\")") {
            "NSCompoundPredicate(orPredicateWithSubpredicates: [\($0), NSCompoundPredicate(notPredicateWithSubpredicate: \($0))])"
        })
        #expect(eight.specs.first?.predicate?.terms == 766)
        #expect(eight.sites.first?.sql?.contains("ZPRIORITY") == true)
    }

    @Test("sort arrays doubling a name, 40 levels: listed as too large; a named sort used twice in one array is read")
    func doublingSorts() {
        var lines = ["let order0 = [NSSortDescriptor(key: \"openedAt\", ascending: false)]"]
        for level in 1...40 { lines.append("let order\(level) = [order\(level - 1), order\(level - 1)]") }
        lines += ["let request = NSFetchRequest<Ticket>(entityName: \"Ticket\")", "request.sortDescriptors = order40"]
        let found = scan(lines.joined(separator: "\n"))
        #expect(found.sites.first?.untranslatedReason == "sort too large (1,024 terms, limit 1,000)")
        let twice = scan("let byDate = [NSSortDescriptor(key: \"openedAt\", ascending: true)]\nlet both = [byDate, byDate]\n"
            + "let request = NSFetchRequest<Ticket>(entityName: \"Ticket\")\nrequest.sortDescriptors = both")
        #expect(twice.sites.first?.sql?.hasSuffix("ORDER BY t0.ZOPENEDAT, t0.ZOPENEDAT") == true)
    }

    @Test("a name read once keeps the depth it took: used again deeper, past 500 levels, the site is too deep")
    func followedDepthHolds() {
        // `inner` nests 300 levels; used at the top it is read, used under 300 more it is too deep.
        let inner = String(repeating: "NSCompoundPredicate(notPredicateWithSubpredicate: ", count: 300) + "NSPredicate(format: \"priority > 1\")"
            + String(repeating: ")", count: 300)
        let outer = String(repeating: "NSCompoundPredicate(notPredicateWithSubpredicate: ", count: 300) + "inner" + String(repeating: ")", count: 300)
        let code = "let inner = \(inner)\nlet a = NSFetchRequest<Ticket>(entityName: \"Ticket\")\na.predicate = inner\n"
            + "func b() {\n    let b = NSFetchRequest<Ticket>(entityName: \"Ticket\")\n    b.predicate = \(outer)\n}"
        let found = scan(code)
        #expect(found.sites.count == 2)
        #expect(found.sites.first?.sql != nil)
        #expect(found.sites.last?.untranslatedReason == Untranslatable.tooDeep.reason)
    }
}
