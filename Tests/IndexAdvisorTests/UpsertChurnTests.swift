import Testing
import Foundation
@testable import IndexAdvisor

/// An upsert changes, in a row that exists, only the columns its DO UPDATE sets (https://sqlite.org/lang_upsert.html).
@Suite("An upsert's updated columns are its DO UPDATE SET columns")
struct UpsertChurnTests {
    // Regression (a breaking helper): for `INSERT … ON CONFLICT(id) DO UPDATE SET title = excluded.title` the
    // recommendation said "folder_id changes on 100% of the writes to note (UPDATE … SET it)": the INSERT's
    // column list was counted as updated; and `workload` listed no updated column at all. Shape of my own: a
    // price list synced from a server, upserted by SKU id, read by shelf.
    static let schema = """
        CREATE TABLE price (id INTEGER PRIMARY KEY, shelf INTEGER NOT NULL, label TEXT NOT NULL, cents INTEGER NOT NULL, seen REAL NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO price SELECT i, i % 250, 'item ' || i, 100 + i % 900, 1700000000.0 + i FROM n;
        """
    static let workload = """
        -- freq: 300
        SELECT id, label, cents FROM price WHERE shelf = 42 ORDER BY seen DESC;
        -- freq: 200
        INSERT INTO price(id, shelf, label, cents, seen) VALUES (17, 3, 'item 17', 250, 1700000017.0) ON CONFLICT(id) DO UPDATE SET cents = excluded.cents;
        """

    @Test("the workload lists cents as updated; the shelf index carries no note that shelf or seen change on the writes")
    func upsertColumns() throws {
        let workload = WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql)
        let upsert = try #require(workload.statements.first { $0.kind == .insert })
        #expect(upsert.updatedColumns == ["cents"])
        #expect(workload.writesByTable.first?.updatedColumns == ["cents": 200])
        let result = try analyze(Self.schema, workload: Self.workload)
        expectTrueReport(result)
        let shelf = try #require(result.recommendations.first { $0.columns.first?.name == "shelf" })
        #expect(!shelf.notes.map(\.text).contains { $0.contains("changes on") })
        let statement = try #require(result.statements.first { $0.kind == .insert })
        #expect(statement.shapeSummary?.contains("UPDATE cents") == true)
        #expect(statement.shapeSummary?.contains("UPDATE id") == false)
    }
}
