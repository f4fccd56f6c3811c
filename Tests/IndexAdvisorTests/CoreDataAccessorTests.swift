import Testing
import Foundation
@testable import IndexAdvisor

/// A new user's trial of a Core Data app (LoopKit): `@NSManaged` declarations that are not the model's
/// attributes were read as columns or classes. A primitive accessor (`primitiveCondition`) is the stored value
/// of the attribute `condition`, not a column `ZPRIMITIVECONDITION`; a `CALayer` subclass declares its
/// animatable properties `@NSManaged` and is no entity.
@Suite("@NSManaged that is no attribute: primitive accessors and layers")
struct CoreDataAccessorTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            <entity name="Reading" representedClassName="Reading" syncable="YES" codeGenerationType="class">
                <attribute name="condition" optional="YES" attributeType="String"/>
                <attribute name="takenAt" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="value" attributeType="Double" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
        </model>
        """
    static let reading = """
        import CoreData

        class Reading: NSManagedObject {
            @NSManaged var takenAt: Date
            @NSManaged var value: Double
            @NSManaged private var primitiveCondition: String?
            @NSManaged private var primitiveTakenAt: Date
            var condition: Condition? {
                get { willAccessValue(forKey: "condition"); defer { didAccessValue(forKey: "condition") }; return primitiveCondition.flatMap(Condition.init) }
                set { willChangeValue(forKey: "condition"); primitiveCondition = newValue?.rawValue; didChangeValue(forKey: "condition") }
            }
            var primitive: Int { 0 }
        }

        func recent(_ context: NSManagedObjectContext, since date: Date) throws -> [Reading] {
            let request = NSFetchRequest<Reading>(entityName: "Reading")
            request.predicate = NSPredicate(format: "takenAt >= %@", date as NSDate)
            return try context.fetch(request)
        }
        """
    static let layer = """
        import QuartzCore

        final class GaugeLayer: CALayer {
            @NSManaged var progress: CGFloat
            @NSManaged var startColor: CGColor?
        }
        """

    func folder() throws -> (TemporaryDirectory, URL) {
        let directory = try TemporaryDirectory()
        let app = directory.url.appendingPathComponent("App")
        let model = app.appendingPathComponent("Readings.xcdatamodeld/Readings.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Self.model.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        try Self.reading.write(to: app.appendingPathComponent("Reading.swift"), atomically: true, encoding: .utf8)
        try Self.layer.write(to: app.appendingPathComponent("GaugeLayer.swift"), atomically: true, encoding: .utf8)
        return (directory, app)
    }

    @Test("primitive accessors are no properties, with or without the model; primitive alone is a name like another")
    func primitiveAccessors() throws {
        #expect(ModelSourceReader.isPrimitiveAccessor("primitiveCondition"))
        #expect(!ModelSourceReader.isPrimitiveAccessor("primitive"))
        #expect(!ModelSourceReader.isPrimitiveAccessor("primitivesCount"))
        let (directory, app) = try folder()
        defer { _ = directory }
        let swiftOnly = ModelSourceReader.parse(Self.reading, file: "Reading.swift")
        #expect(swiftOnly.first?.properties.map(\.name) == ["takenAt", "value"])
        let withModel = try ModelSourceReader.read(paths: [app.appendingPathComponent("Reading.swift").path,
                                                           app.appendingPathComponent("Readings.xcdatamodeld").path])
        #expect(withModel.classes.first { $0.className == "Reading" }?.properties.map(\.name).sorted() == ["condition", "takenAt", "value"])

        let scan = try SourceScanner.scan(paths: [app.path])
        let site = try #require(scan.sites.first)
        #expect(site.location == "Reading.swift:16")
        #expect(site.sql == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCONDITION, t0.ZTAKENAT, t0.ZVALUE FROM ZREADING t0 WHERE  t0.ZTAKENAT >= ?")
    }

    @Test("with the model read, a layer's @NSManaged properties make no entity, and its file is not among the model's")
    func layerIsNoEntity() throws {
        let (directory, app) = try folder()
        defer { _ = directory }
        let source = try ModelSourceReader.read(paths: [app.path])
        #expect(source.classes.map(\.className) == ["Reading"])
        #expect(!source.files.contains("GaugeLayer.swift"))
        #expect(source.files.contains("Reading.swift"))
    }
}
