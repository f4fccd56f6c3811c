import CSQLite
import Foundation
import Testing
@testable import IndexAdvisor

/// Inputs that cannot run away (issue 39; hostile round 7, F2 and F7): a statement longer than indexadvisor reads
/// is set aside, counted and kept for `check`, which fails it when it is hot; a statement nested deeper than
/// SQLite parses is set aside before any of indexadvisor's work on it, and that work is linear in the nesting.
@Suite("input bounds")
struct InputBoundsTests {
    /// `WHERE k = 0 AND (k = 1 AND (k = 2 … ))`, `depth` parentheses deep.
    static func nested(_ depth: Int, table: String = "reading") -> String {
        "SELECT id FROM \(table) WHERE k = 0" + (1...depth).map { " AND (k = \($0)" }.joined() + String(repeating: ")", count: depth)
    }

    @Test("the bounds are the ones SQLite reports on a connection of its own")
    func limitsAreSQLites() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(SQLiteLimits.sqlLength == Int(sqlite3_limit(connection.handle, SQLITE_LIMIT_SQL_LENGTH, -1)))
        #expect(SQLiteLimits.expressionDepth == Int(sqlite3_limit(connection.handle, SQLITE_LIMIT_EXPR_DEPTH, -1)))
        #expect(SQLScriptReader.keptStatementBytes == min(16 << 20, SQLiteLimits.sqlLength))
    }

    @Test("a statement past the length indexadvisor reads is set aside with its reason, its line and its frequency")
    func longStatementSetAside() throws {
        let values = (0..<2_300_000).map { String($0 * 7) }.joined(separator: ",")
        let long = "SELECT sum(w) FROM reading WHERE k IN (\(values))"
        #expect(long.utf8.count > SQLScriptReader.keptStatementBytes)
        let workload = WorkloadLoader.parse("""
            -- freq: 250
            \(long);
            SELECT w FROM reading WHERE id = 9; -- freq: 3
            \(long); -- freq: 40
            """, file: "bulk.sql", format: .sql)
        let reason = "statement longer than 16 MB, the most indexadvisor reads of one statement: it is not checked"
        #expect(workload.statements.map(\.count) == [3])
        #expect(workload.diagnostics.statementsRead == 3)
        #expect(workload.diagnostics.skipped == [reason: 2])
        let setAside = try #require(workload.diagnostics.setAside.first)
        #expect(workload.diagnostics.setAside.count == 1)
        // The two occurrences are one statement: 250 + 40 executions, first seen on line 2.
        #expect(setAside.count == 290)
        #expect(setAside.location == "bulk.sql:2")
        #expect(setAside.reason == reason)
        #expect(setAside.excerpt.hasPrefix("SELECT sum(w) FROM reading WHERE k IN (0,7,14,"))
        #expect(setAside.excerpt.utf8.count <= SetAsideStatement.excerptBytes)
        #expect(workload.diagnostics.examples.first == "bulk.sql:2: \(reason)")
    }

    @Test("check fails a hot statement it could not read, and passes a cold one with no word lost from the summary")
    func checkFailsHotSetAside() throws {
        let store = try FixtureStore("""
            CREATE TABLE reading (id INTEGER PRIMARY KEY, k INTEGER, w INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO reading SELECT i, i % 300, i FROM n;
            """)
        let values = (0..<2_300_000).map { String($0 * 3) }.joined(separator: ",")
        func check(frequency: Int) throws -> [CheckProblem] {
            let workload = WorkloadLoader.parse("""
                -- freq: \(frequency)
                SELECT sum(w) FROM reading WHERE k IN (\(values));
                -- freq: 500
                SELECT w FROM reading WHERE id = 12;
                """, file: "hot.sql", format: .sql)
            let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
            #expect(result.workload.setAside?.map(\.count) == [frequency])
            return CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds())
        }
        let hot = try check(frequency: 1_500).filter(\.isFailure)
        #expect(hot.map(\.kind) == [.statementFailed])
        #expect(hot.first?.statement == "hot.sql:2")
        #expect(hot.first?.message.hasPrefix("hot.sql:2 cannot be checked: statement longer than 16 MB") == true, "\(hot.map(\.message))")
        #expect(hot.first?.message.contains("(×1,500, 75% of the workload's executions)") == true, "\(hot.map(\.message))")
        // 5 of 505 executions: under 5 %, as for any statement that cannot be timed.
        #expect(try check(frequency: 5).filter(\.isFailure).isEmpty)
    }

    @Test("a statement nested 5,000 deep is set aside as SQLite refuses it; one within the limit is read")
    func deepStatementSetAside() throws {
        let reason = "statement nested deeper than SQLite's expression depth limit of \(Figures.count(SQLiteLimits.expressionDepth)) (SQLITE_LIMIT_EXPR_DEPTH): SQLite refuses it"
        let workload = WorkloadLoader.parse("""
            -- freq: 70
            \(Self.nested(5_000));
            \(Self.nested(SQLiteLimits.expressionDepth - 1, table: "gauge"));
            """, file: "deep.sql", format: .sql)
        #expect(workload.diagnostics.skipped == [reason: 1])
        #expect(workload.diagnostics.setAside.map(\.count) == [70])
        #expect(workload.diagnostics.setAside.first?.location == "deep.sql:2")
        #expect(workload.statements.map(\.tables) == [["gauge"]])
        // The same through a JSON Lines workload: every reader resolves through the builder.
        let jsonl = WorkloadLoader.parse(#"{"sql": "\#(Self.nested(3_000))", "count": 4}"#, file: "deep.jsonl", format: .jsonl)
        #expect(jsonl.diagnostics.setAside.map(\.count) == [4])
        #expect(jsonl.statements.isEmpty)
    }

    @Test("the nesting is measured, and every parenthesis matched, in one pass: no scan per level")
    func nestingIsLinear() {
        for depth in [5_000, 10_000] {
            let normalized = Fingerprinter.normalize(Self.nested(depth))
            #expect(normalized.nesting == depth)
            let list = SQLTokenList(Self.nested(depth))
            // Every `(` has its match from the one pass that made the list: matchingParenthesis(from:) scans nothing.
            let opens = (0..<list.count).filter { list.isSymbol($0, "(") }
            #expect(opens.count == depth)
            #expect(opens.allSatisfy { list.closingIndex(of: $0) != nil })
            // The outermost closes at the last `)`, the innermost at the first.
            #expect(list.closingIndex(of: opens[0]) == list.count - 1)
            #expect(list.closingIndex(of: opens[depth - 1]) == opens[depth - 1] + 4)
            #expect(list.matchingParenthesis(from: opens[depth / 2]) == list.count - 1 - depth / 2)
        }
        // An unclosed `(` closes at the last token, as the scan it replaces said.
        let open = SQLTokenList("SELECT (1 + (2)")
        #expect(open.closingIndex(of: 1) == open.count - 1)
        #expect(open.matchingParenthesis(from: 4) == 6)
    }

    @Test("IN lists and VALUES rows still collapse, nested ones too, with the lists read once")
    func listsCollapse() {
        func text(_ sql: String) -> String { Fingerprinter.normalize(sql).fingerprint.text }
        #expect(text("SELECT * FROM t WHERE a IN (1, -2, +3) AND b IN (4)") == "SELECT * FROM T WHERE A IN ( ?+ ) AND B IN ( ?+ )")
        #expect(text("SELECT * FROM t WHERE a IN (b IN (1, 2))") == "SELECT * FROM T WHERE A IN ( B IN ( ?+ ) )")
        #expect(text("SELECT * FROM t WHERE a IN (1, b)") == "SELECT * FROM T WHERE A IN ( ? , B )")
        #expect(text("INSERT INTO t VALUES (1, 2), (3, 4), (5, 6)") == "INSERT INTO T VALUES ( ? , ? ) , …")
        #expect(text("INSERT INTO t VALUES (1, (2)") == "INSERT INTO T VALUES ( ? , ( ? )")
        let deep = Fingerprinter.normalize("SELECT 1 FROM t WHERE " + String(repeating: "a IN (", count: 4_000) + "1" + String(repeating: ")", count: 4_000))
        #expect(deep.nesting == 4_000)
        #expect(deep.fingerprint.text.hasSuffix("A IN ( ?+ )" + String(repeating: " )", count: 3_999)))
    }
}
