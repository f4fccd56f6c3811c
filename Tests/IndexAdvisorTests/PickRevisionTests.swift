import Testing
import Foundation
@testable import IndexAdvisor

/// A pick revisited once later picks took some of its statements (issue 15: a search that generalizes).
@Suite("Picks revised for the statements left to them")
struct PickRevisionTests {
    // Regression (generalization suite, tickets): `(queue_id, state, created)` was picked first because it also
    // served a count by queue; `(queue_id, created)` took the count next, and for the queue pages alone the
    // partial `(queue_id, created) WHERE state = 'open'` does less work (closing a ticket does not rewrite
    // it), which the search's optimum had. Shape of my own: an issue tracker, triaged issues by date. (Since the
    // one selector, a replacement is a move like any other and must save the minimum at the counters' resolution:
    // the writes here are more frequent than when this test was written, so that the partial index's upkeep
    // saving clears it.)
    static let schema = """
        CREATE TABLE issue (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, status TEXT NOT NULL, assignee INTEGER,
                            severity INTEGER NOT NULL, opened REAL NOT NULL, title TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9000)
        INSERT INTO issue SELECT i,
            CASE WHEN (i * 16807) % 2147483647 % 100 < 45 THEN 1 WHEN (i * 16807) % 2147483647 % 100 < 60 THEN 2 ELSE 3 + i % 28 END,
            CASE WHEN (i * 48271) % 2147483647 % 100 < 85 THEN 'resolved' WHEN (i * 48271) % 2147483647 % 100 < 95 THEN 'triage' ELSE 'blocked' END,
            CASE WHEN i % 10 = 0 THEN NULL ELSE 1 + (i * 13) % 200 END, i % 4, 700000000 + i * 45.0, 'issue title words ' || i
        FROM n;
        CREATE INDEX issue_project ON issue(project_id);
        CREATE INDEX issue_status ON issue(status);
        """
    static let workload = """
        -- freq: 250
        SELECT id, title, opened FROM issue WHERE project_id = 1 AND status = 'triage' ORDER BY opened LIMIT 30;
        -- freq: 80
        SELECT * FROM issue WHERE assignee = 42 AND status <> 'resolved';
        -- freq: 70
        SELECT count(*) FROM issue WHERE project_id = 2 AND opened > 700360000;
        -- freq: 450
        INSERT INTO issue(project_id, status, assignee, severity, opened, title) VALUES (1, 'triage', NULL, 1, 700500000.0, 'crash on launch');
        -- freq: 3500
        UPDATE issue SET status = 'resolved', assignee = 42 WHERE id = 4500;
        """

    @Test("a pick whose other statement a later pick took gives way to the partial index that does less work on the ones left")
    func partialTakesOverThePages() throws {
        let store = try FixtureStore(Self.schema)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql),
                                         options: quickOptions())
        expectTrueReport(result)
        let keys = result.recommendations.map { "(\($0.columns.map(\.name).joined(separator: ", ")))" + ($0.partialPredicate.map { " WHERE " + $0 } ?? "") }
        #expect(keys.contains("(project_id, opened) WHERE \"status\" = 'triage'"), "\(keys)")
        #expect(keys.contains("(project_id, opened)"), "\(keys)")
        #expect(!keys.contains("(project_id, status, opened)"), "\(keys)")
        let revised = try #require(result.rejectedCandidates.first { $0.columns == ["project_id", "status", "opened"] })
        #expect(revised.rejection.kind == "revised-for-statements-left")
        // Built last, listed last: among indexes the planner rates equal it takes the one created last, so the
        // migration's order is the order the final plans were taken in.
        #expect(keys.firstIndex(of: "(project_id, opened)")! < keys.firstIndex(of: "(project_id, opened) WHERE \"status\" = 'triage'")!)
        let pages = try #require(result.statements.first)
        #expect(pages.planAfter?.indexesUsed == [result.recommendations.first { $0.partialPredicate == "\"status\" = 'triage'" }!.name])
        // The assignee's read excludes the status 85 % of rows hold: a partial index WHERE status != 'resolved'
        // (issue 38's sentinel kind) serves it.
        #expect(keys.contains("(assignee) WHERE \"status\" != 'resolved'"), "\(keys)")
        // No recommended index is also listed as rejected.
        let recommended = Set(result.recommendations.map { $0.sql.replacingOccurrences(of: " IF NOT EXISTS", with: "") })
        #expect(!result.rejectedCandidates.contains { recommended.contains($0.sql) })
    }
}
