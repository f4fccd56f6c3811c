import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Uniqueness proposals")
struct UniquenessProposalTests {
    // Regression (new-user trial): `playback(episodeId)`, a declared foreign key of a history table, was
    // proposed as UNIQUE ("a UNIQUE index would keep it so") because today's data happened to be distinct;
    // the app's own inserts would then fail.
    @Test("a foreign key's child column is never proposed unique; an identifier named like one still is")
    func foreignKeyChild() throws {
        let store = try FixtureStore("""
            CREATE TABLE episode (id INTEGER PRIMARY KEY, guid TEXT NOT NULL, title TEXT);
            CREATE TABLE playback (id INTEGER PRIMARY KEY, episodeId INTEGER NOT NULL REFERENCES episode(id), startedAt REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO episode SELECT i, printf('guid-%08d', i), 't' || i FROM n;
            INSERT INTO playback SELECT id, id, 1.0 * id FROM episode;
            """)
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT * FROM playback WHERE episodeId = 4242 ORDER BY startedAt DESC;
            -- freq: 100
            SELECT id FROM episode WHERE guid = 'guid-00004242';
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(!result.uniqueness.contains { $0.columns == ["episodeId"] })
        #expect(result.uniqueness.contains { $0.columns == ["guid"] && $0.origin == .proposed })
        let review = try Advisor.review(storeAt: store.url, options: quickOptions())
        #expect(!review.schemaReview.contains { $0.kind == .identityColumn && $0.columns == ["episodeId"] })
    }
}
