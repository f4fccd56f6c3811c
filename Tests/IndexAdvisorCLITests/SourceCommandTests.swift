import Testing
import Foundation
@testable import IndexAdvisorCLI
import IndexAdvisor

/// `analyze --source` on the demo store with the demo app's source (NotesDemo.appSource), with and
/// without the demo log. Picks rest on SQLite's counters (`deterministic`).
@Suite("--source on the demo store")
struct SourceCommandTests {
    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let console = CapturedConsole()
        return (IndexAdvisorCommand.run(deterministic(arguments), console: console.console), console)
    }

    /// A 20,000-note demo store, its log and the app's source folder.
    func demo(in directory: URL) throws -> (store: URL, log: URL, app: URL) {
        let store = directory.appendingPathComponent("notes.sqlite")
        try NotesDemo.makeStore(at: store, notes: 20_000)
        let log = directory.appendingPathComponent("notes.log")
        try NotesDemo.workloadLog().write(to: log, atomically: true, encoding: .utf8)
        let app = directory.appendingPathComponent("NotesApp")
        for file in NotesDemo.appSource {
            let url = app.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
        }
        return (store, log, app)
    }

    @Test("without a log, the source alone recommends the folder-list index first, and the report lists every site")
    func sourceOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _, app) = try demo(in: directory.url)
        let output = directory.url.appendingPathComponent("report.json")
        let (code, console) = run(["analyze", store.path, "--source", app.path, "--format", "json", "--output", output.path])
        #expect(code == 0, "\(console.error)")
        #expect(console.error.contains("--source: 8 fetch sites in 4 Swift files, 7 translated into SQL"))
        #expect(console.error.contains("SearchView.swift:24 (FetchDescriptor) not translated: `preview` is not a stored property of Note"))
        let result = try JSONReport.decode(try Data(contentsOf: output))
        let top = try #require(result.recommendations.first)
        #expect(top.columns.map(\.name) == ["ZFOLDERID", "ZISARCHIVED", "ZUPDATEDAT"])
        #expect(top.swiftDataIndex == #"#Index<Note>([\.folderID, \.isArchived, \.updatedAt])"#)
        let list = try #require(result.statements.first { $0.sql.contains("ORDER BY t0.ZUPDATEDAT DESC LIMIT 50") })
        #expect(list.sourceLocations == ["NoteStore.swift:10"])
        #expect(list.sourceOnly == true)
        #expect(list.count == 400)
        let sites = try #require(result.sourceSites)
        #expect(sites.count == 8)
        #expect(sites.filter { $0.sql == nil }.map(\.location) == ["SearchView.swift:24"])
        let html = ReportFormat.html.render(result)
        #expect(html.contains("<h2>Fetch sites in the Swift source</h2>"))
        #expect(html.contains("<dt>Swift source</dt><dd><code>NoteStore.swift:10</code> (from the Swift source only"))
        let markdown = ReportFormat.markdown.render(result)
        #expect(markdown.contains("## Fetch sites in the Swift source"))
        #expect(markdown.contains("Issued at `NoteStore.swift:10` (from the Swift source only"))
        #expect(markdown.contains("| `SearchView.swift:24` | FetchDescriptor | ×1 | — | not translated: "))
        #expect(markdown.contains("is not a stored property of Note"))
        #expect(markdown.contains("- Workload: 7 statements read from "))
        // --format swift places each #Index in the model file and class the source declares, with the path.
        let swift = ReportFormat.swift.render(result)
        // Regression: the header credited --model for a model read from --source alone.
        #expect(swift.contains("// Key paths from the app's model: Note.swift (--source)."))
        #expect(!swift.contains("(--model)"))
        #expect(swift.contains("// In \(app.path)/Models/Note.swift (Note.swift:"))
        #expect(swift.contains("), inside @Model final class Note { … }:\n#Index<Note>([\\.folderID, \\.isArchived, \\.updatedAt]"))
    }

    @Test("with the demo log as well, every logged fetch that has a site carries its location and keeps the log's count")
    func sourceAndLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, log, app) = try demo(in: directory.url)
        let output = directory.url.appendingPathComponent("report.json")
        let (code, console) = run(["analyze", store.path, "--workload", log.path, "--source", app.path, "--format", "json", "--output", output.path,
                                   "--max-candidates", "8"])
        #expect(code == 0, "\(console.error)")
        let result = try JSONReport.decode(try Data(contentsOf: output))
        let logged = result.statements.filter { $0.kind.isRead && $0.sourceOnly != true }
        #expect(logged.count == 6)
        for statement in logged {
            #expect(statement.sourceLocations?.isEmpty == false, "\(statement.sql)")
        }
        #expect(logged.first { $0.sql.contains("LIMIT 50") }?.count == 400)
        #expect(result.statements.filter { $0.sourceOnly == true }.compactMap(\.sourceLocations) == [["NoteStore.swift:37"]])
        #expect(result.sourceSites?.filter { $0.seenInLog == true }.count == 6)
    }

    // Hostile round 8, F14: a fetch site `--source` cannot translate is a statement the app runs that the gate
    // never planned; it passed silently ("0 failures"), with a stderr line `-q` hides.
    @Test("check fails a hot fetch site it could not translate, with its location and reason, and passes a cold one")
    func untranslatedSiteFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _, _) = try demo(in: directory.url)
        func check(frequency: Int) throws -> (Int32, CapturedConsole) {
            let app = directory.url.appendingPathComponent("Inbox\(frequency)")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            try NotesDemo.modelSource.write(to: app.appendingPathComponent("Note.swift"), atomically: true, encoding: .utf8)
            try """
                import SwiftData
                import SwiftUI

                struct InboxView: View {
                    // indexadvisor: freq \(frequency)
                    @Query(filter: #Predicate<Note> { $0.title.starts(with: "Inbox") }, sort: \\Note.title) var inbox: [Note]
                    // indexadvisor: freq 200
                    @Query(filter: #Predicate<Note> { $0.remoteID == "A1" }) var one: [Note]
                    var body: some View { EmptyView() }
                }
                """.write(to: app.appendingPathComponent("InboxView.swift"), atomically: true, encoding: .utf8)
            return run(["check", store.path, "--source", app.path, "--quiet"])
        }
        let (code, console) = try check(frequency: 40)
        #expect(code == 1, "\(console.out)\(console.error)")
        let line = console.out.split(separator: "\n").first { $0.hasPrefix("FAIL InboxView.swift:6 ") }
        #expect(line?.hasPrefix("FAIL InboxView.swift:6 cannot be checked: the fetch (@Query) was not translated: `title.starts(…)`") == true, "\(console.out)")
        #expect(line?.hasSuffix("(×40, 17% of the workload's executions)") == true, "\(console.out)")
        let (_, cold) = try check(frequency: 2)
        #expect(!cold.out.contains("InboxView.swift:6 cannot be checked"), "\(cold.out)")
    }

    @Test("check and workload take --source: the gate runs on the source's statements; workload lists each site with its SQL or reason")
    func checkAndWorkload() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, log, app) = try demo(in: directory.url)
        let (code, console) = run(["check", store.path, "--source", app.path, "--quiet"])
        #expect(code == 1, "\(console.out)\(console.error)")
        #expect(console.out.contains("% of workload time; issued at NoteStore.swift:10): SELECT … FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ?"))
        #expect(console.out.contains("indexadvisor check: "))
        let (listed, summary) = run(["workload", log.path, "--source", app.path])
        #expect(listed == 0, "\(summary.error)")
        #expect(summary.out.contains("Fetch sites in the Swift source (--source):"))
        #expect(summary.out.contains("  NoteStore.swift:10 FetchDescriptor: in the log ["))
        #expect(summary.out.contains("  NoteStore.swift:37 FetchDescriptor: ×1 ["))
        #expect(summary.out.contains("  SearchView.swift:24 FetchDescriptor: not translated: `preview` is not a stored property of Note"))
        let (alone, sourceOnly) = run(["workload", "--source", app.path])
        #expect(alone == 0, "\(sourceOnly.error)")
        #expect(sourceOnly.out.contains("  PinnedNotesView.swift:9 @Query: ×150 ["))
        // Regression: workload said nothing on stderr about the untranslated site, unlike analyze.
        let warning = "indexadvisor: warning: --source: SearchView.swift:24 (FetchDescriptor) not translated: `preview` is not a stored property of Note (computed, @Transient or not declared there): Core Data cannot filter or sort on it in SQL"
        #expect(sourceOnly.error.split(separator: "\n").map(String.init) == [warning])
        #expect(summary.error.split(separator: "\n").map(String.init) == [warning])
    }

    // New-user trial: `demo --keep` kept the store, log and model but not the app's source, so --source could
    // not be tried on the demo without writing an app.
    @Test("demo --keep also keeps the notes app's source, and --source reads it")
    func demoKeepsTheAppSource() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keep = directory.url.appendingPathComponent("kept")
        let (code, console) = run(["demo", "--keep", keep.path, "--notes", "1000", "--output-dir", directory.url.path, "--quiet"])
        #expect(code == 0, "\(console.error)")
        let app = keep.appendingPathComponent("NotesApp")
        for (path, text) in NotesDemo.appSource {
            #expect(try String(contentsOf: app.appendingPathComponent(path), encoding: .utf8) == text, "\(path)")
        }
        #expect(console.out.contains("Or, from the app's source: indexadvisor analyze \(keep.appendingPathComponent("notes.sqlite").path) --source \(app.path)"))
        let (listed, summary) = run(["workload", "--source", app.path])
        #expect(listed == 0, "\(summary.error)")
        #expect(summary.out.contains("  PinnedNotesView.swift:9 @Query: ×150 ["))
    }

    // Breaking helper: a file named with an escape sequence and a newline printed them raw in workload's site list.
    @Test("control characters in a source file's name are shown escaped in workload's site list")
    func controlCharactersInFileNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let app = directory.url.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data(NotesDemo.modelSource.utf8).write(to: app.appendingPathComponent("Note.swift"))
        try Data("""
            import SwiftData
            func pinned(_ context: ModelContext) throws -> [Note] {
                try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.isPinned == true }))
            }
            """.utf8).write(to: app.appendingPathComponent("esc\u{1b}[31mred\nline.swift"))
        let (code, console) = run(["workload", "--source", app.path])
        #expect(code == 0, "\(console.error)")
        let line = try #require(console.out.split(separator: "\n").first { $0.hasPrefix("  esc") })
        #expect(line.hasPrefix("  esc\\u{1b}[31mred line.swift:3 FetchDescriptor: ×1 ["))
        #expect(!console.out.contains("\u{1b}"))
    }

    @Test("a missing --source path is one line and exit 2")
    func missingSource() {
        let (code, console) = run(["analyze", "store.sqlite", "--source", "/nonexistent/App"])
        #expect(code == 2)
        #expect(console.error.hasPrefix("indexadvisor: error: --source /nonexistent/App: no such file or directory"))
    }

    // Regression: the usage lines after analyze/check/workload errors did not show --source, "check needs a
    // workload" did not mention it, and the "no fetch site could be translated" error printed the generic
    // usage line.
    @Test("usage lines and the errors about a missing workload name --source; the untranslatable-source error prints the command's usage")
    func usageMentionsSource() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _, _) = try demo(in: directory.url)
        let empty = directory.url.appendingPathComponent("Empty.swift")
        try "struct Nothing {}\n".write(to: empty, atomically: true, encoding: .utf8)
        for command in ["analyze", "check"] {
            let (code, console) = run([command, store.path, "--source", empty.path])
            #expect(code == 2)
            #expect(console.error.contains("indexadvisor: error: --source: no fetch site in \(empty.path) could be translated into SQL (0 sites found)"), "\(console.error)")
            #expect(console.error.contains("(usage: indexadvisor \(command) STORE [--workload FILE|FOLDER] [--source PATH] ["), "\(console.error)")
        }
        let (missing, console) = run(["check", directory.url.appendingPathComponent("none.sqlite").path])
        #expect(missing == 2)
        #expect(console.error.contains("check needs a workload: --workload FILE, the app's Swift source (--source PATH), or a recorded none.sqlite.workload.jsonl"))
        #expect(HelpText.usage(for: "workload") == "Usage: indexadvisor workload [FILE|FOLDER…] [--source PATH] [--format text|json] [--top N] [--output FILE]")
    }
}
