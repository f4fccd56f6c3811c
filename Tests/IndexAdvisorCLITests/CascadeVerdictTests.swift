import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// Issue 39, hostile round 7 F1 and F5 at the command line: a foreign key's action set off by another action,
/// or under a trigger, is the write's own work. `check` fails its scan (exit 1, naming the table), and
/// `analyze` recommends the child's index, with the saving measured; the store is left as it was.
@Suite("check and analyze see a write's whole program, to any depth", .serialized)
struct CascadeVerdictTests: CheckScratch {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Runs check and analyze on `schema` with `write` as the hot statement beside a quick `read`; expects one failure naming
    /// `scanned` and the recommendation of `scanned(column)`, which cuts the write's VM steps tenfold or more.
    func expectCaughtAndIndexed(_ name: String, _ schema: String, write: String, read: String, scanned: String, rows: String, column: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = try store("\(name).sqlite", schema)
        let bytes = try Data(contentsOf: store)
        let workload = try file("\(name).sql", "-- freq: 400\n\(write)\n-- freq: 20\n\(read)\n")
        let (code, console) = run(["check", store.path, "-w", workload.path, "-q"])
        #expect(code == ExitCode.checkFailed, "\(console.out)", sourceLocation: sourceLocation)
        let failures = console.out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("FAIL ") }
        #expect(failures == ["FAIL S1 full table scan of \(scanned) (\(rows) rows; ×400, 100% of workload time): \(write.dropLast())"], "\(console.out)",
                sourceLocation: sourceLocation)
        let report = directory.url.appendingPathComponent("\(name).json")
        let (analysed, analysis) = run(["analyze", store.path, "-w", workload.path, "--format", "json", "-o", report.path, "-q"])
        #expect(analysed == ExitCode.success, "\(analysis.error)", sourceLocation: sourceLocation)
        let result = try JSONReport.decode(Data(contentsOf: report))
        let picks = result.recommendations.map { "\($0.table)(\($0.columns.map(\.name).joined(separator: ", ")))" }
        #expect(picks == ["\(scanned)(\(column))"], "\(picks)", sourceLocation: sourceLocation)
        #expect((result.recommendations.first?.netSecondsSaved ?? 0) > 0, sourceLocation: sourceLocation)
        let statement = try #require(result.statements.first, sourceLocation: sourceLocation)
        let before = statement.timingBefore?.vmStepsPerExecution ?? 0
        let after = statement.timingAfter?.vmStepsPerExecution ?? .infinity
        #expect(after * 10 < before, "\(before) → \(after)", sourceLocation: sourceLocation)
        #expect(statement.planAfter?.findings.contains { $0.kind == .fullTableScan && $0.table == scanned } == false, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: store) == bytes, sourceLocation: sourceLocation)
        // With the index, the gate passes.
        let indexed = try self.store("\(name)-indexed.sqlite", schema + "CREATE INDEX \(scanned)_by_\(column) ON \(scanned)(\(column));")
        let (fixed, after2) = run(["check", indexed.path, "-w", workload.path, "-q"])
        #expect(fixed == ExitCode.success, "\(after2.out)", sourceLocation: sourceLocation)
    }

    // Depth 2: an author's books cascade (indexed), and each book deleted sets its reviews' book_id NULL
    // (unindexed, 18,000 reviews): two scans of review per book, in no plan before.
    @Test("a SET NULL under a CASCADE: check fails the child's scan, analyze indexes it")
    func setNullUnderCascade() throws {
        try expectCaughtAndIndexed("authors", """
            PRAGMA foreign_keys = ON;
            CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book(id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES author(id) ON DELETE CASCADE, title TEXT);
            CREATE INDEX book_author ON book(author_id);
            CREATE TABLE review(id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book(id) ON DELETE SET NULL, stars INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO author SELECT i, 'a' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1800) INSERT INTO book SELECT i, i % 300 + 1, 'b' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 18000) INSERT INTO review SELECT i, i % 1800 + 1, i % 5 FROM n;
            """, write: "DELETE FROM author WHERE id = 41;", read: "SELECT name FROM author WHERE id = 9;", scanned: "review", rows: "18,000", column: "book_id")
    }

    // Depth 4: a carrier's routes, their stops and the stops' slots cascade (all indexed); each slot deleted
    // is looked up among the parcels (NO ACTION, unindexed, 16,000 parcels, none of them the carrier's).
    @Test("a NO ACTION lookup under three cascades: check fails the child's scan, analyze indexes it")
    func lookupFourDeep() throws {
        try expectCaughtAndIndexed("carriers", """
            PRAGMA foreign_keys = ON;
            CREATE TABLE carrier(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE route(id INTEGER PRIMARY KEY, carrier_id INTEGER REFERENCES carrier(id) ON DELETE CASCADE);
            CREATE INDEX route_carrier ON route(carrier_id);
            CREATE TABLE stop(id INTEGER PRIMARY KEY, route_id INTEGER REFERENCES route(id) ON DELETE CASCADE);
            CREATE INDEX stop_route ON stop(route_id);
            CREATE TABLE slot(id INTEGER PRIMARY KEY, stop_id INTEGER REFERENCES stop(id) ON DELETE CASCADE);
            CREATE INDEX slot_stop ON slot(stop_id);
            CREATE TABLE parcel(id INTEGER PRIMARY KEY, slot_id INTEGER REFERENCES slot(id), weight INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO carrier SELECT i, 'c' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO route SELECT i, i % 100 + 1 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 800) INSERT INTO stop SELECT i, i % 400 + 1 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1600) INSERT INTO slot SELECT i, i % 800 + 1 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 16000)
            INSERT INTO parcel SELECT i, (SELECT s.id FROM slot s JOIN stop t ON t.id = s.stop_id JOIN route r ON r.id = t.route_id
                                         WHERE r.carrier_id <> 7 AND s.id = i % 1600 + 1), i % 30 FROM n;
            """, write: "DELETE FROM carrier WHERE id = 7;", read: "SELECT name FROM carrier WHERE id = 3;", scanned: "parcel", rows: "16,000", column: "slot_id")
    }

    // Depth 3 through triggers: closing a job fires its trigger, which deletes the job's batch; the batch's
    // items cascade (indexed), each item deleted fires a trigger that deletes its lot; a lot's sub-lots cascade
    // (it refers to itself, indexed) and its labels cascade (unindexed, 15,000 labels).
    @Test("a trigger that deletes a parent, whose cascade fires a trigger that deletes another: check fails the last child's scan, analyze indexes it")
    func triggerCascadeTriggerCascade() throws {
        try expectCaughtAndIndexed("jobs", """
            PRAGMA foreign_keys = ON;
            CREATE TABLE lot(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES lot(id) ON DELETE CASCADE, code TEXT);
            CREATE INDEX lot_parent ON lot(parent);
            CREATE TABLE label(id INTEGER PRIMARY KEY, lot_id INTEGER REFERENCES lot(id) ON DELETE CASCADE, text TEXT);
            CREATE TABLE batch(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE item(id INTEGER PRIMARY KEY, batch_id INTEGER REFERENCES batch(id) ON DELETE CASCADE, lot_id INTEGER);
            CREATE INDEX item_batch ON item(batch_id);
            CREATE TABLE job(id INTEGER PRIMARY KEY, batch_id INTEGER, closed INTEGER);
            CREATE TRIGGER job_closed AFTER UPDATE OF closed ON job WHEN NEW.closed = 1 BEGIN DELETE FROM batch WHERE id = NEW.batch_id; END;
            CREATE TRIGGER item_gone AFTER DELETE ON item BEGIN DELETE FROM lot WHERE id = OLD.lot_id; END;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) INSERT INTO lot SELECT i, NULL, 'l' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 15000) INSERT INTO label SELECT i, i % 1500 + 1, 'x' FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250) INSERT INTO batch SELECT i, 'b' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) INSERT INTO item SELECT i, i % 250 + 1, i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250) INSERT INTO job SELECT i, i, 0 FROM n;
            """, write: "UPDATE job SET closed = 1 WHERE id = 12;", read: "SELECT closed FROM job WHERE id = 5;", scanned: "label", rows: "15,000", column: "lot_id")
    }
}
