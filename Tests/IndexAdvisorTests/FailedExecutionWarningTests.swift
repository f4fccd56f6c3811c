import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 5, F5: a write some of whose executions fail on the snapshot was timed as if it ran, the
/// count of failures in the JSON only.
@Suite("A write whose executions fail on the snapshot says so")
struct FailedExecutionWarningTests {
    @Test("an UPDATE that a CHECK constraint refuses for one of its value sets: a warning beside it, with the count")
    func failedExecutionsAreNamed() throws {
        let store = try FixtureStore("""
            CREATE TABLE bin(id INTEGER PRIMARY KEY, label TEXT, qty INTEGER NOT NULL CHECK (qty >= 0));
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO bin SELECT i, 'b' || i, i % 10 FROM n;
            """)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("""
            -- freq: 40
            UPDATE bin SET qty = qty - 5 WHERE id = 12;
            -- freq: 40
            UPDATE bin SET qty = qty - 5 WHERE id = 19;
            -- freq: 10
            SELECT label FROM bin WHERE id = 3;
            """, file: "w.sql", format: .sql), options: quickOptions())
        let write = try #require(result.statements.first { $0.sql.hasPrefix("UPDATE bin") })
        #expect(write.error == nil)
        let failures = try #require(write.timingBefore?.failures)
        #expect(failures > 0)
        let text = result.warnings.map(\.text)
        #expect(text.contains { $0.hasPrefix("S1 (UPDATE bin SET qty = qty - 5 WHERE id = 12) failed in \(Figures.counted(failures, "execution")) on the snapshot") }, "\(text)")
        #expect(!text.contains { $0.hasPrefix("S2 ") && $0.contains("failed in") })
        expectTrueReport(result)
    }
}
