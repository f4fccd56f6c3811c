import Testing
@testable import IndexAdvisor
import QueryPlanText

/// Hostile round 8, F1: SQLite prints `SEARCH t` with no `USING` for a min()/max() aggregate it cannot serve
/// from an index (where.c marks the loop a search for the min/max optimisation), yet the program walks every
/// row of `t`. Such a row is a full table scan; a bare `SCAN` was one already.
@Suite("A bare SEARCH of a min() or max() is a full table scan")
struct MinMaxSearchTests {
    @Test("the plan of max() over an unindexed filter, and of min() with no WHERE, reads as a full table scan of the table")
    func bareSearchIsFullScan() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE entry (id INTEGER PRIMARY KEY, shelf INTEGER, rank REAL, label TEXT);
            CREATE INDEX entry_label ON entry(label);
            """)
        let names = ["entry": "entry"]
        for sql in ["SELECT max(rank) FROM entry WHERE shelf = 9", "SELECT min(rank) FROM entry"] {
            let details = try connection.query("EXPLAIN QUERY PLAN " + sql).compactMap { $0.last?.textValue }
            #expect(details == ["SEARCH entry"], "\(sql): \(details)")
            let rows = details.map { PlanRowReader.row(for: $0, names: names, indexNames: ["entry_label"]) }
            #expect(rows.map(\.kind) == [.fullTableScan], "\(sql)")
            #expect(rows.first?.table == "entry")
        }
        // Served by an index, the same aggregate is a search of that index, not a scan.
        let indexed = try connection.query("EXPLAIN QUERY PLAN SELECT max(label) FROM entry").compactMap { $0.last?.textValue }
        let row = PlanRowReader.row(for: indexed[0], names: names, indexNames: ["entry_label"])
        #expect(row.kind == .coveringIndexSearch, "\(indexed)")
        #expect(row.index == "entry_label")
    }
}
