import Testing
import Foundation
@testable import IndexAdvisor

/// `--source` on Core Data's own idioms (issue 41, item 3): the fixture in Fixtures/PodcastSource, a podcast
/// app whose fetch code is spread over five files in the `Managed` pattern (a protocol with
/// `sortedFetchRequest` in its extension, each entity's `defaultSortDescriptors` and predicate helpers in
/// its own extension), translated site by site into the SQL Core Data prints.
@Suite("Core Data idioms across --source files")
struct SourceCoreDataIdiomTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/PodcastSource")

    static let episode = "0, t0.Z_PK, t0.Z_OPT, t0.ZDURATION, t0.ZGUID, t0.ZISPLAYED, t0.ZPUBLISHEDAT, t0.ZTITLE, t0.ZSHOW FROM ZEPISODE t0"
    static let show = "0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZFEEDURL, t0.ZISSUBSCRIBED, t0.ZNAME, t0.ZREFRESHEDAT FROM ZSHOW t0"
    static let byName = "ORDER BY t0.ZNAME COLLATE NSCollateFinderlike"
    static let newestFirst = "ORDER BY t0.ZPUBLISHEDAT DESC"

    /// Each site's location and statement, or `not translated: ` and its reason.
    static let expected: [(location: String, sql: String)] = [
        // `Episode.sortedFetchRequest` with `fetchBatchSize = 25`: the identifiers first.
        ("Library.swift:11", "SELECT t0.Z_ENT, t0.Z_PK FROM ZEPISODE t0 WHERE  t0.ZSHOW = ? \(newestFirst)"),
        // `Episode.findOrFetch(in:matching:)`: the protocol extension's own request, the predicate passed in.
        ("Library.swift:18", "SELECT \(episode) WHERE  t0.ZGUID = ?  LIMIT 1"),
        ("Library.swift:22", "SELECT \(show) WHERE  t0.ZISSUBSCRIBED = ? \(byName)"),
        // `Show.sortedFetchRequest(with:)`, itself made of `sortedFetchRequest`.
        ("Library.swift:29", "SELECT \(show) WHERE  t0.ZFEEDURL = ? \(byName) LIMIT 1"),
        ("Library.swift:35", "SELECT \(episode) WHERE ( t0.ZSHOW = ? AND  t0.ZISPLAYED = ?) \(newestFirst) LIMIT 50"),
        // A helper's NSCompoundPredicate of two other helpers.
        ("Sync.swift:7", "SELECT \(episode) WHERE ( t0.ZSHOW = ? AND  t0.ZGUID = ?) \(newestFirst)"),
        ("Sync.swift:13", "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZEPISODE t0 WHERE  t0.ZISPLAYED = ?"),
        // Inline in NSFetchedResultsController(fetchRequest:…).
        ("Sync.swift:19", "SELECT \(show) \(byName)"),
        ("Sync.swift:23", "SELECT \(show) WHERE ( t0.ZCATEGORY = ? OR  t0.ZCATEGORY IS NULL) \(byName)"),
        ("Sync.swift:29", "SELECT \(show) WHERE  NSCoreDataStringSearch( t0.ZNAME, ?, 417, 1) \(byName)"),
        ("Sync.swift:33", "SELECT \(episode) WHERE  t0.ZDURATION > ? \(newestFirst)"),
        ("Sync.swift:39", "SELECT \(episode) WHERE  t0.ZGUID IN (?) \(newestFirst)"),
        ("Sync.swift:45", "not translated: NSPredicate format: BEGINSWITH is not translated"),
    ]

    @Test("twelve of the thirteen sites translate, each at its file and line; the templates in the protocol extension are no sites of their own")
    func fixtureSites() throws {
        let scan = try SourceScanner.scan(paths: [Self.fixture.path])
        #expect(scan.files.count == 6)
        #expect(scan.model.classes.map(\.className).sorted() == ["Episode", "Show"])
        #expect(scan.sites.map(\.location) == Self.expected.map(\.location))
        for (site, expected) in zip(scan.sites, Self.expected) {
            #expect(site.form == .fetchRequest, "\(site.location)")
            if let sql = site.sql {
                #expect(sql == expected.sql, "\(site.location)")
            } else {
                #expect(("not translated: " + (site.untranslatedReason ?? "")).hasPrefix(expected.sql), "\(site.location)")
            }
        }
        #expect(scan.sites.filter { $0.sql != nil }.count == 12)
        #expect(scan.sites.first { $0.location == "Sync.swift:13" }?.isCount == true)
        #expect(scan.sites.map(\.entity) == ["Episode", "Episode", "Show", "Show", "Episode", "Episode", "Episode", "Show", "Show", "Show", "Episode", "Episode", "Episode"])
    }

    @Test("notes name the member that made the request, the batch statement and the prefetch left out")
    func notes() throws {
        let scan = try SourceScanner.scan(paths: [Self.fixture.path])
        let batched = try #require(scan.sites.first { $0.location == "Library.swift:11" })
        #expect(batched.notes == [
            "the request is made by `Episode.sortedFetchRequest` (Shared.swift:11)",
            "fetchBatchSize 25: the statement fetches the identifiers; each batch is then `SELECT \(Self.episode) WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT 25`",
        ])
        let found = try #require(scan.sites.first { $0.location == "Library.swift:18" })
        #expect(found.notes == ["the request is made by `Episode.findOrFetch(in:matching:)` (Shared.swift:27)"])
        let prefetching = try #require(scan.sites.first { $0.location == "Library.swift:22" })
        #expect(prefetching.notes.last == "relationshipKeyPathsForPrefetching [\"episodes\"]: each relationship is fetched after it by key (`… WHERE … IN (SELECT * FROM _Z_intarray0)`), not listed")
    }

    @Test("the source is a workload: twelve statements, each issued at its site")
    func workload() throws {
        let scan = try SourceScanner.scan(paths: [Self.fixture.path])
        let workload = SourceWorkload.merge(scan, into: nil)
        #expect(workload.analysedStatements.count == 12)
        #expect(workload.statements.filter { $0.sourceLocations == ["Sync.swift:7"] }.first?.count == 1)
        #expect(workload.statements.flatMap(\.sourceLocations).sorted() == Self.expected.dropLast().map(\.location).sorted())
        #expect(workload.sourceSites.filter { $0.statementID == nil }.map(\.location) == ["Sync.swift:45"])
    }

    static let recipeModel = """
        final class Recipe: NSManagedObject {
            @NSManaged var title: String
            @NSManaged var minutes: Int64
            @NSManaged var cuisine: String?
        }
        """

    @Test("a helper that returns from a branch, an unused protocol template and a member that leads back to itself are listed with their real reasons")
    func reasons() {
        let members = """
            protocol Fetchable { static var byDefault: [NSSortDescriptor] { get } }
            extension Fetchable {
                static var plainRequest: NSFetchRequest<Self> { NSFetchRequest<Self>(entityName: "x") }
            }
            extension Recipe {
                static var byDefault: [NSSortDescriptor] { [NSSortDescriptor(key: "title", ascending: true)] }
                static func quick(_ strict: Bool) -> NSPredicate {
                    if strict { return NSPredicate(format: "minutes < 10") }
                    return NSPredicate(format: "minutes < 30")
                }
                static var looping: NSPredicate { Recipe.looping }
            }
            """
        let code = """
            func load(context: NSManagedObjectContext) {
                let quick = NSFetchRequest<Recipe>(entityName: "Recipe")
                quick.predicate = Recipe.quick(true)
                let loop = NSFetchRequest<Recipe>(entityName: "Recipe")
                loop.predicate = Recipe.looping
                let sorted = NSFetchRequest<Recipe>(entityName: "Recipe")
                sorted.sortDescriptors = Recipe.byDefault
                sorted.predicate = NSPredicate(format: "%K == %@", #keyPath(Recipe.cuisine), "thai")
            }
            """
        let scan = SourceScanner.scan([(path: "App/Recipe.swift", text: Self.recipeModel), (path: "App/Recipe+Fetch.swift", text: members),
                                       (path: "App/Load.swift", text: code)])
        #expect(scan.sites.map(\.location) == ["Recipe+Fetch.swift:3", "Load.swift:2", "Load.swift:4", "Load.swift:6"])
        #expect(scan.sites[0].untranslatedReason == "a request for `Self` in a protocol extension, and nothing in the --source files uses the member that makes it: translated where an entity uses it")
        #expect(scan.sites[1].untranslatedReason == "the predicate `Recipe.quick(_:)` (Recipe+Fetch.swift:7) is computed in several statements: built at run time")
        #expect(scan.sites[2].untranslatedReason == "the predicate `Recipe.looping` (Recipe+Fetch.swift:11) leads back to itself")
        #expect(scan.sites[3].sql == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCUISINE, t0.ZMINUTES, t0.ZTITLE FROM ZRECIPE t0 WHERE  t0.ZCUISINE = ? ORDER BY t0.ZTITLE")
        #expect(scan.sites[3].bindings == [.text("thai")])
    }

    @Test("IN on an attribute is one `?` for the list; a value IN a collection is refused with the reason")
    func membership() {
        let code = """
            func load(names: [String], ids: [Int]) {
                let a = NSFetchRequest<Recipe>(entityName: "Recipe")
                a.predicate = NSPredicate(format: "cuisine IN %@ AND minutes <= %d", names, 20)
                let b = NSFetchRequest<Recipe>(entityName: "Recipe")
                b.predicate = NSPredicate(format: "%@ IN cuisine", "thai")
            }
            """
        let scan = SourceScanner.scan([(path: "Recipe.swift", text: Self.recipeModel), (path: "Load.swift", text: code)])
        #expect(scan.sites.map(\.location) == ["Load.swift:2", "Load.swift:4"])
        #expect(scan.sites[0].sql == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCUISINE, t0.ZMINUTES, t0.ZTITLE FROM ZRECIPE t0 WHERE ( t0.ZCUISINE IN (?) AND  t0.ZMINUTES <= ?)")
        #expect(scan.sites[1].untranslatedReason == "NSPredicate format: a value IN `cuisine` (a to-many relationship or a collection) is not translated")
    }

    @Test("a typealias of an entity is the entity; a predicate bound by `if let` is built at run time; another module's type named Query is no site")
    func aliasesAndConditions() {
        let members = """
            protocol Keyed {}
            extension Keyed {
                static var keyedRequest: NSFetchRequest<Self> {
                    let request = NSFetchRequest<Self>(entityName: "Recipe")
                    request.sortDescriptors = [NSSortDescriptor(key: "minutes", ascending: false)]
                    return request
                }
            }
            extension Recipe: Keyed {
                static func predicate(cuisine: String) -> NSPredicate { NSPredicate(format: "cuisine == %@", cuisine) }
            }
            typealias Dish = Recipe
            """
        let code = """
            func load(context: NSManagedObjectContext, extra: NSPredicate?) {
                let request = Dish.keyedRequest
                request.predicate = Dish.predicate(cuisine: "thai")
                let filtered = Recipe.keyedRequest
                if let extra = extra {
                    filtered.predicate = extra
                }
                let query = Server.API.Search.Query(term: "x", limit: 5)
            }
            """
        let scan = SourceScanner.scan([(path: "Recipe.swift", text: Self.recipeModel), (path: "Recipe+Keyed.swift", text: members), (path: "Load.swift", text: code)])
        #expect(scan.sites.map(\.location) == ["Load.swift:2", "Load.swift:4"])
        #expect(scan.sites[0].entity == "Recipe")
        #expect(scan.sites[0].sql == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCUISINE, t0.ZMINUTES, t0.ZTITLE FROM ZRECIPE t0 WHERE  t0.ZCUISINE = ? ORDER BY t0.ZMINUTES DESC")
        #expect(scan.sites[0].bindings == [.text("thai")])
        #expect(scan.sites[1].untranslatedReason == "the predicate `extra` is built at run time (`extra` is bound by a condition on line 5)")
    }
}
