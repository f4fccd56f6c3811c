import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F6, F7 and F11: a plan row names a table by its alias, and the alias map was read from the
/// statement's text in one scope, up to the first `)`: an alias reused in a subquery named the small table for
/// the large one's scan, a view's own aliases were unknown (`SCAN b` read as no table), and a table inside or
/// after a parenthesis of the FROM clause was never mapped. Each hid a 300,000-row scan from `check`.
@Suite("Plan rows name the right table: aliases across scopes, join groups and views")
struct PlanRowTableTests {
    @Test("one alias in two scopes stands for both tables, and the planner takes the larger")
    func aliasInTwoScopes() {
        let tokens = SQLTokenList("SELECT q.id FROM orders q WHERE q.state = 1 AND q.kind IN (SELECT q.kind FROM tiny q WHERE q.id < 5)")
        #expect(tokens.tableAliasCandidates()["q"] == ["orders", "tiny"])
        #expect(tokens.tableAliases(rows: { ["orders": 50_000, "tiny": 8][$0] ?? 0 })["q"] == "orders")
        #expect(tokens.tableAliases(rows: { ["orders": 8, "tiny": 50_000][$0] ?? 0 })["q"] == "tiny")
        // Without row counts, the first named.
        #expect(tokens.tableAliases()["q"] == "orders")
    }

    @Test("join groups, lists that go on after a subquery or a parenthesised condition, and calls")
    func parentheses() {
        let group = SQLTokenList("SELECT 1 FROM aa a JOIN (bb x JOIN cc y ON y.k = x.k) ON x.k = a.k").tableAliasCandidates()
        #expect(group["x"] == ["bb"])
        #expect(group["y"] == ["cc"])
        let list = SQLTokenList("SELECT 1 FROM aa a, (SELECT id FROM dd LIMIT 1) z, ee w WHERE w.k = a.k").tableAliasCandidates()
        #expect(list["w"] == ["ee"])
        #expect(list["dd"] == ["dd"])
        #expect(list["z"] == nil)
        #expect(SQLTokenList("SELECT 1 FROM (ff g) WHERE g.k = 2").tableAliasCandidates()["g"] == ["ff"])
        let condition = SQLTokenList("SELECT 1 FROM aa a JOIN s2 s ON (s.k = a.k), gg h WHERE h.k = s.k").tableAliasCandidates()
        #expect(condition["h"] == ["gg"])
        #expect(condition["s"] == ["s2"])
        #expect(condition.keys.sorted() == ["a", "aa", "gg", "h", "s", "s2"])
        // A table-valued function's argument is no table.
        #expect(SQLTokenList("SELECT j.value FROM note t, json_each(t.tags) j").tableAliasCandidates()["t"] == ["note"])
    }

    static let schema = """
        CREATE TABLE widget (id INTEGER PRIMARY KEY, color TEXT, size INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
        INSERT INTO widget SELECT i, 'c' || (i % 90), i % 60 FROM n;
        CREATE TABLE tiny (id INTEGER PRIMARY KEY, color TEXT, size INTEGER);
        INSERT INTO tiny SELECT id, color, size FROM widget WHERE id <= 9;
        CREATE VIEW smallish AS SELECT w.id, w.color, w.size FROM widget w WHERE w.size < 40;
        CREATE VIEW disguised AS SELECT tiny.id, tiny.color FROM widget AS tiny;
        CREATE VIEW layered AS SELECT s.id, s.color FROM smallish s WHERE s.size > 3;
        """

    @Test("the planner's findings: the scan of widget under each disguise, with its 4,000 rows")
    func planner() throws {
        let store = try FixtureStore(Self.schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let planner = QueryPlanner(connection: connection, schema: try SchemaReader.read(from: connection))
        for sql in [
            "SELECT t0.id FROM widget t0 WHERE t0.color = 'c7' AND t0.size IN (SELECT t0.size FROM tiny t0 WHERE t0.id < 5)",
            "SELECT id FROM smallish WHERE color = 'c7'",
            "SELECT id FROM disguised WHERE color = 'c8'",
            "SELECT id FROM layered WHERE color = 'c9'",
            "SELECT w.id FROM tiny t JOIN (widget w JOIN tiny u ON u.id = w.size) ON w.size = t.size WHERE w.color = 'c3'",
            "SELECT w.id FROM (widget w) WHERE w.color = 'c4'",
        ] {
            let scans = try planner.plan(for: sql).findings.filter(\.isFullScan)
            #expect(scans.map(\.table) == ["widget"], "\(sql)")
            #expect(scans.map(\.tableRows) == [4000], "\(sql)")
        }
    }
}
