import Testing
import Foundation
import CSQLite
@testable import IndexAdvisor

/// Issue 18: a warm-up pass that could not warm the page cache is kept as a run.
@Suite("A warm-up that cannot warm the cache is a run")
struct WarmUpRunTests {
    static let storeSQL = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, flag INTEGER, title TEXT, copy INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO item SELECT i, i % 500, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 3 END, 'title ' || i, i FROM n;
        CREATE INDEX item_owner ON item(owner);
        """

    @Test("a warm-up pass counts as a run only when it read ten times as many pages as the cache holds")
    func warmUpRule() {
        #expect(StatementTimer.warmUpIsARun(misses: 5_000, cachePages: 500))
        #expect(!StatementTimer.warmUpIsARun(misses: 4_999, cachePages: 500))
        #expect(!StatementTimer.warmUpIsARun(misses: 100_000, cachePages: nil))
        #expect(!StatementTimer.warmUpIsARun(misses: 100_000, cachePages: 0))
    }

    @Test("a scan far larger than the page cache keeps its warm-up as the first run; one that fits discards it")
    func warmUpKeptForUncachedScans() throws {
        let store = try FixtureStore(Self.storeSQL)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        // passes() counts the statement's executions: one per pass.
        let passes = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { passes.deallocate() }
        passes.pointee = 0
        #expect(sqlite3_create_function_v2(connection.handle, "passes", 0, SQLITE_UTF8, passes, { context, _, _ in
            sqlite3_user_data(context)!.assumingMemoryBound(to: Int.self).pointee += 1
            sqlite3_result_int(context, 1)
        }, nil, nil, nil) == SQLITE_OK)
        let sql = "SELECT (SELECT count(title) FROM item WHERE title LIKE '%9'), passes()"
        var timer = StatementTimer(connection: connection)
        timer.repeats = 3
        timer.minimumRunSeconds = 0  // every run is one pass
        timer.agreement = 0  // no early stop: every run is taken
        timer.preemptionProbe = nil  // passes() counts executions: a preempted one run again would count twice
        // 20,000 rows take some 150 pages: a 10-page cache keeps none of them, a 2,000-page one all.
        try connection.execute("PRAGMA cache_size = 10")
        #expect(connection.pageCacheCapacity() == 10)
        let uncached = try timer.time(sql, samples: [], isWrite: false)
        #expect(uncached.runs == 3)
        #expect(passes.pointee == 3)  // the warm-up and two more
        passes.pointee = 0
        try connection.execute("PRAGMA cache_size = 2000")
        let cached = try timer.time(sql, samples: [], isWrite: false)
        #expect(cached.runs == 3)
        #expect(passes.pointee == 4)  // the warm-up, discarded, and three runs
        #expect(uncached.rowsPerExecution == 1 && cached.rowsPerExecution == 1)
        #expect(uncached.vmStepsPerExecution == cached.vmStepsPerExecution)
        #expect(uncached.pageLookupsPerExecution == cached.pageLookupsPerExecution)
        // A negative size is in KiB: 2,000 KiB of 4,096-byte pages.
        try connection.execute("PRAGMA cache_size = -2000")
        let pageSize = try #require(try connection.scalar("PRAGMA page_size")?.integerValue)
        let capacity = connection.pageCacheCapacity()
        #expect(pageSize == 4096)
        #expect(capacity == 500)
    }
}
