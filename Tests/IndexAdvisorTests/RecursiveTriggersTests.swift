import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F17: SQLite fires the DELETE triggers of the rows a REPLACE deletes only with recursive
/// triggers on (lang_conflict.html). A workload that turns them on (`PRAGMA recursive_triggers = ON`) had its
/// REPLACE planned and timed with them off: no trigger, no scan, 5 µs, and `check` passed it. The snapshot and
/// the what-if clone now follow the workload's pragma, as they do `foreign_keys`, and the method says so.
@Suite("The workload's PRAGMA recursive_triggers is the snapshot's")
struct RecursiveTriggersTests {
    static let schema = """
        CREATE TABLE setting (name TEXT PRIMARY KEY, value INTEGER);
        INSERT INTO setting VALUES ('theme', 1), ('font', 2);
        CREATE TABLE history (id INTEGER PRIMARY KEY, name TEXT, seen INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO history SELECT i, 'k' || (i % 700), 0 FROM n;
        CREATE TRIGGER setting_replaced AFTER DELETE ON setting BEGIN
          UPDATE history SET seen = seen + 1 WHERE name = old.name;
        END;
        """

    static func result(pragma: String?) throws -> AnalysisResult {
        let store = try FixtureStore(schema)
        let workload = WorkloadLoader.parse((pragma.map { $0 + ";\n" } ?? "") + """
            -- freq: 100
            INSERT OR REPLACE INTO setting VALUES ('theme', 5);
            -- freq: 100
            SELECT value FROM setting WHERE name = 'font';
            """, file: "settings.sql", format: .sql)
        return try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
    }

    @Test("with the pragma on, the REPLACE's plan holds the DELETE trigger's scan and check fails it; off, neither")
    func replaceFiresDeleteTrigger() throws {
        let on = try Self.result(pragma: "PRAGMA recursive_triggers = ON")
        let replace = try #require(on.statements.first { $0.kind == .insert })
        let steps = replace.planBefore?.steps.map(\.detail) ?? []
        #expect(steps.contains("TRIGGER setting_replaced"), "\(steps)")
        #expect(steps.contains("SCAN history"), "\(steps)")
        #expect(on.method.recursiveTriggers == true)
        let markdown = MarkdownReport.render(on)
        #expect(markdown.contains("with recursive triggers on as the workload's PRAGMA recursive\\_triggers sets them"), "\(markdown.split(separator: "\n").filter { $0.contains("snapshot") })")
        let failures = CheckEvaluator.evaluate(on, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        #expect(failures.contains { $0.kind == .fullTableScan && $0.message.contains("full table scan of history") }, "\(failures.map(\.message))")

        let off = try Self.result(pragma: nil)
        let plain = try #require(off.statements.first { $0.kind == .insert })
        let plainSteps = plain.planBefore?.steps.map(\.detail) ?? []
        #expect(!plainSteps.contains("SCAN history"), "\(plainSteps)")
        #expect(off.method.recursiveTriggers == nil)
    }
}
