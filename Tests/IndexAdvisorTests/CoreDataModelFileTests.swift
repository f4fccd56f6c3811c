import Testing
import Foundation
@testable import IndexAdvisor

/// `--model` with a Core Data model: the fixture Fixtures/CoreDataApp/Model/Birding.xcdatamodeld (two
/// versions, an abstract parent entity with two sub-entities, to-one and to-many relationships, fetch
/// indexes, an Indexed attribute and uniqueness constraints), read with Foundation's XML parser.
@Suite("Core Data model files")
struct CoreDataModelFileTests {
    static let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/CoreDataApp")
    static let bundle = app.appendingPathComponent("Model/Birding.xcdatamodeld")

    @Test("the .xcdatamodeld's current version is read: entities, parents, attributes with types and optionality, relationships, fetch indexes, uniqueness")
    func currentVersion() throws {
        let model = try XCDataModelReader.read(path: Self.bundle.path)
        #expect(model.source == "Birding 2.xcdatamodel")
        #expect(model.entities.map(\.name) == ["FieldNote", "Observer", "Record", "Sighting", "Site"])
        let record = try #require(model.entity(named: "Record"))
        #expect(record.isAbstract)
        #expect(record.className == "Record")
        #expect(record.line == 17)
        #expect(record.attributes.map(\.name) == ["exportKey", "isFlagged", "recordedAt", "remoteID", "scratch"])
        #expect(record.attributes.map(\.swiftType) == ["String?", "Bool", "Date", "String?", "String?"])
        #expect(record.attributes.last?.isTransient == true)
        #expect(record.fetchIndexes == [.init(name: "byRecordedAtIndex", elements: [.init(property: "recordedAt", isAscending: false)], line: 23)])
        #expect(record.uniquenessConstraints == [["remoteID"]])
        let sighting = try #require(model.entity(named: "Sighting"))
        #expect(sighting.parent == "Record")
        #expect(model.table(of: sighting) == "ZRECORD")
        #expect(model.lineage(of: sighting).map(\.name) == ["Sighting", "Record"])
        #expect(sighting.relationships.map(\.name) == ["observers", "site"])
        #expect(sighting.relationships.map(\.isToMany) == [true, false])
        #expect(sighting.relationships.first?.inverse == "sightings")
        #expect(model.entity(named: "FieldNote")?.className == "FieldNote")
        let site = try #require(model.entity(named: "Site"))
        // The Indexed attribute is the fetch index named after it; the editor's index keeps its order.
        #expect(site.fetchIndexes.map(\.name) == ["regionCode", "byRegionAndName"])
        #expect(site.fetchIndexes.last?.elements.map(\.property) == ["regionCode", "name"])
        #expect(site.uniquenessConstraints == [["regionCode", "name"]])
        // An .xcdatamodel folder and its contents file read the same model.
        let version = Self.bundle.appendingPathComponent("Birding 2.xcdatamodel")
        #expect(try XCDataModelReader.read(path: version.path).entities == model.entities)
        #expect(try XCDataModelReader.read(path: version.appendingPathComponent("contents").path).entities == model.entities)
        #expect(try XCDataModelReader.read(path: Self.bundle.appendingPathComponent("Birding.xcdatamodel").path).entities.map(\.name) == ["Sighting"])
    }

    @Test("as --model reads it: one class per entity, the sub-entities' superclass their parent's class, relationships typed by the destination's class")
    func asModelClasses() throws {
        let source = try ModelSourceReader.read(paths: [Self.bundle.path])
        #expect(source.files == ["Birding 2.xcdatamodel"])
        #expect(source.classes.map(\.className) == ["FieldNote", "Observer", "Record", "Sighting", "Site"])
        #expect(source.classes.allSatisfy { $0.framework == .coreDataModel })
        let sighting = try #require(source.classes.first { $0.entity == "Sighting" })
        #expect(sighting.superclass == "Record")
        #expect(sighting.location == "Birding 2.xcdatamodel:32")
        #expect(sighting.properties.map(\.type) == ["String?", "Int32", "String", "Set<Observer>", "Site?"])
        let names = Set(source.classes.map(\.className))
        #expect(sighting.properties.map { ModelMapping.kind(of: $0, modelNames: names) } == [.attribute, .attribute, .attribute, nil, .toOneRelationship])
        #expect(source.classes.first { $0.entity == "Record" }?.properties.map(\.name) == ["exportKey", "isFlagged", "recordedAt", "remoteID"])
        #expect(source.classes.first { $0.entity == "Site" }?.uniques == [ModelDeclaration(properties: ["regionCode", "name"], line: 51)])
        // The uniqueness constraints are audited against the data like #Unique rules, on the root's table.
        #expect(ModelMapping.declaredUniqueRules(in: source).contains(UniqueRule(table: "ZSITE", columns: ["ZREGIONCODE", "ZNAME"])))
        #expect(ModelMapping.declaredUniqueRules(in: source).contains(UniqueRule(table: "ZRECORD", columns: ["ZREMOTEID"])))
    }

    @Test("an NSManagedObject subclass in the Swift source becomes its entity's class: the model's properties, the class's name and location")
    func withSwiftClasses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let swift = directory.url.appendingPathComponent("Sighting.swift")
        try """
            import CoreData
            @objc(Sighting)
            public final class Sighting: Record {
                @NSManaged public var speciesCode: String
                @NSManaged public var localOnly: String?
            }
            """.write(to: swift, atomically: true, encoding: .utf8)
        let source = try ModelSourceReader.read(paths: [swift.path, Self.bundle.path])
        let sighting = try #require(source.classes.first { $0.entity == "Sighting" })
        #expect(sighting.framework == .coreData)
        #expect(sighting.classLocation == "Sighting.swift:3")
        #expect(sighting.location == "Birding 2.xcdatamodel:32")
        #expect(sighting.properties.map(\.name) == ["eBirdChecklistID", "headCount", "speciesCode", "observers", "site", "localOnly"])
        #expect(source.classes.filter { $0.entity == "Sighting" }.count == 1)
        #expect(source.classes.first { $0.entity == "Site" }?.framework == .coreDataModel)
        #expect(source.files == ["Sighting.swift", "Birding 2.xcdatamodel"])
    }

    @Test("a folder holding Swift files and an .xcdatamodeld reads both; the model's folder is not walked for Swift")
    func folder() throws {
        let source = try ModelSourceReader.read(paths: [Self.app.path])
        #expect(source.files.contains("Birding 2.xcdatamodel"))
        #expect(source.classes.contains { $0.entity == "Observer" })
        #expect(source.documents.count == 1)
    }

    @Test("what is not a model is refused with one line naming it and why: other XML, a plist, JSON, binary, a model folder without a current version")
    func refused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func write(_ name: String, _ text: String) throws -> String {
            let url = directory.url.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let plist = try write("Info.plist", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n")
        let json = try write("report.json", "{\"schemaVersion\": 1}\n")
        let broken = try write("contents", "<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\">\n")
        let binary = directory.url.appendingPathComponent("store.sqlite")
        try Data("SQLite format 3\u{0}".utf8).write(to: binary)
        func message(_ paths: [String]) -> String? {
            do {
                _ = try ModelSourceReader.read(paths: paths)
                return nil
            } catch {
                return String(describing: error)
            }
        }
        #expect(message([plist]) == "\(plist): not a Core Data model (its XML root element is <plist>, not <model>); give an .xcdatamodeld, an .xcdatamodel or its contents file, or Swift source")
        #expect(message([json]) == "\(json): neither Swift source (.swift) nor a Core Data model (.xcdatamodeld, .xcdatamodel or its XML contents file) (--model takes Swift files, Core Data models or folders)")
        #expect(message([binary.path])?.hasPrefix("\(binary.path): neither Swift source") == true)
        #expect(message([broken])?.hasPrefix("\(broken): not a Core Data model (not XML a model editor wrote: it ends at line ") == true)
        let versions = directory.url.appendingPathComponent("Two.xcdatamodeld")
        for name in ["A.xcdatamodel", "B.xcdatamodel"] {
            try FileManager.default.createDirectory(at: versions.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        #expect(message([versions.path]) == "\(versions.path): 2 model versions (A.xcdatamodel, B.xcdatamodel) and no .xccurrentversion saying which is current: give the .xcdatamodel to read")
        for text in [message([plist]), message([json]), message([broken]), message([versions.path])] {
            #expect(text?.contains("\n") == false)
        }
    }
}
