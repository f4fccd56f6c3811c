import Testing
import Foundation
@testable import IndexAdvisor

/// The model a store caches in `Z_MODELCACHE` (raw DEFLATE of a keyed archive), read without Core Data:
/// the inflater, the binary property list reader, the archive walk, and names taken from it.
@Suite("The store's cached model (Z_MODELCACHE)")
struct StoreModelCacheTests {
    /// Raw DEFLATE made with zlib (`compressobj(9, DEFLATED, -15)`) of the texts below: a fixed-Huffman
    /// block for the short one, a dynamic-Huffman block with back-references for the long one.
    static let fixedBlock = "i4r39Xdx9XF2dPZwVYjCxQEA"
    static let dynamicBlock = "lZVLTgMxEAX3nMJH8Kfbnz0b1pxgEE4YCQUUzCK3DxJKhE3PG/d29BzVyDWpempruxhr3pYvs7R2Xl++WzWHtb6/WvNxMO3yWc3zz/PT8aH+jp00Tvfx49LqbeqlqbtPn06tHuvZRLodCNKBvAFC0tiLICxNCwCJ0oGwAZLE17QiSZa2BEiK+ONu63LEq2QRxYk36TyAceKNxi2YgL3qYAhrJbAwtmtgiVitjiVhswSWjAUbWAq2q/uE7I5c/2G8w471MN7vCNbRBKyXAEM7kg00jAXrYCLWS4BJWLKBJWPBOpaC9RL+6iyWrGcJDgv2lyV4rJfAEnYkG2AIC9bB8I5eAk3Ekg0waUewjiZjvQSYomkj2fk4ktPWkbwqj2G+j0TaQBJrCklRkUhK2kZSVkWSynwk2aojyU4TSfbzkeSgjSSTJpLM85HkqI0kJ00kOc9Hkst8JK8="
    static let dynamicText = (0..<60).map { n in "entity \(n) has attribute field\(n * 7 % 13) of type \(["String", "Date", "Integer 64"][n % 3])\n" }.joined()

    static let model = CoreDataModelDocument(entities: [
        .init(name: "Trail", className: "Trail", attributes: [
            .init(name: "trailheadID", type: "String", isOptional: false),
            .init(name: "lengthKm", type: "Double", isOptional: true),
            .init(name: "isLoop", type: "Boolean", isOptional: false),
            .init(name: "cache", type: "String", isOptional: true, isTransient: true),
        ], relationships: [.init(name: "hikes", destination: "Hike", isToMany: true)],
              fetchIndexes: [.init(name: "byTrailheadIDLengthKm", elements: [.init(property: "trailheadID"), .init(property: "lengthKm", isAscending: false)])],
              uniquenessConstraints: [["trailheadID"]]),
        .init(name: "Outing", isAbstract: true, attributes: [.init(name: "startedAt", type: "Date", isOptional: false)]),
        .init(name: "Hike", className: "Hike", parent: "Outing", attributes: [.init(name: "elevationGainM", type: "Integer 32", isOptional: true)],
              relationships: [.init(name: "trail", destination: "Trail", isToMany: false)]),
    ], source: "Z_MODELCACHE")

    @Test("raw DEFLATE: stored, fixed-Huffman and dynamic-Huffman blocks inflate to their text")
    func inflate() throws {
        let fixed = try RawInflate.inflate(Array(Data(base64Encoded: Self.fixedBlock)!))
        #expect(String(decoding: fixed, as: UTF8.self) == "Z_MODELCACHE Z_MODELCACHE Z_MODELCACHE")
        let dynamic = try RawInflate.inflate(Array(Data(base64Encoded: Self.dynamicBlock)!))
        #expect(String(decoding: dynamic, as: UTF8.self) == Self.dynamicText)
        let big = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 31 % 251) })
        #expect(try RawInflate.inflate(ModelCacheWriter.storedBlocks(big)) == big)
    }

    @Test("broken DEFLATE is a failure with the reason, never a crash: cut off, a reserved block type, a reference before the start, past the limit")
    func brokenInflate() {
        let dynamic = Array(Data(base64Encoded: Self.dynamicBlock)!)
        for length in stride(from: 0, to: dynamic.count - 1, by: 7) {
            #expect(throws: RawInflate.Failure.self) { try RawInflate.inflate(Array(dynamic.prefix(length))) }
        }
        #expect(throws: RawInflate.Failure(reason: "a block of the reserved type 3")) { try RawInflate.inflate([0x07]) }
        // A fixed block whose first code is a length: a back-reference with nothing before it.
        #expect(throws: RawInflate.Failure(reason: "a back-reference before the start of the data")) { try RawInflate.inflate([0x03, 0x02]) }
        #expect(throws: RawInflate.Failure(reason: "it inflates past 100 bytes")) {
            try RawInflate.inflate(ModelCacheWriter.storedBlocks([UInt8](repeating: 1, count: 200)), limit: 100)
        }
        #expect(throws: RawInflate.Failure(reason: "a stored block's length check fails")) { try RawInflate.inflate([0x01, 0x02, 0x00, 0x00, 0x00, 1, 2]) }
    }

    @Test("the binary property list reader: types, UIDs, a reference out of range and a cycle are failures")
    func propertyList() throws {
        let bytes = ModelCacheWriter.binaryPropertyList(.dictionary([("a", .integer(-3)), ("b", .array([.bool(true), .null, .uid(7)])),
                                                                      ("c", .string("grüße")), ("d", .string(String(repeating: "x", count: 40)))]))
        let value = try BinaryPropertyList.parse(bytes)
        #expect(value == .dictionary(["a": .integer(-3), "b": .array([.bool(true), .null, .uid(7)]), "c": .string("grüße"),
                                      "d": .string(String(repeating: "x", count: 40))]))
        #expect(throws: BinaryPropertyList.Failure.self) { try BinaryPropertyList.parse(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 40)) }
        // An array (object 0) whose only element is itself.
        var cycle = Array("bplist00".utf8) + [0xA1, 0x00]
        cycle += [0x08] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
        #expect(throws: BinaryPropertyList.Failure(reason: "objects nested too deep or in a cycle")) { try BinaryPropertyList.parse(cycle) }
    }

    @Test("a cached model is read back: entities, parents, attribute types and optionality, relationships, fetch indexes, uniqueness; inherited properties kept on the parent only")
    func decode() throws {
        let blob = ModelCacheWriter.storedBlocks(ModelCacheWriter.archive(Self.model))
        let decoded = try StoreModelCache.decode(blob)
        #expect(decoded.entities.map(\.name) == ["Hike", "Outing", "Trail"])
        let trail = try #require(decoded.entity(named: "Trail"))
        #expect(trail.attributes.map(\.name) == ["cache", "isLoop", "lengthKm", "trailheadID"])
        #expect(trail.attributes.map(\.swiftType) == ["String?", "Bool", "Double?", "String"])
        #expect(trail.attributes.first?.isTransient == true)
        #expect(trail.relationships == [.init(name: "hikes", destination: "Hike", isToMany: true, isOptional: true)])
        #expect(trail.fetchIndexes == Self.model.entities[0].fetchIndexes)
        #expect(trail.uniquenessConstraints == [["trailheadID"]])
        let hike = try #require(decoded.entity(named: "Hike"))
        #expect(hike.parent == "Outing")
        #expect(hike.attributes.map(\.name) == ["elevationGainM"])
        #expect(hike.relationships.map(\.isToMany) == [false])
        #expect(decoded.entity(named: "Outing")?.isAbstract == true)
        // Stored uncompressed, as some systems keep it, it reads the same.
        #expect(try StoreModelCache.decode(ModelCacheWriter.archive(Self.model)) == decoded)
        // What is not a cached model says what it is not.
        #expect(throws: StoreModelCache.Failure.self) { try StoreModelCache.decode([0x07, 1, 2, 3]) }
        #expect(throws: StoreModelCache.Failure(reason: "Z_MODELCACHE is no NSKeyedArchiver archive")) {
            try StoreModelCache.decode(ModelCacheWriter.storedBlocks(ModelCacheWriter.binaryPropertyList(.array([.string("x")]))))
        }
    }

    @Test("a store with Z_MODELCACHE: the schema carries its model, and the names of every column come from it, not guessed")
    func namesFromTheStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("hikes.sqlite")
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE ZTRAIL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTRAILHEADID VARCHAR, ZLENGTHKM FLOAT, ZISLOOP INTEGER);
            CREATE TABLE ZOUTING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTARTEDAT TIMESTAMP, ZELEVATIONGAINM INTEGER, ZTRAIL INTEGER);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Hike', 2, 0), (2, 'Outing', 0, 0), (3, 'Trail', 0, 0);
            """)
        _ = try connection.query("INSERT INTO Z_MODELCACHE VALUES (?)", [.blob(ModelCacheWriter.storedBlocks(ModelCacheWriter.archive(Self.model)))])
        let schema = try SchemaReader.read(from: connection)
        #expect(schema.coreData?.cachedModel?.failure == nil)
        #expect(schema.coreData?.cachedModel?.model?.entities.count == 3)
        let naming = SwiftDataNaming(schema: schema)
        for (column, property) in [("ZTRAILHEADID", "trailheadID"), ("ZLENGTHKM", "lengthKm"), ("ZELEVATIONGAINM", "elevationGainM"), ("ZTRAIL", "trail")] {
            #expect(naming.propertyName(forColumn: column) == (property, false), "\(column)")
        }
        // Without the cache the same columns are guessed from English words.
        try connection.execute("DELETE FROM Z_MODELCACHE")
        let bare = try SchemaReader.read(from: connection)
        #expect(bare.coreData?.cachedModel?.failure == "the store's Z_MODELCACHE holds no model")
        #expect(SwiftDataNaming(schema: bare).propertyName(forColumn: "ZTRAILHEADID").isGuess)
        try connection.execute("DROP TABLE Z_MODELCACHE")
        #expect(try SchemaReader.read(from: connection).coreData?.cachedModel == nil)
    }
}
