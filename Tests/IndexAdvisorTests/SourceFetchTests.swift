import Testing
import Foundation
@testable import IndexAdvisor

/// `--source`: the fixture app in Fixtures/SourceApp (a SwiftData recipes app with a Core Data corner, four
/// files, thirteen fetch sites) translated site by site into what Core Data prints for the same fetches.
@Suite("Fetch sites in Swift source")
struct SourceFetchTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/SourceApp")

    static let recipeColumns = "t0.Z_PK, t0.Z_OPT, t0.ZCOOKEDAT, t0.ZCREATEDAT, t0.ZISFAVORITE, t0.ZRATING, t0.ZSUMMARY, t0.ZTITLE, t0.ZCOOKBOOK"
    static let ingredientColumns = "t0.Z_PK, t0.Z_OPT, t0.ZAISLE, t0.ZNAME, t0.ZSTOCK"

    /// Location, form, frequency, and the SQL Core Data prints (shared/formats/coredata-sqldebug.md
    /// conventions: `t0` aliases, a leading space per term, `(a AND  b)` as nested as written, two spaces
    /// before a LIMIT without ORDER BY), or the start of the reason it cannot be translated.
    static let expected: [(location: String, form: FetchSite.Form, frequency: Int, sql: String)] = [
        ("Pantry.swift:11", .fetchRequest, 1,
         "SELECT 0, \(ingredientColumns) FROM ZINGREDIENT t0 WHERE ( t0.ZAISLE = ? AND  t0.ZSTOCK > ?) ORDER BY t0.ZNAME COLLATE NSCollateFinderlike"),
        ("Pantry.swift:18", .fetchRequest, 1,
         "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZINGREDIENT t0 WHERE  NSCoreDataStringSearch( t0.ZNAME, ?, 417, 1)"),
        ("Pantry.swift:24", .fetchRequest, 1,
         "SELECT 0, \(ingredientColumns) FROM ZINGREDIENT t0 WHERE ( t0.ZSTOCK < ? OR  t0.ZAISLE IS NULL) ORDER BY t0.ZSTOCK DESC LIMIT 5"),
        ("RecipeStore.swift:8", .fetchDescriptor, 1,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 ORDER BY t0.ZCREATEDAT DESC LIMIT 20"),
        ("RecipeStore.swift:15", .fetchDescriptor, 50,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 WHERE  NSCoreDataStringSearch( t0.ZTITLE, ?, 417, 1) ORDER BY t0.ZTITLE COLLATE NSCollateLocaleSensitive"),
        ("RecipeStore.swift:21", .fetchDescriptor, 1,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 JOIN ZCOOKBOOK t1 ON t0.ZCOOKBOOK = t1.Z_PK WHERE  t1.ZNAME = ?"),
        ("RecipeStore.swift:25", .fetchDescriptor, 1,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 WHERE  t0.ZCOOKEDAT IS NULL ORDER BY t0.ZTITLE"),
        ("RecipeStore.swift:30", .fetchDescriptor, 1,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 WHERE ( t0.ZRATING >= ? OR  t0.ZISFAVORITE = ?)  LIMIT 10 OFFSET 30"),
        ("RecipeStore.swift:37", .fetchDescriptor, 1,
         "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZRECIPE t0 WHERE ( t0.ZISFAVORITE = ? AND  t0.ZSUMMARY IS NOT NULL)"),
        ("RecipeStore.swift:42", .fetchDescriptor, 1,
         "not translated: `isQuick` is not a stored property of Recipe"),
        ("RecipeList.swift:6", .query, 200,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 WHERE  t0.ZISFAVORITE = ? ORDER BY t0.ZCREATEDAT DESC"),
        ("RecipeList.swift:9", .query, 10,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 ORDER BY t0.ZTITLE COLLATE NSCollateFinderlike"),
        ("RecipeList.swift:20", .query, 10,
         "SELECT 0, \(recipeColumns) FROM ZRECIPE t0 WHERE ( t0.ZCOOKBOOK IS NOT NULL AND  t0.ZCOOKBOOK = ?) ORDER BY t0.ZRATING DESC, t0.ZTITLE COLLATE NSCollateLocaleSensitive"),
    ]

    @Test("the fixture app's thirteen sites translate statement by statement into Core Data's SQL; the computed-property site is listed with its reason")
    func fixtureSites() throws {
        let scan = try SourceScanner.scan(paths: [Self.fixture.path])
        #expect(scan.files.count == 5)
        #expect(scan.model.classes.map(\.className).sorted() == ["Cookbook", "Ingredient", "Recipe"])
        #expect(scan.sites.count == Self.expected.count)
        for (site, expected) in zip(scan.sites, Self.expected) {
            #expect(site.location == expected.location)
            #expect(site.form == expected.form, "\(site.location)")
            #expect(site.frequency == expected.frequency, "\(site.location)")
            if let sql = site.sql {
                #expect(sql == expected.sql, "\(site.location)")
            } else {
                #expect(("not translated: " + (site.untranslatedReason ?? "")).hasPrefix(expected.sql), "\(site.location)")
            }
        }
        // Frequencies: the comment on the line before, 10 for a view's @Query, 1 otherwise.
        #expect(scan.sites.filter(\.frequencyFromComment).map(\.location) == ["RecipeStore.swift:15", "RecipeList.swift:6"])
        // Literal values become bound values when every parameter is one.
        #expect(scan.sites.first { $0.location == "RecipeList.swift:6" }?.bindings == [.integer(1)])
        #expect(scan.sites.first { $0.location == "Pantry.swift:24" }?.bindings == [.integer(3)])
        #expect(scan.sites.first { $0.location == "RecipeStore.swift:15" }?.bindings == nil)
        #expect(scan.sites.first { $0.location == "RecipeStore.swift:21" }?.path.hasSuffix("SourceApp/Store/RecipeStore.swift") == true)
    }

    @Test("the source alone is a workload: one statement per translated site, its count the frequency, the untranslated site kept in the list")
    func fixtureStatementsPrepare() throws {
        let scan = try SourceScanner.scan(paths: [Self.fixture.path])
        let workload = SourceWorkload.merge(scan, into: nil)
        #expect(workload.analysedStatements.count == 12)
        #expect(workload.statements.allSatisfy { $0.isFromSourceOnly && $0.sourceLocations.count == 1 })
        #expect(workload.statements.first { $0.sourceLocations == ["RecipeList.swift:6"] }?.count == 200)
        #expect(workload.sourceSites.count == 13)
        #expect(workload.sourceSites.filter { $0.statementID == nil }.map(\.location) == ["RecipeStore.swift:42"])
    }

    @Test("dynamic predicates, #Expression, to-many relationships and unknown names are listed with the reason, never dropped")
    func untranslatable() {
        let model = """
            @Model final class Item {
                var name: String
                var score: Int
                var tags: [Tag] = []
            }
            @Model final class Tag { var label: String }
            """
        let code = """
            func fetches(context: ModelContext, p: Predicate<Item>, format: String, limit: Int) throws {
                _ = try context.fetch(FetchDescriptor<Item>(predicate: p))
                _ = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { item in #Expression<Int, Bool> { $0 > 3 }.evaluate(item.score) }))
                _ = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.tags.contains { $0.label == "x" } }))
                let request = NSFetchRequest<Item>(entityName: "Item")
                request.predicate = NSPredicate(format: format)
                var paged = FetchDescriptor<Item>(sortBy: [SortDescriptor(\\.name)])
                paged.fetchLimit = limit
                _ = try context.fetch(FetchDescriptor<Widget>())
            }
            """
        let scan = SourceScanner.scan([(path: "App/Item.swift", text: model), (path: "App/Fetches.swift", text: code)])
        let reasons = scan.sites.map { $0.untranslatedReason ?? "translated" }
        #expect(scan.sites.count == 6)
        #expect(reasons[0].contains("built at run time"))
        #expect(reasons[1].contains("#Expression") || reasons[1].contains("function"))
        #expect(reasons[2].contains("relationship"))
        #expect(reasons[3].contains("format string built at run time"))
        #expect(reasons[4] == "translated")
        #expect(scan.sites[4].sql == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSCORE FROM ZITEM t0 ORDER BY t0.ZNAME COLLATE NSCollateLocaleSensitive")
        #expect(scan.sites[4].notes.first?.contains("fetchLimit is set to `limit`") == true)
        #expect(reasons[5].contains("no @Model class or NSManagedObject subclass named Widget"))
    }

    @Test("operators and forms: !, !=, a value on the left, a Bool alone, NSCompoundPredicate, .init sorts, @FetchRequest, a sub-entity, a named sort")
    func operatorsAndForms() {
        let model = """
            @Model class Item {
                var name: String
                var score: Int
                var isDone: Bool = false
            }
            @Model final class Task: Item {
                var due: Date?
            }
            final class Entry: NSManagedObject {
                @NSManaged var title: String
                @NSManaged var day: Int64
            }
            """
        let code = #"""
            struct Lists: View {
                @FetchRequest(sortDescriptors: [NSSortDescriptor(key: "day", ascending: false)], predicate: NSPredicate(format: "day >= %d", 3))
                var entries: FetchedResults<Entry>
                static let byName: [SortDescriptor<Item>] = [.init(\.name, order: .reverse)]
                func load(context: ModelContext, limit: Int) throws {
                    _ = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { !$0.isDone && 10 < $0.score }, sortBy: Self.byName))
                    _ = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { item in item.name != "x" || !(item.score == 0) }))
                    _ = try context.fetch(FetchDescriptor<Task>(predicate: #Predicate { $0.due != nil }))
                    let request = NSFetchRequest<Entry>(entityName: "Entry")
                    request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "day > 1"), NSPredicate(format: "day < 9"), NSPredicate(format: "title != nil")])
                    _ = try context.fetch(request)
                }
            }
            struct Page: View {
                @Query var items: [Item]
                init(minimum: Int) {
                    var descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.score >= minimum }, sortBy: [SortDescriptor(\.score)])
                    descriptor.fetchLimit = 25
                    _items = Query(descriptor)
                }
            }
            """#
        let scan = SourceScanner.scan([(path: "M.swift", text: model), (path: "L.swift", text: code)])
        let item = "t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZISDONE, t0.ZNAME, t0.ZSCORE"
        #expect(scan.sites.map { $0.sql ?? $0.untranslatedReason ?? "" } == [
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZDAY, t0.ZTITLE FROM ZENTRY t0 WHERE  t0.ZDAY >= ? ORDER BY t0.ZDAY DESC",
            "SELECT \(item) FROM ZITEM t0 WHERE ( NOT ( t0.ZISDONE = ?) AND  t0.ZSCORE > ?) ORDER BY t0.ZNAME COLLATE NSCollateLocaleSensitive DESC",
            "SELECT \(item) FROM ZITEM t0 WHERE ( t0.ZNAME <> ? OR  NOT ( t0.ZSCORE = ?))",
            "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZDUE, t0.ZISDONE, t0.ZNAME, t0.ZSCORE FROM ZITEM t0 WHERE ( t0.Z_ENT = ? AND  t0.ZDUE IS NOT NULL)",
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZDAY, t0.ZTITLE FROM ZENTRY t0 WHERE ( t0.ZDAY > ? AND  t0.ZDAY < ? AND  t0.ZTITLE IS NOT NULL)",
            "SELECT \(item) FROM ZITEM t0 WHERE  t0.ZSCORE >= ? ORDER BY t0.ZSCORE LIMIT 25",
        ])
        #expect(scan.sites.map(\.frequency) == [10, 1, 1, 1, 1, 10])
        #expect(scan.sites.last?.form == .query)
        #expect(scan.sites[0].bindings == [.integer(3)])
        #expect(scan.sites[2].bindings == [.text("x"), .integer(0)])
    }

    @Test("any Swift is read without a crash: this repository's own sources hold no fetch site (the demo app's source is inside string literals)")
    func ownSources() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let scan = try SourceScanner.scan(paths: [sources.path])
        #expect(scan.files.count > 100)
        #expect(scan.sites.isEmpty)
        // Cut text: every prefix and every suffix of the files with sites still scans.
        var texts = NotesDemo.appSource.map(\.text)
        for file in ["Store/RecipeStore.swift", "Store/Pantry.swift", "Views/RecipeList.swift"] {
            texts.append(try String(contentsOf: Self.fixture.appendingPathComponent(file), encoding: .utf8))
        }
        let model = NotesDemo.modelSource + (try String(contentsOf: Self.fixture.appendingPathComponent("Models/Recipe.swift"), encoding: .utf8))
        for text in texts {
            for length in stride(from: 0, to: text.count, by: 5) {
                _ = SourceScanner.scan([(path: "M.swift", text: model), (path: "Cut.swift", text: String(text.prefix(length)))])
                _ = SourceScanner.scan([(path: "M.swift", text: model), (path: "Cut.swift", text: String(text.suffix(length)))])
            }
        }
    }

    // Regression: the --model reader took the arguments of an attribute whose `(` ends the file as the
    // range (count)..<(count - 1), and crashed; the prefixes above found it.
    @Test("a file that ends right after an attribute's opening parenthesis is read, not a crash")
    func attributeAtEnd() {
        #expect(ModelSourceReader.parse("@Model final class A { var x: Int }\n@Attribute(", file: "A.swift").map(\.className) == ["A"])
        #expect(SourceScanner.scan([(path: "Q.swift", text: "struct V { @Query(")]).sites.count == 1)
    }

    @Test("the demo app's source and the demo log: every logged fetch with a site gains its location and keeps the log's count; the rest is marked")
    func demoSourceAndLog() throws {
        let scan = SourceScanner.scan(NotesDemo.appSource)
        let log = WorkloadLoader.parse(NotesDemo.workloadLog(), file: "notes-workload.log")
        let merged = SourceWorkload.merge(scan, into: log)
        let reads = merged.statements.filter { $0.kind.isRead && !$0.isHousekeeping && !$0.isFromSourceOnly }
        #expect(reads.count == 6)
        for statement in reads {
            #expect(!statement.sourceLocations.isEmpty, "\(statement.text)")
            #expect(statement.count == log.statements.first { $0.fingerprint.id == statement.fingerprint.id }?.count)
        }
        let list = try #require(reads.first { $0.text.contains("ORDER BY t0.ZUPDATEDAT DESC LIMIT 50") })
        #expect(list.sourceLocations == ["NoteStore.swift:10"])
        #expect(list.count == 400)
        let sourceOnly = merged.statements.filter(\.isFromSourceOnly)
        #expect(sourceOnly.map(\.sourceLocations) == [["NoteStore.swift:37"]])
        let untranslated = merged.sourceSites.filter { $0.sql == nil }
        #expect(untranslated.map(\.location) == ["SearchView.swift:24"])
        #expect(untranslated.first?.untranslatedReason?.contains("`preview` is not a stored property of Note") == true)
    }
}
