import Testing
import Foundation
@testable import IndexAdvisor

/// A bound on the whole analysis (issue 18, item 3).
@Suite("The time budget")
struct TimeBudgetTests {
    static let schema = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i, i % 500, 'x' || i FROM n;
        """
    static let workload = WorkloadLoader.parse("-- freq: 100\nSELECT b FROM t WHERE a = 7;\n", file: "w.sql", format: .sql)

    @Test("a spent budget builds no candidate, says what was left out, and still times and reports every statement")
    func spent() throws {
        let store = try FixtureStore(Self.schema)
        var options = quickOptions()
        options.timeBudgetSeconds = 0
        let result = try Advisor.analyze(storeAt: store.url, workload: Self.workload, options: options)
        #expect(result.recommendations.isEmpty)
        #expect(result.rejectedCandidates.contains { $0.reason.hasPrefix("not measured: the time budget (--time-budget 0 s)") })
        #expect(result.warnings.contains { $0.text.hasPrefix("the time budget (--time-budget 0 s) ran out: ") })
        #expect(result.warnings.contains { if case .timeBudgetRanOut(0, let left) = $0 { left > 0 } else { false } })
        #expect(result.statements.allSatisfy { $0.timingAfter != nil })
        #expect(result.statements[0].notes.map(\.text).contains { $0.contains("--time-budget 0 s") })
        // What ANALYZE would change times the whole workload again: past the budget it is left out, and said so.
        #expect(result.warnings.map(\.text).contains("what ANALYZE would change was not measured: the time budget (--time-budget 0 s) had run out"))
        #expect(result.warnings.contains(.statisticsNotMeasured(budgetSeconds: 0)))
        #expect(!result.queryAdvice.contains { $0.kind == .statistics })
        // With the default budget the same store gets its index.
        let unbounded = try Advisor.analyze(storeAt: store.url, workload: Self.workload, options: quickOptions())
        #expect(unbounded.recommendations.first?.columns.first?.name == "a")
        #expect(!unbounded.warnings.contains { $0.text.contains("--time-budget") })
    }
}
