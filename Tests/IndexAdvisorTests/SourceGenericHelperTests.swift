import Testing
@testable import IndexAdvisor

/// `--source` on the generic request helpers and sort initializers a Core Data app declares for itself
/// (issue 41, item 3; new-user trial on a reading-list app, F1, F2, F8, F10, L7): a `static func request<R:
/// NSManagedObject>(for kind: R.Type, …) -> NSFetchRequest<R>` in an extension of `NSManagedObject`, bound at
/// each call from its metatype argument or the annotation it is assigned to, a site at each caller; an
/// app-declared `NSSortDescriptor` initializer, and a direction passed into a helper as a literal. A recipes
/// app of our own, over five files: other names, labels and defaults than the app's.
@Suite("Generic request helpers and sort initializers in --source")
struct SourceGenericHelperTests {
    static let model = """
        import CoreData

        @objc(Recipe)
        final class Recipe: NSManagedObject {
            @NSManaged var title: String
            @NSManaged var rating: Int16
            @NSManaged var cookedAt: Date?
            @NSManaged var course: Course?
        }

        @objc(Course)
        final class Course: NSManagedObject {
            @NSManaged var name: String
            @NSManaged var position: Int32
        }
        """
    static let helpers = """
        import CoreData

        extension NSManagedObject {
            static func request<R: NSManagedObject>(for kind: R.Type, first count: Int? = nil, pageSize: Int? = nil) -> NSFetchRequest<R> {
                let made = NSFetchRequest<R>(entityName: String(describing: kind))
                if let count = count { made.fetchLimit = count }
                if let pageSize = pageSize { made.fetchBatchSize = pageSize }
                return made
            }

            static func blankRequest<R: NSManagedObject>() -> NSFetchRequest<R> {
                NSFetchRequest<R>(entityName: String(describing: R.self))
            }
        }

        extension NSSortDescriptor {
            convenience init<Root, Value>(by path: KeyPath<Root, Value>, descending: Bool = false) {
                self.init(keyPath: path, ascending: !descending)
            }

            convenience init(_ key: String, up: Bool = true) {
                self.init(key: key, ascending: up)
            }
        }
        """
    static let queries = """
        import CoreData

        extension Recipe {
            private static func extreme(highest: Bool, in context: NSManagedObjectContext) -> Recipe? {
                let request = NSManagedObject.request(for: Recipe.self, first: 1)
                request.sortDescriptors = [NSSortDescriptor(by: \\Recipe.rating, descending: highest)]
                return try? context.fetch(request).first
            }

            static func best(in context: NSManagedObjectContext) -> Recipe? {
                extreme(highest: true, in: context)
            }

            static func worst(in context: NSManagedObjectContext) -> Recipe? {
                extreme(highest: false, in: context)
            }
        }
        """
    static let screens = """
        import CoreData

        final class MenuScreen {
            func load(_ context: NSManagedObjectContext) throws {
                let favourites = NSManagedObject.request(for: Recipe.self, first: 3)
                favourites.predicate = NSPredicate(format: "rating >= %d", 4)
                let courses: NSFetchRequest<Course> = NSManagedObject.blankRequest()
                courses.sortDescriptors = [NSSortDescriptor(by: \\Course.position), NSSortDescriptor("name", up: false)]
                let paged = NSManagedObject.request(for: Course.self, pageSize: 30)
                let anyStarter = NSManagedObject.request(for: Course.self, first: 1)
                anyStarter.predicate = NSPredicate(format: "name == %@", "Starters")
                _ = try context.count(for: anyStarter)
                let top = Recipe.best(in: context)
                let flop = Recipe.worst(in: context)
                let byTitle = NSFetchRequest<Recipe>(entityName: "Recipe")
                byTitle.sortDescriptors = [NSSortDescriptor(keyPath: \\Recipe.title, ascending: true)]
                _ = (favourites, courses, paged, top, flop, byTitle)
            }
        }
        """
    static let context = """
        import CoreData

        extension NSManagedObjectContext {
            func newest<E: NSManagedObject, V>(_ kind: E.Type, by path: KeyPath<E, V>) -> E? {
                let request = NSManagedObject.request(for: E.self, first: 1)
                request.sortDescriptors = [NSSortDescriptor(by: path, descending: true)]
                return try? fetch(request).first
            }

            func shortestTitles() -> [Recipe] {
                let request = NSFetchRequest<Recipe>(entityName: "Recipe")
                request.sortDescriptors = [NSSortDescriptor(\\Recipe.title)]
                return (try? fetch(request)) ?? []
            }
        }
        """

    static let recipe = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCOOKEDAT, t0.ZRATING, t0.ZTITLE, t0.ZCOURSE FROM ZRECIPE t0"
    static let course = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZPOSITION FROM ZCOURSE t0"

    static func scan() -> SourceScan {
        SourceScanner.scan([(path: "Kitchen/Model.swift", text: model), (path: "Kitchen/CoreDataHelpers.swift", text: helpers),
                            (path: "Kitchen/Recipe+Queries.swift", text: queries), (path: "Kitchen/MenuScreen.swift", text: screens),
                            (path: "Kitchen/Context+Newest.swift", text: context)])
    }

    @Test("each call of a generic helper is a site at the caller's line, for the entity its metatype argument or annotation binds")
    func callSites() throws {
        let scan = Self.scan()
        // The helpers' own requests are read at their calls: no site in CoreDataHelpers.swift or Recipe+Queries.swift.
        #expect(scan.sites.filter { $0.file == "CoreDataHelpers.swift" || $0.file == "Recipe+Queries.swift" }.map(\.location) == [])
        let screen = scan.sites.filter { $0.file == "MenuScreen.swift" }
        #expect(screen.map(\.line) == [5, 7, 9, 10, 13, 14, 15])
        #expect(screen.map(\.entity) == ["Recipe", "Course", "Course", "Course", "Recipe", "Recipe", "Recipe"])
        #expect(screen[0].sql == "\(Self.recipe) WHERE  t0.ZRATING >= ?  LIMIT 3")
        #expect(screen[0].bindings == [.integer(4)])
        #expect(screen[0].notes.first == "the request is made by `NSManagedObject.request(for:first:pageSize:)` (CoreDataHelpers.swift:4)")
        // `let courses: NSFetchRequest<Course> = NSManagedObject.blankRequest()`: R from the annotation.
        #expect(screen[1].sql == "\(Self.course) ORDER BY t0.ZPOSITION, t0.ZNAME DESC")
        // `pageSize: 30` reaches `made.fetchBatchSize = pageSize`; `count` left out (nil) sets no limit.
        #expect(screen[2].sql == "SELECT t0.Z_ENT, t0.Z_PK FROM ZCOURSE t0")
        #expect(screen[2].notes.contains("fetchBatchSize 30: the statement fetches the identifiers; each batch is then "
            + "`\(Self.course) WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT 30`"))
        #expect(screen.allSatisfy { $0.untranslatedReason == nil })
    }

    @Test("a count's fetchLimit is left out of its SQL, and its note says so")
    func limitedCount() {
        let site = Self.scan().sites.first { $0.location == "MenuScreen.swift:10" }
        #expect(site?.isCount == true)
        #expect(site?.sql == "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZCOURSE t0 WHERE  t0.ZNAME = ?")
        #expect(site?.bindings == [.text("Starters")])
        #expect(site?.notes.last == "fetchLimit 1 on a count: left out, as Core Data's SQL for a count has no LIMIT in the format notes "
            + "(`SELECT COUNT( DISTINCT t0.Z_PK) FROM …`); a count with a limit is not seen in a real log")
    }

    @Test("an app's NSSortDescriptor initializer is read through its self.init, and a literal direction passed into a helper is followed")
    func sortInitializers() {
        let sites = Self.scan().sites.filter { $0.file == "MenuScreen.swift" }
        // `Recipe.best` passes `highest: true` into `extreme(highest:in:)`, whose sort is `NSSortDescriptor(by:descending: highest)`,
        // which is `self.init(keyPath: path, ascending: !descending)`.
        #expect(sites.first { $0.line == 13 }?.sql == "\(Self.recipe) ORDER BY t0.ZRATING DESC LIMIT 1")
        #expect(sites.first { $0.line == 14 }?.sql == "\(Self.recipe) ORDER BY t0.ZRATING LIMIT 1")
        #expect(sites.first { $0.line == 15 }?.sql == "\(Self.recipe) ORDER BY t0.ZTITLE")
    }

    @Test("what still cannot be translated is listed with the real reason: a caller's type parameter, a key path parameter, an initializer nobody declares")
    func reasons() {
        let sites = Self.scan().sites.filter { $0.file == "Context+Newest.swift" }
        #expect(sites.map(\.line) == [5, 11])
        #expect(sites[0].untranslatedReason == "the entity is `E`, a generic parameter of `newest` (Context+Newest.swift:4), which each of its callers chooses (not followed)")
        #expect(sites[1].untranslatedReason == "`NSSortDescriptor(\\Recipe.title)`: `NSSortDescriptor(_:)` is no initializer of Foundation's, "
            + "and the --source files declare none that fits")
    }

    @Test("a key path passed into a sort initializer from a parameter is chosen at run time; a helper nobody calls is a site that says why")
    func runTimeKeyPathAndUnusedHelper() {
        let code = """
            import CoreData

            enum Shelf {
                static func sorted<V>(by path: KeyPath<Recipe, V>) -> NSFetchRequest<Recipe> {
                    let request = NSFetchRequest<Recipe>(entityName: "Recipe")
                    request.sortDescriptors = [NSSortDescriptor(by: path)]
                    return request
                }
            }

            extension NSManagedObject {
                static func everything<X: NSManagedObject>(of kind: X.Type) -> NSFetchRequest<X> {
                    NSFetchRequest<X>(entityName: String(describing: kind))
                }
            }
            """
        let scan = SourceScanner.scan([(path: "Model.swift", text: Self.model), (path: "CoreDataHelpers.swift", text: Self.helpers),
                                       (path: "Shelf.swift", text: code)])
        let sites = scan.sites.filter { $0.file == "Shelf.swift" }
        #expect(sites.map(\.line) == [5, 13])
        #expect(sites[0].untranslatedReason == "the sort's key path `path` is chosen at run time")
        #expect(sites[1].untranslatedReason == "the entity is `X`, a generic parameter of `everything` (Shelf.swift:12), which each of its callers chooses (not followed)")
    }

    @Test("a generic helper inherited by an entity, a metatype parameter's fetchRequest(), and a batch delete")
    func inheritedAndBatchDelete() {
        let code = """
            import CoreData

            enum Cleanup {
                static func wipe<T: NSManagedObject>(_ kind: T.Type, in context: NSManagedObjectContext) throws {
                    let delete = NSBatchDeleteRequest(fetchRequest: kind.fetchRequest())
                    try context.execute(delete)
                }
            }

            func tidy(_ context: NSManagedObjectContext) throws {
                let one = Recipe.request(for: Recipe.self, first: 2)
                try Cleanup.wipe(Course.self, in: context)
                let stale = NSFetchRequest<NSFetchRequestResult>(entityName: "Recipe")
                stale.predicate = NSPredicate(format: "cookedAt == nil")
                try context.execute(NSBatchDeleteRequest(fetchRequest: stale))
                _ = one
            }
            """
        let scan = SourceScanner.scan([(path: "Model.swift", text: Self.model), (path: "CoreDataHelpers.swift", text: Self.helpers),
                                       (path: "Tidy.swift", text: code)])
        let sites = scan.sites.filter { $0.file == "Tidy.swift" }
        #expect(sites.map(\.line) == [11, 12, 13])
        #expect(sites[0].sql == "\(Self.recipe)  LIMIT 2")
        #expect(sites.map(\.entity) == ["Recipe", "Course", "Recipe"])
        // A batch delete is no fetch: listed, not read as a SELECT.
        #expect(sites[1].untranslatedReason == FetchSiteFinder.batchDeleteReason)
        #expect(sites[2].untranslatedReason == FetchSiteFinder.batchDeleteReason)
        // `blankRequest`, which nothing here calls, is a site where it makes its request, with the reason.
        #expect(scan.sites.map(\.location) == ["CoreDataHelpers.swift:12", "Tidy.swift:11", "Tidy.swift:12", "Tidy.swift:13"])
        #expect(scan.sites[0].untranslatedReason == "the entity is `R`, a generic parameter of `blankRequest` (CoreDataHelpers.swift:11), which each of its callers chooses (not followed)")
    }
}
