import Foundation
import Testing
import IndexAdvisor
@testable import IndexAdvisorBenchKit

/// The benchmark held to answers known in advance: if it cannot find these, its optimum is not one.
@Suite("The benchmark's optimum and scorer")
struct OptimumSearchTests {
    let evaluation = PairEvaluation(settings: BenchPairFixtures.settings)

    @Test("on an insert-heavy log with one rare read, the optimum is no change")
    func noChangeIsTheOptimum() throws {
        let directory = try BenchPairFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try BenchPairFixtures.pair("insert-heavy", schema: BenchPairFixtures.insertHeavy.schema,
                                              workload: BenchPairFixtures.insertHeavy.workload, in: directory)
        // An advisor that indexes the rare read.
        let outcome = try evaluation.evaluate(pair, advisor: { _, _ in ChangeSet(creates: [#"CREATE INDEX "stub_kind" ON "log" ("kind")"#]) },
                                              expert: ChangeSet(creates: ["CREATE INDEX log_idx_kind ON log(kind)"]), directory: directory)
        #expect(outcome.scored[outcome.optimum].label == "no change")
        #expect(outcome.scored[outcome.optimum].changes.isEmpty)
        #expect(outcome.oursOverOptimum > 1)
        // The count's (kind) is the only candidate: .expert's is the same key, and an INSERT filters on nothing.
        #expect(outcome.search.candidates == 1)
    }

    @Test("on a read-only lookup, the optimum is .expert's single-column index")
    func expertSetIsTheOptimum() throws {
        let directory = try BenchPairFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try BenchPairFixtures.pair("single-lookup", schema: BenchPairFixtures.singleLookup.schema,
                                              workload: BenchPairFixtures.singleLookup.workload, in: directory)
        let expert = ChangeSet(creates: ["CREATE INDEX item_idx_code ON item(code)"])
        let outcome = try evaluation.evaluate(pair, advisor: { _, _ in .none }, expert: expert, directory: directory)
        #expect(outcome.scored[outcome.optimum].changes.keys == ["item(code)"])
        #expect(outcome.expert.map { outcome.scored[$0].changes.keys } == ["item(code)"])
        // No change scans 20,000 rows for every count: far above the optimum.
        #expect(outcome.scored[outcome.noChange].median > 10 * outcome.scored[outcome.optimum].median)
    }

    @Test("when a rare flag is read and inserts never set it, the optimum holds a partial index")
    func partialKeyIsTheOptimum() throws {
        let directory = try BenchPairFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try BenchPairFixtures.pair("rare-flag", schema: BenchPairFixtures.rareFlag.schema,
                                              workload: BenchPairFixtures.rareFlag.workload, in: directory)
        let outcome = try evaluation.evaluate(pair, advisor: { _, _ in ChangeSet(creates: [#"CREATE INDEX "full" ON "doc" ("pending", "modified")"#]) },
                                              expert: nil, directory: directory)
        let optimum = outcome.scored[outcome.optimum]
        #expect(optimum.changes.creates.count == 1)
        #expect(optimum.changes.creates.allSatisfy(ChangeSet.isPartial))
        #expect(optimum.changes.keys.first?.contains("WHERE") == true)
        #expect(optimum.hotScans.isEmpty)
        // The full index reads as fast but every insert writes it.
        #expect(outcome.oursOverOptimum > 1)
    }

    @Test("a sort newest first with ties by id is served by a descending key")
    func descendingKeyIsTheOptimum() throws {
        let directory = try BenchPairFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try BenchPairFixtures.pair("newest-first", schema: BenchPairFixtures.newestFirst.schema,
                                              workload: BenchPairFixtures.newestFirst.workload, in: directory)
        let outcome = try evaluation.evaluate(pair, advisor: { _, _ in ChangeSet(creates: [#"CREATE INDEX "asc" ON "event" ("venue", "ts")"#]) },
                                              expert: nil, directory: directory)
        let optimum = outcome.scored[outcome.optimum]
        #expect(optimum.changes.keys.count == 1)
        #expect(optimum.changes.keys.first?.contains("ts DESC") == true)
        #expect(optimum.tempSorts == 0)
        // The ascending key needs a sort of the venue's rows for the id part of the order.
        #expect(outcome.scored[outcome.ours].tempSorts == 1)
        #expect(outcome.oursOverOptimum > 1.2)
    }

    @Test("an advisor that returns a useless index scores above 1.2 × the optimum")
    func poorAdvisorScoresHigh() throws {
        let directory = try BenchPairFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try BenchPairFixtures.pair("single-lookup", schema: BenchPairFixtures.singleLookup.schema,
                                              workload: BenchPairFixtures.singleLookup.workload, in: directory)
        let outcome = try evaluation.evaluate(pair, advisor: { _, _ in ChangeSet(creates: [#"CREATE INDEX "poor" ON "item" ("price")"#]) },
                                              expert: nil, directory: directory)
        #expect(outcome.oursOverOptimum > 1.2)
        #expect(outcome.scored[outcome.optimum].changes.keys.count == 1)
        // Measured twice on the counters, the same set costs the same.
        #expect(outcome.noiseFloor == 0)
    }

    @Test("a configuration whose plan reads a table per outer row is stopped at the cap, marked, and never the optimum")
    func cappedConfigurationIsALowerBound() throws {
        let directory = try BenchPairFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try BenchPairFixtures.pair("quadratic-exists", schema: BenchPairFixtures.quadraticExists.schema,
                                              workload: BenchPairFixtures.quadraticExists.workload, in: directory)
        var settings = BenchPairFixtures.settings
        settings.search.executionCap = 0.2
        settings.scorer.executionCap = 0.2
        let outcome = try PairEvaluation(settings: settings).evaluate(
            pair, advisor: { _, _ in ChangeSet(creates: [#"CREATE INDEX "by_book" ON "loan" ("book_id", "member_id")"#]) },
            expert: nil, directory: directory)
        let noChange = outcome.scored[outcome.noChange]
        #expect(noChange.capped == [0])
        #expect(outcome.scored[outcome.ours].capped.isEmpty)
        #expect(outcome.optimum != outcome.noChange)
        #expect(outcome.scored[outcome.optimum].capped.isEmpty)
        // Ours ÷ a lower bound is an upper bound.
        #expect(outcome.bound(outcome.ours, over: outcome.noChange) == "≤ ")
        #expect(outcome.bound(outcome.ours, over: outcome.optimum) == "")
        #expect(outcome.search.capped == [pair.statements[0].sql])
    }
}

@Suite("The benchmark's execution cap")
struct ExecutionCapTests {
    /// 20,000 rows, and statements that compare every row with every other (400 million pairs: minutes).
    func connection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER NOT NULL);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000) INSERT INTO t SELECT i, i % 977 FROM c;
            """)
        return connection
    }

    @Test("a read past the cap costs the cap and is named; the next statement runs")
    func readStopsAtTheCap() throws {
        let connection = try connection()
        let timer = ExecutionTimer(connection: connection, measure: .wallClock(runs: 3), cap: 0.05)
        let slow = "SELECT count(*) FROM t a, t b WHERE a.x + b.x = -1"
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(try timer.cost(slow, values: [], isWrite: false) == 0.05)
        // Warmed up once and stopped: not repeated for the timed runs.
        #expect(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < 2)
        #expect(timer.capped == [slow])
        let fast = try timer.cost("SELECT x FROM t WHERE id = ?1", values: [.integer(5)], isWrite: false)
        #expect(fast < 0.05)
        #expect(timer.capped == [slow])
        #expect(connection.statementDeadline == nil)
    }

    @Test("a rolled-back write past the cap changes nothing and leaves no transaction open")
    func writeStopsAtTheCap() throws {
        let connection = try connection()
        let timer = ExecutionTimer(connection: connection, measure: .wallClock(runs: 1), cap: 0.05)
        let slow = "UPDATE t SET x = x + 1 WHERE (SELECT count(*) FROM t b WHERE b.x = t.x + 5000) = 0"
        #expect(try timer.cost(slow, values: [], isWrite: true) == 0.05)
        #expect(connection.isAutocommit)
        #expect(try connection.scalar("SELECT sum(x) = sum(id % 977) FROM t")?.integerValue == 1)
        // Committed, the same: SQLite undoes the interrupted statement.
        #expect(try timer.cost(slow, values: [], isWrite: true, commits: true) == 0.05)
        #expect(connection.isAutocommit)
        #expect(try connection.scalar("SELECT sum(x) = sum(id % 977) FROM t")?.integerValue == 1)
    }
}
