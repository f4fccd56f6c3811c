import Testing
@testable import IndexAdvisor

/// What the workload section says of statements that are neither reads nor writes (a breaking helper's
/// workload: a `CREATE TRIGGER` was counted among "transactions and pragmas").
@Suite("Statements set aside, in words")
struct SetAsideWordingTests {
    @Test("a trigger, a transaction and a pragma are set aside as statements that neither read nor write rows")
    func wording() throws {
        let result = try analyze("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER);", workload: """
            BEGIN;
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET a = 0 WHERE id = new.id; END;
            PRAGMA user_version = 3;
            COMMIT;
            SELECT id FROM t WHERE a = 1;
            """)
        let markdown = checkedRender(result, .markdown)
        #expect(markdown.contains("4 executions set aside that neither read nor write rows (transactions, pragmas, schema changes)"))
        #expect(!markdown.contains("transactions and pragmas set aside"))
    }
}
