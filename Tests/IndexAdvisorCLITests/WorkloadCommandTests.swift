import Foundation
import Testing
@testable import IndexAdvisorCLI
import IndexAdvisor

@Suite("indexadvisor workload")
struct WorkloadCommandTests {
    static let log = """
        2024-05-01 10:00:00.100 Notes[4242:1234567] CoreData: sql: pragma cache_size=200
        2024-05-01 10:00:00.101 Notes[4242:1234567] CoreData: annotation: sql execution time: 0.0001s
        CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE  t0.ZFOLDER = ?
        CoreData: details: SQLite bind[0] = 17
        CoreData: annotation: sql connection fetch time: 0.0030s
        2024-05-01 10:00:00.250 Notes[4242:7a1b] [Networking] GET /sync finished in 210 ms
        CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE  t0.ZFOLDER = ?
        CoreData: details: SQLite bind[0] = 18
        CoreData: annotation: sql connection fetch time: 0.0050s
        CoreData: sql: UPDATE ZNOTE SET ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?
        CoreData: annotation: sql execution time: 0.0020s
        CoreData: sql: BEGIN EXCLUSIVE
        CoreData: sql: COMMIT

        """
    /// What IndexAdvisorRecorder writes (docs/workload-jsonl.md), by hand.
    static let jsonl = """
        {"type":"header","format":"indexadvisor-workload","version":1,"source":"IndexAdvisorRecorder","sqlite":"3.40.1","started":"2024-05-01T10:00:00.000Z","written":"2024-05-01T10:05:00.000Z","statements":2,"dropped_executions":0}
        {"type":"statement","fingerprint":"0","kind":"select","sql":"SELECT * FROM item WHERE owner = ? ORDER BY name LIMIT ?","count":400,"total_ns":800000000,"median_ns":1900000,"rows":8000,"samples":[[7,20],[12,20]],"first_seen":"2024-05-01T10:00:00.123Z","last_seen":"2024-05-01T10:04:59.870Z"}
        {"type":"statement","kind":"insert","sql":"INSERT INTO item(owner, name) VALUES (?, ?)","count":30,"total_ns":3000000,"median_ns":100000,"rows":30,"samples":[[3,"new"]]}

        """

    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole()
        let code = IndexAdvisorCommand.run(deterministic(arguments), console: captured.console)
        return (code, captured)
    }

    @Test("arguments: files as arguments or -w, formats, --top; mistakes are usage errors")
    func parse() throws {
        let command = try CommandLineParser.parse(["workload", "a.log", "-w", "b.jsonl", "--format=json", "--top", "5", "--workload-format", "jsonl"])
        var expected = WorkloadOptions()
        expected.files = ["a.log", "b.jsonl"]
        expected.format = .json
        expected.top = 5
        expected.workloadFormat = .jsonl
        #expect(command == .workload(expected))
        #expect(try CommandLineParser.parse(["workload", "-h"]) == .help(topic: "workload"))
        #expect(throws: UsageError("workload needs at least one file: indexadvisor workload FILE…, or the app's Swift source: --source PATH", command: "workload")) {
            try CommandLineParser.parse(["workload"])
        }
        #expect(throws: UsageError("--format must be text or json, not 'md'", command: "workload")) {
            try CommandLineParser.parse(["workload", "a.log", "-f", "md"])
        }
        #expect(throws: UsageError("--workload-format must be one of sql, coredata-log, jsonl, workload-json, not 'csv'", command: "analyze")) {
            try CommandLineParser.parse(["analyze", "s.sqlite", "-w", "a", "--workload-format", "csv"])
        }
        #expect(HelpText.text(for: "workload")?.contains("--top N") == true)
    }

    @Test("text: counts, skipped lines with their reason, statements by observed time with share, writes and transactions")
    func text() throws {
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("app.log")
        try Data(Self.log.utf8).write(to: log)
        let (code, console) = run(["workload", log.path])
        #expect(code == ExitCode.success, "\(console.error)")
        let lines = console.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Read app.log: 13 lines, 6 statements (5 distinct, 2 to analyse).")
        #expect(lines[1] == "Format: app.log: Core Data log (line 1 carries 'CoreData: sql:').")
        #expect(lines[2] == "Skipped, by reason (1 in all):")
        #expect(lines[3] == "          1  not a Core Data line")
        #expect(lines[4] == "  first: app.log:6: not a Core Data line")
        #expect(lines[5] == "Observed time: 10.1 ms over 4 executions: SQLite's time ('sql connection fetch time', 'sql execution time') for 4 executions.")
        #expect(lines[7].hasPrefix("#  count"))
        #expect(lines[8].hasPrefix("1      2   8.00 ms  79.2%   4.00 ms  select       analyse    ZNOTE   SELECT ?, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER = ?"))
        #expect(lines[9].hasPrefix("2      1   2.00 ms  19.8%   2.00 ms  update       analyse    ZNOTE   UPDATE ZNOTE SET"))
        #expect(lines[10].hasPrefix("3      1  100.0 µs   1.0%  100.0 µs  pragma       set aside  –       pragma cache_size=200"))
        #expect(console.out.contains("  ZNOTE  1 update; updated columns: ZTITLE 1, Z_OPT 1\n"))
        #expect(console.out.hasSuffix("Transactions: 1 begin, 1 commit, 0 rollbacks, 0 savepoint statements.\n"))
    }

    // Regression: a workload without times showed columns of – and nothing said why.
    @Test("text: a workload with no observed times says so")
    func noTimes() throws {
        let directory = try TemporaryDirectory()
        let script = directory.url.appendingPathComponent("queries.sql")
        try Data("-- freq: 3\nSELECT * FROM item WHERE owner = 7;\n".utf8).write(to: script)
        let (code, console) = run(["workload", script.path])
        #expect(code == ExitCode.success, "\(console.error)")
        let lines = console.out.split(separator: "\n").map(String.init)
        #expect(lines[1] == "Format: queries.sql: SQL script (no line of its 2 is Core Data output or a JSON record).")
        #expect(lines[2].hasPrefix("No observed times (time, share and median show –): the input carries none."))
    }

    @Test("json: every statement with its numbers; several files merge, JSON Lines among them")
    func json() throws {
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("app.log")
        let recorded = directory.url.appendingPathComponent("app.sqlite.workload.jsonl")
        try Data(Self.log.utf8).write(to: log)
        try Data(Self.jsonl.utf8).write(to: recorded)
        let output = directory.url.appendingPathComponent("summary.json")
        let (code, console) = run(["workload", log.path, recorded.path, "--format", "json", "-o", output.path])
        #expect(code == ExitCode.success, "\(console.error)")
        #expect(console.out.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(object["files"] as? [String] == ["app.log", "app.sqlite.workload.jsonl"])
        #expect(object["linesRead"] as? Int == 16)
        #expect(object["statementsRead"] as? Int == 8)
        let statements = try #require(object["statements"] as? [[String: Any]])
        #expect(statements.count == 7)
        let first = statements[0]
        #expect(first["sql"] as? String == "SELECT * FROM item WHERE owner = ? ORDER BY name LIMIT ?")
        #expect(first["count"] as? Int == 400)
        #expect(first["observedSeconds"] as? Double == 0.8)
        #expect(first["medianSeconds"] as? Double == 0.0019)
        #expect(first["rows"] as? Int == 20)
        #expect(first["boundValueSamples"] as? Int == 2)
        #expect(first["seen"] as? [String] == ["app.sqlite.workload.jsonl:2"])
        let share = try #require(first["timeShare"] as? Double)
        #expect(abs(share - 0.8 / 0.8131) < 1e-9)
        // Which format each file was read as, and why; what the observed time is made of.
        let formats = try #require(object["formats"] as? [[String: Any]])
        #expect(formats.map { $0["format"] as? String } == ["coredata-log", "jsonl"])
        #expect(formats.map { $0["reason"] as? String } == ["line 1 carries 'CoreData: sql:'", "line 1 is a JSON object with a \"type\" or \"sql\" key"])
        #expect(formats.map { $0["forced"] as? Bool } == [false, false])
        #expect(object["observedTimeMeans"] as? String
                == "SQLite's time ('sql connection fetch time', 'sql execution time') for 4 executions; the recorder's time in SQLite for 430 executions")
        // The output may not replace an input.
        let (refused, refusal) = run(["workload", log.path, "-o", log.path])
        #expect(refused == ExitCode.failure)
        #expect(refusal.error.contains("is one of the workload files"))
    }

    @Test("analyze reads a recorded JSON Lines workload")
    func analyzeRecorded() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("app.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER, name TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO item SELECT i, i % 500, 'item ' || i FROM n;
            """)
        let recorded = directory.url.appendingPathComponent("recorded.jsonl")
        try Data(Self.jsonl.utf8).write(to: recorded)
        let (code, console) = run(["analyze", store.path, "--workload", recorded.path, "-f", "json", "-q", "--repeats", "3"])
        #expect(code == ExitCode.success, "\(console.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(console.out.utf8)) as? [String: Any])
        let statements = try #require(object["statements"] as? [[String: Any]])
        let select = try #require(statements.first { ($0["parameterizedSQL"] as? String)?.hasPrefix("SELECT") == true })
        #expect(select["count"] as? Int == 400)
        let recommendations = try #require(object["recommendations"] as? [[String: Any]])
        #expect(recommendations.contains { ($0["table"] as? String) == "item" })
    }

    // Issue 17: a PNG or a saved JSON report exited 0 with "0 distinct"; a .sqlite file, or a forced
    // --workload-format jsonl, got "no SELECT … statement" instead of the real mistake.
    @Test("a file that is not a workload exits 2 with one line saying what it is")
    func notAWorkload() throws {
        let directory = try TemporaryDirectory()
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = directory.url.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        let png = try file("screenshot.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        let database = try file("app.sqlite", Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 84))
        let report = try file("report.json", Array("{\n  \"captureHint\" : [\n\n  ],\n  \"existingIndexes\" : [],\n  \"schemaVersion\" : 1\n}\n".utf8))
        let empty = try file("session.log", [])
        let log = try file("app.log", Array(Self.log.utf8))
        let cases: [([String], String)] = [
            ([png], "screenshot.png: a PNG image, not a workload"),
            ([database], "app.sqlite: an SQLite database, not a workload: give it as the STORE (indexadvisor analyze STORE --workload LOG)"),
            ([report], "report.json: an indexadvisor JSON report, not a workload: indexadvisor render FILE shows it"),
            ([empty], "session.log: the file is empty (0 bytes): no statement to read"),
            ([log, "--workload-format", "jsonl"], "app.log: --workload-format jsonl, but its first line is not a JSON object (\"2024-05-01 10:00:00.100 Notes[4242:12345\"); by its content it is a Core Data log: leave out --workload-format to read it as one"),
        ]
        for (arguments, message) in cases {
            let (code, console) = run(["workload"] + arguments)
            #expect(code == 2, "\(arguments)")
            #expect(console.out.isEmpty)
            #expect(console.error.contains(message), "\(console.error)")
            #expect(console.error.split(separator: "\n").count == 1, "\(console.error)")
        }
        // analyze says the same about its --workload, before it opens the store.
        let (code, console) = run(["analyze", database, "-w", png])
        #expect(code == 2)
        #expect(console.error.contains("screenshot.png: a PNG image, not a workload"))
        // An empty file inside a folder is only an empty part of the workload.
        let folder = directory.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("a.log"))
        try Data(Self.log.utf8).write(to: folder.appendingPathComponent("b.log"))
        #expect(run(["workload", folder.path]).0 == 0)
    }

    // Issue 17: "the statement column cuts Core Data statements before WHERE, so different statements look the same".
    @Test("the text table shortens a statement in the middle: its verb, FROM and WHERE stay")
    func shortenedStatements() {
        let columns = (1...14).map { "t0.ZCOLUMN\($0)" }.joined(separator: ", ")
        let first = "SELECT 0, t0.Z_PK, \(columns) FROM ZNOTE t0 WHERE t0.ZFOLDERID = ? ORDER BY t0.ZUPDATEDAT DESC LIMIT 50"
        let second = "SELECT 0, t0.Z_PK, \(columns) FROM ZNOTE t0 WHERE t0.ZREMOTEID = ? LIMIT 1"
        let a = WorkloadListing.abbreviated(first)
        let b = WorkloadListing.abbreviated(second)
        #expect(a == "SELECT 0, t0.Z_PK, … FROM ZNOTE t0 WHERE t0.ZFOLDERID = ? ORDER BY t0.ZUPDATEDAT DESC LIMIT 50")
        #expect(a.count <= 100 && b.count <= 100)
        #expect(a.hasPrefix("SELECT 0, t0.Z_PK"))
        #expect(b.hasSuffix(" FROM ZNOTE t0 WHERE t0.ZREMOTEID = ? LIMIT 1"))
        #expect(a != b)
        // A long join keeps its WHERE: the middle of the FROM goes.
        let joins = (1...8).map { "JOIN ZTAG t\($0) ON t\($0).Z_PK = t0.ZTAG\($0)" }.joined(separator: " ")
        let joined = WorkloadListing.abbreviated("SELECT t0.Z_PK FROM ZNOTE t0 \(joins) WHERE t0.ZFOLDERID = ?")
        #expect(joined.count <= 100)
        #expect(joined.hasPrefix("SELECT t0.Z_PK FROM ZNOTE t0 JOIN ZTAG t1"))
        #expect(joined.hasSuffix("… WHERE t0.ZFOLDERID = ?"))
        #expect(WorkloadListing.abbreviated("SELECT 1 FROM t WHERE a = ?") == "SELECT 1 FROM t WHERE a = ?")
    }
}
