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

/// The review of F1's fix: `max(id)` of an INTEGER PRIMARY KEY is also printed as a bare `SEARCH t`, but its
/// program reads the table's last row and stops (an `AggStep` then a `Goto` out of the loop): not a scan.
@Suite("A min() or max() the table's own order serves is no scan")
struct MinMaxRowidTests {
    static let schema = """
        CREATE TABLE entry (id INTEGER PRIMARY KEY, shelf INTEGER, rank REAL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO entry SELECT i, i % 30, i * 0.5 FROM n;
        """

    @Test("max(id) and min(rowid) are no full scan; max(rank), and max(id) under a filter, stay one, in the same planner")
    func rowidServedMinMax() throws {
        let store = try FixtureStore(Self.schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let planner = QueryPlanner(connection: connection, schema: try SchemaReader.read(from: connection))
        for sql in ["SELECT max(id) FROM entry", "SELECT min(rowid) FROM entry"] {
            let plan = try planner.plan(for: sql)
            #expect(plan.steps.map(\.detail) == ["SEARCH entry"], "\(sql)")
            #expect(plan.findings.filter(\.isFullScan).isEmpty, "\(sql)")
        }
        // max(rank) walks every row; max(id) WHERE shelf = 4 walks back until a row matches, which may be all of them.
        for sql in ["SELECT max(rank) FROM entry WHERE shelf = 4", "SELECT max(id) FROM entry WHERE shelf = 4"] {
            let walked = try planner.plan(for: sql)
            #expect(walked.findings.filter(\.isFullScan).map(\.table) == ["entry"], "\(sql)")
            #expect(walked.findings.filter(\.isFullScan).map(\.tableRows) == [3000], "\(sql)")
        }
    }

    @Test("the early-out rule on opcodes: an unfiltered AggStep then Goto ends the loop; AggStep then Next, or a filter before it, walks on")
    func opcodeRule() {
        #expect(PlanRowReader.walksNoTable(bareSearches: 1, opcodes: ["Init", "OpenRead", "Last", "Rowid", "AggStep", "Goto", "Prev", "AggFinal"]))
        #expect(!PlanRowReader.walksNoTable(bareSearches: 1, opcodes: ["Init", "OpenRead", "Rewind", "Column", "AggStep", "Next", "AggFinal"]))
        #expect(!PlanRowReader.walksNoTable(bareSearches: 2, opcodes: ["Last", "AggStep", "Goto", "Rewind", "AggStep", "Next"]))
        #expect(!PlanRowReader.walksNoTable(bareSearches: 0, opcodes: ["AggStep", "Goto"]))
        // max(id) WHERE x = 5: the loop walks back past every row whose x differs (Column, Ne), so it may read them all.
        #expect(!PlanRowReader.walksNoTable(bareSearches: 1, opcodes: ["Last", "Column", "Ne", "Rowid", "CollSeq", "AggStep", "Goto", "Prev"]))
    }
}
