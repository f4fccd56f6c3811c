import Testing
import Foundation
@testable import IndexAdvisor

/// An app that creates a row and then changes or deletes it: the workload's keys are not in the snapshot,
/// so its UPDATE and DELETE are timed on existing rows' keys, and their triggers do their work (hostile
/// round 5, F2: timed on the app's own keys the UPDATE matched no row, its trigger's full scan went
/// unseen, and no index was advised). A help desk of my own: tickets, and a log their triggers keep.
@Suite("Writes to rows the app creates first")
struct CreatedRowWriteTests {
    @Test("an UPDATE and a DELETE of rows the workload inserted are timed on existing rows, and the log's key is advised")
    func timedOnExistingRows() throws {
        let store = try FixtureStore("""
            CREATE TABLE ticket (id INTEGER PRIMARY KEY, state TEXT, queue INTEGER);
            CREATE TABLE ticket_log (id INTEGER PRIMARY KEY, ticket_id INTEGER, entry TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) INSERT INTO ticket SELECT i, 'closed', i % 40 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 90000) INSERT INTO ticket_log SELECT i, 1 + i / 3, 'e' || i FROM n;
            CREATE TRIGGER ticket_state AFTER UPDATE OF state ON ticket BEGIN
              UPDATE ticket_log SET entry = NEW.state WHERE ticket_id = NEW.id; END;
            CREATE TRIGGER ticket_gone AFTER DELETE ON ticket BEGIN DELETE FROM ticket_log WHERE ticket_id = OLD.id; END;
            """)
        var text = ""
        for id in 30_001...30_020 {
            text += "INSERT INTO ticket (id, state, queue) VALUES (\(id), 'open', 3);\n"
            text += "UPDATE ticket SET state = 'pending' WHERE id = \(id);\n"
            text += "DELETE FROM ticket WHERE id = \(id);\n"
        }
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        expectTrueReport(result)
        let update = try #require(result.statements.first { $0.kind == .update })
        let delete = try #require(result.statements.first { $0.kind == .delete })
        for write in [update, delete] {
            #expect(write.notes.contains { $0.text.contains("match no row of ticket on the snapshot") }, "\(write.notes.map(\.text))")
            // Timed on a ticket that exists: its id is one of the store's, not the workload's 30,001–30,020.
            let timed = try #require(write.timedExecutions?.first)
            let id = try #require(timed.sql.split(separator: "=").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ";")))) }, "\(timed.sql)")
            #expect((1...30_000).contains(id), "\(timed.sql)")
            #expect(write.planBefore?.steps.contains { $0.detail.contains("SCAN ticket_log") } == true, "\(write.planBefore?.steps.map(\.detail) ?? [])")
        }
        #expect(result.recommendations.map { [$0.table] + $0.columns.map(\.name) } == [["ticket_log", "ticket_id"]], "\(result.recommendations.map(\.sql))")
        // The triggers' scans are gone with it, and the writes are faster by their figures.
        #expect(update.planAfter?.steps.contains { $0.detail.contains("SCAN ticket_log") } == false)
        #expect((update.timingAfter?.medianSeconds ?? 1) * 10 < (update.timingBefore?.medianSeconds ?? 0))
    }

    // Regression (hostile round 6, F1, F2, F6, F8): the row picked for the keys could be one a trigger refuses
    // (RAISE(ABORT)) or whose new values clash with a UNIQUE key, and the write could not be timed at all; a
    // `rowid` key was never replaced; a non-key literal (`state = 'open'`) was swapped too.
    @Test("the existing row taken is one the write runs on; a rowid key is replaced, a non-key value is not")
    func existingRowThatRuns() throws {
        let store = try FixtureStore("""
            CREATE TABLE ticket (id INTEGER PRIMARY KEY, state TEXT, frozen INTEGER, queue INTEGER, slot INTEGER, UNIQUE (queue, slot));
            CREATE TABLE ticket_log (id INTEGER PRIMARY KEY, ticket_id INTEGER, entry TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
            INSERT INTO ticket SELECT i, 'open', CASE WHEN i % 10 = 0 THEN 0 ELSE 1 END, i % 4, i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000) INSERT INTO ticket_log SELECT i, 1 + i % 4000, 'e' FROM n;
            CREATE TRIGGER ticket_frozen BEFORE UPDATE ON ticket WHEN OLD.frozen = 1 BEGIN SELECT RAISE(ABORT, 'ticket is frozen'); END;
            CREATE TRIGGER ticket_state AFTER UPDATE OF state ON ticket BEGIN UPDATE ticket_log SET entry = NEW.state WHERE ticket_id = NEW.id; END;
            """)
        var text = ""
        for id in 9_001...9_008 {
            text += "INSERT INTO ticket (id, state, frozen, queue, slot) VALUES (\(id), 'open', 0, 1, \(id));\n"
            text += "UPDATE ticket SET state = 'pending' WHERE rowid = \(id) AND state = 'open';\n"
        }
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        let update = try #require(result.statements.first { $0.kind == .update })
        #expect(update.error == nil, "\(update.error ?? "")")
        #expect(update.notes.contains { $0.text.contains("rowid values") && $0.text.contains("match no row of ticket") }, "\(update.notes.map(\.text))")
        for execution in update.timedExecutions ?? [] {
            // The non-key literal stays the app's; the rowid is an unfrozen ticket's (every tenth) or the app's own.
            #expect(execution.sql.contains("state = 'open'"), "\(execution.sql)")
            let id = execution.sql.components(separatedBy: "rowid = ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
            #expect(id % 10 == 0 || (9_001...9_008).contains(id), "\(execution.sql)")
        }
        #expect(result.recommendations.contains { $0.table == "ticket_log" && $0.columns.map(\.name) == ["ticket_id"] }, "\(result.recommendations.map(\.sql))")
    }

    // Regression (hostile round 6, F8): the row taken for the keys was any row, so `AND stage = 'out'` beside
    // the key held on none of them and the UPDATE, timed, changed nothing and fired no trigger.
    @Test("the existing row taken meets the write's other conditions; when no row does, the app's values stay and the note says so")
    func rowMeetsOtherConditions() throws {
        let store = try FixtureStore("""
            CREATE TABLE parcel (id INTEGER PRIMARY KEY, stage TEXT, weight INTEGER);
            CREATE TABLE parcel_log (id INTEGER PRIMARY KEY, parcel_id INTEGER, entry TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO parcel SELECT i, CASE WHEN i % 25 = 0 THEN 'out' ELSE 'home' END, i % 50 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000) INSERT INTO parcel_log SELECT i, 1 + i % 5000, 'e' FROM n;
            CREATE TRIGGER parcel_stage AFTER UPDATE OF stage ON parcel BEGIN UPDATE parcel_log SET entry = NEW.stage WHERE parcel_id = NEW.id; END;
            """)
        let before = try store.fileState()
        var text = ""
        for id in 70_001...70_010 { text += "UPDATE parcel SET stage = 'delivered' WHERE id = \(id) AND stage = 'out' AND weight >= 25;\n" }
        for id in 80_001...80_006 { text += "UPDATE parcel SET stage = 'lost' WHERE id = \(id) AND stage = 'archived';\n" }
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        #expect(try store.fileState() == before)
        let delivered = try #require(result.statements.first { $0.sql.contains("'delivered'") })
        let lost = try #require(result.statements.first { $0.sql.contains("'lost'") })
        let onStore = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let timed = try #require(delivered.timedExecutions)
        #expect(!timed.isEmpty)
        for execution in timed {
            // The app's other conditions stay, and the row taken meets them: every 50th parcel from the 25th.
            #expect(execution.sql.hasSuffix("AND stage = 'out' AND weight >= 25"), "\(execution.sql)")
            let id = try #require(execution.sql.components(separatedBy: "id = ").last.flatMap { Int64($0.prefix { $0.isNumber }) })
            #expect(id % 50 == 25 && id <= 5_000, "\(execution.sql)")
            #expect(try onStore.scalar("SELECT count(*) FROM parcel WHERE id = ? AND stage = 'out' AND weight >= 25", [.integer(id)]) == .integer(1))
        }
        #expect(delivered.notes.contains { $0.text.contains("match no row of parcel") && $0.text.contains("a row the write changes") }, "\(delivered.notes.map(\.text))")
        #expect(result.recommendations.contains { $0.table == "parcel_log" && $0.columns.map(\.name) == ["parcel_id"] }, "\(result.recommendations.map(\.sql))")
        // No parcel is 'archived': the app's own ids stay, and the note says the write changes no row.
        for execution in lost.timedExecutions ?? [] {
            let id = try #require(execution.sql.components(separatedBy: "id = ").last.flatMap { Int($0.prefix { $0.isNumber }) })
            #expect((80_001...80_006).contains(id), "\(execution.sql)")
        }
        #expect(lost.notes.contains { $0.text.contains("no existing row tried is one the write changes (none meets its other conditions on stage") }, "\(lost.notes.map(\.text))")
        #expect(!lost.notes.contains { $0.text.contains("a row the write changes") })
    }

    @Test("the other conditions a row is drawn by: each comparison, and one column's IN values as one list")
    func conditionFilter() {
        let targets = [ParameterTarget(parameter: 2, table: "parcel", column: "weight", op: .in),
                       ParameterTarget(parameter: 1, table: "parcel", column: "stage", op: .equal),
                       ParameterTarget(parameter: 3, table: "parcel", column: "weight", op: .in),
                       ParameterTarget(parameter: 4, table: "parcel", column: "label", op: .like),
                       ParameterTarget(parameter: 5, table: "parcel", column: "id", op: .limit)]
        let filter = BindingSampler.filter(targets, values: [.text("out"), .integer(5), .integer(9), .text("A%"), .integer(3)])
        #expect(filter?.text == "\"stage\" = ? AND \"label\" LIKE ? AND \"weight\" IN (?, ?)")
        #expect(filter?.values == [.text("out"), .text("A%"), .integer(5), .integer(9)])
        #expect(BindingSampler.filter([targets[4]], values: [.null, .null, .null, .null, .integer(3)]) == nil)
    }

    @Test("an UPDATE of a row the store holds keeps the workload's own key")
    func existingKeyKept() throws {
        let store = try FixtureStore("""
            CREATE TABLE ticket (id INTEGER PRIMARY KEY, state TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO ticket SELECT i, 'open' FROM n;
            """)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("UPDATE ticket SET state = 'closed' WHERE id = 77;\n", file: "w.sql", format: .sql),
                                         options: quickOptions())
        let update = try #require(result.statements.first)
        #expect(update.timedExecutions?.first?.sql.contains("id = 77") == true, "\(update.timedExecutions?.map(\.sql) ?? [])")
        #expect(!update.notes.contains { $0.text.contains("match no row") })
    }
}
