import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 42, item 3: the same index's write cost moved 2–8× between runs. One cause: every timed write,
/// rolled back with ROLLBACK TO and RELEASE, committed its emptied transaction, which in WAL mode writes a
/// frame of page 1; with the snapshot's automatic checkpoints off the WAL grew by one frame per timed
/// execution, and each later write got slower as it grew (33 µs → 70 µs for one INSERT over 15,000
/// executions). These tests count frames and rows, never time.
@Suite("A timed write leaves the WAL as it found it")
struct TimedWriteWALTests {
    static let storeSQL = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, title TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO item SELECT i, i % 50, 'title ' || i FROM n;
        CREATE INDEX item_owner ON item(owner);
        """

    /// Frames in the snapshot's WAL file (its 32-byte header, then each frame's 24-byte header and a page).
    static func walFrames(_ snapshot: StoreSnapshot) throws -> Int {
        let pageSize = try #require(try snapshot.connection.scalar("PRAGMA page_size")?.integerValue)
        let path = snapshot.connection.path + "-wal"
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return bytes <= 32 ? 0 : (bytes - 32) / (24 + Int(pageSize))
    }

    @Test("timing an INSERT, an UPDATE and a DELETE hundreds of times commits no frame and changes no row")
    func noFramePerTimedWrite() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        snapshot.checkpoint()
        #expect(try Self.walFrames(snapshot) == 0)
        var timer = StatementTimer(connection: snapshot.connection)
        timer.repeats = 5
        timer.agreement = 0  // every run is taken: at least 5 runs of 2 ms each, hundreds of executions
        let writes = [
            ("INSERT INTO item(owner, title) VALUES (?, ?)", [[SQLValue.integer(7), .text("new")], [.integer(8), .text("other")]]),
            ("UPDATE item SET owner = ? WHERE id = ?", [[SQLValue.integer(3), .integer(10)], [.integer(4), .integer(11)]]),
            ("DELETE FROM item WHERE id = ?", [[SQLValue.integer(12)], [.integer(13)]]),
        ]
        for (sql, samples) in writes {
            let timing = try timer.time(sql, samples: samples, isWrite: true)
            #expect(timing.sampleSize >= 10)
            #expect(timing.rowsPerExecution == 1)
        }
        // Before the fix: one frame of page 1 per timed execution, thousands here.
        #expect(try Self.walFrames(snapshot) == 0)
        #expect(snapshot.connection.isAutocommit)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM item") == .integer(2000))
        #expect(try snapshot.connection.scalar("SELECT sum(owner) FROM item") == .integer((1...2000).reduce(0) { $0 + Int64($1 % 50) }))
    }

    @Test("inside a transaction someone else opened, a timed write rolls back only its own savepoint")
    func nestedSavepointKeepsOuterTransaction() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        let connection = snapshot.connection
        try connection.execute("SAVEPOINT outer_change; DROP INDEX item_owner")
        var timer = StatementTimer(connection: connection)
        timer.repeats = 3
        _ = try timer.time("UPDATE item SET owner = ? WHERE id = ?", samples: [[.integer(1), .integer(5)]], isWrite: true)
        // The outer savepoint is still open, and its change (the dropped index) still made.
        #expect(!connection.isAutocommit)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'item_owner'") == .integer(0))
        try connection.execute("ROLLBACK TO outer_change; RELEASE outer_change")
        #expect(connection.isAutocommit)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'item_owner'") == .integer(1))
        #expect(try connection.scalar("SELECT owner FROM item WHERE id = 5") == .integer(5))
    }
}
