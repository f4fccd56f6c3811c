import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F9: a write's plan follows at most ``WriteProgram/maximumParts`` trigger and foreign-key
/// programs; those past the bound were dropped without a word, so a scan in the 1,001st trigger (SQLite codes
/// the first created last) passed `check`. The plan now ends with a step saying so, and `check` fails the
/// write as one it could not check.
@Suite("A write with more programs than are planned cannot pass check")
struct UnplannedProgramsTests {
    static var schema: String {
        var sql = """
            CREATE TABLE gauge (id INTEGER PRIMARY KEY, level INTEGER);
            INSERT INTO gauge VALUES (1, 0), (2, 0);
            CREATE TABLE mark (id INTEGER PRIMARY KEY, hits INTEGER);
            INSERT INTO mark VALUES (1, 0);
            CREATE TABLE journal (id INTEGER PRIMARY KEY, tag TEXT, hits INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
            INSERT INTO journal SELECT i, 'g' || (i % 300), 0 FROM n;
            CREATE TRIGGER a_journal AFTER UPDATE ON gauge BEGIN UPDATE journal SET hits = hits + 1 WHERE tag = 'g' || new.level; END;

            """
        for n in 0..<WriteProgram.maximumParts {
            sql += "CREATE TRIGGER b\(n) AFTER UPDATE ON gauge BEGIN UPDATE mark SET hits = hits + 1 WHERE id = 1; END;\n"
        }
        return sql
    }

    @Test("the plan ends with the step that says so, and check fails the write as not checkable")
    func cutProgramFails() throws {
        let store = try FixtureStore(Self.schema)
        let workload = WorkloadLoader.parse("""
            -- freq: 20
            UPDATE gauge SET level = 7 WHERE id = 1;
            -- freq: 20
            SELECT level FROM gauge WHERE id = 2;
            """, file: "gauges.sql", format: .sql)
        let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        let update = try #require(result.statements.first { $0.kind == .update })
        let steps = try #require(update.planBefore?.steps.map(\.detail))
        #expect(steps.last == QueryPlanner.unplannedProgramsStep)
        #expect(steps.filter { $0.hasPrefix("TRIGGER ") }.count == WriteProgram.maximumParts)
        let failures = CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        #expect(failures.map(\.kind).contains(.statementFailed))
        #expect(failures.contains { $0.message.hasPrefix("S1 cannot be checked: it sets off more than 1,000 trigger and foreign-key programs") }, "\(failures.map(\.message))")
    }
}
