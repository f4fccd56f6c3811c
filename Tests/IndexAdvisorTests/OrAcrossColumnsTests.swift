import Foundation
import Testing
@testable import IndexAdvisor

/// An OR across columns is served only by an index for every branch (a MULTI-INDEX OR): no single index
/// changes its plan, so the branches' indexes are tried as a set (held-out case: a music player's favourites
/// joined on any of three paths; these are shapes of my own).
@Suite("OR across columns gets an index per branch")
struct OrAcrossColumnsTests {
    /// A mailbox: a conversation list reads a user's messages, sent or received.
    static let mail = """
        CREATE TABLE message (id INTEGER PRIMARY KEY, sender INTEGER NOT NULL, recipient INTEGER NOT NULL,
                              sent REAL NOT NULL, body TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
        INSERT INTO message SELECT i, 1 + (i * 7919) % 2000, 1 + (i * 104729) % 2000, 800000000.0 + i, 'text ' || i FROM n;
        """

    @Test("WHERE sender = ? OR recipient = ? gets both single-column indexes and loses its full scan")
    func singleTable() throws {
        let result = try analyze(Self.mail, workload: """
            -- freq: 300
            SELECT id, sent FROM message WHERE sender = 17 OR recipient = 17;
            -- freq: 20
            INSERT INTO message(sender, recipient, sent, body) VALUES (3, 4, 900000000.0, 'hi');
            """)
        let read = try #require(result.statements.first)
        #expect(read.planBefore?.findings.contains { $0.kind == .fullTableScan } == true)
        #expect(read.planAfter?.findings.contains { $0.kind == .fullTableScan } == false)
        #expect(read.planAfter?.findings.contains { $0.kind == .multiIndexOr } == true)
        #expect(Set(result.recommendations.map { "\($0.table)(\($0.columns.map(\.name).joined(separator: ", ")))" })
                == ["message(sender)", "message(recipient)"])
        #expect(read.weightedSecondsAfter < read.weightedSecondsBefore / 10)
        _ = checkedRender(result, .markdown)
    }

    /// Orders found by any of two reference columns of a shipment: a join whose condition ORs two columns.
    static let shipping = """
        CREATE TABLE parcel (id INTEGER PRIMARY KEY, tracking TEXT NOT NULL, return_tracking TEXT, weight REAL);
        CREATE TABLE scan (id INTEGER PRIMARY KEY, code TEXT NOT NULL, at REAL NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO parcel SELECT i, printf('T%08d', i), CASE WHEN i % 4 = 0 THEN printf('R%08d', i) END, i % 50 FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
        INSERT INTO scan SELECT i, CASE WHEN i % 2 = 0 THEN printf('T%08d', i * 97) ELSE printf('R%08d', i * 4 * 31) END, 1000.0 + i FROM n;
        """

    @Test("a join ON a = x OR b = x gets an index on each column the OR names")
    func joinCondition() throws {
        let result = try analyze(Self.shipping, workload: """
            -- freq: 100
            SELECT p.id, p.weight, s.at FROM scan s JOIN parcel p ON (p.tracking = s.code OR p.return_tracking = s.code);
            """)
        let read = try #require(result.statements.first)
        #expect(read.planBefore?.findings.contains { $0.kind == .fullTableScan && $0.table == "parcel" } == true)
        #expect(read.planAfter?.findings.contains { $0.kind == .fullTableScan && $0.table == "parcel" } == false)
        let parcel = result.recommendations.filter { $0.table == "parcel" }.map { $0.columns.map(\.name) }
        #expect(Set(parcel) == [["tracking"], ["return_tracking"]])
        #expect(read.weightedSecondsAfter < read.weightedSecondsBefore / 10)
    }
}

/// An OR whose other branch a pick for another statement serves already (a new user's reviews by user or by recipe).
@Suite("OR across columns completed by an earlier pick")
struct OrCompletedByPickTests {
    static let reviews = """
        CREATE TABLE review (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, recipe_id INTEGER NOT NULL, stars INTEGER NOT NULL,
                             created REAL NOT NULL, body TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
        INSERT INTO review SELECT i, 1 + (i * 7919) % 5000, 1 + (i * 104729) % 8000, 1 + i % 5, 1600000000.0 + i * 60, 'review ' || i FROM n;
        """

    @Test("WHERE user_id = ? OR recipe_id = ? gets (user_id) beside the (recipe_id, stars) another statement got, and its full scan goes")
    func completedByPick() throws {
        let result = try analyze(Self.reviews, workload: """
            -- freq: 300
            SELECT recipe_id, AVG(stars), COUNT(*) FROM review WHERE recipe_id IN (10, 20, 30, 40) GROUP BY recipe_id;
            -- freq: 100
            SELECT * FROM review WHERE user_id = 55 OR recipe_id = 1234 ORDER BY created DESC LIMIT 40;
            """)
        let or = try #require(result.statements.last)
        #expect(or.planBefore?.findings.contains { $0.kind == .fullTableScan } == true)
        #expect(or.planAfter?.findings.contains { $0.kind == .fullTableScan } == false)
        let keys = Set(result.recommendations.map { $0.columns.map(\.name) })
        #expect(keys.contains(["user_id"]))
        #expect(keys.contains { $0.first == "recipe_id" })
        #expect(or.weightedSecondsAfter < or.weightedSecondsBefore / 10)
    }
}
