import Testing
import Foundation
@testable import IndexAdvisor

/// Candidates for a table as a join's outer loop (issue 15: the search must not starve the obvious candidate).
@Suite("Join outer loops")
struct JoinOuterLoopTests {
    // Regression (a new user's social app): `WHERE p.isPinned = 1 ORDER BY p.score DESC LIMIT 10` joined to the
    // authors got only keys led by the join column `authorId` (the marker run had driven the join from `post`,
    // so `authorId = u.id` looked like a filter), and the plan kept its scan and sort (by hand 430 µs, against
    // 73 µs with `.expert`'s `(isPinned, score DESC)`). Shape of my own: a recipe site's featured recipes with
    // their cooks.
    static let schema = """
        CREATE TABLE cook (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO cook SELECT i, 'cook ' || i FROM n;
        CREATE TABLE recipe (id INTEGER PRIMARY KEY, cook_id INTEGER NOT NULL, state TEXT NOT NULL, featured INTEGER NOT NULL,
                             rating REAL NOT NULL, title TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
        INSERT INTO recipe SELECT i, 1 + i % 40, CASE WHEN i % 10 = 0 THEN 'draft' ELSE 'published' END,
               CASE WHEN (i * 48271) % 2147483647 % 50 = 0 THEN 1 ELSE 0 END, (i * 16807) % 2147483647 % 1000 / 10.0, 'recipe ' || i FROM n;
        CREATE INDEX recipe_cook ON recipe(cook_id);
        """

    @Test("the featured list gets a key without the join column, read in the sort's order")
    func candidates() throws {
        let store = try FixtureStore(Self.schema)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("""
            -- freq: 200
            SELECT r.id, r.title, r.rating, c.name FROM recipe r JOIN cook c ON c.id = r.cook_id WHERE r.featured = 1 ORDER BY r.rating DESC LIMIT 10;
            -- freq: 100
            SELECT id, title FROM recipe WHERE cook_id = 3 AND state = 'draft';
            -- freq: 20
            INSERT INTO recipe(cook_id, state, featured, rating, title) VALUES (3, 'draft', 0, 0, 'new');
            """, file: "w.sql", format: .sql), options: quickOptions())
        expectTrueReport(result)
        let featured = try #require(result.statements.first)
        #expect(featured.shapeSummary?.contains("cook_id = (join)") == true, "\(featured.shapeSummary ?? "")")
        // Read in the order of the rating, no temp B-tree, and not led by the join column.
        #expect(featured.planAfter?.findings.contains { $0.kind == .tempBTree } == false, "\(featured.planAfter?.tree ?? "")")
        let used = try #require(result.recommendations.first { $0.name == featured.planAfter?.indexesUsed.first })
        #expect(used.columns.first?.name != "cook_id")
    }
}
