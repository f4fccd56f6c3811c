import Testing
@testable import IndexAdvisor

/// A predicate or sort held in a variable is read from the value that reaches the fetch: the last
/// assignment before it in straight-line code; a value set in a branch, a loop, a closure, another function
/// or through `inout` is built at run time, and the site says where.
@Suite("Predicates and sorts assigned again before the fetch")
struct SourceReassignmentTests {
    static let model = """
        import CoreData
        import SwiftData

        final class Crate: NSManagedObject {
            @NSManaged var carrier: String
            @NSManaged var grams: Int64
            @NSManaged var isFragile: Bool
        }
        @Model final class Pallet {
            var bay: Int
            var isStacked: Bool
        }
        """

    func sites(_ code: String) -> [FetchSite] {
        SourceScanner.scan([(path: "Crate.swift", text: Self.model), (path: "Dock.swift", text: code)]).sites
    }

    /// A function whose body is `lines`, then a fetch request of crates using `filter`.
    static func function(_ lines: [String], name: String = "load", use: String = "request.predicate = filter") -> String {
        (["func \(name)(_ context: NSManagedObjectContext, carrier: String, carriers: [String], flag: Bool) throws {"]
            + lines.map { "    " + $0 }
            + ["    let request = NSFetchRequest<Crate>(entityName: \"Crate\")", "    " + use, "    _ = try context.fetch(request)", "}"])
            .joined(separator: "\n")
    }

    static let heavy = "NSPredicate(format: \"grams > 900\")"
    static let byCarrier = "NSPredicate(format: \"carrier == %@\", carrier)"

    /// Each site's WHERE clause, or why it was not translated.
    func conditions(_ code: String) -> [String] {
        sites(code).map { site in
            guard let sql = site.sql else { return "not translated: " + (site.untranslatedReason ?? "") }
            return sql.range(of: " WHERE ").map { String(sql[$0.upperBound...]) } ?? ""
        }
    }

    /// The WHERE clause of the one site of `code`, or why it was not translated.
    func condition(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let found = conditions(code)
        #expect(found.count == 1, sourceLocation: sourceLocation)
        return found.first
    }

    // Regression (issue 39, F10): the site was translated from the variable's first value, silently.
    @Test("straight-line code: the last assignment before the fetch, not the first value, and not one after it")
    func lastAssignmentWins() {
        #expect(condition(Self.function(["var filter: NSPredicate = \(Self.heavy)", "filter = \(Self.byCarrier)"])) == " t0.ZCARRIER = ?")
        #expect(condition(Self.function(["var filter = \(Self.heavy)", "filter = NSPredicate(format: \"isFragile == YES\")", "filter = \(Self.byCarrier)"]))
                == " t0.ZCARRIER = ?")
        // Declared without a value, assigned once.
        #expect(condition(Self.function(["let filter: NSPredicate", "filter = \(Self.byCarrier)"])) == " t0.ZCARRIER = ?")
        // An assignment after the fetch changes nothing it read.
        let after = Self.function(["var filter = \(Self.heavy)"], use: "request.predicate = filter\n    filter = \(Self.byCarrier)")
        #expect(condition(after) == " t0.ZGRAMS > ?")
        // A block that holds the fetch too: its assignment reaches it.
        #expect(condition(Self.function(["var filter = \(Self.heavy)", "if flag {", "    filter = \(Self.byCarrier)"],
                                        use: "request.predicate = filter\n    }")) == " t0.ZCARRIER = ?")
    }

    @Test("an assignment that uses the variable's own value is read from the value before it")
    func selfReferringAssignment() {
        let code = Self.function(["var filter = \(Self.heavy)",
                                  "filter = NSCompoundPredicate(andPredicateWithSubpredicates: [filter, NSPredicate(format: \"isFragile == YES\")])",
                                  "filter = NSCompoundPredicate(orPredicateWithSubpredicates: [filter, \(Self.byCarrier)])"])
        #expect(condition(code) == "(( t0.ZGRAMS > ? AND  t0.ZISFRAGILE = ?) OR  t0.ZCARRIER = ?)")
        // Six rounds of `f = f OR NOT f`: 190 terms, read; forty would double past the limit.
        let rounds = { (count: Int) in
            Self.function(["var filter = \(Self.heavy)"] + Array(repeating:
                "filter = NSCompoundPredicate(orPredicateWithSubpredicates: [filter, NSCompoundPredicate(notPredicateWithSubpredicate: filter)])", count: count))
        }
        #expect(condition(rounds(6))?.hasPrefix("(((((( t0.ZGRAMS > ? OR  NOT ( t0.ZGRAMS > ?))") == true)
        #expect(condition(rounds(40)) == "not translated: predicate too large (1,534 terms, limit 1,000)")
    }

    @Test("a value set in a branch, a loop, a closure or through inout is built at run time, with the line that sets it")
    func runTimeValues() {
        let cases: [(lines: [String], reason: String)] = [
            (["var filter = \(Self.heavy)", "if flag {", "    filter = \(Self.byCarrier)", "}"],
             "`filter` is assigned in a branch, loop or closure on line 4"),
            (["var filter: NSPredicate", "if flag {", "    filter = \(Self.heavy)", "} else {", "    filter = \(Self.byCarrier)", "}"],
             "`filter` is assigned in a branch, loop or closure on line 6"),
            (["var filter = \(Self.heavy)", "for name in carriers {",
              "    filter = NSCompoundPredicate(orPredicateWithSubpredicates: [filter, NSPredicate(format: \"carrier == %@\", name)])", "}"],
             "`filter` is assigned in a branch, loop or closure on line 4"),
            (["var filter = \(Self.heavy)", "carriers.forEach { name in filter = \(Self.byCarrier) }"],
             "`filter` is assigned in a branch, loop or closure on line 3"),
            (["var filter = \(Self.heavy)", "narrow(&filter, to: carrier)"], "`filter` is passed inout on line 3"),
        ]
        for (lines, reason) in cases {
            #expect(condition(Self.function(lines)) == "not translated: the predicate `filter` is built at run time (\(reason))", "\(lines)")
        }
        // Fetched in a loop that assigns it after the fetch: the next turn reads the new value.
        let loop = Self.function(["var filter = \(Self.heavy)", "while flag {"],
                                 use: "request.predicate = filter\n        filter = \(Self.byCarrier)\n    }")
        #expect(condition(loop) == "not translated: the predicate `filter` is built at run time (`filter` is assigned again on line 6, in a loop or closure around its use)")
        // Set at the top of each turn, before the fetch: that value, every turn.
        let turn = Self.function(["var filter = \(Self.heavy)", "for _ in carriers {", "    filter = \(Self.byCarrier)"],
                                 use: "request.predicate = filter\n        filter = \(Self.heavy)\n    }")
        #expect(condition(turn) == " t0.ZCARRIER = ?")
    }

    @Test("each function's own declaration of a name, and a property set in another function")
    func scopes() {
        let two = Self.function(["let filter = \(Self.heavy)"], name: "heavyOnes") + "\n" + Self.function(["let filter = \(Self.byCarrier)"], name: "byName")
        #expect(conditions(two) == [" t0.ZGRAMS > ?", " t0.ZCARRIER = ?"])
        let property = """
            final class Store {
                var filter = \(Self.heavy)
                func narrow(carrier: String) { filter = \(Self.byCarrier) }
                func load(_ context: NSManagedObjectContext) throws {
                    let request = NSFetchRequest<Crate>(entityName: "Crate")
                    request.predicate = filter
                    _ = try context.fetch(request)
                }
                func loadFragile(_ context: NSManagedObjectContext) throws {
                    self.filter = NSPredicate(format: "isFragile == YES")
                    let request = NSFetchRequest<Crate>(entityName: "Crate")
                    request.predicate = self.filter
                    _ = try context.fetch(request)
                }
            }
            """
        #expect(conditions(property) == [
            "not translated: the predicate `filter` is built at run time (`filter` is assigned in another function on line 3)",
            " t0.ZISFRAGILE = ?",
        ])
    }

    @Test("sorts and #Predicate values follow the same rule")
    func sortsAndSwiftData() {
        let sort = Self.function(["var order = [NSSortDescriptor(key: \"carrier\", ascending: true)]",
                                  "order = [NSSortDescriptor(key: \"grams\", ascending: false)]"], use: "request.sortDescriptors = order")
        #expect(sites(sort).first?.sql?.hasSuffix("ORDER BY t0.ZGRAMS DESC") == true)
        let branch = Self.function(["var order = [NSSortDescriptor(key: \"carrier\", ascending: true)]",
                                    "if flag { order = [] }"], use: "request.sortDescriptors = order")
        #expect(sites(branch).first?.untranslatedReason == "the sort `order` is built at run time (`order` is assigned in a branch, loop or closure on line 3)")
        let swiftData = """
            func pallets(_ context: ModelContext) throws {
                var rule = #Predicate<Pallet> { $0.bay > 4 }
                rule = #Predicate<Pallet> { $0.isStacked }
                _ = try context.fetch(FetchDescriptor<Pallet>(predicate: rule))
            }
            """
        #expect(sites(swiftData).map(\.sql) == ["SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZBAY, t0.ZISSTACKED FROM ZPALLET t0 WHERE  t0.ZISSTACKED = ?"])
    }

    @Test("resolving names reads a number of tokens in proportion to the file: 400 functions read about twice 200")
    func linearWork() {
        func work(_ count: Int) -> (reads: Int, tokens: Int, sites: Int) {
            let code = (0..<count).map { index in
                Self.function(["var filter = \(Self.heavy)", "filter = NSCompoundPredicate(andPredicateWithSubpredicates: [filter, \(Self.byCarrier)])",
                               "if flag { filter = \(Self.heavy) }", "filter = \(Self.byCarrier)"], name: "load\(index)")
            }.joined(separator: "\n")
            var tokens = SwiftLexer.tokenize(Self.model + "\n" + code)
            let counter = TokenReadCounter()
            tokens.reads = counter
            let found = FetchSiteFinder.find(tokens, modelNames: ["Crate", "Pallet"])
            return (counter.count, tokens.count, found.filter { $0.spec.predicate != nil }.count)
        }
        let small = work(200)
        let large = work(400)
        #expect(small.sites == 200)
        #expect(large.sites == 400)
        #expect(Double(large.reads) <= 2.2 * Double(small.reads), "\(small.reads) → \(large.reads)")
        #expect(large.reads <= 20 * large.tokens, "\(large.reads) reads of \(large.tokens) tokens")
    }
}
