import Testing
import Foundation
@testable import IndexAdvisor

/// The final plans a report shows are the plans of the store with its migration applied (issue 15: timing
/// fidelity). Among indexes it rates equal SQLite takes the one created last, and the review of existing
/// indexes drops and rebuilds each index it measures, which makes it the newest and loses its statistics.
@Suite("Final plans are the migration's plans")
struct IndexOrderTests {
    /// A forum's posts with many single-column indexes and a few compound ones, some redundant, one on a flag
    /// the planner misuses (shape of my own, after the generalization suite's mature-chat pair, where the
    /// analysis planned an unread count through `(thread_id, id)` after its drops while the migrated store uses
    /// the `is_read` index, 22 times faster, and the advice then took all four drops back).
    static func schema(analyzed: Bool) -> String {
        """
        CREATE TABLE post (id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, author_id INTEGER NOT NULL, kind INTEGER NOT NULL,
                           is_seen INTEGER NOT NULL, is_hidden INTEGER NOT NULL, posted REAL NOT NULL, body TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9000)
        INSERT INTO post SELECT i, CASE WHEN (i * 16807) % 2147483647 % 3 = 0 THEN 1 ELSE 2 + i % 700 END, 1 + (i * 48271) % 2147483647 % 400,
               CASE WHEN (i * 69621) % 2147483647 % 100 < 75 THEN 0 ELSE 1 + i % 2 END, CASE WHEN i > 8850 THEN 0 ELSE 1 END,
               CASE WHEN i % 37 = 0 THEN 1 ELSE 0 END, 700000000 + i * 30.0, 'post body ' || i FROM n;
        CREATE INDEX post_topic ON post(topic_id);
        CREATE INDEX post_topic_id ON post(topic_id, id);
        CREATE INDEX post_author ON post(author_id);
        CREATE INDEX post_kind ON post(kind);
        CREATE INDEX post_seen ON post(is_seen);
        CREATE INDEX post_hidden ON post(is_hidden);
        CREATE INDEX post_posted ON post(posted);
        CREATE INDEX post_topic_posted ON post(topic_id, posted);
        CREATE INDEX post_author_posted ON post(author_id, posted);
        CREATE INDEX post_kind_posted ON post(kind, posted);
        \(analyzed ? "ANALYZE;" : "")
        """
    }

    static let workload = """
        -- freq: 400
        SELECT COUNT(*) FROM post WHERE topic_id = 1 AND kind = 0 AND is_seen = 0 AND id <= 9000;
        -- freq: 200
        SELECT id, author_id, body FROM post WHERE topic_id = 1 AND is_hidden = 0 AND id < 8900 ORDER BY id DESC LIMIT 50;
        -- freq: 50
        SELECT id, posted FROM post WHERE author_id = 3 ORDER BY posted DESC LIMIT 20;
        -- freq: 300
        INSERT INTO post(topic_id, author_id, kind, is_seen, is_hidden, posted, body) VALUES (1, 3, 0, 0, 0, 700300000.0, 'hello');
        -- freq: 300
        UPDATE post SET is_seen = 1 WHERE id = 8990;
        """

    @Test("each statement's final plan is its plan on a copy of the store with the report's migration applied", arguments: [false, true])
    func finalPlansAreTheMigrations(analyzed: Bool) throws {
        let store = try FixtureStore(Self.schema(analyzed: analyzed))
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql),
                                         options: quickOptions())
        let migrated = try store.migratedCopy(by: result)
        let planner = QueryPlanner(connection: migrated, schema: try SchemaReader.read(from: migrated))
        for statement in result.statements where statement.error == nil && statement.kind.isRead {
            let plan = try planner.plan(for: statement.sql, bindings: [])
            #expect(plan.steps.map(\.detail) == statement.planAfter?.steps.map(\.detail), "\(statement.sql)")
        }
    }
}
