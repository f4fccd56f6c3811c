import Foundation
@testable import IndexAdvisor

/// A Core Data store laid out as Core Data lays out the media fixture model (Fixtures/MediaApp/Model,
/// Media.xcdatamodeld): the abstract `Media` (title, addedAt, rating) with the sub-entities `Book` (isbn,
/// pageCount) and `Film` (director, runtime), all in one table `ZMEDIA` told apart by `Z_ENT` (2 and 3),
/// with Core Data's own `ZMEDIA_Z_ENT_INDEX`. `ZSHELFMARK` is a column no property of the model maps to (an
/// older version's). 36,000 books and 9,000 films.
enum MediaStore {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/MediaApp/Model/Media.xcdatamodeld")

    static let schema = """
        CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRATING INTEGER, ZPAGECOUNT INTEGER,
            ZRUNTIME INTEGER, ZADDEDAT TIMESTAMP, ZTITLE VARCHAR, ZISBN VARCHAR, ZDIRECTOR VARCHAR, ZSHELFMARK VARCHAR );
        CREATE INDEX ZMEDIA_Z_ENT_INDEX ON ZMEDIA (Z_ENT);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Media', 0, 0), (2, 'Book', 1, 36000), (3, 'Film', 1, 45000);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 45000)
        INSERT INTO ZMEDIA SELECT i, CASE WHEN i % 5 = 0 THEN 3 ELSE 2 END, 1, i % 6,
            CASE WHEN i % 5 = 0 THEN NULL ELSE 80 + i % 700 END, CASE WHEN i % 5 = 0 THEN 70 + i % 120 END,
            650000000 + (i * 7919) % 45000 * 1800, printf('Title %05d', (i * 31) % 45000),
            CASE WHEN i % 5 = 0 THEN NULL ELSE '978' || printf('%010d', i) END,
            CASE WHEN i % 5 = 0 THEN 'Director ' || (i % 300) END, 'S-' || (i % 900)
        FROM n;
        """

    static func make() throws -> FixtureStore { try FixtureStore(schema, name: "Media.sqlite") }
}
