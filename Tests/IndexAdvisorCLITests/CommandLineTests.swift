import Testing
import Foundation
@testable import IndexAdvisorCLI
import IndexAdvisor

/// Every report a CLI test produces (analyze, check, demo) passes ``ReportChecker``: a finding is a test
/// issue where the command ran. Installed once, by ``deterministic(_:)``, which every CLI test's run goes
/// through.
let reportCheckerInstalled: Void = RenderObserver.install { result in
    for finding in ReportChecker().check(result) { Issue.record("report checker: \(finding)") }
}

/// Collects what a command writes.
/// `arguments` with `--cost counters` added to `analyze` and `check`: the tests' picks and verdicts then
/// rest on SQLite's work counters, which a busy machine does not change, instead of on wall-clock
/// timings that can swap two close candidates from one run to the next.
func deterministic(_ arguments: [String]) -> [String] {
    _ = reportCheckerInstalled
    guard let command = arguments.first, command == "analyze" || command == "check", !arguments.contains("--cost") else { return arguments }
    return arguments + ["--cost", "counters"]
}

final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errorText = ""
    /// Annotations as on GitHub Actions, set per console (not through the process's environment, which
    /// tests running in parallel share).
    let isGitHubActions: Bool

    init(isGitHubActions: Bool = false) {
        self.isGitHubActions = isGitHubActions
    }

    var console: Console {
        Console(out: { text in self.lock.withLock { self.outText += text } },
                error: { text in self.lock.withLock { self.errorText += text } },
                errorIsTerminal: false, isGitHubActions: isGitHubActions)
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
        #expect(options.analysisOptions.repeats == 9)
        #expect(options.analysisOptions.statementTimeout == 2.5)
        #expect(options.quiet)
        #expect(options.analysisOptions.timeBudgetSeconds == 600)
        let bounded = try CommandLineParser.parse(["analyze", "store.sqlite", "--time-budget", "90", "--verbose"])
        guard case .analyze(let boundedOptions) = bounded else { Issue.record("not analyze"); return }
        #expect(boundedOptions.analysisOptions.timeBudgetSeconds == 90)
        #expect(boundedOptions.verbose)
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["analyze", "store.sqlite", "--time-budget", "0"]) }
        // Regression (breaking round): `--` was refused, so a store named `-notes.sqlite` could not be given.
        guard case .analyze(let dashed) = try CommandLineParser.parse(["analyze", "-q", "--", "-notes.sqlite"]) else { Issue.record("not analyze"); return }
        #expect(dashed.store == "-notes.sqlite" && dashed.quiet)
        guard case .check(let checked) = try CommandLineParser.parse(["check", "--slowdown", "2", "--", "-notes.sqlite"]) else { Issue.record("not check"); return }
        #expect(checked.analyze.store == "-notes.sqlite" && checked.thresholds.slowdownFactor == 2)
    }

    @Test("mistakes are usage errors with a message", arguments: [
        (["analyze"], "analyze needs the store file: indexadvisor analyze STORE --workload FILE"),
        (["analyze", "s.sqlite", "--workload"], "--workload needs a value"),
        (["analyze", "s.sqlite", "-w", "x", "--format", "pdf"], "--format must be md, json, sql, html or swift, not 'pdf'"),
        (["analyze", "s.sqlite", "-w", "x", "--model"], "--model needs a value"),
        (["render"], "render needs a JSON report: indexadvisor render REPORT.json --format html"),
        (["render", "a.json", "b.json"], "render takes one report; unexpected 'b.json'"),
        (["render", "a.json", "-f", "pdf"], "-f must be md, json, sql, html or swift, not 'pdf'"),
        (["analyze", "s.sqlite", "-w", "x", "--repeats", "0"], "--repeats must be a whole number from 1 to 1000, not '0'"),
        (["analyze", "s.sqlite", "-w", "x", "--frobnicate"], "unknown option '--frobnicate' for analyze"),
        (["analyze", "s.sqlite", "--wokload", "x"], "unknown option '--wokload' for analyze (did you mean --workload?)"),
        (["check", "s.sqlite", "--baselin", "b.json"], "unknown option '--baselin' for check (did you mean --baseline?)"),
        (["workload", "a.log", "--tpo", "3"], "unknown option '--tpo' for workload (did you mean --top?)"),
        (["analyze", "s.sqlite", "--WORKLOAD", "x"], "unknown option '--WORKLOAD' for analyze (did you mean --workload?)"),
        (["anlyze", "s.sqlite"], "unknown command 'anlyze' (did you mean analyze?); the commands are analyze, check, render, workload and demo"),
        (["analyze", "a", "b", "-w", "x"], "analyze takes one store; unexpected 'b'"),
        (["frob"], "unknown command 'frob'; the commands are analyze, check, render, workload and demo"),
        (["demo", "--notes", "ten"], "--notes must be a whole number from 1000 to 10000000, not 'ten'"),
    ])
    func mistakes(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: ["frob", "anlyze"].contains(arguments.first ?? "") ? nil : arguments.first)) {
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

    @Test("--version, -h and --help count only where an option name may stand: an option's value or an operand after -- is a name like any other")
    func helpAndVersionOnlyAsOptionNames() throws {
        guard case .analyze(let output) = try CommandLineParser.parse(["analyze", "x", "--output", "--version"]) else { Issue.record("not analyze"); return }
        #expect(output.store == "x" && output.output == "--version")
        guard case .analyze(let short) = try CommandLineParser.parse(["analyze", "x", "-o", "-h", "-w", "--help"]) else { Issue.record("not analyze"); return }
        #expect(short.output == "-h" && short.workloads == ["--help"])
        guard case .analyze(let operand) = try CommandLineParser.parse(["analyze", "--", "--version"]) else { Issue.record("not analyze"); return }
        #expect(operand.store == "--version")
        #expect(throws: UsageError("analyze takes one store; unexpected '--help'", command: "analyze")) {
            try CommandLineParser.parse(["analyze", "x", "--", "--help"])
        }
        #expect(throws: UsageError("--top must be a whole number from 0 to 1000000, not '--version'", command: "workload")) {
            try CommandLineParser.parse(["workload", "a.log", "--top", "--version"])
        }
        guard case .check(let check) = try CommandLineParser.parse(["check", "s", "--baseline", "--version"]) else { Issue.record("not check"); return }
        #expect(check.baseline == "--version")
        // Where an option name may stand they still work, for every command.
        #expect(try CommandLineParser.parse(["render", "r.json", "-h"]) == .help(topic: "render"))
        #expect(try CommandLineParser.parse(["demo", "--notes", "2000", "--version"]) == .version)
        #expect(try CommandLineParser.parse(["--version"]) == .version)

        // Run, `analyze x --output --version` does not print the version and exit 0: x is no store.
        let captured = CapturedConsole()
        let code = IndexAdvisorCommand.run(["analyze", "/nonexistent/x.sqlite", "--output", "--version"], console: captured.console)
        #expect(code == ExitCode.failure)
        #expect(captured.out.isEmpty)
        #expect(captured.error.hasPrefix("indexadvisor: error: /nonexistent/x.sqlite"), "\(captured.error)")
    }

    @Test("the analysis settings start at the library's defaults and reach it as parsed; repeatable options keep every value in order")
    func analysisSettings() throws {
        guard case .analyze(let plain) = try CommandLineParser.parse(["analyze", "s.sqlite"]) else { Issue.record("not analyze"); return }
        #expect(plain.analysisOptions == AnalysisOptions())
        guard case .check(let check) = try CommandLineParser.parse([
            "check", "s.sqlite", "--repeats", "3", "--min-count", "4", "--unique", "note(a)", "--unique=note(b, c)",
            "--sample-rows", "0", "--max-index-bytes", "4096", "--temp-dir", "/tmp/x", "--cost", "counters",
        ]) else { Issue.record("not check"); return }
        #expect(check.analyze.analysisOptions.repeats == 3)
        #expect(check.thresholds.minimumCount == 4)
        #expect(check.thresholds.minimumShare == 0.05)
        #expect(check.analyze.analysisOptions.uniqueRules.map(\.table) == ["note", "note"])
        #expect(check.analyze.analysisOptions.uniqueRules.map(\.columns) == [["a"], ["b", "c"]])
        #expect(check.analyze.analysisOptions.sampleRows == nil)
        #expect(check.analyze.analysisOptions.maxIndexBytes == 4096)
        #expect(check.analyze.analysisOptions.temporaryDirectory?.path == "/tmp/x")
        #expect(check.analyze.analysisOptions.costSource == .sqliteCounters)
        // check takes no --model (it names no key paths): analyze keeps every --model in order.
        guard case .analyze(let modelled) = try CommandLineParser.parse(["analyze", "s.sqlite", "-m", "A.swift", "--model", "B"]) else {
            Issue.record("not analyze"); return
        }
        #expect(modelled.models == ["A.swift", "B"])
        #expect(throws: UsageError("--cost takes time or counters, not 'wall'", command: "analyze")) {
            try CommandLineParser.parse(["analyze", "s.sqlite", "--cost", "wall"])
        }
    }

    @Test("did you mean: every option a command accepts is suggested for a one-letter slip, and no other command's option is")
    func suggestionsFromTheTable() throws {
        let expected: [CommandName: [String]] = [
            .analyze: analyzeOptionNames,
            .check: ["--baseline", "--min-share", "--min-count", "--slowdown"] + analyzeOptionNames.filter { $0 != "--format" && $0 != "--model" },
            .render: ["--format", "--model", "--output", "--check"],
            .workload: ["--workload", "--workload-format", "--format", "--output", "--top", "--source"],
            .demo: ["--quiet", "--notes", "--output-dir", "--keep", "--seed"],
        ]
        for (command, names) in expected {
            #expect(Set(CommandOption.options(of: command).map(\.name)) == Set(names), "\(command)")
            let operands = command == .demo ? [] : ["x"]
            for name in names {
                let slip = name + "x"
                #expect(throws: UsageError("unknown option '\(slip)' for \(command.rawValue) (did you mean \(name)?)", command: command.rawValue)) {
                    try CommandLineParser.parse([command.rawValue] + operands + [slip])
                }
            }
        }
        #expect(throws: UsageError("unknown option '--top' for render", command: "render")) {
            try CommandLineParser.parse(["render", "r.json", "--top", "3"])
        }
        #expect(throws: UsageError("unknown option '--min-shar' for check (did you mean --min-share?)", command: "check")) {
            try CommandLineParser.parse(["check", "s", "--min-shar", "0.1"])
        }
        #expect(throws: UsageError("unknown option '--baseline' for analyze", command: "analyze")) {
            try CommandLineParser.parse(["analyze", "s", "--baseline", "b.json"])
        }
    }

    @Test("each command's help lists exactly the options its parser accepts, with the defaults the options really have")
    func helpListsEveryOption() throws {
        for command in CommandName.allCases {
            let help = try #require(HelpText.text(for: command.rawValue))
            let section = try #require(help.components(separatedBy: "OPTIONS:\n").last)
            let listed = section.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
                line.split(separator: " ").prefix { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
            }
            let accepted = CommandOption.options(of: command).flatMap(\.names) + ["-h", "--help", "--version"]
            #expect(listed.sorted() == accepted.sorted(), "\(command)")
            // And the parser takes every name the help lists: a flag alone, an option with a value.
            let operands = command == .demo ? [] : ["x"]
            for option in CommandOption.options(of: command) {
                for name in option.names {
                    let arguments = [command.rawValue] + operands + [name] + (option.valueName == nil ? [] : ["--"])
                    do {
                        _ = try CommandLineParser.parse(arguments)
                    } catch let error as UsageError {
                        #expect(!error.message.hasPrefix("unknown option"), "\(arguments): \(error.message)")
                    }
                }
            }
        }
        let analyze = try #require(HelpText.text(for: "analyze"))
        #expect(AnalysisOptions().repeats == 7)
        #expect(analyze.contains("  --repeats N                     Timed runs per statement; the median is reported (default: 7)."))
        #expect(analyze.contains("(default: 250,000; 0: never)"))
        #expect(analyze.contains("  --time-budget SECONDS           After this long, build and pick no more candidates (default: 600):"))
        #expect(analyze.contains("  --workload-format sql|coredata-log|jsonl|workload-json\n                                  Force the workload format"))
        let check = try #require(HelpText.text(for: "check"))
        #expect(check.contains("  --min-share SHARE               Hot statements: at least this share of workload time (default:\n                                  0.05)."))
        #expect(check.contains("  -o, --output FILE               Also write this run's JSON report (the next --baseline)."))
        #expect(try #require(HelpText.text(for: "demo")).contains("  --notes N                       Notes in the store (default: 100,000; at least 1,000)."))
        #expect(try #require(HelpText.text(for: "workload")).contains("  -f, --format text|json          Output format (default: text)."))
        for command in CommandName.allCases {
            let lines = try #require(HelpText.text(for: command.rawValue)).components(separatedBy: "OPTIONS:\n").last!.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= HelpText.width || !$0.contains(" ") }, "\(command)")
        }
    }

    /// The options of `analyze`, also accepted by `check`.
    let analyzeOptionNames = ["--workload", "--workload-format", "--format", "--model", "--source", "--output", "--quiet", "--verbose", "--repeats", "--cost",
                              "--samples", "--statement-timeout", "--busy-timeout", "--max-indexes", "--max-indexes-per-table",
                              "--max-index-bytes", "--max-candidates", "--time-budget", "--seed", "--sample-rows", "--temp-dir", "--unique"]
}

@Suite("indexadvisor exit codes and messages")
struct CommandRunTests {
    let directory: TemporaryDirectory
    let store: URL
    let workload: URL

    init() throws {
        directory = try TemporaryDirectory()
        store = try makeItemStore(in: directory, rows: 20000, owners: 500)
        workload = directory.url.appendingPathComponent("workload.sql")
        try Data("""
            -- freq: 50
            SELECT * FROM item WHERE owner = 7;
            SELECT * FROM no_such_table WHERE x = 1;
            """.utf8).write(to: workload)
    }

    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole()
        let code = IndexAdvisorCommand.run(deterministic(arguments), console: captured.console)
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
            (["analyze", store.path, "-w", empty.path], "empty.sql: the workload has no SELECT, INSERT, UPDATE or DELETE statement (1 line read, 0 statements)"),
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

    @Test("--verbose prints where the time went, stage by stage, after the report; without it nothing of the kind")
    func verboseBreakdown() throws {
        let output = directory.url.appendingPathComponent("report.md").path
        let (code, console) = run(["analyze", store.path, "--workload", workload.path, "--output", output, "--verbose"])
        #expect(code == 0)
        let lines = console.error.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("indexadvisor: where the ") && $0.hasSuffix(" went:") })
        let stages = lines[(start + 1)...].prefix { !$0.hasPrefix("  across") }.map { $0.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0] }
        #expect(stages.first == "snapshot")
        #expect(stages.contains("measuring candidates") && stages.last == "result")
        #expect(lines.contains { $0.hasPrefix("  timing reads") })
        let (_, quiet) = run(["analyze", store.path, "--workload", workload.path, "--output", output])
        #expect(!quiet.error.contains("went:"))
    }

    @Test("a workload statement that does not prepare is a counted warning; the rest is analysed")
    func statementThatDoesNotPrepare() throws {
        let output = directory.url.appendingPathComponent("report.json")
        let (code, console) = run(["analyze", store.path, "-w", workload.path, "--format", "json", "-o", output.path, "--repeats", "3"])
        #expect(code == ExitCode.success, "\(console.error)")
        #expect(console.error == "indexadvisor: wrote \(output.path): 1 index to add, 0 indexes to drop\n"
                + "indexadvisor: warning: S2 (SELECT * FROM no_such_table WHERE x = 1) does not prepare on this store: no such table: no_such_table\n")
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

    @Test("--format sql prints a migration: the CREATE INDEX statements between comments; an unwritable --output fails without a partial file")
    func sqlFormat() throws {
        let (code, console) = run(["analyze", store.path, "-w", workload.path, "--format", "sql", "--repeats", "3", "-q"])
        #expect(code == ExitCode.success)
        let statements = console.out.split(separator: "\n").filter { !$0.hasPrefix("-- ") }
        #expect(statements == ["BEGIN;", "CREATE INDEX IF NOT EXISTS \"idx_item_owner\" ON \"item\" (\"owner\");", "COMMIT;"])
        #expect(!console.out.contains("VersionedSchema"))  // not a Core Data store
        let (failed, errors) = run(["analyze", store.path, "-w", workload.path, "-o", directory.url.appendingPathComponent("no/dir/r.md").path, "--repeats", "3", "-q"])
        #expect(failed == ExitCode.failure)
        #expect(errors.error.hasPrefix("indexadvisor: error: ") && errors.error.contains("r.md: cannot write the report"))
    }

    @Test("usage mistakes print the error and a usage line")
    func usage() {
        let (code, console) = run(["analyze", "-w", workload.path])
        #expect(code == ExitCode.failure)
        #expect(console.error == "indexadvisor: error: analyze needs the store file: indexadvisor analyze STORE --workload FILE (usage: indexadvisor analyze STORE [--workload FILE|FOLDER] [--source PATH] [--format md|json|sql|html|swift] [--model PATH] [--output FILE])\n")
        let (_, sneaky) = run(["analyze", store.path, "-w", workload.path, "--format", "x\ny\u{1B}[31m"])
        #expect(sneaky.error == "indexadvisor: error: --format must be md, json, sql, html or swift, not 'x y\\u{1b}[31m' (usage: indexadvisor analyze STORE [--workload FILE|FOLDER] [--source PATH] [--format md|json|sql|html|swift] [--model PATH] [--output FILE])\n")
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
            let code = IndexAdvisorCommand.run(deterministic(["analyze", store.path, "-w", workload.path, "-o", output]), console: captured.console)
            #expect(code == ExitCode.failure)
            #expect(captured.error.contains("is the store, one of its -wal/-shm/-journal files, a workload or a model file"))
        }
        #expect(try Data(contentsOf: store) == bytes)
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }
}

@Suite("Regressions from bad input")
struct BadInputRegressionTests {
    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole()
        return (IndexAdvisorCommand.run(deterministic(arguments), console: captured.console), captured)
    }

    @Test("random 64-bit keys and a key at Int64.max do not crash the value sampler")
    func extremeKeys() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("keys.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);
            INSERT INTO t VALUES (-9223372036854775808, 1, 1), (9223372036854775807, 2, 2);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO t SELECT random(), i % 40, i FROM n;
            """)
        let workload = directory.url.appendingPathComponent("w.log")
        try Data("CoreData: sql: SELECT * FROM t WHERE a = ? ORDER BY b\nCoreData: sql: INSERT INTO t(id, a, b) VALUES (?, ?, ?)\n".utf8).write(to: workload)
        let (code, console) = run(["analyze", store.path, "-w", workload.path, "--repeats", "3", "-q", "-f", "json"])
        #expect(code == ExitCode.success, "\(console.error)")
    }

    @Test("frequencies that would overflow saturate; bad ones are counted")
    func frequencies() {
        let workload = WorkloadLoader.parse("""
            -- freq: 1000000000
            SELECT * FROM t WHERE a = 1;
            -- freq: 99999999999999999999
            SELECT * FROM t WHERE a = 2;
            -- freq: -5
            SELECT * FROM t WHERE a = 3;
            SELEKT nonsense;
            SELECT 'unterminated
            """, file: "w.sql", format: .sql)
        #expect(workload.statements.first?.count == 1_000_000_002)
        #expect(workload.diagnostics.skipped["unreadable '-- freq:' value '99999999999999999999' (the statement counts once)"] == 1)
        #expect(workload.diagnostics.skipped["unreadable '-- freq:' value '-5' (the statement counts once)"] == 1)
        #expect(workload.diagnostics.skipped["not a statement indexadvisor analyses (starts with 'SELEKT')"] == 1)
        #expect(workload.diagnostics.skipped.keys.contains { $0.hasPrefix("an unterminated string") })
    }

    @Test("a query that would run for ever is interrupted: shapes within a moment, timing at --statement-timeout")
    func runaway() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("s.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE t(a); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT i FROM n;")
        let workload = directory.url.appendingPathComponent("w.sql")
        try Data("""
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5) SELECT count(*) FROM c;
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;
            SELECT * FROM t WHERE a = 5;
            """.utf8).write(to: workload)
        let start = Date()
        let (code, console) = run(["analyze", store.path, "-w", workload.path, "--statement-timeout", "1", "--repeats", "3", "-f", "json"])
        #expect(code == ExitCode.success)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(console.error.hasPrefix("indexadvisor: warning: S2 (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) …) ran past --statement-timeout (1.00 s) as the store is and was stopped"), "\(console.error)")
        let result = try JSONReport.decode(Data(console.out.utf8))
        #expect(result.statements[0].error == nil)
        // Stopped at the timeout: the timeout per execution, a lower bound, not an error.
        #expect(result.statements[1].error == nil)
        #expect(result.statements[1].timingBefore?.isLowerBound == true)
        #expect(result.statements[1].timingBefore?.medianSeconds == 1)
    }

    @Test("a store with a damaged page exits 2 naming the damage")
    func corruptPage() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("c.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE t(a, b); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i, hex(randomblob(20)) FROM n;")
        var bytes = try Data(contentsOf: store)
        let middle = (bytes.count / 4096 / 2) * 4096
        for offset in middle..<(middle + 2000) { bytes[offset] ^= 0x5A }
        try bytes.write(to: store)
        let workload = directory.url.appendingPathComponent("w.sql")
        try Data("SELECT * FROM t WHERE a = 5;".utf8).write(to: workload)
        let (code, console) = run(["analyze", store.path, "-w", workload.path])
        #expect(code == ExitCode.failure)
        #expect(console.error.hasPrefix("indexadvisor: error: \(store.path): the database is corrupt (quick_check: "))
        #expect(console.error.split(separator: "\n").count == 1)
    }

    @Test("--output onto a directory, and demo --keep over existing files, are refused with one line")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        try Data().write(to: directory.url.appendingPathComponent("notes.sqlite"))
        let (code, console) = run(["demo", "--keep", directory.url.path, "--notes", "1000", "--output-dir", directory.url.path])
        #expect(code == ExitCode.failure)
        #expect(console.error.contains("notes.sqlite already exists there; choose an empty directory or remove it"))
        let size = try FileManager.default.attributesOfItem(atPath: directory.url.appendingPathComponent("notes.sqlite").path)[.size] as? NSNumber
        #expect(size?.intValue == 0)
        let error = try #require(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: directory.url.path) }
        #expect(error.description.hasSuffix("cannot write the report (it is a directory)"))
    }

    // Regression (new-user trial): the demo's console said index 2 took its statement to 5.12 µs, the
    // report's summary 3.01 µs: the console printed the final timing, the report the one measured at the pick.
    @Test("the demo's console summary prints each index's figure exactly as the Markdown report's summary does")
    func demoSummaryMatchesReport() throws {
        let directory = try TemporaryDirectory()
        let (code, console) = run(["demo", "--notes", "2000", "--output-dir", directory.url.path, "--quiet"])
        #expect(code == 0)
        let markdown = try String(contentsOf: directory.url.appendingPathComponent("demo.md"), encoding: .utf8)
        let figures = console.out.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let dash = line.range(of: " — ") else { return nil }
            return String(line[dash.upperBound...])
        }
        #expect(!figures.isEmpty)
        for figure in figures { #expect(markdown.contains(figure), "\(figure)") }
    }

    @Test("an atomic write leaves only the target, and replaces it whole")
    func atomicWrite() throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("report.md")
        try AtomicFile.write("old", to: target.path)
        try AtomicFile.write("new report", to: target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new report")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0 != "owner.lock" } == ["report.md"])
    }

    // Regressions: --output replaced /dev/null, a FIFO and a symbolic link with a regular file (as root it
    // broke the machine's /dev/null), reported success on /dev/full, and overwrote an SQLite database.
    @Test("--output follows a link, writes a device or FIFO in place, reports a full device, never replaces a database")
    func specialTargets() throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("real.md")
        let link = directory.url.appendingPathComponent("link.md")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        try AtomicFile.write("through the link", to: link.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "through the link")

        try AtomicFile.write("discarded", to: "/dev/null")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)

        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = try #require(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: "/dev/full") }
            #expect(full.description == "/dev/full: cannot write the report (No space left on device)")
        }

        let fifo = directory.url.appendingPathComponent("pipe.md")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let lonely = try #require(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: fifo.path) }
        #expect(lonely.description.hasSuffix("cannot write the report (a FIFO with no reader)"))
        #expect(stat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)

        let database = directory.url.appendingPathComponent("app.sqlite")
        let connection = try SQLiteConnection(path: database.path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE t (x)")
        let refused = try #require(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: database.path) }
        #expect(refused.description.hasSuffix("cannot write the report (it is an SQLite database or write-ahead log; choose another file)"))
        #expect(AtomicFile.isSQLiteDatabase(database.path))

        // Second pass: a write-ahead log is refused too; a replaced file keeps its mode; the process's own
        // streams are written as open descriptors, not reopened by path.
        let wal = directory.url.appendingPathComponent("other-wal")
        try Data([0x37, 0x7F, 0x06, 0x82, 0, 0x2D, 0xE2, 0x18]).write(to: wal)
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: wal.path) }
        let secret = directory.url.appendingPathComponent("secret.md")
        try Data("old".utf8).write(to: secret)
        #expect(chmod(secret.path, 0o600) == 0)
        try AtomicFile.write("new", to: secret.path)
        #expect(stat(secret.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(AtomicFile.standardDescriptor("/dev/stdout") == 1)
        #expect(AtomicFile.standardDescriptor("/proc/self/fd/2") == 2)
        #expect(AtomicFile.standardDescriptor("/dev/fd/9999") == nil)
        #expect(AtomicFile.standardDescriptor("/dev/null") == nil)
    }

    // Regression: through a link to the store, --output at the real store's -wal replaced the WAL (losing
    // committed transactions); --output at the --model file replaced the app's source.
    @Test("--output cannot be the real store's side files through a link, a hard link to the store, or a model file")
    func protectedThroughLinks() throws {
        let directory = try TemporaryDirectory()
        let real = directory.url.appendingPathComponent("t1")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let store = real.appendingPathComponent("s.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER); INSERT INTO item(owner) VALUES (1), (2);")
        let link = directory.url.appendingPathComponent("sl.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: store.path)
        let hard = directory.url.appendingPathComponent("hard.sqlite")
        #expect(Foundation.link(store.path, hard.path) == 0)
        let workload = directory.url.appendingPathComponent("w.sql")
        try Data("SELECT * FROM item WHERE owner = 1;\n".utf8).write(to: workload)
        let model = directory.url.appendingPathComponent("Item.swift")
        try Data("@Model final class Item { var owner: Int = 0 }\n".utf8).write(to: model)
        for output in [store.path + "-wal", hard.path, model.path] {
            let (code, console) = run(["analyze", link.path, "-w", workload.path, "-m", model.path, "-f", "swift", "-o", output])
            #expect(code == ExitCode.failure, "\(output)")
            #expect(console.error.contains("is the store, one of its -wal/-shm/-journal files, a workload or a model file"), "\(console.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }
}

@Suite("analyze without a workload")
struct SchemaReviewCommandTests {
    @Test("on the demo store: exit 0, the redundant index and the unindexed relationship are found, the capture hint is printed")
    func demoStore() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("notes.sqlite")
        try NotesDemo.makeStore(at: store, notes: 30_000)
        let captured = CapturedConsole()
        let code = IndexAdvisorCommand.run(deterministic(["analyze", store.path, "--repeats", "3"]), console: captured.console)
        #expect(code == ExitCode.success, "\(captured.error)")
        let report = captured.out
        #expect(report.hasPrefix("# indexadvisor schema review: `notes.sqlite`"))
        #expect(report.contains("## Redundant indexes\n\n- `Z_Note_title` on `ZNOTE`"))
        #expect(report.contains("`DROP INDEX IF EXISTS \"Z_Note_title\";`"))
        #expect(report.contains("## References without an index\n\n- `ZNOTE(ZFOLDER)`: ZFOLDER is a to-one relationship"))
        #expect(report.contains("## Next: capture a workload"))
        #expect(report.contains("-com.apple.CoreData.SQLDebug 1"))
        #expect(report.contains("Then: `indexadvisor analyze \(store.path) --workload app-sql.log` (or your .sql file)"))
        // A plain store's hint names the .sql file its steps write (a new user was told to pass app-sql.log).
        #expect(CaptureHint.lines(storePath: "shop.db", isCoreData: false).last == "Then: `indexadvisor analyze shop.db --workload workload.sql` (or, with the recorder, no --workload)")
        // Nothing about query speed: no statements, no recommendations.
        #expect(!report.contains("## Recommended indexes"))
        #expect(!report.contains("## Statements"))
        let json = CapturedConsole()
        #expect(IndexAdvisorCommand.run(deterministic(["analyze", store.path, "-f", "json", "--repeats", "3"]), console: json.console) == ExitCode.success)
        let result = try JSONReport.decode(Data(json.out.utf8))
        #expect(result.statements.isEmpty && result.recommendations.isEmpty)
        #expect(result.totals.readSecondsBefore == 0)
        #expect(json.error.contains("indexadvisor: No workload was given"))
        let redundant = try #require(result.schemaReview.first { $0.kind == .redundantIndex })
        #expect(redundant.measurements.map(\.operation) == ["INSERT of a copied row", "UPDATE of ZTITLE", "DELETE of a row"])
        #expect(result.schemaReview.contains { $0.kind == .identityColumn && $0.swiftDataUnique == #"#Unique<Note>([\.remoteID])"# })
        // Regression: --format sql and swift printed "no index … for this workload" and left the review out.
        let sql = SQLReport.render(result)
        #expect(sql.contains("-- No workload was given: no index to add or drop is measured (the schema review is below)."))
        #expect(sql.contains("-- Schema review, from the schema and the data only"))
        #expect(sql.contains("--     DROP INDEX IF EXISTS \"Z_Note_title\";"))
        #expect(!sql.split(separator: "\n").contains { !$0.hasPrefix("--") && $0.contains("DROP INDEX") })
        let swift = SwiftReport.render(result)
        #expect(swift.contains(#"//     #Unique<Note>([\.remoteID])"#))
    }

    @Test("a foreign-key column without an index shows the lookup measured with and without one")
    func foreignKey() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("app.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES author(id), title TEXT, isbn TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO author SELECT i, 'a' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000) INSERT INTO book SELECT i, 1 + (i * 7919) % 2000, 't' || i, 'isbn' || i FROM n;
            """)
        var options = AnalysisOptions()
        options.costSource = .sqliteCounters  // picks that do not depend on the machine's load
        options.repeats = 5
        let result = try Advisor.review(storeAt: store, options: options)
        let finding = try #require(result.schemaReview.first { $0.kind == .unindexedReference })
        #expect(finding.table == "book" && finding.columns == ["author_id"])
        #expect(finding.advice.contains("a declared foreign key"))
        #expect(finding.sql == "CREATE INDEX IF NOT EXISTS \"idx_book_author_id\" ON \"book\" (\"author_id\");")
        let lookup = try #require(finding.measurements.first)
        #expect(lookup.operation == "lookup: SELECT * FROM \"book\" WHERE \"author_id\" = ?")
        #expect(lookup.isSignificant)
        #expect(lookup.withIndex.medianSeconds * 10 < lookup.withoutIndex.medianSeconds)
        #expect(result.schemaReview.contains { $0.kind == .noStatistics })
        #expect(result.schemaReview.contains { $0.kind == .identityColumn && $0.columns == ["isbn"] })
    }
}

@Suite("indexadvisor check", .serialized)
struct CheckCommandTests {
    let directory: TemporaryDirectory
    let store: URL
    let workload: URL

    init() throws {
        directory = try TemporaryDirectory()
        store = directory.url.appendingPathComponent("app.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER, name TEXT, updated REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO item SELECT i, i % 500, 'item ' || i, i * 1.0 FROM n;
            """)
        workload = directory.url.appendingPathComponent("w.sql")
        try Data("-- freq: 100\nSELECT * FROM item WHERE owner = 7 ORDER BY updated DESC;\n-- freq: 1\nSELECT * FROM item WHERE id = 5;\n".utf8).write(to: workload)
    }

    func run(_ arguments: [String], gitHubActions: Bool = false) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole(isGitHubActions: gitHubActions)
        return (IndexAdvisorCommand.run(deterministic(arguments + ["--repeats", "3", "-q"]), console: captured.console), captured)
    }

    @Test("a hot statement with a full scan and a sort fails (exit 1); with the index it passes (exit 0)")
    func scanFailsIndexPasses() throws {
        let (failed, console) = run(["check", store.path, "-w", workload.path])
        #expect(failed == ExitCode.checkFailed)
        let lines = console.out.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("FAIL S1 full table scan of item (30,000 rows; ×100, "))
        #expect(lines[1].hasPrefix("FAIL S1 sorts in a temp B-tree for ORDER BY"))
        #expect(lines.last?.hasPrefix("indexadvisor check: 2 failures (1 statement), 0 warnings in 2 statements") == true)
        let connection = try SQLiteConnection(path: store.path, mode: .readWrite)
        try connection.execute("CREATE INDEX item_owner_updated ON item(owner, updated)")
        let (passed, ok) = run(["check", store.path, "-w", workload.path])
        #expect(passed == ExitCode.success, "\(ok.out)")
        #expect(ok.out.hasPrefix("indexadvisor check: 0 failures"))
    }

    @Test("a statement slower than the baseline beyond the spread fails; GitHub Actions gets annotations")
    func regression() throws {
        let connection = try SQLiteConnection(path: store.path, mode: .readWrite)
        try connection.execute("CREATE INDEX item_owner_updated ON item(owner, updated)")
        let baseline = directory.url.appendingPathComponent("baseline.json")
        let (first, _) = run(["check", store.path, "-w", workload.path, "-o", baseline.path])
        #expect(first == ExitCode.success)
        try connection.execute("DROP INDEX item_owner_updated")
        let (code, console) = run(["check", store.path, "-w", workload.path, "--baseline", baseline.path])
        #expect(code == ExitCode.checkFailed)
        #expect(console.out.split(separator: "\n").contains { $0.hasPrefix("FAIL S1 got slower than the baseline: ") })
        // Regression: --min-share was ignored for slowdowns. S1 is ~99 % of the time; at 100 % nothing is hot.
        let (cold, quiet) = run(["check", store.path, "-w", workload.path, "--baseline", baseline.path, "--min-share", "1"])
        #expect(cold == ExitCode.success, "\(quiet.out)")
        #expect(quiet.out.hasPrefix("indexadvisor check: 0 failures"))
        let (_, annotated) = run(["check", store.path, "-w", workload.path, "--baseline", baseline.path], gitHubActions: true)
        #expect(annotated.out.contains("::error title=indexadvisor slower-than-baseline::S1 got slower than the baseline"))
    }

    // Regression: a baseline written for another store shared no statement and the check passed silently.
    @Test("a baseline that shares no statement with the workload fails, saying so")
    func unmatchedBaseline() throws {
        let other = directory.url.appendingPathComponent("other.sqlite")
        let connection = try SQLiteConnection(path: other.path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT); INSERT INTO tag(label) VALUES ('a'), ('b');")
        let otherWorkload = directory.url.appendingPathComponent("other.sql")
        try Data("SELECT * FROM tag WHERE label = 'a';\n".utf8).write(to: otherWorkload)
        let baseline = directory.url.appendingPathComponent("other.json")
        let (written, _) = run(["check", other.path, "-w", otherWorkload.path, "-o", baseline.path])
        #expect(written == ExitCode.success)
        let (code, console) = run(["check", store.path, "-w", workload.path, "--baseline", baseline.path, "--min-share", "1"])
        #expect(code == ExitCode.checkFailed)
        #expect(console.out.hasPrefix("FAIL none of the baseline's 1 statement is in this workload"))
        // A report written without a workload (the schema review) has no statement to compare either.
        let review = directory.url.appendingPathComponent("review.json")
        let (reviewed, _) = run(["analyze", other.path, "-f", "json", "-o", review.path])
        #expect(reviewed == ExitCode.success)
        let (empty, nothing) = run(["check", store.path, "-w", workload.path, "--baseline", review.path, "--min-share", "1"])
        #expect(empty == ExitCode.checkFailed)
        #expect(nothing.out.hasPrefix("FAIL the baseline has no statement (a report of a run without a workload?): nothing was compared"))
    }

    @Test("a baseline measured with the other --cost fails once and compares no times")
    func baselineOtherCost() throws {
        let baseline = directory.url.appendingPathComponent("counted.json")
        let (written, _) = run(["check", store.path, "-w", workload.path, "-o", baseline.path])  // --cost counters
        #expect(written == ExitCode.success || written == ExitCode.checkFailed)
        let (code, console) = run(["check", store.path, "-w", workload.path, "--baseline", baseline.path, "--cost", "time", "--min-share", "1"])
        #expect(code == ExitCode.checkFailed)
        #expect(console.out.hasPrefix("FAIL the baseline was measured with --cost counters and this check with --cost time: their times cannot be compared"))
        #expect(!console.out.contains("slower than the baseline"))
        let (same, quiet) = run(["check", store.path, "-w", workload.path, "--baseline", baseline.path, "--min-share", "1"])
        #expect(same == ExitCode.success, "\(quiet.out)")
    }

    @Test("a missing or foreign baseline is a usage error")
    func badBaseline() throws {
        let (missing, console) = run(["check", store.path, "-w", workload.path, "--baseline", "/nonexistent/b.json"])
        #expect(missing == ExitCode.failure)
        #expect(console.error.hasPrefix("indexadvisor: error: --baseline /nonexistent/b.json: no such file"))
        let (foreign, other) = run(["check", store.path, "-w", workload.path, "--baseline", workload.path])
        #expect(foreign == ExitCode.failure)
        #expect(other.error.contains("not an indexadvisor JSON report"))
    }
}

@Suite("Interrupted runs")
struct InterruptTests {
    // Regression (issue 16, item 9): SIGQUIT printed a crash backtrace and the run went on.
    @Test("SIGINT, SIGTERM, SIGHUP and SIGQUIT during an analysis: exit 128 + the signal, one line, the private directory removed, no partial report",
          arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func interrupted(signal: Int32) throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("notes.sqlite")
        try NotesDemo.makeStore(at: store, notes: 30_000)
        let log = directory.url.appendingPathComponent("notes.log")
        try NotesDemo.workloadLog().write(to: log, atomically: true, encoding: .utf8)
        let temp = try TemporaryDirectory()
        let report = directory.url.appendingPathComponent("report.md")
        let bytes = try Data(contentsOf: store)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("indexadvisor")
        process.arguments = deterministic(["analyze", store.path, "-w", log.path, "--temp-dir", temp.url.path, "-o", report.path, "-q"])
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        // Wait until the snapshot exists, then interrupt.
        let deadline = Date().addingTimeInterval(20)
        while runDirectories(in: temp.url).isEmpty && Date() < deadline { usleep(20_000) }
        usleep(300_000)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(process.terminationReason == .exit)
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT"][signal] ?? "?"
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "indexadvisor: interrupted (\(name)); temporary files removed\n")
        #expect(runDirectories(in: temp.url).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: report.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".indexadvisor-") }.isEmpty)
        #expect(try Data(contentsOf: store) == bytes)
    }
}
