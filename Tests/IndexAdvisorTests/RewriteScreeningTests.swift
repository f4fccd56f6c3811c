import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 18: a query rewrite the counters do not advise is not timed in full.
@Suite("Query rewrites screened on one pass")
struct RewriteScreeningTests {
    static let storeSQL = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, flag INTEGER, title TEXT, copy INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO item SELECT i, i % 500, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 3 END, 'title ' || i, i FROM n;
        CREATE INDEX item_owner ON item(owner);
        """

    @Test("with screening, a rewrite its one pass does not advise is not timed again; one it advises gets the full timing")
    func rewriteScreening() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        var full = StatementTimer(connection: snapshot.connection)
        full.repeats = 5
        full.agreement = 0
        var screening = full
        screening.repeats = 0
        var rewrites = QueryRewrites(snapshot: snapshot, schema: try SchemaReader.read(from: snapshot.connection), timer: full)
        rewrites.screening = screening
        let sql = "SELECT id FROM item WHERE owner = 7"
        let rejected = try rewrites.timeRewrite(sql, samples: [], isAdvised: { _ in false })
        #expect(rejected.runs == 1)
        let advised = try rewrites.timeRewrite(sql, samples: [], isAdvised: { _ in true })
        #expect(advised.runs == 5)
        #expect(advised.vmStepsPerExecution == rejected.vmStepsPerExecution)
        rewrites.screening = nil
        #expect(try rewrites.timeRewrite(sql, samples: [], isAdvised: { _ in false }).runs == 5)
    }
}
