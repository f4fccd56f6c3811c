import Foundation
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
        // Served by an index, the same aggregate is the loop over that index: a walk of it by its text alone
        // (round 8, F2), a search of one entry once its program shows the early out (MinMaxIndexWalkTests).
        let indexed = try connection.query("EXPLAIN QUERY PLAN SELECT max(label) FROM entry").compactMap { $0.last?.textValue }
        #expect(indexed == ["SEARCH entry USING COVERING INDEX entry_label"])
        let row = PlanRowReader.row(for: indexed[0], names: names, indexNames: ["entry_label"])
        #expect(row.kind == .fullIndexScan, "\(indexed)")
        #expect(row.index == "entry_label")
        #expect(PlanRowReader.oneRowKind(of: indexed[0]) == .coveringIndexSearch)
        let planner = QueryPlanner(connection: connection, schema: try SchemaReader.read(from: connection))
        #expect(try planner.plan(for: "SELECT max(label) FROM entry").findings.map(\.kind) == [.coveringIndexSearch])
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

    @Test("the early-out rule on a program: an AggStep then Goto ends the loop over its cursor's b-tree unless a test before it jumps to the loop's Next or Prev")
    func opcodeRule() {
        typealias I = PlanRowReader.Instruction
        // max(id) of a table at root page 2: OpenRead cursor 0, Last, Rowid, AggStep, Goto out, Prev.
        let rowid = [I("Init", 9), I("OpenRead", 2, p1: 0), I("Last", 7, p1: 0), I("Rowid"), I("AggStep"), I("Goto", 7), I("Prev", 3), I("AggFinal")]
        #expect(PlanRowReader.oneRowLoops(in: rowid) == [2: 1])
        #expect(PlanRowReader.stopsAtFirstRow(["entry"], program: rowid, rootPages: ["entry": 2]) == [true])
        // Another b-tree's walk is not excused by it, nor a name with no root page.
        #expect(PlanRowReader.stopsAtFirstRow(["other", "gone"], program: rowid, rootPages: ["entry": 2, "other": 5]) == [false, false])
        // Two walks of one b-tree and one early out: neither is excused (which one stops cannot be told).
        #expect(PlanRowReader.stopsAtFirstRow(["entry", "entry"], program: rowid, rootPages: ["entry": 2]) == [false, false])
        // max(x) over an unindexed x: AggStep, then Next: every row.
        #expect(PlanRowReader.oneRowLoops(in: [I("Init"), I("OpenRead", 2, p1: 0), I("Rewind", 6, p1: 0), I("Column"), I("AggStep"), I("Next", 3), I("AggFinal")]).isEmpty)
        // max(id) WHERE x = 5: Ne jumps to the Prev (address 7) past every row whose x differs: it may read them all.
        #expect(PlanRowReader.oneRowLoops(in: [I("OpenRead", 2, p1: 0), I("Last", 9, p1: 0), I("Column", 2), I("Ne", 7), I("Rowid"), I("AggStep"), I("Goto", 9), I("Prev", 2), I("Halt"), I("AggFinal")]).isEmpty)
        // min(x) over an index at root page 3: the tests before the AggStep skip the NULLs and end the range
        // (If → Column, IdxGT → past the loop), neither passes over a row: one entry, as SQLite 3.40 plans it.
        #expect(PlanRowReader.oneRowLoops(in: [I("Init", 20), I("Null"), I("OpenRead", 3, p1: 1), I("Null"), I("Integer"), I("SeekGT", 15, p1: 1), I("Goto", 8),
                                               I("Rewind", 15, p1: 1), I("If", 10), I("IdxGT", 15), I("Column"), I("CollSeq"), I("AggStep"), I("Goto", 16),
                                               I("Next", 8), I("DecrJumpZero", 7), I("AggFinal")]) == [3: 1])
    }

    @Test("a served max() in one subquery excuses no unindexed max() in another (round 8, F21)")
    func eachLoopOnItsOwn() throws {
        let store = try FixtureStore(Self.schema + """
            CREATE TABLE shelf (id INTEGER PRIMARY KEY, height INTEGER);
            CREATE INDEX shelf_height ON shelf(height);
            INSERT INTO shelf SELECT id, id * 2 FROM entry WHERE id <= 500;
            """)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let planner = QueryPlanner(connection: connection, schema: try SchemaReader.read(from: connection))
        let plan = try planner.plan(for: "SELECT (SELECT max(height) FROM shelf), (SELECT max(rank) FROM entry), (SELECT max(id) FROM entry)")
        let walks = zip(plan.steps, plan.findings).filter { PlanRowReader.isMinMaxWalk($0.0.detail) }
        #expect(walks.map(\.0.detail) == ["SEARCH shelf USING COVERING INDEX shelf_height", "SEARCH entry", "SEARCH entry"])
        // shelf's max() reads one entry; entry has two loops and one early out: both stay walks (the safe side).
        #expect(walks.map(\.1.kind) == [.coveringIndexSearch, .fullTableScan, .fullTableScan])
        let alone = try planner.plan(for: "SELECT (SELECT max(height) FROM shelf), (SELECT max(rank) FROM entry)")
        #expect(alone.findings.filter(\.isFullScan).map(\.table) == ["entry"])
    }
}

/// Hostile round 8, F2: `SEARCH t USING INDEX i` with no constraint is the min/max loop walking index `i` from one
/// end: one entry for `max(x)` over an index on `x`, but every entry (and a table row for each) when a WHERE term
/// on another column must hold, and no row has it.
@Suite("A min() or max() loop over an index walks it whole under a filter")
struct MinMaxIndexWalkTests {
    static let schema = """
        CREATE TABLE reading (id INTEGER PRIMARY KEY, stamp INTEGER, sensor INTEGER, value REAL);
        CREATE INDEX reading_stamp ON reading(stamp);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
        INSERT INTO reading SELECT i, 1000000 + i * 3, i % 40, i * 0.25 FROM n;
        """

    @Test("max(stamp) WHERE sensor = ? is a filtered full scan of the index; max(stamp) and min(stamp) alone read one entry")
    func indexWalks() throws {
        let store = try FixtureStore(Self.schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let planner = QueryPlanner(connection: connection, schema: try SchemaReader.read(from: connection))
        let walked = try planner.plan(for: "SELECT max(stamp) FROM reading WHERE sensor = 977")
        #expect(walked.steps.map(\.detail) == ["SEARCH reading USING INDEX reading_stamp"])
        #expect(walked.findings.map(\.kind) == [.fullIndexScan])
        #expect(walked.findings.map(\.index) == ["reading_stamp"])
        for sql in ["SELECT max(stamp) FROM reading", "SELECT min(stamp) FROM reading"] {
            let plan = try planner.plan(for: sql)
            #expect(plan.steps.map(\.detail) == ["SEARCH reading USING COVERING INDEX reading_stamp"], "\(sql)")
            #expect(plan.findings.map(\.kind) == [.coveringIndexSearch], "\(sql)")
        }
        // A constraint on the index is a search, walk or not.
        #expect(try planner.plan(for: "SELECT max(stamp) FROM reading WHERE stamp < 1003000").findings.map(\.kind) == [.coveringIndexSearch])
    }

    @Test("check fails the hot filtered walk, naming the index, and passes the unfiltered max(); the store untouched")
    func checkFailsWalk() throws {
        let store = try FixtureStore(Self.schema)
        let before = try Data(contentsOf: store.url)
        func failures(_ sql: String) throws -> [CheckProblem] {
            let workload = WorkloadLoader.parse("-- freq: 300\n\(sql);\n-- freq: 300\nSELECT value FROM reading WHERE id = 12;\n", file: "walk.sql", format: .sql)
            let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
            return CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        }
        let walk = try failures("SELECT max(stamp) FROM reading WHERE sensor = 977")
        #expect(walk.map(\.kind) == [.fullTableScan])
        #expect(walk.first?.message.contains("through every entry of reading_stamp") == true, "\(walk.map(\.message))")
        #expect(try failures("SELECT max(stamp) FROM reading").isEmpty)
        #expect(try Data(contentsOf: store.url) == before)
    }
}
