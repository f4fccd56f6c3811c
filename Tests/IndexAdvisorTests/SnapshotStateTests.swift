import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 16, item 3: an error that leaves the snapshot changed stops the run instead of skewing every
/// later measurement.
@Suite("A snapshot that cannot be put back stops the analysis")
struct SnapshotStateTests {
    // Regression: on a nearly full temporary folder a candidate's DROP INDEX failed (SQLITE_FULL), the
    // index stayed, every later candidate was measured beside it, and the run exited 0 with worse advice.
    @Test("a candidate's DROP INDEX that fails throws snapshotStateLost, naming the folder, the SQL and SQLite's reason")
    func failedDrop() throws {
        let store = try FixtureStore("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO t SELECT i, i % 7 FROM n;
            """)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        try snapshot.connection.execute("CREATE INDEX indexadvisor_candidate ON t(a)")
        // A statement still reading the table keeps SQLite from dropping its index (SQLITE_LOCKED), as a
        // full disk would (SQLITE_FULL).
        let reading = try snapshot.connection.prepare("SELECT a FROM t")
        #expect(try reading.step())
        let measurer = CandidateMeasurer(snapshot: snapshot, timer: StatementTimer(connection: snapshot.connection), storeHasStatistics: false)
        do {
            try measurer.drop("indexadvisor_candidate")
            Issue.record("the drop did not fail")
        } catch let error as StoreError {
            guard case .snapshotStateLost(let directory, let sql, let sqliteError) = error else { Issue.record("\(error)"); return }
            #expect(directory == snapshot.directory.url.path)
            #expect(sql == "DROP INDEX IF EXISTS \"indexadvisor_candidate\"")
            #expect(sqliteError.code == 6)  // SQLITE_LOCKED
            #expect(error.description.contains("every later measurement would include that index, so the analysis stopped"))
        }
        reading.reset()
        try measurer.drop("indexadvisor_candidate")
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index'") == .integer(0))
    }
}
