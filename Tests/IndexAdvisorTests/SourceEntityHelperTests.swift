import Testing
@testable import IndexAdvisor

/// `--source` on the entity helpers a held-out Core Data app (kiwix-apple, December 2026) is written with
/// (issue 41, item 4): an entity's own `class func fetchRequest(predicate:sortDescriptors:)` overloads with
/// default values over `super.fetchRequest()`, predicate helpers in an `enum` nested in the entity,
/// `_name = FetchRequest(…)` in a view's initializer, and a request made inside another type's helper.
/// A garden app of our own: other names, shapes and defaults than the app's.
@Suite("Entity request helpers in --source")
struct SourceEntityHelperTests {
    static let model = """
        final class Plant: NSManagedObject {
            @NSManaged var species: String
            @NSManaged var wateredAt: Date?
            @NSManaged var height: Int64
            @NSManaged var bed: Bed?
        }
        final class Bed: NSManagedObject {
            @NSManaged var label: String
            @NSManaged var isShaded: Bool
        }
        """
    static let plant = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZHEIGHT, t0.ZSPECIES, t0.ZWATEREDAT, t0.ZBED FROM ZPLANT t0"
    static let bed = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZISSHADED, t0.ZLABEL FROM ZBED t0"

    static let helpers = """
        extension Plant {
            @nonobjc class func fetchRequest(
                predicate: NSPredicate? = nil, sortDescriptors: [NSSortDescriptor] = [], limit: Int = 0
            ) -> NSFetchRequest<Plant> {
                let request = super.fetchRequest() as! NSFetchRequest<Plant>
                request.predicate = predicate
                request.sortDescriptors = sortDescriptors
                return request
            }
            static func fetchRequest(species: String) -> NSFetchRequest<Plant> {
                let request = super.fetchRequest() as! NSFetchRequest<Plant>
                request.predicate = NSPredicate(format: "species == %@", species)
                request.fetchLimit = 1
                return request
            }
            static func tallest() -> NSFetchRequest<Plant> {
                let request = Plant.fetchRequest(predicate: Filters.planted(), sortDescriptors: [NSSortDescriptor(key: "height", ascending: false)])
                request.fetchLimit = 3
                return request
            }
            enum Filters {
                static func planted() -> NSPredicate { NSPredicate(format: "bed != nil") }
                static func thirsty() -> NSPredicate {
                    NSCompoundPredicate(andPredicateWithSubpredicates: [planted(), NSPredicate(format: "wateredAt == nil")])
                }
            }
        }
        extension Bed {
            enum Filters {
                static func thirsty() -> NSPredicate { NSPredicate(format: "isShaded == NO") }
            }
            static func fetchRequest(predicate: NSPredicate?) -> NSFetchRequest<Bed> {
                let request = super.fetchRequest() as! NSFetchRequest<Bed>
                request.predicate = predicate
                return request
            }
        }
        """

    @Test("an entity's own fetchRequest overloads are followed with the call's arguments and the defaults it leaves out")
    func entityOverloads() {
        let code = """
            func load(context: NSManagedObjectContext, name: String) {
                let all = try? context.fetch(Plant.fetchRequest())
                let one = try? context.fetch(Plant.fetchRequest(species: name))
                let sorted = Plant.fetchRequest(sortDescriptors: [NSSortDescriptor(key: "species", ascending: true)])
                let dry = Plant.fetchRequest(predicate: Plant.Filters.thirsty())
                let shady = Bed.fetchRequest(predicate: Bed.Filters.thirsty())
                let top = try? context.fetch(Plant.tallest())
            }
            """
        let scan = SourceScanner.scan([(path: "Garden/Plant.swift", text: Self.model), (path: "Garden/Plant+Fetch.swift", text: Self.helpers),
                                       (path: "Garden/Load.swift", text: code)])
        #expect(scan.sites.map(\.location) == (2...7).map { "Load.swift:\($0)" })
        #expect(scan.sites.map(\.sql) == [
            Self.plant,
            "\(Self.plant) WHERE  t0.ZSPECIES = ?  LIMIT 1",
            "\(Self.plant) ORDER BY t0.ZSPECIES",
            "\(Self.plant) WHERE ( t0.ZBED IS NOT NULL AND  t0.ZWATEREDAT IS NULL)",
            "\(Self.bed) WHERE  t0.ZISSHADED = ?",
            "\(Self.plant) WHERE  t0.ZBED IS NOT NULL ORDER BY t0.ZHEIGHT DESC LIMIT 3",
        ])
        #expect(scan.sites.map(\.entity) == ["Plant", "Plant", "Plant", "Plant", "Bed", "Plant"])
        #expect(scan.sites[1].notes.first == "the request is made by `Plant.fetchRequest(species:)` (Plant+Fetch.swift:10)")
        #expect(scan.sites.allSatisfy { $0.untranslatedReason == nil })
    }

    @Test("_name = FetchRequest(…) in an initializer is the site, with the entity of the property it configures")
    func initializerFetchRequest() {
        let view = """
            struct BedsView: View {
                @FetchRequest private var plants: FetchedResults<Plant>
                @FetchRequest(sortDescriptors: [SortDescriptor(\\.label)]) private var beds: FetchedResults<Bed>
                init(tallFirst: Bool) {
                    self._plants = FetchRequest(
                        sortDescriptors: [NSSortDescriptor(keyPath: \\Plant.height, ascending: false)],
                        predicate: Plant.Filters.planted(),
                        animation: .default
                    )
                }
            }
            """
        let scan = SourceScanner.scan([(path: "Plant.swift", text: Self.model), (path: "Plant+Fetch.swift", text: Self.helpers),
                                       (path: "BedsView.swift", text: view)])
        // (`Plant.tallest()`, used nowhere here, is a site of its own in Plant+Fetch.swift.)
        let sites = scan.sites.filter { $0.file == "BedsView.swift" }
        #expect(sites.map(\.location) == ["BedsView.swift:3", "BedsView.swift:5"])
        #expect(sites.map(\.form) == [.fetchRequestProperty, .fetchRequestProperty])
        #expect(sites[1].entity == "Plant")
        #expect(sites[1].sql == "\(Self.plant) WHERE  t0.ZBED IS NOT NULL ORDER BY t0.ZHEIGHT DESC")
        #expect(sites[1].frequency == 10)
    }

    @Test("a request made inside another type's helper is a site where it is made; `case .all:` is no request member")
    func otherTypesHelpers() {
        let code = """
            enum Migrations {
                static func all() -> [String] {
                    let request = NSFetchRequest<Plant>(entityName: "Plant")
                    return []
                }
            }
            enum GardenStats {
                static func shadedBeds(in context: NSManagedObjectContext) -> [NSManagedObjectID] {
                    let request = NSFetchRequest<NSManagedObjectID>(entityName: "Bed")
                    request.predicate = NSPredicate(format: "isShaded == YES")
                    return (try? context.fetch(request)) ?? []
                }
            }
            enum Scope { case all, planted }
            extension Plant {
                static func scoped(_ scope: Scope = .planted) -> NSPredicate {
                    switch scope {
                    case .all: return NSPredicate(value: true)
                    case .planted: return Filters.planted()
                    }
                }
            }
            func refresh(context: NSManagedObjectContext) {
                _ = GardenStats.shadedBeds(in: context)
                _ = Migrations.all()
                let request = Plant.fetchRequest(predicate: Plant.scoped())
            }
            """
        let scan = SourceScanner.scan([(path: "Plant.swift", text: Self.model), (path: "Plant+Fetch.swift", text: Self.helpers),
                                       (path: "Stats.swift", text: code)])
        let sites = scan.sites.filter { $0.file == "Stats.swift" }
        #expect(sites.map(\.location) == ["Stats.swift:3", "Stats.swift:9", "Stats.swift:26"])
        #expect(sites[0].sql == Self.plant)
        #expect(sites[1].entity == "Bed")
        #expect(sites[1].sql == "\(Self.bed) WHERE  t0.ZISSHADED = ?")
        #expect(sites[2].untranslatedReason == "the predicate `Plant.scoped(_:)` (Stats.swift:16) is computed in several statements: built at run time")
    }
}
