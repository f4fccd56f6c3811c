import Testing
import Foundation
import CSQLite
@testable import IndexAdvisor

/// A statement that finished within `--statement-timeout` once is slow, not a runaway: a later run that a busy
/// moment pushes past the deadline must not drop a hot statement from the analysis (a new user's 6.7 s join
/// was the workload's 99 % in one run and left out of the next, with other advice).
@Suite("A run cut off by the deadline after a finished warm-up")
struct DeadlineRunTests {
    /// `pause()` sleeps 20 ms on its first call and 400 ms on every later one: the warm-up finishes within a
    /// 200 ms deadline, every run after it does not (the deadline is checked between VM steps, so the
    /// statement counts on after the pause, ``sql``).
    static func slowingConnection() throws -> (SQLiteConnection, UnsafeMutablePointer<Int>) {
        let connection = try SQLiteConnection.inMemory()
        let calls = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        calls.pointee = 0
        let rc = sqlite3_create_function_v2(connection.handle, "pause", 0, SQLITE_UTF8, calls, { context, _, _ in
            let calls = sqlite3_user_data(context)!.assumingMemoryBound(to: Int.self)
            usleep(calls.pointee == 0 ? 20_000 : 400_000)
            calls.pointee += 1
            sqlite3_result_int(context, 1)
        }, nil, nil, nil)
        #expect(rc == SQLITE_OK)
        return (connection, calls)
    }

    static let sql = "WITH RECURSIVE n(i) AS (SELECT pause() UNION ALL SELECT i + 1 FROM n WHERE i < 20000) SELECT count(*) FROM n"

    @Test("the warm-up becomes the timing when every later run is cut off")
    func warmUpKept() throws {
        let (connection, calls) = try Self.slowingConnection()
        defer { calls.deallocate() }
        var timer = StatementTimer(connection: connection)
        timer.repeats = 3
        timer.minimumRunSeconds = 0
        timer.statementTimeout = 0.2
        let timing = try timer.time(Self.sql, samples: [], isWrite: false)
        #expect(timing.runs == 1)
        #expect(timing.medianSeconds >= 0.02 && timing.medianSeconds < 0.2)
        #expect(timing.rowsPerExecution == 1)
        #expect(calls.pointee == 2)  // the warm-up, then the first run, interrupted
    }

    @Test("a statement past the deadline on its first execution is still a timeout")
    func runawayStillTimesOut() throws {
        let (connection, calls) = try Self.slowingConnection()
        defer { calls.deallocate() }
        calls.pointee = 1  // every call is slow
        var timer = StatementTimer(connection: connection)
        timer.statementTimeout = 0.2
        #expect(throws: MeasurementError.self) { try timer.time(Self.sql, samples: [], isWrite: false) }
    }
}

@Suite("A statement past the deadline on its first execution, in the headline")
struct UntimedHeadlineTests {
    // Regression (a breaking helper): 10 executions past a 0.2 s --statement-timeout, 2 s of the workload at the
    // least, were in no total and the headline read "Workload time 835 µs", "nothing skipped".
    @Test("the headline names the statement that was not timed, its least share of the workload, and that the totals leave it out")
    func headlineSaysSo() throws {
        let store = try FixtureStore("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT i, i % 50 FROM n;
            """)
        var options = quickOptions()
        options.statementTimeout = 0.2
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("""
            -- freq: 10
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c;
            -- freq: 100
            SELECT id FROM t WHERE a = 7;
            """, file: "w.sql", format: .sql), options: options)
        #expect(result.statements[0].error?.contains("--statement-timeout") == true)
        // The summary's workload line, under the headline (issue 42: the summary became short lines).
        let headline = try #require(checkedRender(result, .markdown).split(separator: "\n").first { $0.hasPrefix("- Workload: ") })
        #expect(headline.contains("nothing skipped; S1 not timed: past --statement-timeout (200.0 ms an execution, at least 2.00 s of the workload), not in these totals"))
        // Its share of the time is not 0 % (a breaking helper's report): it has no time to share.
        let markdown = checkedRender(result, .markdown)
        #expect(markdown.contains("| S1 | select | 10 | not timed | — |"))
        #expect(markdown.contains("### S1 · select ×10 · not timed of the time") == false)
        #expect(markdown.contains("### S1 · select ×10 · not timed"))
        #expect(checkedRender(result, .html).contains("not timed"))
    }
}
