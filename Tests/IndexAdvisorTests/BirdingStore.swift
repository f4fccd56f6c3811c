import Foundation
@testable import IndexAdvisor

/// A Core Data store laid out as Core Data lays out the fixture model Fixtures/CoreDataApp/Model
/// (Birding.xcdatamodeld, version 2): the abstract `Record` and its sub-entities `FieldNote` and `Sighting`
/// share `ZRECORD` (`Z_ENT` 3 and 4), `Sighting.site` is the column `ZSITE`, the many-to-many
/// `Sighting.observers` ↔ `Observer.sightings` the join table `Z_1SIGHTINGS`; the model's fetch indexes and
/// uniqueness constraints exist as Core Data names them (`Z_Record_byRecordedAtIndex`,
/// `Z_Observer_UNIQUE_handle`). 24,000 sightings of 300 species at 400 sites, 6,000 field notes.
enum BirdingStore {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/CoreDataApp/Model/Birding.xcdatamodeld")
    static let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/CoreDataApp")

    static let schema = """
        CREATE TABLE ZOBSERVER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDISPLAYNAME VARCHAR, ZHANDLE VARCHAR );
        CREATE TABLE ZRECORD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISFLAGGED INTEGER, ZWORDCOUNT INTEGER,
            ZHEADCOUNT INTEGER, ZSITE INTEGER, ZRECORDEDAT TIMESTAMP, ZREMOTEID VARCHAR, ZBODYTEXT VARCHAR, ZEBIRDCHECKLISTID VARCHAR,
            ZSPECIESCODE VARCHAR, ZEXPORTKEY VARCHAR );
        CREATE TABLE ZSITE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZREGIONCODE VARCHAR );
        CREATE TABLE Z_1SIGHTINGS ( Z_1OBSERVERS INTEGER, Z_4SIGHTINGS INTEGER, PRIMARY KEY (Z_1OBSERVERS, Z_4SIGHTINGS) );
        CREATE INDEX Z_1SIGHTINGS_Z_4SIGHTINGS_INDEX ON Z_1SIGHTINGS (Z_4SIGHTINGS, Z_1OBSERVERS);
        CREATE INDEX ZRECORD_ZSITE_INDEX ON ZRECORD (ZSITE);
        CREATE INDEX ZRECORD_Z_ENT_INDEX ON ZRECORD (Z_ENT);
        CREATE INDEX Z_Record_byRecordedAtIndex ON ZRECORD (ZRECORDEDAT COLLATE BINARY DESC);
        CREATE UNIQUE INDEX Z_Record_UNIQUE_remoteID ON ZRECORD (ZREMOTEID COLLATE BINARY ASC);
        CREATE INDEX Z_Site_regionCode ON ZSITE (ZREGIONCODE COLLATE BINARY ASC);
        CREATE INDEX Z_Site_byRegionAndName ON ZSITE (ZREGIONCODE COLLATE BINARY ASC, ZNAME COLLATE BINARY ASC);
        CREATE UNIQUE INDEX Z_Site_UNIQUE_regionCode_name ON ZSITE (ZREGIONCODE COLLATE BINARY ASC, ZNAME COLLATE BINARY ASC);
        CREATE UNIQUE INDEX Z_Observer_UNIQUE_handle ON ZOBSERVER (ZHANDLE COLLATE BINARY ASC);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Observer', 0, 200), (2, 'Record', 0, 0), (3, 'FieldNote', 2, 30000), (4, 'Sighting', 2, 24000), (5, 'Site', 0, 400);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
        INSERT INTO ZSITE SELECT i, 5, 1, 'site ' || i, 'US-' || (i % 40) FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
        INSERT INTO ZOBSERVER SELECT i, 1, 1, 'Birder ' || i, 'birder' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO ZRECORD SELECT i, CASE WHEN i <= 24000 THEN 4 ELSE 3 END, 1, (i % 17 = 0),
            CASE WHEN i > 24000 THEN i % 300 END, CASE WHEN i <= 24000 THEN 1 + i % 9 END,
            CASE WHEN i <= 24000 THEN 1 + (i * 7) % 400 END, 700000000 + i * 600, 'r-' || i,
            CASE WHEN i > 24000 THEN 'note ' || i END, CASE WHEN i <= 24000 THEN 'S' || (100000 + i) END,
            CASE WHEN i <= 24000 THEN 'sp' || (i * 13 % 300) END, 'x-' || i
        FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24000)
        INSERT INTO Z_1SIGHTINGS SELECT 1 + i % 200, i FROM n;
        """

    /// The store at a new temporary path, its Z_MODELCACHE holding the fixture model (compiled as
    /// ``ModelCacheWriter`` writes it) when `cachesModel`.
    static func make(cachesModel: Bool = true) throws -> FixtureStore {
        let store = try FixtureStore(schema, name: "Birding.sqlite")
        if cachesModel {
            let model = try XCDataModelReader.read(path: Self.model.path)
            let connection = try SQLiteConnection(path: store.url.path, mode: .readWrite)
            _ = try connection.query("INSERT INTO Z_MODELCACHE VALUES (?)", [.blob(ModelCacheWriter.storedBlocks(ModelCacheWriter.archive(model)))])
        }
        return store
    }
}
