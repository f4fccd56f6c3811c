import Testing
import Foundation
@testable import IndexAdvisor

/// A statement that already searches an index can still be slow; its cost, not the word SCAN, decides
/// whether it gets candidates.
@Suite("Slow index searches get candidates")
struct SlowSearchTests {
    func analyze(_ schema: String, _ workload: String) throws -> AnalysisResult {
        let store = try FixtureStore(schema)
        return try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "w.sql", format: .sql),
                                   options: quickOptions())
    }

    // Regression (shared repro slow-search): the COUNT searched (thread=? AND id<?) and then checked tens
    // of thousands of rows for `kind`; the report said "no index to add" and listed no candidate at all.
    @Test("a COUNT that searches (thread, id) and checks kind row by row gets (thread, kind …), over 10× faster; (thread, kind, id) is a candidate")
    func threadKindRowid() throws {
        let result = try analyze("""
            CREATE TABLE msg(id INTEGER PRIMARY KEY, thread TEXT NOT NULL, kind INT NOT NULL, sub INT, body TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200000)
            INSERT INTO msg SELECT i, CASE WHEN i % 4 = 0 THEN 't1' ELSE 't' || (2 + i % 1999) END, (i * 7) % 10, i % 3, 'm' || i FROM n;
            CREATE INDEX msg_thread_id ON msg(thread, id);
            """, """
            -- freq: 100
            SELECT COUNT(*) FROM msg WHERE thread = 't1' AND kind = 2 AND id <= 150000;
            -- freq: 20
            INSERT INTO msg(thread, kind, sub, body) VALUES ('t1', 3, 0, 'hello');
            """)
        let count = try #require(result.statements.first)
        #expect(count.planBefore?.findings.map(\.kind) == [.indexSearch])
        let top = try #require(result.recommendations.first)
        #expect(Array(top.columns.map(\.name).prefix(2)) == ["thread", "kind"])
        // The rowid ends a compound key too: (thread, kind, id) was generated and measured.
        let all = result.recommendations.map { $0.sql } + result.rejectedCandidates.map(\.sql)
        #expect(all.contains { $0.hasSuffix("ON \"msg\" (\"thread\", \"kind\", \"id\")") }, "\(all)")
        let before = try #require(count.timingBefore), after = try #require(count.timingAfter)
        #expect(after.medianSeconds * 10 < before.medianSeconds)
    }

    @Test("a list that searches an existing one-column index and filters most of its rows away gets an index on both filters")
    func searchThenFilter() throws {
        let result = try analyze("""
            CREATE TABLE ticket(id INTEGER PRIMARY KEY, project INTEGER NOT NULL, state TEXT NOT NULL, assignee INTEGER, title TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 120000)
            INSERT INTO ticket SELECT i, i % 12, CASE WHEN i % 50 = 0 THEN 'open' ELSE 'closed' END, i % 400, 't' || i FROM n;
            CREATE INDEX ticket_project ON ticket(project);
            """, """
            -- freq: 50
            SELECT id, title FROM ticket WHERE project = 5 AND state = 'open';
            """)
        let list = try #require(result.statements.first)
        #expect(list.planBefore?.findings.contains { $0.kind == .fullTableScan } == false)
        // Both filters in the index: as key columns, or `state = 'open'` as the predicate of a partial index
        // on project (a plain store: every form competes; the partial one holds 2 % of the rows). The existing
        // full index on project does not make the partial one redundant.
        let top = try #require(result.recommendations.first)
        let keys = Set(top.columns.prefix(2).map(\.name))
        #expect(keys == ["project", "state"] || (keys == ["project"] && top.partialPredicate == "\"state\" = 'open'"), "\(top.sql)")
        #expect(try #require(list.timingAfter).medianSeconds * 10 < #require(list.timingBefore).medianSeconds)
    }
}
