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
