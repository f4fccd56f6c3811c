import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F16 and F22: a write timed changing no row (the snapshot holds none of the rows the app's
/// values select) ran none of its triggers, so its time says nothing of their work, and neither does its
/// share of the workload's executions: 30 such UPDATEs among 970 cheap lookups are 3 % of the executions and
/// in the app nearly all of the time. `check` fails every problem in such a write's programs, an automatic
/// index as well as a full scan, whatever its share.
@Suite("A write timed as a no-op fails check on its triggers' problems, whatever its share")
struct NoOpWriteProgramTests {
    static let schema = """
        CREATE TABLE ticket (id INTEGER PRIMARY KEY, queue INTEGER NOT NULL, code TEXT NOT NULL, state TEXT NOT NULL);
        CREATE INDEX ticket_queue ON ticket(queue);
        CREATE TABLE event_log (id INTEGER PRIMARY KEY, ref TEXT NOT NULL, size INTEGER NOT NULL);
        CREATE TABLE tally (queue INTEGER PRIMARY KEY, total INTEGER, linked INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
        INSERT INTO ticket SELECT i, i % 50, 'T' || i, 'open' FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
        INSERT INTO event_log SELECT i, 'T' || (i % 5000), i % 97 FROM n;
        INSERT INTO tally SELECT DISTINCT queue, 0, 0 FROM ticket;
        CREATE TRIGGER ticket_closed AFTER UPDATE OF state ON ticket BEGIN
          UPDATE tally SET total = (SELECT sum(e.size) FROM event_log e WHERE e.ref = new.code) WHERE queue = new.queue;
          UPDATE tally SET linked = (SELECT count(*) FROM ticket t JOIN event_log e ON e.ref = t.code
                                     WHERE t.id BETWEEN new.id - 100 AND new.id + 100) WHERE queue = new.queue;
        END;
        """

    static func failures(update: String, count: Int) throws -> [CheckProblem] {
        let store = try FixtureStore(schema)
        let before = try Data(contentsOf: store.url)
        let workload = WorkloadLoader.parse("""
            -- freq: 970
            SELECT state FROM ticket WHERE id = 321;
            -- freq: \(count)
            \(update);
            """, file: "tickets.sql", format: .sql)
        let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(try Data(contentsOf: store.url) == before)
        return CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
    }

    @Test("30 no-op UPDATEs, 3 % of the executions: the trigger's scan and its automatic index both fail")
    func noOpFails() throws {
        let failures = try Self.failures(update: "UPDATE ticket SET state = 'closed' WHERE queue = 999", count: 30)
        #expect(failures.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.automaticIndex, .fullTableScan])
        let messages = failures.map(\.message).joined(separator: "\n")
        #expect(messages.contains("S2 full table scan of event_log in a trigger (60,000 rows; ×30, 3% of the workload's executions; it changed no row on the snapshot"), "\(messages)")
        #expect(messages.contains("S2 builds an automatic index on event_log (ref=?) in a trigger"), "\(messages)")
    }

    @Test("the same UPDATE on rows that exist is timed doing the trigger's work: its share of the time decides")
    func realWriteByTime() throws {
        // Queue 7 holds 100 tickets: the trigger runs for each, its scans are in the write's time, which is
        // then most of the workload's, and fails by time as any hot statement's scan does.
        let failures = try Self.failures(update: "UPDATE ticket SET state = 'closed' WHERE queue = 7", count: 30)
        #expect(failures.contains { $0.kind == .fullTableScan && $0.message.contains("of event_log") && !$0.message.contains("it changed no row") })
    }
}
