import Testing
import Foundation
@testable import IndexAdvisor

/// The whole path on a Core Data app of our own (issue 41, item 4): Fixtures/ShelfSource, a model with an
/// abstract parent entity (`Item`, whose sub-entity `Book` shares its table `ZITEM`), a to-many relationship
/// (`Shelf.items`), a fetch index and a uniqueness constraint, and fetch code in the idioms of a held-out app
/// (an entity's own `fetchRequest(predicate:sortDescriptors:)` over `super.fetchRequest()`, predicate helpers
/// in an enum nested in the entity, `_books = FetchRequest(…)` in a view's initializer, fetchBatchSize) spread
/// over three files. The model is read, the sites become the statements Core Data prints, and the Swift
/// output speaks Core Data.
@Suite("A Core Data app of our own, model to Swift output")
struct ShelfAppPathTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ShelfSource")
    static let model = fixture.appendingPathComponent("Model/Shelf.xcdatamodeld")
    static let swiftFiles = ["Book.swift", "Book+Fetch.swift", "ShelfList.swift"].map { fixture.appendingPathComponent($0).path }

    static let book = "t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZADDEDAT, t0.ZISBNCODE, t0.ZISLENT, t0.ZPAGECOUNT, t0.ZTITLE, t0.ZSHELF FROM ZITEM t0"
    static let expected: [(location: String, sql: String)] = [
        ("ShelfList.swift:5", "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLABELCODE, t0.ZPOSITION, t0.ZROOMNAME FROM ZSHELF t0 WHERE  t0.ZROOMNAME = ? ORDER BY t0.ZPOSITION"),
        ("ShelfList.swift:10", "SELECT \(book) WHERE ( t0.Z_ENT = ? AND ( t0.ZSHELF = ? AND  t0.ZISLENT = ?)) ORDER BY t0.ZADDEDAT DESC"),
        ("ShelfList.swift:18", "SELECT \(book) WHERE ( t0.Z_ENT = ? AND  t0.ZISBNCODE = ?)  LIMIT 1"),
        ("ShelfList.swift:22", "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLABELCODE, t0.ZPOSITION, t0.ZROOMNAME FROM ZSHELF t0 WHERE  t0.ZLABELCODE = ?  LIMIT 1"),
        ("ShelfList.swift:29", "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE ( t0.Z_ENT = ? AND ( t0.ZPAGECOUNT > ? OR  NSCoreDataStringSearch( t0.ZTITLE, ?, 417, 1))) ORDER BY t0.ZADDEDAT DESC"),
    ]

    @Test("the .xcdatamodeld is read: the parent entity, the sub-entity in its table, the to-many relationship, the fetch index and the constraint")
    func modelRead() throws {
        let document = try XCDataModelReader.read(path: Self.model.path)
        #expect(document.entities.map(\.name) == ["Item", "Book", "Shelf"])
        let source = try ModelSourceReader.read(paths: [Self.model.path] + Self.swiftFiles)
        let book = try #require(source.classes.first { $0.entity == "Book" })
        #expect(book.framework == .coreData)
        #expect(book.classLocation == "Book.swift:4")
        #expect(book.fetchIndexes.map(\.name) == ["byAddedAt"])
        // Added again (`--model` and the model beside the `--source` files): the class stays where the Swift has it.
        let twice = source.adding(document)
        #expect(twice.classes.first { $0.entity == "Book" }?.classLocation == "Book.swift:4")
        #expect(twice.classes.first { $0.entity == "Shelf" }?.classLocation == "ShelfList.swift:37")
    }

    @Test("each site becomes the statement Core Data prints, with the model and with the Swift classes alone")
    func sites() throws {
        let model = try ModelSourceReader.read(paths: [Self.model.path])
        for scan in [try SourceScanner.scan(paths: Self.swiftFiles, model: model), try SourceScanner.scan(paths: Self.swiftFiles)] {
            #expect(scan.sites.map(\.location) == Self.expected.map(\.location))
            #expect(scan.sites.map(\.sql) == Self.expected.map(\.sql))
            #expect(scan.sites.map(\.entity) == ["Shelf", "Book", "Book", "Shelf", "Book"])
            #expect(scan.sites.map(\.form) == [.fetchRequestProperty, .fetchRequestProperty, .fetchRequest, .fetchRequest, .fetchRequest])
        }
    }

    /// Core Data's layout of the model: `Book` (Z_ENT 1) in its parent's table `ZITEM`, two shelves holding
    /// 12,000 books each, 1 in 25 available; the model's fetch index and constraint as Core Data names them.
    static func store() throws -> FixtureStore {
        try FixtureStore("""
            CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISLENT INTEGER, ZPAGECOUNT INTEGER,
                ZSHELF INTEGER, ZADDEDAT TIMESTAMP, ZISBNCODE VARCHAR, ZTITLE VARCHAR );
            CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPOSITION INTEGER, ZLABELCODE VARCHAR, ZROOMNAME VARCHAR );
            CREATE INDEX ZITEM_ZSHELF_INDEX ON ZITEM (ZSHELF);
            CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT);
            CREATE INDEX Z_Book_byAddedAt ON ZITEM (ZADDEDAT COLLATE BINARY DESC);
            CREATE UNIQUE INDEX Z_Book_UNIQUE_isbnCode ON ZITEM (ZISBNCODE COLLATE BINARY ASC);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 2, 24000), (2, 'Item', 0, 0), (3, 'Shelf', 0, 30000);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO ZSHELF SELECT i, 3, 1, i % 97, 'SH-' || i, CASE WHEN i % 500 = 0 THEN 'Annex' ELSE 'room ' || (i % 300) END FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24000)
            INSERT INTO ZITEM SELECT i, 1, 1, (i % 25 <> 0), 80 + (i * 37) % 900, 1 + i % 2, 700000000 + i * 97,
                '978-' || (100000 + i), 'Book ' || i FROM n;
            """, name: "Shelf.sqlite")
    }

    @Test("analysed: fetch-index and uniqueness-constraint code in the model's spelling, no #Index and no SwiftData words, with the model and with the Swift classes alone")
    func swiftOutput() throws {
        let store = try Self.store()
        let model = try ModelSourceReader.read(paths: [Self.model.path])
        let scan = try SourceScanner.scan(paths: Self.swiftFiles, model: model)
        let analysed = try Advisor.analyze(storeAt: store.url, workload: SourceWorkload.merge(scan, into: nil), options: quickOptions())
        // With the model (`--model`), and with only the Swift classes `--source` reads (`@NSManaged` names, no .xcdatamodeld).
        for (source, option) in [(model, "--model"), (try SourceScanner.scan(paths: Self.swiftFiles).model, "--source")] {
            let result = ModelMapping.apply(source, to: analysed, option: option)
            let byRoom = try #require(result.recommendations.first { $0.columns.map(\.name) == ["ZROOMNAME", "ZPOSITION"] })
            #expect(byRoom.swiftDataIndex == nil)
            #expect(byRoom.name == "Z_Shelf_byRoomNamePosition")
            #expect(byRoom.fetchIndex == CoreDataFetchIndex(entity: "Shelf", name: "byRoomNamePosition", elements: [.init(property: "roomName"), .init(property: "position")]))
            // The sub-entity's fetch: `Z_ENT` may lead its key (the README's one exception), so SQL only.
            #expect(result.recommendations.contains { $0.columns.map(\.name) == ["Z_ENT", "ZSHELF", "ZISLENT", "ZADDEDAT"] && $0.fetchIndex == nil })
            #expect(result.uniqueness.contains { $0.columns == ["ZISBNCODE"] && $0.origin == .enforced })
            let proposed = try #require(result.uniqueness.first { $0.columns == ["ZLABELCODE"] && $0.origin == .proposed })
            #expect(proposed.swiftDataUnique == nil)
            #expect(proposed.coreDataConstraint == ["labelCode"])
            #expect(proposed.advice == "looked up like an identifier and unique in the data (30,000 rows): declaring it unique gives the lookup a unique index.")

            let swift = checkedRender(result, .swift)
            for forbidden in ["#Index", "#Unique", "@Model", "VersionedSchema"] {
                #expect(!swift.contains(forbidden), "\(forbidden) (\(option))")
            }
            #expect(swift.contains("        let byRoomNamePosition = NSFetchIndexDescription(name: \"byRoomNamePosition\", elements: [element(entity, \"roomName\"), element(entity, \"position\")])"), "\(option)")
            #expect(swift.contains("//   Fetch index byRoomNamePosition (Z_Shelf_byRoomNamePosition in the store): select the entity Shelf"), "\(option)")
            #expect(swift.contains("// Z_Item_z_ent_shelf_isLent_addedAt on ZITEM(Z_ENT, ZSHELF, ZISLENT, ZADDEDAT): SQL only: Z_ENT, the column in which Core Data tells ZITEM's entities apart, is no property, so no fetch index can hold it"), "\(option)")
            #expect(swift.contains("//   Uniqueness constraint on labelCode: select the entity Shelf"), "\(option)")
            #expect(swift.contains("        entity.uniquenessConstraints.append([\"labelCode\"])"), "\(option)")
            let markdown = checkedRender(result, .markdown)
            #expect(markdown.contains("declaring it unique gives the lookup a unique index. Core Data: the uniqueness constraint `labelCode` on `Shelf`"), "\(option)")
            #expect(!markdown.contains("lets SwiftData upsert"), "\(option)")
        }
    }
}
