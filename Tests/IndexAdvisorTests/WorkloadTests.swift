import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Fingerprints")
struct FingerprintTests {
    @Test("literals become parameters and their values are kept")
    func literals() {
        let normalized = Fingerprinter.normalize("SELECT * FROM t WHERE a = 'it''s' AND b > 3.5 AND c = x'00ff' AND d = -7")
        #expect(normalized.parameterizedSQL == "SELECT * FROM t WHERE a = ? AND b > ? AND c = ? AND d = -?")
        #expect(normalized.parameterValues == [.text("it's"), .real(3.5), .blob([0, 255]), .integer(7)])
        #expect(normalized.kind == .select)
    }

    // Regression (hostile round 4, F8): bound alone, 9223372036854775808 is a REAL; after the minus it is the
    // INTEGER -2^63, so `id = -?` with it found no row where the app's text found one.
    @Test("-9223372036854775808 stays in the text; its neighbours become parameters")
    func integerMinimum() {
        let normalized = Fingerprinter.normalize("SELECT v FROM k WHERE id = -9223372036854775808 OR id = -9223372036854775807 OR id = 9223372036854775807")
        #expect(normalized.parameterizedSQL == "SELECT v FROM k WHERE id = -9223372036854775808 OR id = -? OR id = ?")
        #expect(normalized.parameterValues == [.integer(9_223_372_036_854_775_807), .integer(9_223_372_036_854_775_807)])
    }

    @Test("statements that differ only in literals, white space, keyword case and IN-list length share a fingerprint")
    func sameFingerprint() {
        let a = Fingerprinter.normalize("SELECT t0.Z_PK FROM ZNOTE t0 WHERE  t0.ZFOLDER = 17 AND t0.ZTAG IN (1, 2, 3)")
        let b = Fingerprinter.normalize("select t0.Z_PK from ZNOTE t0\nwhere t0.ZFOLDER = ? and t0.ZTAG in (?)")
        let c = Fingerprinter.normalize("SELECT t0.Z_PK FROM \"ZNOTE\" t0 WHERE t0.ZFOLDER=99 AND t0.ZTAG IN (4,5,6,7,8,9);")
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint == c.fingerprint)
        #expect(a.fingerprint.text == "SELECT T0 . Z_PK FROM ZNOTE T0 WHERE T0 . ZFOLDER = ? AND T0 . ZTAG IN ( ?+ )")
        #expect(a.fingerprint.id.count == 16)
        let other = Fingerprinter.normalize("SELECT t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER > 17")
        #expect(other.fingerprint != a.fingerprint)
    }

    @Test("ORDER BY and GROUP BY column numbers stay literal")
    func columnNumbers() {
        let normalized = Fingerprinter.normalize("SELECT a, count(*) FROM t WHERE b = 5 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10")
        #expect(normalized.parameterizedSQL == "SELECT a, count(*) FROM t WHERE b = ? GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ?")
        #expect(normalized.parameterValues == [.integer(5), .integer(10)])
    }

    @Test("multi-row VALUES collapse to one row shape")
    func values() {
        let one = Fingerprinter.normalize("INSERT INTO t(a, b) VALUES (1, 'x')")
        let three = Fingerprinter.normalize("INSERT INTO t(a, b) VALUES (1, 'x'), (2, 'y'), (3, 'z')")
        #expect(three.fingerprint.text == "INSERT INTO T ( A , B ) VALUES ( ? , ? ) , …")
        #expect(one.kind == .insert)
        #expect(three.parameterValues.count == 6)
    }

    @Test("statement kinds", arguments: [
        ("WITH x AS (SELECT 1) SELECT * FROM x", StatementKind.select),
        ("WITH x AS (SELECT 1) DELETE FROM t WHERE a IN (SELECT * FROM x)", .delete),
        ("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ?", .update),
        ("REPLACE INTO t VALUES (1)", .insert),
        ("BEGIN EXCLUSIVE", .transaction),
        ("pragma page_count", .pragma),
        ("CREATE INDEX i ON t(a)", .schema),
        ("EXPLAIN QUERY PLAN SELECT 1", .other),
    ])
    func kinds(sql: String, kind: StatementKind) {
        #expect(Fingerprinter.normalize(sql).kind == kind)
    }

    @Test("counts that would overflow saturate at Int.max")
    func saturation() {
        var builder = WorkloadBuilder()
        builder.add(sql: "SELECT 1", weight: Int.max, location: SourceRange(file: "w", firstLine: 1, lastLine: 1))
        builder.add(sql: "SELECT 2", weight: Int.max, location: SourceRange(file: "w", firstLine: 2, lastLine: 2))
        #expect(builder.build().statements.first?.count == Int.max)
    }

    @Test("a statement's parameterised SQL has the statement's fingerprint (what the recorder writes reads back as the same statement)",
          arguments: [
        "SELECT * FROM t WHERE a = 'x' AND b IN (1, -2, 3.5) ORDER BY 2 LIMIT 10 OFFSET 20",
        "INSERT INTO t(a, b) VALUES (1, x'00'), (2, NULL)",
        "UPDATE t SET a = a + 1, b = 'y' WHERE id = -7",
        "SELECT * FROM t WHERE a = :a AND b = 5",
        "PRAGMA cache_size = 200",
        "WITH c(x) AS (SELECT 1) SELECT x FROM c WHERE x > 0.5",
    ])
    func idempotent(sql: String) {
        let once = Fingerprinter.normalize(sql)
        let twice = Fingerprinter.normalize(once.parameterizedSQL)
        #expect(twice.fingerprint == once.fingerprint)
        #expect(twice.parameterizedSQL == once.parameterizedSQL)
    }

    @Test("table aliases stay names: they are neither literals nor tables, and qualify columns in the fingerprint")
    func aliases() {
        let aliased = Fingerprinter.normalize("SELECT t0.ZTITLE FROM ZNOTE t0 JOIN ZFOLDER AS t1 ON t0.ZFOLDER = t1.Z_PK WHERE t1.ZNAME = 'x'")
        #expect(aliased.fingerprint.text == "SELECT T0 . ZTITLE FROM ZNOTE T0 JOIN ZFOLDER AS T1 ON T0 . ZFOLDER = T1 . Z_PK WHERE T1 . ZNAME = ?")
        #expect(SQLTokenList(aliased.parameterizedSQL).namedTables() == ["ZNOTE", "ZFOLDER"])
        #expect(Fingerprinter.normalize("SELECT ZTITLE FROM ZNOTE").fingerprint != Fingerprinter.normalize("SELECT t0.ZTITLE FROM ZNOTE t0").fingerprint)
        #expect(SQLTokenList("WITH recent(id) AS (SELECT id FROM note) SELECT * FROM recent r, folder f WHERE r.id IN (SELECT * FROM _Z_intarray0)").namedTables() == ["note", "folder"])
        #expect(SQLTokenList("UPDATE OR FAIL \"Z PK\" SET a = 1, (b, c) = (2, 3) WHERE d = 4").updatedColumns() == ["a", "b", "c"])
        #expect(SQLTokenList("INSERT INTO main.log(a) SELECT a FROM json_each(?)").namedTables() == ["log"])
    }

    @Test("IN lists of any length, with signs, have one shape; a list of columns does not collapse")
    func inLists() {
        let shapes = ["a IN (1)", "a IN (1, 2)", "a IN (-1, +2, 3, 4, 5, 6, 7, 8, 9, 10, 11)", "a IN (?, ?)", "a IN ('x', 'y', 'z')"]
            .map { Fingerprinter.normalize("SELECT * FROM t WHERE \($0)").fingerprint }
        #expect(Set(shapes).count == 1)
        #expect(Fingerprinter.normalize("SELECT * FROM t WHERE a IN (b, c)").fingerprint != shapes[0])
    }

    @Test("statements with named parameters keep their literals (numbering would shift)")
    func namedParameters() {
        let normalized = Fingerprinter.normalize("SELECT * FROM t WHERE a = :a AND b = 5")
        #expect(normalized.parameterizedSQL == "SELECT * FROM t WHERE a = :a AND b = 5")
        #expect(normalized.parameterValues == [nil])
    }
}

@Suite(".sql workloads")
struct SQLScriptReaderTests {
    @Test("statements split on semicolons outside strings and comments; freq comments weigh them")
    func script() {
        let workload = WorkloadLoader.parse("""
            -- The list screen.
            -- freq: 40
            SELECT * FROM note WHERE folder = 'a;b' ORDER BY updated DESC;
            /* not a ; separator */ SELECT * FROM note WHERE folder = 'c'
              ORDER BY updated DESC;
            -- freq: 3
            INSERT INTO note(folder) VALUES ('d');
            SELECT 1
            """, file: "w.sql", format: .sql)
        #expect(workload.statements.map(\.count) == [41, 3, 1])
        #expect(workload.statements[0].observedBindings == [[.text("a;b")], [.text("c")]])
        #expect(workload.statements[0].sources == [SourceRange(file: "w.sql", firstLine: 3, lastLine: 5)])
        #expect(workload.statements[1].kind == .insert)
        #expect(workload.statements[2].sql == "SELECT ?")
        #expect(workload.statements[2].text == "SELECT 1")
        #expect(workload.diagnostics.statementsRead == 4)
    }

    /// A breaking helper's `SELECT …; -- freq: 50` weighed the statement after it: a comment on the line of
    /// a `;` is the statement's it ends, one on a line of its own the next statement's.
    @Test("a -- freq: comment on the line of a statement's semicolon weighs that statement, not the next")
    func trailingFrequency() {
        let workload = WorkloadLoader.parse("""
            SELECT * FROM a WHERE x = 1; -- freq: 50
            SELECT * FROM b WHERE y = 2;
            -- freq: 7
            SELECT * FROM c WHERE z = 3;  -- freq: 9
            -- freq: 4
            SELECT * FROM d WHERE w = 4; SELECT * FROM e WHERE v = 5; -- freq: 6
            SELECT * FROM f WHERE u = 6; -- freq: lots
            """, file: "w.sql", format: .sql)
        #expect(workload.statements.map(\.count) == [50, 1, 9, 4, 6, 1])
        #expect(workload.statements.map { $0.sources.first?.firstLine } == [1, 2, 4, 6, 6, 7])
        // S3 has two: 7 before it and 9 on its line; the last counts, and the slip is reported.
        #expect(workload.diagnostics.examples == ["w.sql:4: a second '-- freq:' comment for one statement (the last one, 9, counts)",
                                                  "w.sql:7: unreadable '-- freq:' value 'lots' (the statement counts once)"])
    }

    // Regression (a breaking helper): `FROM note \0 WHERE folder_id = 1` was timed as `SELECT * FROM note`, a
    // 50,000-row scan the app never runs, since SQLite reads a statement only up to a NUL.
    @Test("a statement holding a NUL byte is skipped and counted, in a script and in a JSONL capture")
    func nulByte() {
        let script = WorkloadLoader.parse("SELECT * FROM note \u{0} WHERE folder_id = 1;\nSELECT * FROM note WHERE id = 2;\n", file: "w.sql", format: .sql)
        #expect(script.statements.map(\.sql) == ["SELECT * FROM note WHERE id = ?"])
        #expect(script.diagnostics.examples == ["w.sql:1: statement holds a NUL byte: SQLite would read only the text before it"])
        let capture = WorkloadLoader.parse(#"{"sql":"SELECT * FROM note \u0000 WHERE folder_id = 1","count":5}"# + "\n", file: "w.jsonl", format: .jsonl)
        #expect(capture.statements.isEmpty)
        #expect(capture.diagnostics.skippedCount == 1)
    }

    @Test("/* freq: N */ weighs a statement as -- freq: N does; a second frequency for one statement is reported")
    func blockCommentFrequency() {
        let workload = WorkloadLoader.parse("""
            /* freq: 40 */
            SELECT * FROM a WHERE x = 1;
            SELECT * FROM b WHERE y = 2; /* freq: 12 */
            /*
             * Home screen.
             * freq: 300
             */
            SELECT * FROM c WHERE z = 3;
            -- freq: 5
            -- freq: 8
            SELECT * FROM d WHERE w = 4;
            /* frequently run, no figure */
            SELECT * FROM e WHERE v = 5;
            """, file: "w.sql", format: .sql)
        #expect(workload.statements.map(\.count) == [40, 12, 300, 8, 1])
        #expect(workload.diagnostics.examples == ["w.sql:10: a second '-- freq:' comment for one statement (the last one, 8, counts)"])
    }

    @Test("a trigger body's semicolons do not split it")
    func trigger() {
        let workload = WorkloadLoader.parse("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; DELETE FROM v; END; SELECT 2;", format: .sql)
        #expect(workload.statements.count == 2)
        #expect(workload.statements[0].kind == .schema)
    }
}

@Suite("Core Data SQL debug logs")
struct CoreDataLogReaderTests {
    static let log = """
        2024-05-01 10:00:00.123 Notes[4242:1234567] CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? ORDER BY t0.ZMODIFIED DESC
        2024-05-01 10:00:00.124 Notes[4242:1234567] CoreData: details: SQLite bind[0] = 17
        2024-05-01 10:00:00.125 Notes[4242:1234567] CoreData: annotation: sql connection fetch time: 0.0123s
        2024-05-01 10:00:00.126 Notes[4242:1234567] CoreData: annotation: total fetch execution time: 0.0150s for 240 rows.
        2024-05-01 10:00:00.200 Notes[4242:1234567] [Networking] request finished in 210 ms
        CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? ORDER BY t0.ZMODIFIED DESC
        CoreData: details: SQLite bind[0] = 23
        CoreData: annotation: sql connection fetch time: 0.0101s
        CoreData: annotation: total fetch execution time: 0.0120s for 12 rows.
        sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 WHERE  t0.ZTITLE = ?
        details: SQLite bind[0] = "Groceries"
        CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE
          t0.ZFOLDER IS NULL
        CoreData: annotation: fetch using NSSQLiteStatement <0x600002c4d7a0> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER IS NULL' returned 3 rows
        \u{1B}[32mCoreData: sql: BEGIN EXCLUSIVE\u{1B}[0m
        CoreData: sql: INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES(?, ?, ?, ?)
        CoreData: sql: COMMIT
        """

    @Test("counts, binds, durations and rows equal the values in the log")
    func values() throws {
        let workload = WorkloadLoader.parse(Self.log, file: "app.log")
        #expect(WorkloadFormat.detect(Self.log[...]) == .coreDataLog)
        let fetch = try #require(workload.statements.first)
        #expect(fetch.count == 2)
        #expect(fetch.observedBindings == [[.integer(0), .integer(17)], [.integer(0), .integer(23)]])
        let timing = try #require(fetch.observedTiming)
        #expect(timing.count == 2)
        #expect(abs(timing.totalSeconds - 0.0224) < 1e-9)
        #expect(abs(timing.medianSeconds - 0.0112) < 1e-9)
        #expect(fetch.observedRows == 12)
        #expect(fetch.sources == [SourceRange(file: "app.log", firstLine: 1, lastLine: 4), SourceRange(file: "app.log", firstLine: 6, lastLine: 9)])
        let count = workload.statements[1]
        #expect(count.observedBindings == [[.text("Groceries")]])
        let continued = workload.statements[2]
        #expect(continued.sql == "SELECT ?, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER IS NULL")
        #expect(continued.entityName == "Note")
        #expect(continued.observedRows == 3)
        #expect(workload.statements.map(\.kind) == [.select, .select, .select, .transaction, .insert, .transaction])
        #expect(workload.diagnostics.skipped == ["not a Core Data line": 1])
        #expect(workload.diagnostics.statementsRead == 7)
    }

    // Regression (a breaking helper): with two threads' lines interleaved, one thread's 2.5 s, 3,000-row fetch
    // was given to the other thread's lookup, which was then timed with the first thread's bound value.
    @Test("two threads' interleaved lines: a bind or time from another thread than the open statement's is not given to it, and is counted")
    func interleavedThreads() {
        let workload = WorkloadLoader.parse("""
            2024-05-01 10:00:00.123456+0200 Notes[123:4567] CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER = ?
            2024-05-01 10:00:00.123456+0200 Notes[123:9999] CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZREMOTEID = ?
            2024-05-01 10:00:00.123456+0200 Notes[123:4567] CoreData: details: SQLite bind[0] = (int64)1
            2024-05-01 10:00:00.123456+0200 Notes[123:9999] CoreData: details: SQLite bind[0] = "r5"
            2024-05-01 10:00:00.123456+0200 Notes[123:4567] CoreData: annotation: sql connection fetch time: 2.5000s
            2024-05-01 10:00:00.123456+0200 Notes[123:9999] CoreData: annotation: sql connection fetch time: 0.0004s
            """, file: "cd.log", format: .coreDataLog)
        let lookup = workload.statements.first { $0.sql.contains("ZREMOTEID") }
        let folder = workload.statements.first { $0.sql.contains("ZFOLDER") }
        #expect(lookup?.observedBindings == [[.integer(0), .text("r5")]])
        #expect(lookup?.observedConnectionTiming.map { abs($0.medianSeconds - 0.0004) < 1e-9 } == true)
        #expect(folder?.observedConnectionTiming == nil)
        #expect(workload.diagnostics.skipped[CoreDataLogReader.otherThread] == 2)
    }

    // Regression (a breaking helper): `0,0012s` was read as 0 s and a negative or NaN time dropped without a
    // word; `bind[7]` as a statement's first bind, `(int64)abc` and `(int64)1␀junk` were bound as values.
    @Test("a time or bind line that is not what Core Data writes is skipped and counted; the good ones around it are kept")
    func damagedTimesAndBinds() {
        let p = "2025-02-03 08:09:10.000001+0100 Trips[77:88] CoreData:"
        let workload = WorkloadLoader.parse("""
            \(p) sql: SELECT 0, t0.Z_PK FROM ZTRIP t0 WHERE t0.ZCITY = ? AND t0.ZYEAR = ?
            \(p) details: SQLite bind[0] = "Lyon"
            \(p) details: SQLite bind[1] = (int64)2024
            \(p) annotation: sql connection fetch time: 0.0030s
            \(p) sql: SELECT 0, t0.Z_PK FROM ZTRIP t0 WHERE t0.ZCITY = ? AND t0.ZYEAR = ?
            \(p) details: SQLite bind[0] = "Oslo"
            \(p) details: SQLite bind[3] = (int64)2023
            \(p) annotation: sql connection fetch time: 0,0040s
            \(p) sql: SELECT 0, t0.Z_PK FROM ZTRIP t0 WHERE t0.ZCITY = ? AND t0.ZYEAR = ?
            \(p) details: SQLite bind[0] = "Rome"
            \(p) details: SQLite bind[1] = (int64)twenty
            \(p) annotation: sql connection fetch time: -1.5s
            \(p) sql: SELECT 0, t0.Z_PK FROM ZTRIP t0 WHERE t0.ZCITY = ? AND t0.ZYEAR = ?
            \(p) details: SQLite bind[0] = "Nice"
            \(p) details: SQLite bind[1] = (double)7\u{0}x
            \(p) annotation: sql connection fetch time: nans
            \(p) sql: SELECT 0, t0.Z_PK FROM ZTRIP t0 WHERE t0.ZCITY = ? AND t0.ZYEAR = ?
            \(p) details: SQLite bind[0] = "Bern"
            \(p) details: SQLite bind[1] = (int64)2022
            \(p) annotation: sql connection fetch time: 0.0010 s
            """, file: "trips.log", format: .coreDataLog)
        let trip = workload.statements.first
        #expect(workload.statements.count == 1)
        #expect(trip?.count == 5)
        // Only the two whole value sets are kept; the others lost a damaged bind and are not given a wrong one.
        let sets = Set(trip?.observedBindings ?? [])
        #expect(trip?.observedBindings.count == 2)
        #expect(sets == [[.integer(0), .text("Lyon"), .integer(2024)], [.integer(0), .text("Bern"), .integer(2022)]])
        #expect(trip?.observedConnectionTiming?.count == 2)
        #expect(trip?.observedConnectionTiming.map { abs($0.totalSeconds - 0.004) < 1e-9 } == true)
        #expect(workload.diagnostics.skipped[CoreDataLogReader.unreadableTime] == 3)
        #expect(workload.diagnostics.skipped[CoreDataLogReader.unreadableBind] == 1)
        // Regression (a breaking helper): a readable bind at the wrong position is out of turn, not unreadable;
        // and each statement left with fewer values than placeholders is counted, its values not used.
        #expect(workload.diagnostics.skipped[CoreDataLogReader.bindOutOfTurn] == 1)
        #expect(workload.diagnostics.skipped[CoreDataLogReader.bindsUnmatched] == 3)
        #expect(workload.diagnostics.skipped[CoreDataLogReader.binary] == 1)
    }

    @Test("a bind line beyond a statement's placeholders is counted and its values are not used")
    func extraBind() {
        let p = "CoreData:"
        let workload = WorkloadLoader.parse("""
            \(p) sql: SELECT 0, t0.Z_PK FROM ZBOOK t0 WHERE t0.ZISBN = ?
            \(p) details: SQLite bind[0] = "978-0"
            \(p) details: SQLite bind[1] = "extra"
            \(p) sql: SELECT 0, t0.Z_PK FROM ZBOOK t0 WHERE t0.ZISBN = ?
            \(p) details: SQLite bind[0] = "978-1"
            """, file: "books.log", format: .coreDataLog)
        #expect(workload.statements.first?.count == 2)
        #expect(workload.statements.first?.observedBindings == [[.integer(0), .text("978-1")]])
        #expect(workload.diagnostics.skipped[CoreDataLogReader.bindsUnmatched] == 1)
        #expect(workload.diagnostics.examples.first == "books.log:1: \(CoreDataLogReader.bindsUnmatched)")
    }

    // Regression (a breaking helper): a JSON record's count of Int64.max was kept, and the report printed a
    // workload of 31,155,905,104,452,852 s; two such records saturated silently.
    @Test("a JSON record's count above the most a .sql frequency may give is skipped and counted, like a damaged line")
    func hugeJSONCount() {
        let workload = WorkloadLoader.parse("""
            {"sql":"SELECT * FROM trip WHERE city = ?","count":9223372036854775807}
            {"sql":"SELECT * FROM trip WHERE city = ?","count":1000000001}
            {"sql":"SELECT * FROM trip WHERE city = ?","count":1000000000}
            {"sql":"SELECT * FROM trip WHERE year = ?","count":12}
            """, file: "trips.jsonl", format: .jsonl)
        #expect(workload.statements.map(\.count) == [1_000_000_000, 12])
        #expect(workload.diagnostics.skipped[JSONLWorkloadReader.hugeCount] == 2)
    }

    @Test("garbage, invalid UTF-8 and a log without Core Data lines are skipped and counted, never fatal")
    func garbage() {
        var bytes = Array("CoreData: sql: SELECT 1 FROM t\n".utf8)
        bytes += [0xFF, 0xFE, 0x00, 0x0A] + Array("random words here\n".utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        let workload = WorkloadLoader.parse(text, format: .coreDataLog)
        #expect(workload.statements.count == 1)
        #expect(workload.diagnostics.skippedCount == 2)
        let none = WorkloadLoader.parse("just a line\nand another\n", format: .coreDataLog)
        #expect(none.statements.isEmpty)
        #expect(none.diagnostics.skippedCount == 2)
        // Regression: a statement the log cut inside a string was analysed as `SELECT ?`.
        let cut = WorkloadLoader.parse("CoreData: sql: SELECT 'unterminated FROM ZNOTE\nCoreData: sql: SELECT Z_PK FROM ZNOTE WHERE ZTITLE = 'a'\n", format: .coreDataLog)
        #expect(cut.statements.map(\.sql) == ["SELECT Z_PK FROM ZNOTE WHERE ZTITLE = ?"])
        #expect(cut.diagnostics.skipped == ["statement cut inside a string, quoted name or comment": 1])
        #expect(cut.diagnostics.statementsRead == 2)
        // …and in a .sql file the skip names the file's last line, not the one after it.
        let script = WorkloadLoader.parse("SELECT * FROM ZNOTE WHERE ZTITLE = 'abc;\nSELECT 1;\n", file: "un.sql", format: .sql)
        #expect(script.diagnostics.examples.first?.hasPrefix("un.sql:2: an unterminated string") == true)
    }

    @Test("an empty workload file is a one-line error naming the file")
    func emptyFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("empty.sql")
        try Data("-- nothing here\n".utf8).write(to: file)
        let error = try #require(throws: WorkloadError.self) { try WorkloadLoader.load([file]) }
        #expect(error.description.hasSuffix("empty.sql: the workload has no SELECT, INSERT, UPDATE or DELETE statement (1 line read, 0 statements)"))
        let missing = try #require(throws: WorkloadError.self) { try WorkloadLoader.load([directory.url.appendingPathComponent("nope.log")]) }
        #expect(missing.description.hasSuffix("nope.log: no such workload file"))
    }
}

@Suite("Function arguments stay literal")
struct FunctionArgumentTests {
    @Test("literals that configure a function keep their text; values compared with it become parameters")
    func functionArguments() {
        let normalized = Fingerprinter.normalize("SELECT id FROM t WHERE json_extract(doc, '$.kind') = 'k42' AND substr(name, 1, 3) = 'abc' AND x IN (1, 2) AND lower(n) = lower('A')")
        #expect(normalized.parameterizedSQL == "SELECT id FROM t WHERE json_extract(doc, '$.kind') = ? AND substr(name, 1, 3) = ? AND x IN (?, ?) AND lower(n) = lower('A')")
        #expect(normalized.parameterValues == [.text("k42"), .text("abc"), .integer(1), .integer(2)])
        let insert = Fingerprinter.normalize("INSERT INTO t(a, b) VALUES (1, CAST('x' AS BLOB))")
        #expect(insert.parameterizedSQL == "INSERT INTO t(a, b) VALUES (?, CAST('x' AS BLOB))")
    }
}
