import Foundation
import IndexAdvisorTesting
import XCTest
#if canImport(SQLite3)
import SQLite3  // Apple platforms: the SDK's SQLite
#else
import AppSQLite  // Linux: a system-library target of your package that links libsqlite3
#endif

/// The same checks in XCTest, on a store file as a Core Data or SwiftData test has one after its stack saved:
/// the statements come from the SQL debug log (`-com.apple.CoreData.SQLDebug 1`), planned on the file.
final class NoteQueryPlanXCTests: XCTestCase {
    private var directory: URL!
    private var storeURL: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        storeURL = directory.appendingPathComponent("Notes.sqlite")
        // Stands for the app's Core Data stack saving its store: an entity table with Core Data's columns.
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(storeURL.path, &db), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(db, """
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDERID INTEGER, ZUPDATEDAT TIMESTAMP, ZTITLE VARCHAR);
            CREATE INDEX Z_Note_folderID_updatedAt ON ZNOTE (ZFOLDERID, ZUPDATEDAT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO ZNOTE SELECT i, 1, 1, i % 50, i * 60.0, 'Note ' || i FROM n;
            """, nil, nil, nil), SQLITE_OK)
        sqlite3_close(db)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    func testFolderFetchUsesTheFetchIndex() {
        // A fetch as Core Data's SQL debug log prints it.
        let fetch = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZFOLDERID, t0.ZUPDATEDAT, t0.ZTITLE FROM ZNOTE t0 WHERE  t0.ZFOLDERID = ? ORDER BY t0.ZUPDATEDAT DESC"
        assertQueryPlan(of: fetch, bindings: [3], inStoreAt: storeURL, .usingIndex("Z_Note_folderID_updatedAt"))
    }

    func testTitleLookupOnAConnection() {
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(storeURL.path, &db, SQLITE_OPEN_READONLY, nil), SQLITE_OK)
        defer { sqlite3_close(db) }
        // A title lookup scans ZNOTE: this test accepts scans of up to 10,000 rows.
        assertQueryPlans(on: db!, PlanRequirements(maximumFullScanRows: 10_000)) {
            sqlite3_exec(db, "SELECT Z_PK FROM ZNOTE WHERE ZTITLE = 'Note 12'", nil, nil, nil)
        }
    }
}
