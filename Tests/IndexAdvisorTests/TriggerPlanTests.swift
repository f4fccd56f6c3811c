import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39, item 2: `EXPLAIN QUERY PLAN` leaves out trigger programs, so a write whose trigger scans another
/// table was called clean ("no full scan", "no index to add"). A write's plan includes the triggers it fires.
@Suite("A write's plan includes its triggers")
struct TriggerPlanTests {
    /// Shipments, a stock table of 20,000 rows searched by `sku` only through triggers, and a small log.
    static let schema = """
        CREATE TABLE shipment(id INTEGER PRIMARY KEY, sku TEXT, state INTEGER, qty INTEGER);
        CREATE TABLE stock(id INTEGER PRIMARY KEY, sku TEXT, onhand INTEGER, moved INTEGER);
        CREATE TABLE movelog(id INTEGER PRIMARY KEY, note TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO stock SELECT i, 'sku-' || i, i % 90, 0 FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO shipment SELECT i, 'sku-' || ((i * 13) % 20000 + 1), i % 4, i % 7 + 1 FROM n;
        CREATE TRIGGER shipment_state AFTER UPDATE OF state ON shipment WHEN new.state = 3
        BEGIN
          UPDATE stock SET onhand = onhand - NEW.qty, moved = moved + 1 WHERE sku = NEW.sku;
          SELECT RAISE(ABORT, 'negative stock') WHERE (SELECT min(onhand) FROM stock WHERE sku = NEW.sku) < -1000;
        END;
        CREATE TRIGGER stock_moved AFTER UPDATE OF moved ON stock
        BEGIN
          INSERT INTO movelog(note) VALUES ('moved ' || old.sku);
        END;
        CREATE TRIGGER shipment_gone AFTER DELETE ON shipment
        BEGIN
          DELETE FROM movelog WHERE note = 'moved ' || OLD.sku;
        END;
        """

    @Test("a trigger body's statements: NEW./OLD. columns become parameters, RAISE(…) NULL, CASE … END inside kept")
    func bodyStatements() {
        let statements = TriggerPrograms.bodyStatements(of: """
            CREATE TRIGGER "t r" BEFORE INSERT ON a FOR EACH ROW WHEN new.x > 0 BEGIN
              UPDATE b SET n = CASE WHEN new."y" IS NULL THEN 0 ELSE 1 END WHERE k = New.x;
              SELECT raise(ignore) WHERE old.z = ';';
            END
            """)
        #expect(statements == ["UPDATE b SET n = CASE WHEN ? IS NULL THEN 0 ELSE 1 END WHERE k = ?",
                               "SELECT NULL WHERE ? = ';'"])
    }

    @Test("the plan of a write shows each trigger it fires, nested ones once, with their scans; other writes show none")
    func planIncludesTriggers() throws {
        let store = try FixtureStore(Self.schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let planner = QueryPlanner(connection: connection, schema: try SchemaReader.read(from: connection))
        let update = try planner.plan(for: "UPDATE shipment SET state = ? WHERE id = ?")
        #expect(update.steps.filter { $0.detail.hasPrefix("TRIGGER ") }.map(\.detail) == ["TRIGGER shipment_state", "TRIGGER stock_moved"])
        // The UPDATE's scan of stock, and the check's min(): SQLite prints it `SEARCH stock` (its min/max search)
        // with no index on sku, and walks all of stock for it (hostile round 8, F1).
        let scans = update.findings.filter(\.isFullScan)
        #expect(scans.map(\.table) == ["stock", "stock"])
        #expect(scans.map(\.tableRows) == [20000, 20000])
        // Each statement's plan is drawn under its trigger: the UPDATE's scan, the check's constant row and subquery.
        let triggerID = try #require(update.steps.first { $0.detail == "TRIGGER shipment_state" }?.id)
        #expect(update.steps.filter { $0.parent == triggerID }.map(\.detail) == ["SCAN stock", "SCAN CONSTANT ROW", "SCALAR SUBQUERY 1"])
        #expect(update.tree.contains("TRIGGER shipment_state\n"))
        // UPDATE OF state: a write of another column fires nothing.
        let other = try planner.plan(for: "UPDATE shipment SET qty = ? WHERE id = ?")
        #expect(!other.steps.contains { $0.detail.hasPrefix("TRIGGER") })
        #expect(!other.hasProblem)
        // A delete fires its own trigger (a scan of the log, too small to count).
        let delete = try planner.plan(for: "DELETE FROM shipment WHERE id = ?")
        #expect(delete.steps.filter { $0.detail.hasPrefix("TRIGGER ") }.map(\.detail) == ["TRIGGER shipment_gone"])
        #expect(delete.findings.contains { $0.kind == .fullTableScan && $0.table == "movelog" })
        // With the index, the trigger searches it.
        try FileManager.default.copyItem(at: store.url, to: store.directory.url.appendingPathComponent("indexed.sqlite"))
        let indexed = try SQLiteConnection(path: store.directory.url.appendingPathComponent("indexed.sqlite").path, mode: .readWrite)
        try indexed.execute("CREATE INDEX stock_sku ON stock(sku)")
        let fixed = try QueryPlanner(connection: indexed, schema: try SchemaReader.read(from: indexed)).plan(for: "UPDATE shipment SET state = ? WHERE id = ?")
        #expect(!fixed.hasProblem)
        #expect(fixed.indexesUsed == ["stock_sku", "stock_sku"])
    }

    @Test("analyze: the trigger's scan is the write's, and the index it needs is recommended; the store untouched")
    func analyzeRecommendsTheTriggersIndex() throws {
        let store = try FixtureStore(Self.schema)
        let before = try store.fileState()
        let workload = WorkloadLoader.parse("""
            -- freq: 400
            UPDATE shipment SET state = 3 WHERE id = 17;
            -- freq: 50
            SELECT qty FROM shipment WHERE id = 9;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(try store.fileState() == before)
        let write = try #require(result.statements.first { $0.sql.hasPrefix("UPDATE shipment") })
        #expect(write.planBefore?.findings.contains { $0.isFullScan && $0.table == "stock" } == true)
        let recommended = result.recommendations.map { "\($0.table)(\($0.columns.map(\.name).joined(separator: ",")))" }
        #expect(recommended.first == "stock(sku)", "\(recommended)")
        #expect(write.planAfter?.hasProblem == false)
        #expect(write.planAfter?.indexesUsed.count == 2)
        _ = checkedRender(result, .markdown)
    }

    // Regression (hostile round 5, F3): a WHEN clause that is itself a query runs for every row the write
    // changes, holding or not; its scan was in no plan, so check passed it and analyze added no index.
    @Test("a WHEN clause that reads a table is part of the write's plan: check fails its scan, analyze indexes it, the store untouched")
    func whenClauseQueryIsPlanned() throws {
        #expect(TriggerPrograms.bodyStatements(of: """
            CREATE TRIGGER gate BEFORE INSERT ON signup WHEN EXISTS (SELECT 1 FROM blocked b WHERE b.email = lower(NEW.email))
            BEGIN SELECT RAISE(ABORT, 'blocked'); END
            """) == ["SELECT EXISTS ( SELECT 1 FROM blocked b WHERE b . email = lower ( ? ) )", "SELECT NULL"])
        // A WHEN that reads no table adds nothing to plan.
        #expect(TriggerPrograms.bodyStatements(of: "CREATE TRIGGER g AFTER UPDATE ON t WHEN new.a > 0 BEGIN DELETE FROM u WHERE k = new.a; END")
                == ["DELETE FROM u WHERE k = ?"])
        let store = try FixtureStore("""
            CREATE TABLE signup(id INTEGER PRIMARY KEY, email TEXT NOT NULL, at INTEGER);
            CREATE TABLE blocked(id INTEGER PRIMARY KEY, email TEXT NOT NULL, reason TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
            INSERT INTO blocked SELECT i, 'spam' || i || '@junk.test', 'spam' FROM n;
            CREATE TRIGGER signup_gate BEFORE UPDATE OF email ON signup
            WHEN EXISTS (SELECT 1 FROM blocked b WHERE b.email = lower(NEW.email))
            BEGIN SELECT RAISE(ABORT, 'blocked address'); END;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
            INSERT INTO signup SELECT i, 'user' || i || '@mail.test', i FROM n;
            """)
        let before = try store.fileState()
        let workload = WorkloadLoader.parse("""
            -- freq: 300
            UPDATE signup SET email = 'fresh77@mail.test' WHERE id = 77;
            """, file: "w.sql", format: .sql)
        let profiled = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        let failures = CheckEvaluator.evaluate(profiled, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        #expect(failures.contains { $0.kind == .fullTableScan && $0.message.contains("blocked") }, "\(failures.map(\.message))")
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(try store.fileState() == before)
        let recommended = result.recommendations.map { "\($0.table)(\($0.columns.map(\.name).joined(separator: ",")))" }
        #expect(recommended.contains("blocked(email)"), "\(recommended)")
    }

    // Regression (hostile round 5, F2): the app inserts a row and then updates it; timed alone on the
    // snapshot, the UPDATE matched no row and ran no trigger, so its time (a few µs) hid its trigger's scan.
    // It is now timed on an existing row's key (CreatedRowWriteTests), and its trigger's scan fails check.
    @Test("a write to rows the app creates first fails check on its trigger's scan")
    func unexercisedTriggerScanFails() throws {
        let store = try FixtureStore("""
            CREATE TABLE booking(id INTEGER PRIMARY KEY, room INTEGER, state TEXT);
            CREATE TABLE journal(id INTEGER PRIMARY KEY, booking_ref INTEGER, line TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) INSERT INTO journal SELECT i, i % 5000, 'x' FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO booking SELECT i, i % 40, 'held' FROM n;
            CREATE TRIGGER booking_state AFTER UPDATE OF state ON booking
            BEGIN UPDATE journal SET line = NEW.state WHERE booking_ref = NEW.id; END;
            """)
        var text = ""
        for i in 0..<30 {
            text += "INSERT INTO booking(id, room, state) VALUES (\(700001 + i), 3, 'held');\nUPDATE booking SET state = 'paid' WHERE id = \(700001 + i);\n"
        }
        let profiled = try Advisor.profile(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        let update = try #require(profiled.statements.first { $0.sql.hasPrefix("UPDATE booking") })
        #expect(update.timingBefore?.rowsPerExecution == 1)
        let failures = CheckEvaluator.evaluate(profiled, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        let label = "S\((profiled.statements.firstIndex { $0.id == update.id } ?? 0) + 1)"
        #expect(failures.map(\.message).contains { $0.hasPrefix("\(label) full table scan of journal (30,000 rows; ×30") },
                "\(failures.map(\.message))")
        // Rows the store has, and a WHEN that holds for one value set of 40 (hostile round 5, F4): however few of
        // the sets are timed, the trigger's scan fails by the write's share of the executions.
        let gated = try FixtureStore("""
            CREATE TABLE booking(id INTEGER PRIMARY KEY, room INTEGER, state TEXT);
            CREATE TABLE journal(id INTEGER PRIMARY KEY, booking_ref INTEGER, line TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) INSERT INTO journal SELECT i, i % 5000, 'x' FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO booking SELECT i, i % 40, 'held' FROM n;
            CREATE TRIGGER booking_paid AFTER UPDATE OF state ON booking WHEN NEW.state = 'paid'
            BEGIN UPDATE journal SET line = 'paid' WHERE booking_ref = NEW.id; END;
            """)
        let sets = (1...40).map { "UPDATE booking SET state = '\($0 == 23 ? "paid" : "held")' WHERE id = \($0);" }.joined(separator: "\n")
        var few = quickOptions()
        few.bindingSamples = 4
        let rare = try Advisor.profile(storeAt: gated.url, workload: WorkloadLoader.parse(sets + "\n", file: "w.sql", format: .sql), options: few)
        #expect((rare.statements.first?.timingBefore?.rowsPerExecution ?? 0) > 0)
        #expect(CheckEvaluator.evaluate(rare, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure).map(\.message)
            .contains { $0.hasPrefix("S1 full table scan of journal") }, "\(CheckEvaluator.evaluate(rare, baseline: nil, thresholds: CheckThresholds()).map(\.message))")
    }
}
