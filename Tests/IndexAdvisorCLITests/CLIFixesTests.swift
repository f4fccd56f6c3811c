import Testing
import Foundation
@testable import IndexAdvisorCLI
import IndexAdvisor

/// Regressions from a tester's pass over the rewritten option parsing.
@Suite("CLI fixes: option values, paths, check's options and output")
struct CLIFixesTests {
    let directory: TemporaryDirectory
    let store: URL
    let workload: URL

    init() throws {
        directory = try TemporaryDirectory()
        store = try makeItemStore(in: directory, rows: 2000, owners: 50)
        workload = directory.url.appendingPathComponent("workload.sql")
        try Data("""
            -- freq: 50
            SELECT * FROM item WHERE owner = 7;
            """.utf8).write(to: workload)
    }

    func run(_ arguments: [String], gitHubActions: Bool = false) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole(isGitHubActions: gitHubActions)
        let code = IndexAdvisorCommand.run(deterministic(arguments), console: captured.console)
        return (code, captured)
    }

    /// The one line a usage error prints for `command`.
    func usageLine(_ message: String, _ command: String?) -> String {
        IndexAdvisorCommand.usageLine(UsageError(message, command: command))
    }

    // MARK: 1. --sample-rows overflow

    @Test("--sample-rows above a billion is a usage error (exit 2, one line), and the help says the limit")
    func sampleRowsRange() throws {
        let (code, captured) = run(["analyze", store.path, "-w", workload.path, "--sample-rows", "5000000000000000000"])
        #expect(code == 2)
        #expect(captured.error == usageLine("--sample-rows must be a whole number from 0 to 1000000000, not '5000000000000000000'", "analyze"))
        #expect(captured.out.isEmpty)
        // Regression (a breaking helper): `--sample-rows 1` sampled a 50,000-row table to no rows, and the advice vanished.
        let (small, tiny) = run(["analyze", store.path, "-w", workload.path, "--sample-rows", "1"])
        #expect(small == 2)
        #expect(tiny.error == usageLine("--sample-rows must be 0 (never sample) or from 1000 to 1000000000, not '1': a smaller sample leaves every table too small to index", "analyze"))
        guard case .analyze(let options) = try CommandLineParser.parse(["analyze", "s", "--sample-rows", "1000000000"]) else {
            Issue.record("not analyze"); return
        }
        #expect(options.analysisOptions.sampleRows == 1_000_000_000)
        let help = try #require(HelpText.text(for: "analyze")).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("(default: 250,000; 0: never), N from 1,000 to 1,000,000,000. Index sizes"))
    }

    @Test("the library samples without overflow for any row limit, and leaves no snapshot behind",
          arguments: [(Int.max, nil), (Int.max / 2 + 1, nil), (Int.max / 2, nil), (1_000_000_000, nil), (999, 3), (500, 4)] as [(Int, Int?)])
    func samplingNeverOverflows(maxRows: Int, step: Int?) throws {
        let temporary = directory.url.appendingPathComponent("tmp-\(maxRows)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var options = AnalysisOptions()
        options.sampleRows = maxRows
        options.temporaryDirectory = temporary
        options.costSource = .sqliteCounters
        options.repeats = 3
        let result = try Advisor.profile(storeAt: store, workload: try WorkloadLoader.load([workload]), options: options)
        // 2,000 rows: sampled 1 in ⌈2000 / N⌉ only when 2000 > 2 × N.
        #expect(result.store.sampledTables.map(\.step) == (step.map { [$0] } ?? []))
        #expect(result.statements.count == 1)
        #expect(runDirectories(in: temporary) == [])
    }

    // MARK: 2. a flag given a value

    @Test("a flag given a value is a usage error naming the flag, exit 2, one line; it never turns the flag on",
          arguments: [
            (["analyze", "s.sqlite", "--quiet=false"], "--quiet takes no value", "analyze"),
            (["analyze", "s.sqlite", "--verbose=false"], "--verbose takes no value", "analyze"),
            (["analyze", "s.sqlite", "--quiet="], "--quiet takes no value", "analyze"),
            (["check", "s.sqlite", "--quiet=yes"], "--quiet takes no value", "check"),
            (["render", "r.json", "--check=no"], "--check takes no value", "render"),
            (["demo", "--quiet=0"], "--quiet takes no value", "demo"),
            (["analyze", "s.sqlite", "--help=yes"], "--help takes no value", "analyze"),
            (["analyze", "s.sqlite", "--version=1"], "--version takes no value", "analyze"),
            (["--help=yes"], "--help takes no value", nil),
            (["--version=x"], "--version takes no value", nil),
          ] as [([String], String, String?)])
    func flagWithValue(arguments: [String], message: String, command: String?) {
        #expect(throws: UsageError(message, command: command)) { try CommandLineParser.parse(arguments) }
        let (code, captured) = run(arguments)
        #expect(code == 2)
        #expect(captured.error == usageLine(message, command))
        #expect(captured.error.filter { $0 == "\n" }.count == 1)
        #expect(captured.out.isEmpty)
    }

    // MARK: 3. an empty path

    @Test("an empty path, as an option's value or an operand, is refused with one line, exit 2 — never the current directory",
          arguments: [
            (["analyze", "s.sqlite", "--workload", ""], "--workload needs a path, not an empty string", "analyze"),
            (["analyze", "s.sqlite", "-w", ""], "--workload needs a path, not an empty string", "analyze"),
            (["analyze", "s.sqlite", "--workload="], "--workload needs a path, not an empty string", "analyze"),
            (["analyze", "s.sqlite", "--temp-dir", ""], "--temp-dir needs a directory, not an empty string", "analyze"),
            (["analyze", "s.sqlite", "--model", ""], "--model needs a path, not an empty string", "analyze"),
            (["analyze", "s.sqlite", "-o", ""], "--output needs a file name, not an empty string", "analyze"),
            (["analyze", ""], "analyze needs the store file, not an empty string", "analyze"),
            (["analyze", "--", ""], "analyze needs the store file, not an empty string", "analyze"),
            (["check", "", "-w", "w.sql"], "check needs the store file, not an empty string", "check"),
            (["check", "s.sqlite", "--baseline", ""], "--baseline needs a file name, not an empty string", "check"),
            (["render", ""], "render needs a JSON report, not an empty string", "render"),
            (["workload", ""], "workload needs a file or folder, not an empty string", "workload"),
            (["workload", "--source", ""], "--source needs a path, not an empty string", "workload"),
            (["demo", "--output-dir", ""], "--output-dir needs a directory, not an empty string", "demo"),
            (["demo", "--keep", ""], "--keep needs a directory, not an empty string", "demo"),
          ] as [([String], String, String)])
    func emptyPath(arguments: [String], message: String, command: String) {
        let (code, captured) = run(arguments)
        #expect(code == 2)
        #expect(captured.error == usageLine(message, command))
        #expect(captured.out.isEmpty)
    }

    @Test("every option whose value is a file, folder or directory refuses an empty one")
    func everyPathOptionRefusesEmpty() {
        for command in CommandName.allCases {
            for option in CommandOption.options(of: command) where ["FILE", "FILE|FOLDER", "PATH", "DIR"].contains(option.valueName ?? "") {
                let operands = command == .demo ? [] : ["x"]
                #expect(throws: UsageError.self, "\(command) \(option.name)") {
                    try CommandLineParser.parse([command.rawValue] + operands + [option.name, ""])
                }
                do {
                    _ = try CommandLineParser.parse([command.rawValue] + operands + [option.name, ""])
                } catch let error as UsageError {
                    #expect(error.message.hasPrefix("\(option.name) needs ") && error.message.hasSuffix(", not an empty string"), "\(error.message)")
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
    }

    // MARK: 6. check's lines never cut a figure

    @Test("a check warning carries the finding's whole text: a figure past 220 characters is never cut")
    func adviceNeverCut() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("reports/demo.json")
        var result = try JSONReport.decode(try Data(contentsOf: url))
        let advice = try #require(result.queryAdvice.first)
        let label = try #require(result.statements.firstIndex { $0.id == advice.statementID }.map { "S\($0 + 1)" })
        let long = "The store has no sqlite_stat1, so SQLite guesses how selective each index is and picks the wrong one "
            + "for this statement; after ANALYZE it picks the index on (folder, updated) instead of the one on (updated), "
            + "and it takes 60.4 ms → 61.1 µs per execution (×400)."
        #expect(long.count > 220)
        result.queryAdvice = [advice]
        result.queryAdvice[0].finding = .other(advice: long, caveat: advice.caveat)
        let problems = CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds())
        let warning = try #require(problems.first { $0.kind == .queryAdvice })
        #expect(warning.message == "\(label) \(advice.kind.rawValue): \(long)")
        // The demo's own advice, over 220 characters, comes whole too.
        let demo = try JSONReport.decode(try Data(contentsOf: url))
        let whole = CheckEvaluator.evaluate(demo, baseline: nil, thresholds: CheckThresholds()).first { $0.kind == .queryAdvice }
        #expect(whole?.message.hasSuffix(demo.queryAdvice[0].advice.split(whereSeparator: \.isWhitespace).joined(separator: " ")) == true)
    }

    @Test("a statement excerpt is cut between tokens, outside quotes, and says it is shortened", arguments: [
        ("SELECT * FROM note WHERE folder = 7 ORDER BY updated DESC LIMIT 20", 64, "SELECT * FROM note WHERE folder = 7 ORDER BY updated DESC LIMIT … (shortened)"),
        ("SELECT * FROM note WHERE folder = 7 ORDER BY updated DESC LIMIT 20", 66, "SELECT * FROM note WHERE folder = 7 ORDER BY updated DESC LIMIT 20"),
        ("SELECT * FROM note WHERE folder = 7 ORDER BY updated DESC LIMIT 20 OFFSET 40", 68, "SELECT * FROM note WHERE folder = 7 ORDER BY updated DESC LIMIT 20 … (shortened)"),
        ("SELECT * FROM note WHERE title = 'a b c d e f' AND x = 1", 40, "SELECT * FROM note WHERE title = … (shortened)"),
        ("SELECT\n  *\n  FROM   note", 100, "SELECT * FROM note"),
        // Regression (a new user's check lines): a Core Data fetch's column list hid its WHERE.
        ("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZISCOMPLETED, t0.ZISFLAGGED, t0.ZPRIORITY, t0.ZTITLE FROM ZTASK t0 WHERE t0.ZISFLAGGED = ? ORDER BY t0.ZMODIFIEDAT DESC LIMIT 100",
         100, "SELECT … FROM ZTASK t0 WHERE t0.ZISFLAGGED = ? ORDER BY t0.ZMODIFIEDAT DESC LIMIT 100"),
        ("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZISCOMPLETED, t0.ZISFLAGGED, t0.ZPRIORITY, t0.ZTITLE FROM ZTASK t0 WHERE t0.ZPROJECT = ? AND t0.ZISCOMPLETED = ? ORDER BY t0.ZDUEDATE LIMIT 50",
         80, "SELECT … FROM ZTASK t0 WHERE t0.ZPROJECT = ? AND t0.ZISCOMPLETED = ? ORDER BY … (shortened)"),
    ])
    func statementExcerpt(sql: String, limit: Int, expected: String) {
        #expect(CheckEvaluator.excerpt(sql, limit: limit) == expected)
    }

    // MARK: 4. check's --format, --model and --verbose

    @Test("check refuses --format and --model, which it would ignore (its --output is JSON), with one line, exit 2",
          arguments: [
            (["check", "s.sqlite", "--format", "md", "-o", "plans.md"], "--format is not an option of check: its verdict is printed as lines, and --output writes its JSON report (render it in another format with indexadvisor render)"),
            (["check", "s.sqlite", "-f", "md"], "-f is not an option of check: its verdict is printed as lines, and --output writes its JSON report (render it in another format with indexadvisor render)"),
            (["check", "s.sqlite", "--format=json"], "--format is not an option of check: its verdict is printed as lines, and --output writes its JSON report (render it in another format with indexadvisor render)"),
            (["check", "s.sqlite", "--model", "/nonexistent"], "--model is not an option of check: it names no key paths (give --model to indexadvisor render with its --output report)"),
            (["check", "s.sqlite", "-m", "/nonexistent"], "-m is not an option of check: it names no key paths (give --model to indexadvisor render with its --output report)"),
          ])
    func checkRefusesWhatItIgnores(arguments: [String], message: String) {
        let (code, captured) = run(arguments)
        #expect(code == 2)
        #expect(captured.error == usageLine(message, "check"))
        #expect(captured.out.isEmpty)
    }

    @Test("help check lists neither --format nor --model, and says what --verbose prints for check")
    func checkHelp() throws {
        let names = CommandOption.options(of: .check).flatMap(\.names)
        #expect(!names.contains("--format") && !names.contains("-f") && !names.contains("--model") && !names.contains("-m"))
        #expect(names.contains("--verbose") && names.contains("--source"))
        let help = try #require(HelpText.text(for: "check"))
        #expect(!help.contains("--format ") && !help.contains("--model "))
        #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
            "--verbose At the end, on stderr, where the time went: seconds per stage and the timings run (also in the --output report's method.stageSeconds)."))
        // analyze and render keep them.
        #expect(CommandOption.options(of: .analyze).flatMap(\.names).contains("--model"))
        #expect(CommandOption.options(of: .render).flatMap(\.names).contains("--format"))
    }

    @Test("check --verbose prints where the time went on stderr, after the verdict; without it nothing of the kind")
    func checkVerbose() throws {
        let (code, captured) = run(["check", store.path, "-w", workload.path, "--repeats", "3", "--verbose"])
        #expect(code == 0 || code == 1, "\(captured.error)")
        let lines = captured.error.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("indexadvisor: where the ") && $0.hasSuffix(" went:") })
        let stages = lines[(start + 1)...].prefix { !$0.hasPrefix("  across") }.map { $0.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0] }
        #expect(stages.first == "snapshot" && stages.last == "result")
        #expect(captured.out.hasPrefix("indexadvisor check: ") || captured.out.contains("\nindexadvisor check: "))
        let (_, plain) = run(["check", store.path, "-w", workload.path, "--repeats", "3"])
        #expect(!plain.error.contains("went:"))
    }

    // MARK: 5. check -q

    @Test("check -q prints no WARN line (nor a warning annotation), only failures and the summary; help and README say so")
    func checkQuietHidesWarnings() throws {
        let mixed = directory.url.appendingPathComponent("mixed.sql")
        // The scan runs often enough to be over 1 ms per workload (a statement under it is never hot), and the
        // first runs set the share so high that it is not hot there.
        try Data("-- freq: 500\nSELECT * FROM item WHERE id = 5;\n-- freq: 100\nSELECT * FROM item WHERE name LIKE '%5%';\n".utf8).write(to: mixed)
        let arguments = ["check", store.path, "-w", mixed.path, "--min-share", "0.995", "--repeats", "3"]
        let summary = "indexadvisor check: 0 failures, 1 warning in 2 statements (thresholds: 99 % of workload time, at least 1.00 ms; slower than baseline by 1.5×, no baseline)\n"
        let (code, loud) = run(arguments)
        #expect(code == 0)
        #expect(loud.out.hasPrefix("WARN S2 substring-search: item is searched by substring (name LIKE with a leading wildcard)"))
        #expect(loud.out.hasSuffix(summary))
        let (quietCode, quiet) = run(arguments + ["-q"])
        #expect(quietCode == 0)
        #expect(quiet.out == summary)
        #expect(quiet.error.isEmpty)
        let (_, annotated) = run(arguments + ["--quiet"], gitHubActions: true)
        #expect(annotated.out == summary)
        // A failure is never hidden: a hot full scan under -q.
        let (failed, failing) = run(["check", store.path, "-w", mixed.path, "--repeats", "3", "-q"])
        #expect(failed == 1)
        #expect(failing.out.hasPrefix("FAIL S2 full table scan of item (2,000 rows;"))
        #expect(!failing.out.contains("WARN"))
        let help = try #require(HelpText.text(for: "check")).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("-q, --quiet No progress or warnings on stderr, and no WARN lines (query-side advice) on stdout: only the FAIL lines and the summary line, which still counts the warnings. A failure is never hidden."))
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("`-q` hides the progress, the warnings on stderr and the `WARN` lines (the summary line still counts them), never a failure."))
    }

    // MARK: 7. exit codes in help

    @Test("--help and help render list exit 1 for render --check findings, as the README does")
    func exitCodesInHelp() throws {
        let general = try #require(HelpText.text(for: nil))
        #expect(general.contains("""
              1  a check threshold was crossed, or render --check found a sentence the report's own data
                 contradict
            """))
        let render = try #require(HelpText.text(for: "render"))
        #expect(render.hasSuffix("EXIT CODES: 0 rendered (with --check: no finding), 1 --check found a sentence the report's own data\ncontradict, 2 bad usage or unusable input."))
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("| 1 | a `check` threshold was crossed, or `render --check` found a sentence that the report's own data contradict (one line per finding) |"))
        // The exit code itself is held by ReportCommandTests (render --check on a false report exits 1).
    }
}

/// A saved report read through a pipe: `render <(…)` and `check --baseline` on a named pipe, which read the
/// file with Foundation's whole-file calls (`--baseline` on a FIFO said "no such file").
@Suite("Saved reports through pipes")
struct SavedReportPipeTests {
    @Test("render and check --baseline read a report from a named pipe; a missing one is 'no such file'")
    func reportThroughPipe() throws {
        let directory = try TemporaryDirectory()
        let store = try makeItemStore(in: directory, rows: 2000, owners: 50)
        let workload = directory.url.appendingPathComponent("workload.sql")
        try Data("-- freq: 50\nSELECT * FROM item WHERE owner = 7;\n".utf8).write(to: workload)
        let saved = directory.url.appendingPathComponent("r.json")
        let captured = CapturedConsole(isGitHubActions: false)
        #expect(IndexAdvisorCommand.run(deterministic(["check", store.path, "-w", workload.path, "-o", saved.path]), console: captured.console) != 2)
        let report = try Data(contentsOf: saved)
        for command in [["render", "PIPE", "--format", "sql"], ["check", store.path, "-w", workload.path, "--baseline", "PIPE"]] {
            let fifo = directory.url.appendingPathComponent("pipe-\(command[0]).json").path
            #expect(mkfifo(fifo, 0o644) == 0)
            let writer = Thread {
                let descriptor = open(fifo, O_WRONLY)
                _ = report.withUnsafeBytes { write(descriptor, $0.baseAddress!, report.count) }
                close(descriptor)
            }
            writer.start()
            let console = CapturedConsole(isGitHubActions: false)
            let code = IndexAdvisorCommand.run(deterministic(command.map { $0 == "PIPE" ? fifo : $0 }), console: console.console)
            #expect(code != 2, "\(command[0]): \(console.error)")
            if command[0] == "render" { #expect(console.out.contains("index migration for")) }
        }
        // A device is refused at once (a breaking helper's `render /dev/zero` grew to 24 GB and was killed).
        for command in [["render", "/dev/zero"], ["check", store.path, "-w", workload.path, "--baseline", "/dev/zero"]] {
            let console = CapturedConsole(isGitHubActions: false)
            #expect(IndexAdvisorCommand.run(deterministic(command), console: console.console) == 2)
            #expect(console.error.contains("/dev/zero") && console.error.contains("a device or socket, not a report file"))
        }
        let missing = directory.url.appendingPathComponent("none.json").path
        let console = CapturedConsole(isGitHubActions: false)
        #expect(IndexAdvisorCommand.run(deterministic(["check", store.path, "-w", workload.path, "--baseline", missing]), console: console.console) == 2)
        #expect(console.error.contains("--baseline \(missing): no such file"))
    }

    // Regression (a breaking helper): with a directory named demo.sql in --output-dir, the demo built and
    // analysed its store, wrote demo.md and demo.json, then failed on demo.sql.
    @Test("demo checks every report file before any work, and writes none when one cannot be written")
    func demoChecksItsFilesFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("indexadvisor-demo-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("demo.sql"), withIntermediateDirectories: true)
        let started = Date()
        let console = CapturedConsole(isGitHubActions: false)
        #expect(IndexAdvisorCommand.run(deterministic(["demo", "--output-dir", directory.path, "--notes", "1000", "--quiet"]), console: console.console) == 2)
        #expect(console.error.contains("demo.sql: cannot write the report (it is a directory)"))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["demo.sql"])
    }
}
