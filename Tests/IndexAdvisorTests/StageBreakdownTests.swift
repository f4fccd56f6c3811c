import Testing
import Foundation
@testable import IndexAdvisor

/// Where the time goes (issue 18): the per-stage breakdown kept in the method section.
@Suite("Per-stage breakdown")
struct StageBreakdownTests {
    @Test("every stage the analysis went through is listed in order, their sum is the analysis time, and builds and timings are counted")
    func stages() throws {
        let store = try FixtureStore("""
            CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i, i % 500, 'x' || i FROM n;
            """)
        let workload = WorkloadLoader.parse("SELECT b FROM t WHERE a = 7;\nINSERT INTO t(a, b) VALUES (1, 'y');\n", file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        let stages = try #require(result.method.stageSeconds)
        let names = stages.filter { !$0.isActivity }.map(\.stage)
        #expect(names == ["snapshot", "sampling", "baseline", "candidates", "measuring candidates", "selection", "final timings",
                          "existing indexes", "statistics", "query advice", "result"])
        #expect(stages.filter(\.isActivity).map(\.stage) == ["candidate index builds", "timing reads", "timing writes"])
        let sum = stages.filter { !$0.isActivity }.reduce(0) { $0 + $1.seconds }
        // The stages cover the analysis from its first report to the result: the same wall-clock span.
        #expect(abs(sum - result.tool.analysisSeconds) <= 0.1 * result.tool.analysisSeconds + 0.05)
        #expect(stages.allSatisfy { $0.seconds >= 0 })
        #expect(try #require(stages.first { $0.stage == "candidate index builds" }).seconds > 0)  // (a) was built
        #expect(try #require(stages.first { $0.stage == "timing writes" }).seconds > 0)
    }

    // Issue 18: each pick used to rebuild every other candidate of its table, since one more index made the
    // table's INSERT dearer; and a candidate whose plan the pick did not change was rebuilt to time the same plan.
    @Test("after a pick, no candidate is built again to measure a plan or a write cost that did not change")
    func noRebuildForUnchangedPlans() throws {
        let store = try FixtureStore("""
            CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO t SELECT i, i % 500, 'k' || (i % 700), i * 0.5 FROM n;
            """)
        let workload = WorkloadLoader.parse("""
            -- freq: 50
            SELECT c FROM t WHERE a = 7;
            -- freq: 50
            SELECT c FROM t WHERE b = 'k3';
            -- freq: 5
            INSERT INTO t(a, b, c) VALUES (1, 'y', 2.0);
            """, file: "w.sql", format: .sql)
        var measuredStage = 0
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions()) { progress in
            if progress.stage == "measuring candidates" { measuredStage = max(measuredStage, progress.total) }
        }
        let builds = try #require(result.method.stageSeconds?.first { $0.stage == "candidate index builds" }?.count)
        #expect(result.recommendations.count == 2)
        #expect(Set(result.recommendations.map { $0.columns.first?.name }) == ["a", "b"])
        #expect(measuredStage >= 2)
        // Each candidate once, then each pick once more to keep it: nothing rebuilt in between.
        #expect(builds == measuredStage + result.recommendations.count)
    }
}
