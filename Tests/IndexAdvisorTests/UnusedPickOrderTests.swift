import Testing
import Foundation
@testable import IndexAdvisor

/// A pick the planner passes over only because an equal index was created after it (issue 15).
@Suite("A pick unused only for the creation order is built last")
struct UnusedPickOrderTests {
    // Regression (the generalization suite's team store, then a league store of my own): the partial
    // `(league_id) WHERE position = 'captain'` was picked for a count of captains; the plain `(league_id)`
    // picked after it for the rosters was rated equal and, created last, taken instead (by hand: p created
    // first loses, created last wins), so the partial was dropped as unused and the count read every
    // member's row of the league (85 µs against 10 µs by hand, 400 times).
    static let schema = """
        CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL, born REAL NOT NULL);
        CREATE TABLE league (id INTEGER PRIMARY KEY, region_id INTEGER NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL);
        CREATE TABLE roster (id INTEGER PRIMARY KEY, player_id INTEGER NOT NULL REFERENCES player(id),
                             league_id INTEGER NOT NULL REFERENCES league(id), position TEXT NOT NULL, since REAL NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
        INSERT INTO player SELECT i, 'p' || i || '@club.test', 'Player ' || ((i * 7919) % 9999), 500000000.0 + i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
        INSERT INTO league SELECT i, 1 + (i * 17) % 30, 'lg-' || i, 'League ' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8000)
        INSERT INTO roster SELECT i, 1 + (i * 104729) % 2500, 1 + ((i * 7919) % 250) * ((i * 31) % 250) / 250,
            CASE WHEN (i * 48271) % 100 < 4 THEN 'captain' WHEN (i * 48271) % 100 < 20 THEN 'sub' ELSE 'regular' END,
            600000000.0 + i FROM n;
        """
    static let workload = """
        -- freq: 70
        SELECT p.name, p.email, r.position FROM league l JOIN roster r ON r.league_id = l.id JOIN player p ON p.id = r.player_id WHERE l.code = 'lg-2' ORDER BY p.name;
        -- freq: 80
        SELECT p.name, p.email, r.position FROM league l JOIN roster r ON r.league_id = l.id JOIN player p ON p.id = r.player_id WHERE l.code = 'lg-140' ORDER BY p.name;
        -- freq: 120
        SELECT l.name, r.position FROM player p JOIN roster r ON r.player_id = p.id JOIN league l ON l.id = r.league_id WHERE p.email = 'p321@club.test';
        -- freq: 400
        SELECT count(*) FROM roster r JOIN league l ON l.id = r.league_id WHERE l.region_id = 7 AND r.position = 'captain';
        -- freq: 90
        INSERT INTO roster(player_id, league_id, position, since) VALUES (1200, 5, 'regular', 700000000.0);
        """

    @Test("the partial index for the captains' count is kept, listed after the plain one, and the count's final plan uses it")
    func partialBuiltLast() throws {
        let result = try analyze(Self.schema, workload: Self.workload)
        expectTrueReport(result)
        let keys = result.recommendations.map { "(\($0.columns.map(\.name).joined(separator: ", ")))" + ($0.partialPredicate.map { " WHERE " + $0 } ?? "") }
        let partial = "(league_id) WHERE \"position\" = 'captain'"
        #expect(keys.contains(partial), "\(keys)")
        #expect(keys.contains("(league_id)"), "\(keys)")
        if let plain = keys.firstIndex(of: "(league_id)"), let last = keys.firstIndex(of: partial) { #expect(plain < last) }
        let count = try #require(result.statements.first { $0.sql.hasPrefix("SELECT count(*)") })
        let name = result.recommendations.first { $0.partialPredicate != nil }?.name
        #expect(count.planAfter?.indexesUsed.contains { $0 == name } == true, "\(count.planAfter?.steps.map(\.detail) ?? [])")
        #expect(!result.rejectedCandidates.contains { $0.rejection.kind == "unused-once-others-exist" && $0.partialPredicate != nil })
    }
}
