import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// A console that says it is a terminal, collecting what is written.
final class TerminalConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var errorText = ""
    private var outText = ""
    let width: Int?

    init(width: Int? = 120) { self.width = width }

    var console: Console {
        Console(out: { text in self.lock.withLock { self.outText += text } },
                error: { text in self.lock.withLock { self.errorText += text } },
                errorIsTerminal: true, terminalWidth: width)
    }

    var error: String { lock.withLock { errorText } }
    var out: String { lock.withLock { outText } }
}

@Suite("Progress on stderr")
struct ProgressTests {
    let step = AnalysisProgress(stage: "baseline", done: 2, total: 12, elapsedSeconds: 1.5)

    @Test("stage, statement i of n and elapsed time, redrawn in place, dimmed unless NO_COLOR")
    func line() {
        let terminal = TerminalConsole()
        let printer = ProgressPrinter(console: terminal.console, enabled: true, environment: ["TERM": "xterm-256color"])
        printer.update(step)
        printer.update(step)  // the same line is not drawn twice
        printer.finish()
        #expect(terminal.error == "\r\u{1B}[K\u{1B}[2m[  1.5s]\u{1B}[22m timing statements as the store is: statement 3 of 12\r\u{1B}[K")
        let plain = TerminalConsole()
        let noColour = ProgressPrinter(console: plain.console, enabled: true, environment: ["TERM": "xterm", "NO_COLOR": "1"])
        noColour.update(AnalysisProgress(stage: "measuring candidates", done: 0, total: 5, elapsedSeconds: 12.25))
        #expect(plain.error == "\r\u{1B}[K[ 12.2s] building and timing candidate index 1 of 5")
    }

    @Test("when stderr is not a terminal, a run past 10 s writes a plain line of what it is doing, at most every 5 s")
    func plainLines() {
        let log = TerminalConsole()
        let printer = ProgressPrinter(console: log.console, enabled: false, plain: true, environment: ["TERM": "xterm"])
        for (seconds, stage) in [(3.0, "baseline"), (10.5, "measuring candidates"), (13.0, "measuring candidates"), (15.6, "selection")] {
            printer.update(AnalysisProgress(stage: stage, done: 1, total: 4, elapsedSeconds: seconds))
        }
        printer.finish()
        #expect(log.error == "indexadvisor: [10s] building and timing candidate index 2 of 4\nindexadvisor: [16s] choosing indexes: 1 chosen so far\n")
        let quiet = TerminalConsole()
        ProgressPrinter(console: quiet.console, enabled: false, plain: false).update(AnalysisProgress(stage: "baseline", done: 0, total: 1, elapsedSeconds: 60))
        #expect(quiet.error.isEmpty)
    }

    @Test("nothing when disabled (--quiet, not a terminal) or TERM=dumb; cut to the terminal's width")
    func silentAndNarrow() {
        for (enabled, environment) in [(false, ["TERM": "xterm"]), (true, ["TERM": "dumb"])] {
            let terminal = TerminalConsole()
            let printer = ProgressPrinter(console: terminal.console, enabled: enabled, environment: environment)
            printer.update(step)
            printer.say("building")
            printer.finish()
            #expect(terminal.error.isEmpty)
        }
        let narrow = TerminalConsole(width: 40)
        ProgressPrinter(console: narrow.console, enabled: true, environment: ["NO_COLOR": "1"]).update(step)
        let drawn = narrow.error.replacingOccurrences(of: "\r\u{1B}[K", with: "")
        #expect(drawn == "[  1.5s] timing statements as the stor…")
        #expect(drawn.count < 40)
    }

    @Test("analyze draws progress on a terminal and none with --quiet")
    func analyze() throws {
        let fixture = try CoreDataFixture()
        let terminal = TerminalConsole()
        #expect(IndexAdvisorCommand.run(deterministic(["analyze", fixture.store.path, "-w", fixture.workload.path, "--repeats", "3", "-f", "sql"]), console: terminal.console) == ExitCode.success)
        #expect(terminal.error.contains("timing statements as the store is: statement 1 of 1"))
        #expect(terminal.error.hasSuffix("\r\u{1B}[K"))
        let quiet = TerminalConsole()
        #expect(IndexAdvisorCommand.run(deterministic(["analyze", fixture.store.path, "-w", fixture.workload.path, "--repeats", "3", "-f", "sql", "-q"]), console: quiet.console) == ExitCode.success)
        #expect(quiet.error.isEmpty)
        // With --output the run ends by naming the file it wrote (a new user saw nothing after the progress).
        let output = fixture.directory.url.appendingPathComponent("advice.sql").path
        let written = TerminalConsole()
        #expect(IndexAdvisorCommand.run(deterministic(["analyze", fixture.store.path, "-w", fixture.workload.path, "--repeats", "3", "-f", "sql", "-o", output]), console: written.console) == ExitCode.success)
        #expect(written.error.contains("indexadvisor: wrote \(output): "))
        #expect(written.error.contains(" to drop\n"))
    }
}

/// A small Core Data store whose column ZNAME is the property `title` (`originalName: "name"`).
struct CoreDataFixture {
    let directory: TemporaryDirectory
    let store: URL
    let workload: URL
    let model: URL

    init() throws {
        directory = try TemporaryDirectory()
        store = directory.url.appendingPathComponent("Notes.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDERID INTEGER, ZNAME VARCHAR);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 20000);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO ZNOTE SELECT i, 1, 1, i % 500, 'note ' || i FROM n;
            """)
        workload = directory.url.appendingPathComponent("workload.sql")
        try Data("-- freq: 50\nSELECT * FROM ZNOTE WHERE ZNAME = 'note 7';\n".utf8).write(to: workload)
        model = directory.url.appendingPathComponent("Note.swift")
        try Data("""
            import SwiftData
            @Model final class Note {
                var folderID: Int
                @Attribute(originalName: "name") var title: String
                init(folderID: Int, title: String) { self.folderID = folderID; self.title = title }
            }
            """.utf8).write(to: model)
    }
}

@Suite("Formats on the command line")
struct ReportCommandTests {
    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole()
        return (IndexAdvisorCommand.run(deterministic(arguments), console: captured.console), captured)
    }

    @Test("--model: key paths and the index name from the model (originalName), in analyze and in render of a saved JSON report")
    func model() throws {
        let fixture = try CoreDataFixture()
        let (code, swift) = run(["analyze", fixture.store.path, "-w", fixture.workload.path, "--repeats", "3", "-q", "--format", "swift", "--model", fixture.model.path])
        #expect(code == ExitCode.success, "\(swift.error)")
        #expect(swift.out.contains("\n#Index<Note>([\\.title])\n"))
        #expect(swift.out.contains("// Key paths from the app's model: Note.swift (--model)."))

        // One analysis, saved as JSON; every other format rendered from it.
        let json = fixture.directory.url.appendingPathComponent("report.json")
        #expect(run(["analyze", fixture.store.path, "-w", fixture.workload.path, "--repeats", "3", "-q", "-f", "json", "-o", json.path]).0 == ExitCode.success)
        let saved = try JSONReport.decode(Data(contentsOf: json))
        #expect(saved.recommendations.first?.swiftDataIndex == #"#Index<Note>([\.name])"#)
        #expect(saved.recommendations.first?.keyPathsAreGuessed == true)
        let (_, guessed) = run(["render", json.path, "--format", "sql"])
        #expect(guessed.out.contains(#"CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryname" ON "ZNOTE" ("ZNAME");"#))
        let (renderCode, exact) = run(["render", json.path, "--format", "sql", "--model", fixture.model.path])
        #expect(renderCode == ExitCode.success)
        #expect(exact.out.contains(#"CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinarytitle" ON "ZNOTE" ("ZNAME");"#))
        let html = fixture.directory.url.appendingPathComponent("report.html")
        #expect(run(["render", json.path, "-f", "html", "-o", html.path, "-m", fixture.model.path]).0 == ExitCode.success)
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("#Index&lt;Note&gt;([\\.title])"))
        #expect(page.contains("ZNAME → title"))
        // Rendering is a pure function of the JSON: the same report twice.
        #expect(run(["render", json.path, "-f", "md"]).1.out == MarkdownReport.render(saved))

        // render --check: this analysis's report is true (exit 0); one with a threshold its method does not
        // explain is not (exit 1, one line per finding, then the count).
        let (checkCode, checked) = run(["render", json.path, "--check"])
        #expect(checkCode == ExitCode.success)
        #expect(checked.out == "\(json.path): every sentence checked agrees with the report's data\n")
        var edited = saved
        // A method paragraph of its own (as a report made before the method's fields were kept gives it).
        edited.method.sqliteVersion = nil
        edited.method.description = "Each time is the median of 3 runs."
        edited.rejectedCandidates.append(RejectedCandidate(sql: "CREATE INDEX x ON ZNOTE (ZNAME)", table: "ZNOTE", columns: ["ZNAME"], partialPredicate: nil,
                                                           readSecondsSaved: 0.002, writeSecondsAdded: 0.001,
                                                           rejection: .other("it saves 1.0 ms per workload, below the 33.1 ms worth a schema change")))
        let false1 = fixture.directory.url.appendingPathComponent("edited.json")
        try Data(JSONReport.render(edited).utf8).write(to: false1)
        let (falseCode, found) = run(["render", false1.path, "--check"])
        #expect(falseCode == ExitCode.checkFailed)
        #expect(found.out.contains("\(false1.path): unexplained-threshold: the report says \"worth a schema change\", and its method section does not say what that threshold is\n"))
        #expect(found.out.hasSuffix(" finding\n") || found.out.hasSuffix(" findings\n"))
        #expect(found.error.isEmpty)
        // The thresholds the reports name are explained in the help too, and the help names --check.
        // The selection's rules are printed from its policy (wrapped, so compared with the spaces collapsed).
        let analyzeHelp = (HelpText.text(for: "analyze") ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(analyzeHelp.contains("smaller saving is not \"worth a schema change\""), "\(analyzeHelp)")
        #expect(analyzeHelp.contains("counters' resolution 2.0×"), "\(analyzeHelp)")
        #expect(HelpText.text(for: "analyze")?.contains("otherwise the report says \"within the noise\"") == true)
        #expect(HelpText.text(for: "render")?.contains("--check") == true)
    }

    @Test("a --model path or a report that cannot be read exits 2 with one line naming it")
    func badInputs() throws {
        let fixture = try CoreDataFixture()
        let missing = fixture.directory.url.appendingPathComponent("Models").path
        let (code, console) = run(["analyze", fixture.store.path, "-w", fixture.workload.path, "--model", missing])
        #expect(code == ExitCode.failure)
        #expect(console.error.hasPrefix("indexadvisor: error: --model \(missing): no such file or directory"))
        #expect(console.error.split(separator: "\n").count == 1)
        let notJSON = fixture.workload.path
        let (renderCode, renderConsole) = run(["render", notJSON])
        #expect(renderCode == ExitCode.failure)
        #expect(renderConsole.error.hasPrefix("indexadvisor: error: \(notJSON): not an indexadvisor JSON report"))
        let newer = fixture.directory.url.appendingPathComponent("newer.json")
        try Data("{\"schemaVersion\": 99}".utf8).write(to: newer)
        #expect(run(["render", newer.path]).1.error.contains("the report has schemaVersion 99; this indexadvisor reads up to 1: update indexadvisor"))
        #expect(run(["render", newer.path, "-o", newer.path]).1.error.contains("schemaVersion 99"))
    }

    @Test("the format names and the demo's files")
    func formatNames() throws {
        #expect(ReportFormat(argument: "html") == .html)
        #expect(ReportFormat(argument: "swift") == .swift)
        #expect(ReportFormat(argument: "markdown") == .markdown)
        #expect(ReportFormat.allCases.map(\.fileExtension) == ["md", "json", "sql", "html", "swift"])
        guard case .render(let options) = try CommandLineParser.parse(["render", "r.json", "-f", "html", "-o", "r.html", "-m", "A.swift", "--model=Models"]) else {
            Issue.record("not render")
            return
        }
        #expect(options.report == "r.json" && options.format == .html && options.output == "r.html" && options.models == ["A.swift", "Models"])
    }
}
