import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 42, item 3: on a busy machine an execution the scheduler preempts takes another process's time
/// slice too (a 30 µs INSERT, 3 ms). The timer runs such an execution again. These tests feed the timer a
/// made-up switch count, so they decide on counts, never on time.
@Suite("A preempted execution is timed again")
struct PreemptedExecutionTests {
    /// A switch counter that reports a preemption on chosen attempts: `preempted(attempt)` says whether the
    /// attempt (0 for an execution's first) is preempted. Read twice per attempt: before and after it.
    final class FakeSwitches: @unchecked Sendable {
        private let lock = NSLock()
        private var calls = 0
        private var switches = 0
        private var attempt = 0
        private let preempted: (Int) -> Bool

        init(preempted: @escaping (Int) -> Bool) { self.preempted = preempted }

        func read() -> Int {
            lock.lock(); defer { lock.unlock() }
            calls += 1
            if calls % 2 == 0 {
                // After the attempt: a switch when this attempt is preempted; the next read starts the next
                // attempt of the same execution (a retry) when it was, else a new execution.
                if preempted(attempt) { switches += 1; attempt += 1 } else { attempt = 0 }
            }
            return switches
        }
    }

    /// A switch count that grows by one on every read.
    final class FakeCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int {
            lock.lock(); defer { lock.unlock() }
            count += 1
            return count
        }
    }

    static let storeSQL = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, title TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
        INSERT INTO item SELECT i, i % 20, 'title ' || i FROM n;
        CREATE INDEX item_owner ON item(owner);
        """

    func timer(_ snapshot: StoreSnapshot, probe: (@Sendable () -> Int)?) -> StatementTimer {
        var timer = StatementTimer(connection: snapshot.connection)
        timer.repeats = 3
        timer.minimumRunSeconds = 0  // one pass per run
        timer.agreement = 0  // every run taken
        timer.preemptionProbe = probe
        return timer
    }

    @Test("each execution preempted once is run twice and counted once: same rows and counters as without retries")
    func retriedOnce() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        let samples: [[SQLValue]] = [[.integer(3), .text("a")], [.integer(4), .text("b")], [.integer(5), .text("c")]]
        let sql = "INSERT INTO item(owner, title) VALUES (?, ?)"
        let plain = try timer(snapshot, probe: nil).time(sql, samples: samples, isWrite: true)
        let fake = FakeSwitches { $0 == 0 }
        let retried = try timer(snapshot, probe: { fake.read() }).time(sql, samples: samples, isWrite: true)
        #expect(plain.preemptedRetries == nil)
        // The warm-up pass and 3 runs of one pass, 3 executions each: every one retried once.
        #expect(retried.runs == 3 && retried.executionsPerRun == 3)
        #expect(retried.preemptedRetries == 4 * 3)
        #expect(retried.rowsPerExecution == 1 && plain.rowsPerExecution == 1)
        #expect(retried.vmStepsPerExecution == plain.vmStepsPerExecution)
        #expect(retried.pageLookupsPerExecution == plain.pageLookupsPerExecution)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM item") == .integer(500))
    }

    @Test("an execution preempted on every attempt is retried twice, then its last attempt counts")
    func retriesBounded() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        // A count that moves on every read: every attempt looks preempted.
        let switches = FakeCount()
        let timing = try timer(snapshot, probe: { switches.next() })
            .time("SELECT title FROM item WHERE owner = ?", samples: [[.integer(7)], [.integer(8)]], isWrite: false)
        #expect(timing.runs == 3)
        #expect(timing.preemptedRetries == 4 * 2 * StatementTimer.preemptionRetries)
        #expect(timing.rowsPerExecution == 25)
    }

    @Test("on SQLite's counters nothing is retried: the counters do not see the scheduler")
    func countersNeverRetry() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        let switches = FakeCount()
        var counting = timer(snapshot, probe: { switches.next() })
        counting.costSource = .sqliteCounters
        let timing = try counting.time("SELECT title FROM item WHERE owner = ?", samples: [[.integer(7)]], isWrite: false)
        #expect(timing.preemptedRetries == nil)
        #expect(timing.costSource == .sqliteCounters)
    }

    @Test("the thread's involuntary switch count is read and never goes down")
    func switchCountReads() {
        let first = Preemption.involuntarySwitches()
        let second = Preemption.involuntarySwitches()
        #expect(first >= 0 && second >= first)
    }
}
