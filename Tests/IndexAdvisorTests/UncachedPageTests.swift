import Foundation
import Testing
@testable import IndexAdvisor

/// Pages read from outside SQLite's page cache, priced by the counters beyond as many as the cache holds.
@Suite("Counters: pages read from outside the page cache")
struct UncachedPageTests {
    @Test("a pass's misses beyond the cache's capacity, per execution, to two significant figures; none within it")
    func beyondCapacity() {
        #expect(StatementTimer.uncachedPages(misses: 400, cachePages: 500, executions: 1) == 0)
        #expect(StatementTimer.uncachedPages(misses: 500, cachePages: 500, executions: 3) == 0)
        #expect(StatementTimer.uncachedPages(misses: 97_099, cachePages: 500, executions: 1) == 97_000)
        #expect(StatementTimer.uncachedPages(misses: 3_036, cachePages: 500, executions: 2) == 1_250)
        #expect(StatementTimer.uncachedPages(misses: 512, cachePages: 500, executions: 4) == 3)
        #expect(StatementTimer.uncachedPages(misses: 10, cachePages: 0, executions: 0) == 0)
    }

    @Test("a pass after a pass over the same values counts every miss: a working set that fits misses none")
    func steadyPass() {
        #expect(StatementTimer.uncachedPages(misses: 493, cachePages: 469, executions: 1, steady: true) == 490)
        #expect(StatementTimer.uncachedPages(misses: 493, cachePages: 469, executions: 1) == 24)
        #expect(StatementTimer.uncachedPages(misses: 0, cachePages: 469, executions: 2, steady: true) == 0)
        // A second pass is needed only when the first looked up at least the cache's capacity and did not
        // read ten times as many pages (then nothing could stay cached: the first pass is as steady).
        #expect(StatementTimer.needsSteadyPass(lookups: 500, misses: 400, cachePages: 469))
        #expect(!StatementTimer.needsSteadyPass(lookups: 468, misses: 468, cachePages: 469))
        #expect(!StatementTimer.needsSteadyPass(lookups: 5_000, misses: 4_690, cachePages: 469))
        #expect(!StatementTimer.needsSteadyPass(lookups: 5_000, misses: 400, cachePages: nil))
    }

    /// A full scan of some 150 pages with the page cache at 100: least recently used first, every page is
    /// gone when the next pass needs it, so each pass misses all of them (by hand in the sqlite3 shell:
    /// `.stats on`, "Page cache misses" the same on every run); with the cache at 2,000, none.
    @Test("the counters of a read whose working set is just over the page cache price the misses of every pass")
    func thrashingWorkingSet() throws {
        let store = try FixtureStore("""
            CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, title TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO item SELECT i, i % 500, 'title ' || i FROM n;
            """)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let sql = "SELECT count(*) FROM item WHERE title LIKE '%9'"
        var timer = StatementTimer(connection: connection)
        timer.costSource = .sqliteCounters
        try connection.execute("PRAGMA cache_size = 100")
        let thrashing = try timer.time(sql, samples: [], isWrite: false)
        // The misses of one more pass, after a pass: what every pass misses.
        _ = try connection.query(sql)
        _ = connection.pageLookups(reset: true)
        _ = try connection.query(sql)
        let steadyMisses = connection.pageCacheMisses()
        #expect(steadyMisses > 100)  // more than the cache holds: all of the scan's pages
        let uncached = try #require(thrashing.uncachedPagesPerExecution)
        #expect(uncached == StatementTimer.uncachedPages(misses: steadyMisses, cachePages: 100, executions: 1, steady: true))
        #expect(uncached > Double(steadyMisses - 100))  // not only the pages beyond the cache's capacity
        try connection.execute("PRAGMA cache_size = 2000")
        let fitting = try timer.time(sql, samples: [], isWrite: false)
        #expect(fitting.uncachedPagesPerExecution == 0)
        #expect(fitting.vmStepsPerExecution == thrashing.vmStepsPerExecution)
        #expect(thrashing.medianSeconds > fitting.medianSeconds + 100 * CounterCost.nanosecondsPerUncachedPage / 1e9 * 0.99)
    }

    @Test("the prices add 1,000 ns a page read from outside the cache")
    func priced() {
        let counters = WorkCounters(vmSteps: 1_000, pageLookups: 100, uncachedPages: 40)
        #expect(abs(CounterCost.seconds(counters) - (1_000 * 50 + 100 * 250 + 40 * 1_000) / 1e9) < 1e-15)
    }
}
