import Foundation
@testable import IndexAdvisor

/// A Core Data store laid out as Core Data lays out the recipe fixture model (Fixtures/RecipeApp/Model,
/// Recipes.xcdatamodeld, version 3), holding the model's own indexes as Core Data names them: the fetch
/// indexes `Z_Recipe_byCookbook`, `…byCourseTitle`, `…search`, `…sortLastMade`, `…ean` (on `ean13`), the
/// Indexed attribute `sourceURL` (`Z_Recipe_sourceURL`), the uniqueness constraint on it
/// (`Z_Recipe_UNIQUE_sourceURL`) and Core Data's own index for the to-one `cookbook` (`ZRECIPE_ZCOOKBOOK_INDEX`).
/// `byCourseTitle` is a left prefix of `search`, `byCookbook` repeats Core Data's index and `sourceURL` the
/// unique one. 40,000 recipes in 50 cookbooks; 100 pinned.
enum RecipeStore {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RecipeApp/Model/Recipes.xcdatamodeld")

    static let schema = """
        CREATE TABLE ZCOOKBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE TABLE ZRECIPE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOURSESTATE INTEGER, ZSERVINGS INTEGER,
            ZSTEPCOUNT INTEGER, ZCOOKBOOK INTEGER, ZLASTMADEON TIMESTAMP, ZPINNEDAT TIMESTAMP, ZEAN13 VARCHAR, ZSOURCEURL VARCHAR,
            ZTITLE VARCHAR );
        CREATE INDEX ZRECIPE_ZCOOKBOOK_INDEX ON ZRECIPE (ZCOOKBOOK);
        CREATE INDEX Z_Recipe_byCookbook ON ZRECIPE (ZCOOKBOOK COLLATE BINARY ASC);
        CREATE INDEX Z_Recipe_byCourseTitle ON ZRECIPE (ZCOURSESTATE COLLATE BINARY ASC, ZTITLE COLLATE BINARY ASC);
        CREATE INDEX Z_Recipe_search ON ZRECIPE (ZCOURSESTATE COLLATE BINARY ASC, ZTITLE COLLATE BINARY ASC, ZSERVINGS COLLATE BINARY ASC);
        CREATE INDEX Z_Recipe_sortLastMade ON ZRECIPE (ZCOURSESTATE COLLATE BINARY ASC, ZLASTMADEON COLLATE BINARY ASC);
        CREATE INDEX Z_Recipe_ean ON ZRECIPE (ZEAN13 COLLATE BINARY ASC);
        CREATE INDEX Z_Recipe_sourceURL ON ZRECIPE (ZSOURCEURL COLLATE BINARY ASC);
        CREATE UNIQUE INDEX Z_Recipe_UNIQUE_sourceURL ON ZRECIPE (ZSOURCEURL COLLATE BINARY ASC);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Cookbook', 0, 50), (2, 'Recipe', 0, 40000);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
        INSERT INTO ZCOOKBOOK SELECT i, 1, 1, 'Cookbook ' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
        INSERT INTO ZRECIPE SELECT i, 2, 1, CASE WHEN i % 10 < 6 THEN 0 WHEN i % 10 < 9 THEN 1 ELSE 2 END, 1 + i % 8, 3 + i % 17,
            CASE WHEN i % 20 = 0 THEN NULL ELSE 1 + (i * 7) % 50 END,
            CASE WHEN i % 5 = 0 THEN NULL ELSE 600000000 + (i * 7919) % 40000 * 3600 END,
            CASE WHEN i % 400 = 0 THEN 700000000 + i END,
            CASE WHEN i % 10 < 7 THEN '40' || printf('%011d', i) END,
            CASE WHEN i % 5 < 4 THEN 'https://example.org/r/' || i END,
            printf('Recipe %05d %.*c', (i * 37) % 40000, 10 + i % 30, 'x')
        FROM n;
        """

    /// The store at a new temporary path, its Z_MODELCACHE holding the fixture model when `cachesModel`.
    static func make(cachesModel: Bool = false) throws -> FixtureStore {
        let store = try FixtureStore(schema, name: "Recipes.sqlite")
        if cachesModel {
            let model = try XCDataModelReader.read(path: Self.model.path)
            let connection = try SQLiteConnection(path: store.url.path, mode: .readWrite)
            _ = try connection.query("INSERT INTO Z_MODELCACHE VALUES (?)", [.blob(ModelCacheWriter.storedBlocks(ModelCacheWriter.archive(model)))])
        }
        return store
    }
}
