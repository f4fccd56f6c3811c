import Testing
import Foundation
@testable import IndexAdvisorCLI
import IndexAdvisor

/// Collects what a command writes.
final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errorText = ""

    var console: Console {
        Console(out: { text in self.lock.withLock { self.outText += text } },
                error: { text in self.lock.withLock { self.errorText += text } },
                errorIsTerminal: false)
    }

    var out: String { lock.withLock { outText } }
    var error: String { lock.withLock { errorText } }
}

@Suite("Command-line arguments")
struct CommandLineParserTests {
    @Test("analyze takes --k v and --k=v, repeated workloads, and numbers in range")
    func analyze() throws {
        let command = try CommandLineParser.parse(["analyze", "store.sqlite", "--workload", "a.sql", "--workload=b.log", "--format=json",
                                                   "--output", "out.json", "--repeats", "9", "--statement-timeout=2.5", "--quiet"])
        guard case .analyze(let options) = command else { Issue.record("not analyze"); return }
        #expect(options.store == "store.sqlite")
        #expect(options.workloads == ["a.sql", "b.log"])
        #expect(options.format == .json)
        #expect(options.output == "out.json")
        #expect(options.repeats == 9)
        #expect(options.statementTimeout == 2.5)
        #expect(options.quiet)
    }

    @Test("mistakes are usage errors with a message", arguments: [
        (["analyze"], "analyze needs the store file: indexadvisor analyze STORE --workload FILE"),
        (["analyze", "s.sqlite"], "analyze needs a workload: --workload FILE (a .sql file or a Core Data SQL debug log)"),
        (["analyze", "s.sqlite", "--workload"], "--workload needs a value"),
        (["analyze", "s.sqlite", "-w", "x", "--format", "pdf"], "--format must be md, json or sql, not 'pdf'"),
        (["analyze", "s.sqlite", "-w", "x", "--repeats", "0"], "--repeats must be a whole number from 1 to 1000, not '0'"),
        (["analyze", "s.sqlite", "-w", "x", "--frobnicate"], "unknown option '--frobnicate' for analyze"),
        (["analyze", "a", "b", "-w", "x"], "analyze takes one store; unexpected 'b'"),
        (["frob"], "unknown command 'frob'; the commands are analyze and demo"),
        (["demo", "--notes", "ten"], "--notes must be a whole number from 1000 to 10000000, not 'ten'"),
    ])
    func mistakes(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: arguments.first == "frob" ? nil : arguments.first)) {
            try CommandLineParser.parse(arguments)
        }
    }

    @Test("help and version")
    func helpAndVersion() throws {
        #expect(try CommandLineParser.parse([]) == .help(topic: nil))
        #expect(try CommandLineParser.parse(["--help"]) == .help(topic: nil))
        #expect(try CommandLineParser.parse(["analyze", "-h"]) == .help(topic: "analyze"))
        #expect(try CommandLineParser.parse(["help", "demo"]) == .help(topic: "demo"))
        #expect(try CommandLineParser.parse(["analyze", "x", "--version"]) == .version)
    }
}

@Suite("indexadvisor exit codes and messages")
struct CommandRunTests {
    let directory: TemporaryDirectory
    let store: URL
    let workload: URL

    init() throws {
        directory = try TemporaryDirectory()
        store = directory.url.appendingPathComponent("app.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER, name TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO item SELECT i, i % 500, 'item ' || i FROM n;
            """)
        workload = directory.url.appendingPathComponent("workload.sql")
        try Data("""
            -- freq: 50
            SELECT * FROM item WHERE owner = 7;
            SELECT * FROM no_such_table WHERE x = 1;
            """.utf8).write(to: workload)
    }

    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole()
        let code = IndexAdvisorCommand.run(arguments, console: captured.console)
        return (code, captured)
    }

    @Test("a missing store, a directory, a non-database and an empty workload exit 2 with one line naming the file")
    func badInputs() throws {
        let text = directory.url.appendingPathComponent("notes.txt")
        try Data(String(repeating: "not sqlite ", count: 100).utf8).write(to: text)
        let empty = directory.url.appendingPathComponent("empty.sql")
        try Data("-- nothing\n".utf8).write(to: empty)
        let cases: [([String], String)] = [
            (["analyze", directory.url.appendingPathComponent("nope.sqlite").path, "-w", workload.path], "nope.sqlite: no such file"),
            (["analyze", directory.url.path, "-w", workload.path], ": is a directory, not a store file"),
            (["analyze", text.path, "-w", workload.path], "notes.txt: not a SQLite database (no SQLite header; an encrypted store (e.g. SQLCipher) looks like this too)"),
            (["analyze", store.path, "-w", empty.path], "empty.sql: the workload has no SELECT, INSERT, UPDATE or DELETE statement (2 lines read, 0 statements)"),
            (["analyze", store.path, "-w", directory.url.appendingPathComponent("gone.sql").path], "gone.sql: no such workload file"),
        ]
        for (arguments, message) in cases {
            let temp = try TemporaryDirectory()
            let (code, console) = run(arguments + ["--temp-dir", temp.url.path])
            #expect(code == ExitCode.failure)
            #expect(console.out.isEmpty)
            let lines = console.error.split(separator: "\n")
            #expect(lines.count == 1, "\(console.error)")
            #expect(console.error.hasPrefix("indexadvisor: error: "))
            #expect(console.error.contains(message), "\(console.error)")
            #expect(runDirectories(in: temp.url).isEmpty)
        }
    }

    @Test("a workload statement that does not prepare is a counted warning; the rest is analysed")
    func statementThatDoesNotPrepare() throws {
        let output = directory.url.appendingPathComponent("report.json")
        let (code, console) = run(["analyze", store.path, "-w", workload.path, "--format", "json", "-o", output.path, "--repeats", "3"])
        #expect(code == ExitCode.success, "\(console.error)")
        #expect(console.error == "indexadvisor: warning: S2 (SELECT * FROM no_such_table WHERE x = 1) does not prepare on this store: no such table: no_such_table\n")
        let result = try JSONReport.decode(Data(contentsOf: output))
        #expect(result.statements.count == 2)
        #expect(result.statements[1].error == "does not prepare on this store: no such table: no_such_table")
        #expect(result.recommendations.first?.columns.map(\.name) == ["owner"])
        #expect(result.warnings.count == 1)
    }

    @Test("when no statement can be analysed, exit 2 and say why")
    func nothingAnalysable() throws {
        let bad = directory.url.appendingPathComponent("bad.sql")
        try Data("SELECT * FROM nothing_here;".utf8).write(to: bad)
        let (code, console) = run(["analyze", store.path, "-w", bad.path])
        #expect(code == ExitCode.failure)
        #expect(console.error == "indexadvisor: error: none of the workload's 1 statements can be analysed on this store; the first (bad.sql:1) does not prepare on this store: no such table: nothing_here\n")
    }

    @Test("--format sql prints only the CREATE INDEX statements; an unwritable --output fails without a partial file")
    func sqlFormat() throws {
        let (code, console) = run(["analyze", store.path, "-w", workload.path, "--format", "sql", "--repeats", "3", "-q"])
        #expect(code == ExitCode.success)
        #expect(console.out == "CREATE INDEX IF NOT EXISTS \"idx_item_owner\" ON \"item\" (\"owner\");\n")
        let (failed, errors) = run(["analyze", store.path, "-w", workload.path, "-o", directory.url.appendingPathComponent("no/dir/r.md").path, "--repeats", "3", "-q"])
        #expect(failed == ExitCode.failure)
        #expect(errors.error.hasPrefix("indexadvisor: error: ") && errors.error.contains("r.md: cannot write the report"))
    }

    @Test("usage mistakes print the error and a usage line")
    func usage() {
        let (code, console) = run(["analyze", store.path])
        #expect(code == ExitCode.failure)
        #expect(console.error == "indexadvisor: error: analyze needs a workload: --workload FILE (a .sql file or a Core Data SQL debug log)\nUsage: indexadvisor analyze STORE --workload FILE [--format md|json|sql] [--output FILE]\n")
    }

    @Test("the built executable exits 2 with one line and no stack trace for a file that is not a database")
    func executable() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("indexadvisor")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path)")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["analyze", workload.path, "--workload", workload.path]
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        let errorText = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2)
        #expect(errorText == "indexadvisor: error: \(workload.path): not a SQLite database (no SQLite header; an encrypted store (e.g. SQLCipher) looks like this too)\n")
    }
}

func runDirectories(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix("indexadvisor-") }
}

@Suite("The report never replaces an input")
struct OutputProtectionTests {
    @Test("--output naming the store, its -wal, or the workload is refused before anything is written")
    func refused() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("s.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE t(a); INSERT INTO t VALUES (1)")
        let workload = directory.url.appendingPathComponent("w.sql")
        try Data("SELECT * FROM t WHERE a = 1;".utf8).write(to: workload)
        let bytes = try Data(contentsOf: store)
        for output in [store.path, store.path + "-wal", workload.path, directory.url.path + "/./s.sqlite"] {
            let captured = CapturedConsole()
            let code = IndexAdvisorCommand.run(["analyze", store.path, "-w", workload.path, "-o", output], console: captured.console)
            #expect(code == ExitCode.failure)
            #expect(captured.error.contains("is the store, one of its -wal/-shm/-journal files, or a workload"))
        }
        #expect(try Data(contentsOf: store) == bytes)
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }
}
