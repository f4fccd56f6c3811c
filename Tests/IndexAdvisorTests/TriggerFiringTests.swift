import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39 ("a gate that never passes a hidden scan"), the breaking round's F11: a trigger whose `WHEN`
/// clause is false for the statement's values failed `check` with a scan that never runs. What a write's
/// executions ran is read from SQLite's trace (``TriggerFirings``); a trigger that ran for none of the values
/// timed is not part of its plan, in `check` and `analyze` alike, and a warning says so.
@Suite("A trigger whose WHEN clause holds for none of the values timed is not part of the write's plan")
struct TriggerFiringTests {
    /// Orders of 6,000 rows; a 18,000-row journal searched by `client` only by a trigger that runs when an
    /// order is marked paid (state 5); a nested trigger on the journal that runs only past 50 marks.
    static let schema = """
        CREATE TABLE orders (oid INTEGER PRIMARY KEY, state INTEGER NOT NULL, client TEXT NOT NULL);
        CREATE TABLE journal (jid INTEGER PRIMARY KEY, client TEXT NOT NULL, marks INTEGER NOT NULL);
        CREATE TABLE counter (cid INTEGER PRIMARY KEY, hits INTEGER NOT NULL);
        INSERT INTO counter VALUES (1, 0);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
        INSERT INTO orders SELECT i, i % 4, 'c' || (i % 700) FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 18000)
        INSERT INTO journal SELECT i, 'c' || (i % 700), 0 FROM n;
        CREATE TRIGGER order_paid AFTER UPDATE OF state ON orders WHEN NEW.state = 5
        BEGIN
          UPDATE journal SET marks = marks + 1 WHERE client = NEW.client;
          UPDATE counter SET hits = hits + 1 WHERE cid = 1;
        END;
        CREATE TRIGGER journal_busy AFTER UPDATE OF marks ON journal WHEN NEW.marks > 50
        BEGIN UPDATE counter SET hits = 0 WHERE cid = 1; END;
        """

    @Test("the trace tells the triggers that ran their body: a nested one whose WHEN failed is followed by its parent's next statement")
    func observedBodies() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(Self.schema)
        let programs = TriggerPrograms.read(from: connection)
        let timer = StatementTimer(connection: connection)
        let expected: Set<String> = ["order_paid", "journal_busy"]
        let open = TriggerFirings.observe([Execution(sql: "UPDATE orders SET state = ? WHERE oid = ?", values: [.integer(2), .integer(9)])],
                                          timer: timer, programs: programs, expected: expected)
        #expect(open == [])
        let paid = TriggerFirings.observe([Execution(sql: "UPDATE orders SET state = 2 WHERE oid = 9", values: []),
                                           Execution(sql: "UPDATE orders SET state = 5 WHERE oid = 10", values: [])],
                                          timer: timer, programs: programs, expected: expected)
        #expect(paid == ["order_paid"])
        // Rolled back: the journal and the counter are as they were.
        #expect(try connection.scalar("SELECT sum(marks) + (SELECT hits FROM counter) FROM journal", [])?.integerValue == 0)
        #expect(try connection.scalar("SELECT count(*) FROM orders WHERE state = 5", [])?.integerValue == 0)
        // The lines SQLite wrote for that UPDATE: the nested trigger's line comes before its parent's second statement.
        let lines: [String?] = [nil, "-- TRIGGER order_paid", "-- UPDATE journal SET marks = marks + 1 WHERE client = NEW.client",
                                "-- TRIGGER journal_busy", "-- UPDATE counter SET hits = hits + 1 WHERE cid = 1", nil]
        #expect(TriggerFirings.ranBodies(trace: lines, programs: programs) == ["order_paid"])
        // A line that is no statement of any trigger is taken as the trigger's own (a doubt keeps it in the plan).
        #expect(TriggerFirings.ranBodies(trace: [nil, "-- TRIGGER journal_busy", "-- UPDATE counter /* x */ SET hits = 0"], programs: programs) == ["journal_busy"])
        #expect(TriggerFirings.ranBodies(trace: [nil, "-- TRIGGER journal_busy", nil, "-- TRIGGER journal_busy"], programs: programs) == [])
        var firings = TriggerFirings()
        firings.record(["order_paid"], for: ["UPDATE orders SET state = 5 WHERE oid = 10"])
        #expect(firings.runs("ORDER_PAID", for: "UPDATE orders SET state = 5 WHERE oid = 10"))
        #expect(!firings.runs("journal_busy", for: "UPDATE orders SET state = 5 WHERE oid = 10"))
        #expect(firings.runs("journal_busy", for: "UPDATE orders SET state = 1 WHERE oid = 10"))
    }

    @Test("check passes a write whose trigger's WHEN is false for its values, with a warning, and fails one whose trigger runs; analyze agrees")
    func checkAndAnalyze() throws {
        let store = try FixtureStore(Self.schema)
        let before = try store.fileState()
        let quiet = WorkloadLoader.parse("""
            -- freq: 400
            UPDATE orders SET state = 3 WHERE oid = 123;
            -- freq: 30
            SELECT client FROM orders WHERE oid = 8;
            """, file: "w.sql", format: .sql)
        let profiled = try Advisor.profile(storeAt: store.url, workload: quiet, options: quickOptions())
        let write = try #require(profiled.statements.first)
        #expect(write.error == nil)
        #expect(write.planBefore?.steps.contains { $0.detail.hasPrefix("TRIGGER") } == false)
        #expect(write.planBefore?.findings.contains { $0.isFullScan } == false)
        #expect(CheckEvaluator.evaluate(profiled, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure).isEmpty)
        #expect(profiled.warnings.map(\.text) == ["S1 (UPDATE orders SET state = 3 WHERE oid = 123): triggers order_paid, journal_busy did not fire for the values timed (their WHEN clause held for no row they changed): not part of its plan"])
        let analysed = try Advisor.analyze(storeAt: store.url, workload: quiet, options: quickOptions())
        #expect(analysed.recommendations.isEmpty)
        #expect(analysed.statements.first?.planBefore?.findings.contains { $0.isFullScan } == false)
        #expect(analysed.statements.first?.planAfter?.steps.contains { $0.detail.hasPrefix("TRIGGER") } == false)
        #expect(analysed.warnings.contains(.triggersDidNotRun(statement: "S1", sql: "UPDATE orders SET state = 3 WHERE oid = 123", triggers: ["order_paid", "journal_busy"])))
        _ = checkedRender(analysed, .markdown)

        // State 5: the trigger runs and its scan of the journal is the write's; the nested one still does not.
        let paying = WorkloadLoader.parse("""
            -- freq: 400
            UPDATE orders SET state = 5 WHERE oid = 123;
            """, file: "w.sql", format: .sql)
        let paid = try Advisor.profile(storeAt: store.url, workload: paying, options: quickOptions())
        let failures = CheckEvaluator.evaluate(paid, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        #expect(failures.map(\.kind) == [.fullTableScan])
        #expect(failures.first?.message.hasPrefix("S1 full table scan of journal (18,000 rows;") == true)
        #expect(paid.statements.first?.planBefore?.steps.filter { $0.detail.hasPrefix("TRIGGER") }.map(\.detail) == ["TRIGGER order_paid"])
        #expect(paid.warnings.map(\.text) == ["S1 (UPDATE orders SET state = 5 WHERE oid = 123): trigger journal_busy did not fire for the values timed (its WHEN clause held for no row they changed): not part of its plan"])
        let advised = try Advisor.analyze(storeAt: store.url, workload: paying, options: quickOptions())
        let recommended = advised.recommendations.map { "\($0.table)(\($0.columns.map(\.name).joined(separator: ",")))" }
        #expect(recommended == ["journal(client)"])
        #expect(advised.statements.first?.planAfter?.hasProblem == false)
        #expect(try store.fileState() == before)
    }
}
