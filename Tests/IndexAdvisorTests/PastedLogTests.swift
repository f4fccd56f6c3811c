import Foundation
import Testing
@testable import IndexAdvisor

/// Core Data debug output as developers paste it: consoles that strip indentation, other subsystems' lines
/// in between, errors, a first statement thousands of lines in. Each fixture in Fixtures/logs/ stands for one
/// kind of fault; the inline inputs are more of the same kind. The joining rules are in docs/coredata-log-joining.md.
@Suite("Core Data logs as people paste them")
struct PastedLogTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/logs")

    /// Reads a fixture as `workload` reads a file: format detected from the content.
    static func fixture(_ name: String) throws -> Workload {
        try WorkloadLoader.read([fixtures.appendingPathComponent(name)])
    }

    static func statement(_ workload: Workload, _ prefix: String) -> WorkloadStatement? {
        workload.statements.first { $0.text.hasPrefix(prefix) }
    }

    // MARK: 1. Core Data output without a statement is still Core Data output

    @Test("a log whose Core Data lines are only debug:, error: and CloudKit: is read as a log; each line has its reason")
    func onlyMessages() throws {
        let workload = try Self.fixture("only-messages.log")
        #expect(workload.diagnostics.formats.map(\.format) == [.coreDataLog])
        #expect(workload.diagnostics.formats.first?.reason == "line 1 carries 'CoreData: debug:'")
        #expect(workload.statements.isEmpty)
        #expect(workload.diagnostics.statementsRead == 0)
        #expect(workload.diagnostics.linesRead == 4)
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.otherMessage: 2, CoreDataLogReader.deviceError: 1,
                                                 CoreDataLogReader.notCoreData: 1])
    }

    @Test("other logs of Core Data messages only: never a SQL script, whatever SQL-like text is around", arguments: [
        ("CoreData: warning: Unable to load class named 'Plant' for entity 'Plant'.\nSELECT is slow today; 'quoted\n", "line 1 carries 'CoreData: warning:'"),
        ("App started\nUPDATE available: 'v2\nCoreData: CloudKit: CoreData+CloudKit: setUp: <NSCloudKitMirroringDelegate: 0x6000>\n", "line 3 carries 'CoreData: CloudKit:'"),
        ("[Store] opening; 'x\nCoreData: error: Failed to load model named Garden\n", "line 2 carries 'CoreData: error:'"),
        ("2024-05-01 10:00:00.100 Garden[42:7a] CoreData: fault: Unable to find entity\n", "line 1 carries 'CoreData: fault:'"),
    ])
    func messagesOnly(input: String, reason: String) throws {
        let workload = WorkloadLoader.parse(input, file: "messages.log")
        #expect(workload.diagnostics.formats.first?.format == .coreDataLog)
        #expect(workload.diagnostics.formats.first?.reason == reason)
        #expect(workload.statements.isEmpty)
        #expect(!workload.diagnostics.skipped.keys.contains { $0.hasPrefix("an unterminated string") })
        #expect(workload.diagnostics.skippedCount == input.split(separator: "\n").count)
    }

    @Test("a SQL script says why it is one")
    func scriptReason() {
        let workload = WorkloadLoader.parse("-- freq: 2\nSELECT a FROM t;\n", file: "q.sql")
        #expect(workload.diagnostics.formats == [WorkloadFormatChoice(file: "q.sql", format: .sql, reason: "no line of its 2 is Core Data output or a JSON record",
                                                                      forced: false, encoding: "UTF-8", lineEnds: "LF")])
        let forced = WorkloadLoader.parse("SELECT a FROM t;\n", file: "q.sql", format: .coreDataLog)
        #expect(forced.diagnostics.formats.first?.reason == "forced with --workload-format")
        #expect(forced.diagnostics.formats.first?.forced == true)
    }

    // MARK: 2. The first statement can be anywhere

    @Test("2,300 lines of app output before the first statement: a log, with its statement whole")
    func lateStatement() throws {
        let workload = try Self.fixture("late-statement.log")
        #expect(workload.diagnostics.formats.first?.reason == "line 2,301 carries 'CoreData: sql:'")
        #expect(workload.statements.map(\.text) == ["SELECT 0, t0.Z_PK FROM ZPLANT t0 WHERE t0.ZWATERED = ? ORDER BY t0.ZLATIN"])
        #expect(workload.statements.first?.observedTiming?.medianSeconds == 0.0017)
        #expect(workload.statements.first?.observedRows == 12)
        #expect(workload.diagnostics.linesRead == 2303)
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.notCoreData: 2300])
    }

    @Test("the first statement past the first 4 MB chunk of a file: detected, and the file is read from its start")
    func statementPastFirstChunk() throws {
        var text = ""
        let noise = "[Scanner] frame: exposure 0.50ms, 'lens' steady; nothing to see here\n"
        let lines = ChunkedFileReader.chunkBytes / noise.utf8.count + 1000
        text.reserveCapacity(lines * noise.utf8.count + 200)
        for _ in 0..<lines { text += noise }
        text += "CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0 WHERE t0.ZHEIGHT > ?\n"
        text += "CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0 WHERE t0.ZHEIGHT > ?\n"
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("late.log")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let workload = try WorkloadLoader.read([file])
        #expect(workload.diagnostics.formats.first?.reason == "line \(Figures.count(lines + 1)) carries 'CoreData: sql:'")
        #expect(workload.diagnostics.linesRead == lines + 2)
        #expect(workload.statements.map(\.count) == [2])
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.notCoreData: lines])
        // In memory too.
        #expect(WorkloadLoader.parse(text).statements.map(\.count) == [2])
    }

    // MARK: 3 and 4. Wrapped statements

    @Test("statements wrapped at column 0 are joined whole: FROM, WHERE … LIMIT, VALUES and a trailing COLLATE")
    func columnZeroWrap() throws {
        let workload = try Self.fixture("column-zero-wrap.log")
        #expect(workload.statements.map(\.text) == [
            "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZLATIN, t0.ZHEIGHT FROM ZPLANT t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT 20",
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLATIN FROM ZPLANT t0 WHERE t0.ZWATERED = ? ORDER BY t0.ZLATIN COLLATE NSCollateFinderlike",
            "INSERT INTO ZPLANT(Z_PK, Z_ENT, Z_OPT, ZWATERED, ZLATIN) VALUES(?, ?, ?, ?, ?)",
        ])
        #expect(workload.statements.map { $0.sources.map(\.firstLine) } == [[1], [6], [10]])
        #expect(workload.diagnostics.skipped.isEmpty)
        #expect(workload.diagnostics.linesRead == 11)
    }

    @Test("more column-0 wraps: each clause keyword, a leading comma, an AND, an open parenthesis", arguments: [
        ("CoreData: sql: SELECT t0.ZFOLDER, COUNT(t0.Z_PK) FROM ZNOTE t0\nGROUP BY t0.ZFOLDER\nHAVING COUNT(t0.Z_PK) > ?\nORDER BY t0.ZFOLDER DESC",
         "SELECT t0.ZFOLDER, COUNT(t0.Z_PK) FROM ZNOTE t0 GROUP BY t0.ZFOLDER HAVING COUNT(t0.Z_PK) > ? ORDER BY t0.ZFOLDER DESC"),
        ("CoreData: sql: SELECT 0, t0.Z_PK\n, t0.ZTITLE FROM ZNOTE t0 WHERE t0.ZTRASHED = ?\nAND t0.ZFOLDER = ?",
         "SELECT 0, t0.Z_PK , t0.ZTITLE FROM ZNOTE t0 WHERE t0.ZTRASHED = ? AND t0.ZFOLDER = ?"),
        ("CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZTITLE = 'Shopping\nlist' AND (t0.ZTRASHED = ?\nOR t0.ZFOLDER IS NULL)\nLIMIT 5",
         "SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZTITLE = 'Shopping list' AND (t0.ZTRASHED = ? OR t0.ZFOLDER IS NULL) LIMIT 5"),
        ("CoreData: sql: UPDATE ZNOTE\nSET ZTITLE = ?, Z_OPT = ?\nWHERE Z_PK = ? AND Z_OPT = ?",
         "UPDATE ZNOTE SET ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"),
        ("CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 LEFT OUTER JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1NOTES\nWHERE t1.Z_3TAGS = ?",
         "SELECT 0, t0.Z_PK FROM ZNOTE t0 LEFT OUTER JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1NOTES WHERE t1.Z_3TAGS = ?"),
    ])
    func moreWraps(input: String, sql: String) {
        let workload = WorkloadLoader.parse(input + "\nCoreData: annotation: sql connection fetch time: 0.0010s\n", file: "wrap.log")
        #expect(workload.statements.map(\.text) == [sql])
        #expect(workload.diagnostics.skipped.isEmpty)
    }

    @Test("a COLLATE at a line's end keeps the collation on the next line, at column 0 or indented", arguments: [
        "CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 ORDER BY t0.ZNAME COLLATE\nNSCollateLocaleSensitive DESC LIMIT 5",
        "CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 ORDER BY t0.ZNAME COLLATE\n    NSCollateLocaleSensitive DESC LIMIT 5",
        "CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 ORDER BY t0.ZNAME\nCOLLATE NSCollateLocaleSensitive DESC\nLIMIT 5",
    ])
    func collateAtLineEnd(input: String) {
        let workload = WorkloadLoader.parse(input + "\n", file: "collate.log")
        #expect(workload.statements.map(\.text) == ["SELECT 0, t0.Z_PK FROM ZTAG t0 ORDER BY t0.ZNAME COLLATE NSCollateLocaleSensitive DESC LIMIT 5"])
        #expect(CoreDataLogReader.expectsMore("SELECT 0 FROM ZTAG t0 ORDER BY t0.ZNAME COLLATE"))
        #expect(!CoreDataLogReader.expectsMore("SELECT 0 FROM ZTAG t0 ORDER BY t0.ZNAME COLLATE NSCollateFinderlike"))
    }

    // MARK: 5. Other output after a complete statement

    @Test("another subsystem's indented lines after an INSERT, BEGIN or COMMIT are skipped, not glued")
    func interleavedOutput() throws {
        let workload = try Self.fixture("interleaved-output.log")
        #expect(workload.diagnostics.statementsRead == 5)
        #expect(workload.statements.map(\.text) == ["BEGIN EXCLUSIVE", "INSERT INTO ZPLANT(Z_PK, Z_ENT, Z_OPT, ZWATERED, ZLATIN) VALUES(?, ?, ?, ?, ?)", "COMMIT"])
        #expect(workload.statements.map(\.count) == [1, 2, 2])
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.notCoreData: 2])
        #expect(workload.diagnostics.examples == ["interleaved-output.log:3: not a Core Data line", "interleaved-output.log:6: not a Core Data line"])
    }

    @Test("more noise after complete statements: after UPDATE, DELETE, BEGIN, COMMIT and a fetch, indented or not", arguments: [
        "CoreData: sql: UPDATE ZNOTE SET ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?\n    [AVAudioSession] category set to playback (mode: default)",
        "CoreData: sql: DELETE FROM ZNOTE WHERE Z_PK = ? AND Z_OPT = ?\n\tHTTPClient.swift:210 -> 200 OK (12 ms)",
        "CoreData: sql: BEGIN EXCLUSIVE\n      nw_path_evaluator_start_helper_connection: path satisfied",
        "CoreData: sql: COMMIT\nbuffer[1] underrun (0 frames)",
        "CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER = ?\n   Metal API Validation Enabled",
    ])
    func moreNoise(input: String) {
        let workload = WorkloadLoader.parse(input + "\n", file: "noise.log")
        let sql = String(input.split(separator: "\n")[0].dropFirst("CoreData: sql: ".count))
        #expect(workload.statements.map(\.text) == [sql])
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.notCoreData: 1])
    }

    // MARK: 6. Two times, two names

    @Test("SQLite's time and Core Data's total are kept apart; the observed time is SQLite's when the log gives it")
    func twoTimes() {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0 WHERE t0.ZWATERED = ?
            CoreData: annotation: sql connection fetch time: 0.0029s
            CoreData: annotation: total fetch execution time: 0.0033s for 57 rows.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0 WHERE t0.ZWATERED = ?
            CoreData: annotation: sql connection fetch time: 0.0011s
            CoreData: annotation: total fetch execution time: 0.0015s for 3 rows.
            CoreData: sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZPLANT t0
            CoreData: annotation: total count request execution time: 0.0040s for count of 9.

            """
        let workload = WorkloadLoader.parse(log, file: "times.log")
        let fetch = Self.statement(workload, "SELECT 0")!
        #expect(fetch.observedConnectionTiming == ObservedTiming(count: 2, totalSeconds: 0.0029 + 0.0011, medianSeconds: (0.0029 + 0.0011) / 2))
        #expect(fetch.observedTotalTiming == ObservedTiming(count: 2, totalSeconds: 0.0033 + 0.0015, medianSeconds: (0.0033 + 0.0015) / 2))
        #expect(fetch.observedTiming == fetch.observedConnectionTiming)
        #expect(fetch.observedTotalFallbacks == 0)
        let count = Self.statement(workload, "SELECT COUNT")!
        #expect(count.observedConnectionTiming == nil)
        #expect(count.observedTotalTiming == ObservedTiming(count: 1, totalSeconds: 0.004, medianSeconds: 0.004))
        #expect(count.observedTiming == count.observedTotalTiming)
        #expect(count.observedTotalFallbacks == 1)
    }

    // MARK: 7. Device errors

    @Test("an error right after a statement marks it failed on the device; its wrapped lines are the error's, not noise")
    func deviceErrors() {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.ZTITLE FROM ZRECIPE t0 WHERE t0.ZCOURSE = ?
            CoreData: details: SQLite bind[0] = 2
            CoreData: error: (1) I/O error for database at /var/mobile/Recipes.sqlite.
            SQLite error code:1, 'no such table: ZRECIPE'
            CoreData: error: -executeRequest: encountered exception = I/O error with userInfo = {
                NSFilePath = "/var/mobile/Recipes.sqlite";
                NSSQLiteErrorDomain = 1;
            }
            [Recipes] showing the empty state
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZPLANT t0
            CoreData: annotation: sql connection fetch time: 0.0010s
            CoreData: error: CoreData: error: Failed to call designated initializer on NSManagedObject class 'Plant'
            CoreData: sql: SELECT 0, t0.Z_PK, t0.ZTITLE FROM ZRECIPE t0 WHERE t0.ZCOURSE = ?
            CoreData: error: SQLite error code:1, 'no such table: ZRECIPE'

            """
        let workload = WorkloadLoader.parse(log, file: "errors.log")
        let failed = Self.statement(workload, "SELECT 0, t0.Z_PK, t0.ZTITLE")!
        #expect(failed.count == 2)
        #expect(failed.deviceFailures == 2)
        #expect(failed.deviceError == "SQLite error code:1, 'no such table: ZRECIPE'")
        #expect(failed.observedBindings == [[.integer(0), .integer(2)]])
        // An error after the statement's time was logged does not mark it.
        let fine = Self.statement(workload, "SELECT 0, t0.Z_PK FROM ZPLANT")!
        #expect(fine.deviceFailures == 0)
        #expect(fine.deviceError == nil)
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.deviceError: 8, CoreDataLogReader.notCoreData: 1])
    }
}

@Suite("What the workload says, in the reports")
struct WorkloadFactsReportTests {
    @Test("the format and why, what observed times are, a device failure and the skipped count reach the Markdown and HTML reports")
    func reports() throws {
        let log = """
            [App] launching
            CoreData: sql: SELECT * FROM gone WHERE x = 1
            CoreData: error: SQLite error code:1, 'no such table: gone'
            CoreData: sql: SELECT 0 FROM ZPLANT t0
            CoreData: annotation: total fetch execution time: 0.0040s for 2 rows.

            """
        let workload = WorkloadLoader.parse(log, file: "device.log")
        #expect(workload.statements.first?.fingerprint.id == Fingerprinter.normalize("SELECT * FROM gone WHERE x = 1").fingerprint.id)
        var base = ReportFixture.result(hostile: false)
        base.workload.skipped = workload.diagnostics.skipped
        // The fixture's third statement is this one: give it the fingerprint the log gives it.
        base.statements[2].id = workload.statements[0].fingerprint.id
        let result = base.describingWorkload(workload)
        #expect(result.workload.formats == [WorkloadFormatChoice(file: "device.log", format: .coreDataLog, reason: "line 2 carries 'CoreData: sql:'",
                                                                 forced: false, encoding: "UTF-8", lineEnds: "LF")])
        #expect(result.workload.observedTimeMeans == "Core Data's 'total fetch execution time' (SQLite's time plus Core Data's work on the rows) for 1 execution that logged no SQLite time")
        #expect(result.statements[2].deviceFailures == 1)
        #expect(result.statements[2].deviceError == "SQLite error code:1, 'no such table: gone'")
        let markdown = checkedRender(result, .markdown)
        let headline = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- Workload: ") })
        #expect(headline == "- Workload: \(Figures.counted(result.workload.statementsRead, "statement")) read from \(Figures.counted(result.workload.linesRead, "line")), 2 skipped (see Workload); S3 not timed (see Not analysed), not in these totals.")
        #expect(markdown.contains("Read `device.log` as a Core Data log: line 2 carries 'CoreData: sql:' (detected; --workload-format forces a format)."))
        #expect(markdown.contains("**Failed on the device** 1 time of \(Figures.count(result.statements[2].count)) (the app's log): `SQLite error code:1, 'no such table: gone'`"))
        let html = checkedRender(result, .html)
        #expect(html.contains("<dt>Format</dt><dd>device.log: Core Data log, line 2 carries &#39;CoreData: sql:&#39;</dd>") || html.contains("<dt>Format</dt><dd>device.log: Core Data log, line 2 carries 'CoreData: sql:'</dd>"))
        #expect(html.contains("2 skipped (see Workload)"))
        #expect(html.contains("<p class=\"bad\">Failed on the device 1 time of \(Figures.count(result.statements[2].count)) (the app’s log): <code>SQLite error code:1, &#39;no such table: gone&#39;</code></p>"))
        // A JSON report round-trips the new fields, and one without them still reads.
        let decoded = try JSONReport.decode(Data(JSONReport.render(result).utf8))
        #expect(decoded.workload.formats == result.workload.formats)
        #expect(decoded.statements[2].deviceError == result.statements[2].deviceError)
        let old = try JSONReport.decode(Data(JSONReport.render(base).utf8))
        #expect(old.workload.formats == nil)
    }
}

@Suite("The fuzz corpus's encodings")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus")

    @Test("each input of Fuzz/corpus reads from disk without a crash; the UTF-16 and UTF-32 ones are refused by name")
    func corpus() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(names.count >= 10)
        for name in names {
            let file = Self.corpus.appendingPathComponent(name)
            if name.hasPrefix("utf") {
                let error = #expect(throws: WorkloadError.self, "\(name)") { try WorkloadLoader.read([file]) }
                #expect(error?.description.contains(name.hasPrefix("utf16") ? "UTF-16" : "UTF-32") == true, "\(name)")
            } else {
                let workload = try WorkloadLoader.read([file])
                #expect(!workload.statements.isEmpty || name == "only-messages.log", "\(name)")
                #expect(workload.statements.allSatisfy { !$0.text.contains("freq") }, "\(name)")
            }
        }
    }
}

@Suite("Whether a statement's text can end")
struct OpenTextTests {
    @Test("read line by line, it agrees with the whole-text check", arguments: [
        ["SELECT 0 FROM ZTAG t0 ORDER BY t0.ZNAME COLLATE"], ["SELECT 0 FROM ZTAG t0 ORDER BY t0.ZNAME collate NSCollateFinderlike"],
        ["SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE", "t0.ZFOLDER IS NULL AND", "t0.ZTRASHED = ?"],
        ["SELECT 0 FROM ZNOTE t0 WHERE t0.ZTITLE = 'two", "lines' AND"], ["SELECT 0 FROM ZNOTE t0 WHERE t0.ZTITLE = 'two", "lines'"],
        ["SELECT COUNT( DISTINCT t0.Z_PK"], ["SELECT COUNT( DISTINCT t0.Z_PK)"], ["INSERT INTO ZPLANT(Z_PK, ZLATIN) VALUES(?,"],
        ["SELECT * FROM t /* open", "still */"], ["SELECT * FROM t WHERE a = 1 -- AND"], ["SELECT * FROM t LIMIT 20"], ["SELECT t0.ZX."],
        ["SELECT * FROM \"odd", "name\""], ["UPDATE ZNOTE SET"], ["COMMIT"], ["SELECT * FROM t WHERE a ="],
    ] as [[String]])
    func agrees(lines: [String]) {
        var open = OpenText()
        for line in lines {
            var copy = line
            copy.withUTF8 { open.add($0) }
        }
        #expect(open.expectsMore == CoreDataLogReader.expectsMore(lines.joined(separator: " ")), "\(lines)")
    }
}

@Suite("Bound values as Core Data prints them")
struct TypedBindTests {
    // Regression (a breaking helper, from Core Data's own format string): `SQLite bind[0] = (int64)1` was bound as
    // the text '(int64)1', so the fetch was timed matching no row (8 µs against the log's 21 ms for 1,350 rows),
    // and `<NSData len=16>` was bound as its description.
    @Test("a value after its C type is the value; hex blobs in both spellings; an object's description is no value")
    func values() {
        func value(_ text: String) -> SQLValue? {
            var line = "SQLite bind[0] = " + text
            return line.withUTF8 { CoreDataLogReader.bindValue(in: $0) }
        }
        #expect(value("(int64)1") == .integer(1))
        #expect(value("(int32) -7") == .integer(-7))
        #expect(value("(double)2.5") == .real(2.5))
        #expect(value("<x'00ff10'>") == .blob([0x00, 0xFF, 0x10]))
        #expect(value("<00ff10>") == .blob([0x00, 0xFF, 0x10]))
        #expect(value("<NSData len=16>") == nil)
        #expect(value("(null)") == .null)
        #expect(value("\"(draft) note\"") == .text("(draft) note"))
        #expect(value("17") == .integer(17))
    }

    @Test("a log's typed binds are the statement's own values, and an unreadable one is counted, not bound")
    func fromALog() {
        let workload = WorkloadLoader.parse("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZTASK t0 WHERE ( t0.ZLIST = ? AND  t0.ZISDONE = ?) ORDER BY t0.ZDUE
            CoreData: details: SQLite bind[0] = (int64)4
            CoreData: details: SQLite bind[1] = (int64)0
            CoreData: annotation: sql connection fetch time: 0.0210s
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZTASK t0 WHERE  t0.ZUUID = ?
            CoreData: details: SQLite bind[0] = <NSData len=16>
            """, file: "app.log")
        // The select list's literal 0 is a value of the fingerprint too, then the two binds.
        #expect(workload.statements.first?.observedBindings.first == [.integer(0), .integer(4), .integer(0)])
        #expect(workload.diagnostics.skipped.values.reduce(0, +) == 1)
    }
}
