import Testing
import Foundation
@testable import IndexAdvisor

/// A statement searched by an index on one of its equality columns, whose other equality is then checked
/// row by row: a new user's `authorId = 3 AND status = 'draft'` read 25,119 rows for 2,261 through
/// `(authorId, createdAt)` (58 VM steps a returned row, 79 % of the workload after the advice) and got no
/// candidate, because only a statement over 100 steps a row counted as examining too many rows.
@Suite("A filter checked row by row after an index search")
struct RowByRowFilterTests {
    /// Orders of a few big customers: customer 7 has 8,000 orders, one in eight of them 'pending'; an
    /// index on customer_id alone, and one on status that no statement here is helped by.
    static let schema = """
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, status TEXT NOT NULL, total REAL, note TEXT,
                             is_deleted INTEGER NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64000)
        INSERT INTO orders SELECT i, i % 8, CASE WHEN (i / 8) % 8 = 0 THEN 'pending' ELSE 'shipped' END, i * 0.5, 'n' || i,
                                  (i / 8) % 50 = 0 FROM n;
        CREATE INDEX orders_customer ON orders(customer_id);
        """

    func analyze(_ workload: String) throws -> AnalysisResult {
        let store = try FixtureStore(Self.schema)
        return try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "w.sql", format: .sql),
                                   options: quickOptions())
    }

    @Test("the second equality gets its index: both columns, and the statement reads only the rows it returns")
    func secondEquality() throws {
        let result = try analyze("""
            -- freq: 50
            SELECT id, total FROM orders WHERE customer_id = 7 AND status = 'pending';
            """)
        let before = try #require(result.statements[0].timingBefore)
        let steps = try #require(before.vmStepsPerExecution)
        // The kind under test: under 100 steps a returned row (the old rule's bound), over 20.
        #expect(before.rowsPerExecution == 1000)
        #expect(steps / before.rowsPerExecution > 20 && steps / before.rowsPerExecution < 100)
        let index = try #require(result.recommendations.first)
        #expect(Set(index.columns.prefix(2).map(\.name)) == ["customer_id", "status"])
        #expect(result.statements[0].planAfter?.indexesUsed == [index.name])
        let after = try #require(result.statements[0].timingAfter?.vmStepsPerExecution)
        #expect(after < steps / 3)
    }

    /// `is_deleted = 0` holds on 98 % of the rows: checking it row by row throws almost nothing away, and the
    /// statement's cost is its sixteen columns' reads (over 20 steps a row), which no key on is_deleted saves.
    @Test("a term checked row by row that keeps most rows gets no candidate")
    func keepsMostRows() throws {
        let result = try analyze("""
            -- freq: 50
            SELECT *, total + 1, total + 2, total + 3, total + 4, total + 5, total + 6, total + 7, total + 8, total + 9, total + 10
            FROM orders WHERE customer_id = 7 AND is_deleted = 0;
            """)
        let before = try #require(result.statements[0].timingBefore)
        let steps = try #require(before.vmStepsPerExecution)
        #expect(before.rowsPerExecution == 7840)
        #expect(steps / before.rowsPerExecution > 20)
        #expect(result.recommendations.isEmpty)
        #expect(result.rejectedCandidates.isEmpty)
    }

    @Test("a search that returns every row it reads gets no candidate")
    func exactSearch() throws {
        let result = try analyze("""
            -- freq: 50
            SELECT id, total FROM orders WHERE customer_id = 7;
            """)
        #expect(result.recommendations.isEmpty)
        #expect(result.rejectedCandidates.isEmpty)
    }
}
