import Testing
import Foundation
@testable import IndexAdvisor

/// The statements timed are the statements the app runs, with the values it runs them with.
@Suite("Timing fidelity: the app's text, its values, ranges that select rows, writes that run")
struct TimingFidelityTests {
    // Regression (a new user's store): with `LIMIT ?` in place of `LIMIT 20`, SQLite joined the other way
    // round (SCAN p, SEARCH a), and that plan was reported and timed as the app's.
    @Test("a statement with literals is planned as the app wrote it: the join order the sqlite3 shell gives")
    func limitLiteral() throws {
        let schema = """
            CREATE TABLE ZAUTHOR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHANDLE VARCHAR, ZNAME VARCHAR);
            CREATE TABLE ZPOST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR INTEGER, ZCREATEDAT TIMESTAMP, ZTITLE VARCHAR);
            CREATE INDEX ZPOST_ZAUTHOR_INDEX ON ZPOST (ZAUTHOR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 2000)
            INSERT INTO ZAUTHOR SELECT i, 1, 1, 'user' || i, 'Name ' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 60000)
            INSERT INTO ZPOST SELECT i, 2, 1, 1 + (i * 7919) % 2000, 700000000 + i * 60.0, 'post ' || i FROM n;
            """
        let text = "SELECT p.Z_PK, p.ZTITLE FROM ZPOST p JOIN ZAUTHOR a ON a.Z_PK = p.ZAUTHOR WHERE a.ZHANDLE = 'user42' ORDER BY p.ZCREATEDAT DESC LIMIT 20"
        let result = try analyze(schema, workload: "-- freq: 300\n\(text);\n")
        let statement = try #require(result.statements.first)
        #expect(statement.planBefore?.findings.map(\.detail) == ["SCAN a", "SEARCH p USING INDEX ZPOST_ZAUTHOR_INDEX (ZAUTHOR=?)", "USE TEMP B-TREE FOR ORDER BY"])
        // The same as EXPLAIN QUERY PLAN of the text itself, as the shell runs it.
        let store = try FixtureStore(schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let shell = try connection.query("EXPLAIN QUERY PLAN \(text)").compactMap { $0.last?.textValue }
        #expect(statement.planBefore?.findings.map(\.detail) == shell)
        // With `LIMIT ?` the planner reads the tables the other way round: the literal matters.
        let parameterized = try connection.query("EXPLAIN QUERY PLAN \(statement.parameterizedSQL)").compactMap { $0.last?.textValue }
        #expect(parameterized != shell)
    }

    @Test("value sets become the app's texts: literals written back, the app's own placeholders kept")
    func literalTexts() throws {
        let workload = WorkloadLoader.parse("""
            SELECT id FROM t WHERE a = 'it''s' AND b > -5 AND c = x'00ff' ORDER BY d LIMIT 20;
            SELECT id FROM t WHERE a = 'other' AND b > -7 AND c = x'01' ORDER BY d LIMIT 50;
            """, file: "w.sql", format: .sql)
        let statement = try #require(workload.statements.first)
        #expect(workload.statements.count == 1)
        let executions = LiteralExecutions.executions(for: statement, samples: statement.observedBindings)
        #expect(executions.map(\.sql) == ["SELECT id FROM t WHERE a = 'it''s' AND b > -5 AND c = x'00ff' ORDER BY d LIMIT 20",
                                          "SELECT id FROM t WHERE a = 'other' AND b > -7 AND c = x'01' ORDER BY d LIMIT 50"])
        // A negative value where the text has no minus stays one operand.
        #expect(LiteralExecutions.literal(.integer(-5)) == "(-5)")
        #expect(executions.allSatisfy { $0.values.isEmpty })
        // A placeholder the app bound stays a parameter.
        let bound = try #require(WorkloadLoader.parse("SELECT id FROM t WHERE a = ? LIMIT 10;", file: "w.sql", format: .sql).statements.first)
        let mixed = LiteralExecutions.executions(for: bound, samples: [[.text("x"), .integer(10)]])
        #expect(mixed == [Execution(sql: "SELECT id FROM t WHERE a = ? LIMIT 10", values: [.text("x")])])
    }

    // Regression (shared repro range-bounds): both bounds came from one drawn row, so every range was
    // [v, v) and selected nothing; the index looked 1000× better than it is.
    @Test("drawn ranges select rows, and the time after the index is within 2× of a one-week range timed by hand")
    func rangeBounds() throws {
        let schema = """
            CREATE TABLE ZRECORDING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISSTARRED INTEGER, ZRECORDEDAT TIMESTAMP, ZVENUE VARCHAR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 80000)
            INSERT INTO ZRECORDING SELECT i, 1, 1, (i % 4 = 0), 700000000 + i * 900.0, 'venue ' || (i % 300) FROM n;
            """
        let result = try analyze(schema, workload: """
            -- freq: 100
            SELECT 0, t0.Z_PK, t0.ZRECORDEDAT, t0.ZVENUE FROM ZRECORDING t0 WHERE ( t0.ZRECORDEDAT >= ? AND  t0.ZRECORDEDAT < ?) ORDER BY t0.ZRECORDEDAT;
            -- freq: 20
            INSERT INTO ZRECORDING (Z_PK, Z_ENT, Z_OPT, ZISSTARRED, ZRECORDEDAT, ZVENUE) VALUES (?, ?, ?, ?, ?, ?);
            """)
        let range = try #require(result.statements.first)
        let before = try #require(range.timingBefore), after = try #require(range.timingAfter)
        #expect(before.rowsPerExecution >= 10)
        #expect(before.rowsPerExecution <= 1_000)
        let top = try #require(result.recommendations.first)
        #expect(top.columns.first?.name == "ZRECORDEDAT")
        // By hand: the advised index, then one week (672 rows) timed on the same cost source.
        let store = try FixtureStore(schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readWrite)
        try connection.execute(top.sql)
        var timer = StatementTimer(connection: connection)
        timer.costSource = .sqliteCounters
        let week = try timer.time("SELECT 0, t0.Z_PK, t0.ZRECORDEDAT, t0.ZVENUE FROM ZRECORDING t0 WHERE ( t0.ZRECORDEDAT >= 730000000 AND  t0.ZRECORDEDAT < 730604800) ORDER BY t0.ZRECORDEDAT",
                                  samples: [], isWrite: false)
        #expect(week.rowsPerExecution == 672)
        #expect(after.medianSeconds > week.medianSeconds / 2 && after.medianSeconds < week.medianSeconds * 2)
    }

    @Test("BETWEEN, a >/< pair and an IN list of drawn values select rows; IN values are distinct")
    func otherDrawnShapes() throws {
        let result = try analyze("""
            CREATE TABLE event (id INTEGER PRIMARY KEY, day INTEGER NOT NULL, kind TEXT NOT NULL, score REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 30000)
            INSERT INTO event SELECT i, 19000 + i / 37, 'k' || (i % 50), (i * 7919 % 1000) / 10.0 FROM n;
            """, workload: """
            SELECT id FROM event WHERE day BETWEEN ? AND ?;
            SELECT id FROM event WHERE score > ? AND score < ?;
            SELECT id FROM event WHERE kind IN (?, ?, ?);
            """)
        #expect(result.statements.count == 3)
        for statement in result.statements {
            let timing = try #require(statement.timingBefore)
            #expect(timing.rowsPerExecution > 0, "\(statement.sql)")
        }
        // Three distinct kinds of 600 rows each: 1,800 rows (one shared kind would give 600).
        #expect(result.statements[2].timingBefore?.rowsPerExecution ?? 0 > 1_200)
    }

    // Kind: a few logged values stand for all. One parent holds most children; a COUNT for it, once
    // indexed, still reads them all. The heavy key must be timed, weighted by its share.
    @Test("of 50 executions with skewed keys, the heavy key is timed and the advised index is judged on it")
    func heavyKey() throws {
        var lines: [String] = []
        for i in 0..<50 { lines.append("SELECT COUNT(*) FROM ZITEM WHERE ZPARENT = \(i == 37 ? 1 : 100 + i * 7);") }
        let schema = """
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPARENT INTEGER, ZTITLE VARCHAR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 60000)
            INSERT INTO ZITEM SELECT i, 1, 1, CASE WHEN i % 10 < 8 THEN 1 ELSE 2 + i % 997 END, 'item ' || i FROM n;
            """
        let result = try analyze(schema, workload: lines.joined(separator: "\n"))
        let count = try #require(result.statements.first)
        #expect(count.count == 50)
        #expect(count.valueSetsSeen == 50)
        #expect(count.valueSetsTimed ?? 0 >= 3)
        let workload = WorkloadLoader.parse(lines.joined(separator: "\n"), file: "w.sql", format: .sql)
        let statement = try #require(workload.statements.first)
        let store = try FixtureStore(schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let shape = try ShapeExtractor(schema: SchemaReader.read(from: connection)).shape(of: statement.sql)
        let heaviness = HeavyKeys.matchedRows(samples: statement.observedBindings, shape: shape,
                                              schema: try SchemaReader.read(from: connection), connection: connection)
        let chosen = ValueSetSelection.select(weights: statement.observedBindingWeights, heaviness: heaviness, limit: 12)
        #expect(chosen.count == 12)
        // Second in timing order, right after the first occurrence: parent 1, with 48,000 rows, standing
        // for its one execution; the light keys timed share the other 48.
        #expect(statement.observedBindings[chosen[1].position] == [.integer(1)])
        #expect(heaviness[chosen[1].position] == 48_000)
        #expect(chosen[1].weight == 1)
        #expect(abs(chosen.reduce(0) { $0 + $1.weight } - 50) < 1e-9)
        // Judged on it: with the index, reading parent 1's 48,000 entries once in 50 executions keeps the
        // weighted cost near 1,000 steps per execution; the small parents alone would cost tens.
        let after = try #require(count.timingAfter)
        #expect(try #require(after.vmStepsPerExecution) > 300)
        #expect(result.recommendations.first?.columns.map(\.name) == ["ZPARENT"])
    }

    // Kind: writes that fail on replay counted as free. The recorded INSERT carries the app's Z_PK, which
    // the snapshot already has.
    @Test("an INSERT whose recorded primary key exists in the store is timed with a fresh key, and its cost shows")
    func collidingInsert() throws {
        let result = try analyze("""
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZTITLE VARCHAR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 40000)
            INSERT INTO ZNOTE SELECT i, 1, 1, i % 400, 'note ' || i FROM n;
            """, workload: """
            -- freq: 200
            SELECT Z_PK, ZTITLE FROM ZNOTE WHERE ZFOLDER = 17;
            -- freq: 500
            INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZFOLDER, ZTITLE) VALUES (1234, 1, 1, 17, 'new note');
            """)
        let insert = try #require(result.statements.first { $0.kind == .insert })
        #expect(insert.error == nil)
        let timing = try #require(insert.timingBefore)
        #expect(timing.failures == 0)
        #expect(timing.rowsPerExecution == 1)
        let recommendation = try #require(result.recommendations.first)
        #expect(recommendation.writeSecondsAdded > 0)
        #expect(recommendation.effects.contains { $0.statementID == insert.id })
    }

    @Test("a write that cannot run on the snapshot is reported as not timed, and the write cost says it is incomplete")
    func failingWrite() throws {
        let result = try analyze("""
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZTITLE VARCHAR NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 40000)
            INSERT INTO ZNOTE SELECT i, 1, 1, i % 400, 'note ' || i FROM n;
            """, workload: """
            -- freq: 200
            SELECT Z_PK, ZTITLE FROM ZNOTE WHERE ZFOLDER = 17;
            -- freq: 500
            INSERT INTO ZNOTE (Z_ENT, Z_OPT, ZFOLDER, ZTITLE) VALUES (1, 1, 17, NULL);
            """)
        let insert = try #require(result.statements.first { $0.kind == .insert })
        #expect(insert.timingBefore == nil)
        #expect(insert.error?.contains("NOT NULL constraint failed") == true)
        let recommendation = try #require(result.recommendations.first)
        #expect(recommendation.notes.map(\.text).contains { $0.hasPrefix("The write cost is incomplete: S2 (INSERT INTO ZNOTE") && $0.contains("NOT NULL constraint failed") })
    }
}
