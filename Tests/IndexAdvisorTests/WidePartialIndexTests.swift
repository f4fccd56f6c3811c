import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F3: a walk of a partial index is not a problem because it reads only the rows its WHERE
/// admits; when that WHERE admits nearly every row (a soft-delete column NULL on all of them), the walk reads
/// the table, and `check` passed it. A partial index that holds more than half its table is judged as any
/// other index's full walk.
@Suite("A partial index that holds most of its table is walked like any other")
struct WidePartialIndexTests {
    static func failures(liveEvery: Int) throws -> [CheckProblem] {
        let store = try FixtureStore("""
            CREATE TABLE message (id INTEGER PRIMARY KEY, folder INTEGER, sent INTEGER, deleted_at INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
            INSERT INTO message SELECT i, i % 40, 100000 + i, CASE WHEN i % \(liveEvery) = 0 THEN NULL ELSE 5 END FROM n;
            CREATE INDEX message_live_sent ON message(sent) WHERE deleted_at IS NULL;
            """)
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT id FROM message WHERE deleted_at IS NULL AND folder = 7 ORDER BY sent;
            -- freq: 100
            SELECT sent FROM message WHERE id = 12;
            """, file: "mail.sql", format: .sql)
        let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        let plan = result.statements.first?.planBefore?.steps.map(\.detail)
        #expect(plan == ["SCAN message USING INDEX message_live_sent"])
        return CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
    }

    @Test("every row live: the walk of the 6,000 entries fails; one row in 25 live: it reads its 240 and passes")
    func wideFailsNarrowPasses() throws {
        let wide = try Self.failures(liveEvery: 1)
        #expect(wide.map(\.kind) == [.fullTableScan])
        #expect(wide.first?.message.contains("full scan of message through every entry of message_live_sent") == true, "\(wide.map(\.message))")
        #expect(try Self.failures(liveEvery: 25).isEmpty)
    }
}
