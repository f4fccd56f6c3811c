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

/// Regression (a breaking helper): a trigger body with `CASE … END;` inside was split at that `END;`, and
/// the body's own `END;` was counted as a COMMIT.
@Suite("A trigger body ends at its own END, not a CASE's")
struct TriggerBodyTests {
    @Test("CASE … END inside a trigger body, on one line and over several, keeps the trigger one statement")
    func caseInsideTrigger() {
        let workload = WorkloadLoader.parse("""
            CREATE TRIGGER stock_guard BEFORE UPDATE ON item BEGIN
              SELECT CASE WHEN new.qty < 0 THEN RAISE(ABORT, 'negative stock') END;
              UPDATE shelf SET label = CASE new.kind WHEN 1 THEN 'cold' ELSE CASE WHEN new.qty = 0 THEN 'empty' END END WHERE id = new.shelf_id;
            END;
            -- freq: 12
            SELECT * FROM item WHERE shelf_id = 4;
            CREATE TEMP TRIGGER t AFTER DELETE ON item BEGIN DELETE FROM tag WHERE item_id = CASE WHEN old.id > 0 THEN old.id END; END;
            SELECT count(*) FROM item WHERE qty = 0;
            """, file: "shop.sql", format: .sql)
        #expect(workload.statements.map(\.kind) == [.schema, .select, .schema, .select])
        #expect(workload.statements.map(\.count) == [1, 12, 1, 1])
        #expect(workload.statements[0].sql.split(whereSeparator: \.isWhitespace).joined(separator: " ").hasSuffix("WHERE id = new.shelf_id; END"))
        #expect(workload.transactions.commits == 0)
    }
}
