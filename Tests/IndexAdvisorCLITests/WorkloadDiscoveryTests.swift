import Foundation
import Testing
@testable import IndexAdvisorCLI
import IndexAdvisor

@Suite("Finding the workload: beside the store, or in a folder")
struct WorkloadDiscoveryTests {
    let directory: TemporaryDirectory
    let store: URL

    init() throws {
        directory = try TemporaryDirectory()
        store = try makeItemStore(in: directory, rows: 20000, owners: 500)
    }

    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole()
        let code = IndexAdvisorCommand.run(deterministic(arguments), console: captured.console)
        return (code, captured)
    }

    func write(_ text: String, to name: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("without --workload, STORE.workload.jsonl beside the store is analysed and named on stderr")
    func besideTheStore() throws {
        let recorded = try write(WorkloadCommandTests.jsonl, to: "app.sqlite.workload.jsonl")
        let output = directory.url.appendingPathComponent("report.json")
        let (code, console) = run(["analyze", store.path, "--format", "json", "-o", output.path, "--repeats", "3"])
        #expect(code == ExitCode.success, "\(console.error)")
        #expect(console.error.hasPrefix("indexadvisor: using the recorded workload beside the store: \(recorded.path) (--workload FILE to use another)\n"))
        let result = try JSONReport.decode(Data(contentsOf: output))
        #expect(result.workload.files == ["app.sqlite.workload.jsonl"])
        #expect(result.statements.map(\.count) == [400, 30])
        #expect(result.recommendations.first?.columns.map(\.name) == ["owner", "name"])
        #expect(result.schemaReview.isEmpty)

        // The recorded workload is an input: the report may not replace it.
        let (refused, errors) = run(["analyze", store.path, "-o", recorded.path])
        #expect(refused == ExitCode.failure)
        #expect(errors.error.contains("is the store, one of its -wal/-shm/-journal files, a workload or a model file"))
        #expect(try String(contentsOf: recorded, encoding: .utf8) == WorkloadCommandTests.jsonl)

        // check finds it too; without one, check says what it needs.
        let (checked, checkConsole) = run(["check", store.path, "--repeats", "3", "-q"])
        #expect(checked == ExitCode.checkFailed, "\(checkConsole.error)")
        #expect(checkConsole.out.contains("full table scan"))
        try FileManager.default.removeItem(at: recorded)
        let (missing, missingConsole) = run(["check", store.path])
        #expect(missing == ExitCode.failure)
        #expect(missingConsole.error.hasPrefix("indexadvisor: error: check needs a workload: --workload FILE, the app's Swift source (--source PATH), or a recorded app.sqlite.workload.jsonl beside the store (usage:"))
    }

    // Regressions: a FIFO named STORE.workload.jsonl was picked up and analyze waited for ever; `workload
    // /dev/zero` never ended.
    @Test("a FIFO beside the store is not picked up; a device given as a workload is refused in one line")
    func specialFiles() throws {
        let fifo = store.path + WorkloadDiscovery.recordedWorkloadSuffix
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(WorkloadDiscovery.recordedWorkload(besideStore: store) == nil)
        let (code, console) = run(["analyze", store.path, "-q", "--repeats", "3", "-f", "json"])
        #expect(code == ExitCode.success)
        #expect(!console.error.contains("using the recorded workload"))
        let (refused, message) = run(["workload", "/dev/zero"])
        #expect(refused == ExitCode.failure)
        #expect(message.error == "indexadvisor: error: /dev/zero: is a device or socket, not a workload file\n")
    }

    @Test("--workload FOLDER reads the logs under it, in name order, and leaves other files out")
    func folder() throws {
        _ = try write("-- freq: 20\nSELECT * FROM item WHERE owner = 7;\n", to: "logs/b-scripts/lookups.sql")
        _ = try write("CoreData: sql: SELECT id, name FROM item WHERE owner = ? ORDER BY name\nCoreData: details: SQLite bind[0] = 3\n",
                      to: "logs/a-device.log")
        _ = try write("SELECT * FROM item WHERE name = 'x';\n", to: "logs/.hidden/old.sql")
        _ = try write("not a workload", to: "logs/screenshot.png")
        let output = directory.url.appendingPathComponent("report.json")
        let folder = directory.url.appendingPathComponent("logs").path
        let (code, console) = run(["analyze", store.path, "--workload", folder, "--format", "json", "-o", output.path, "--repeats", "3"])
        #expect(code == ExitCode.success, "\(console.error)")
        #expect(console.error.hasPrefix("indexadvisor: reading 2 workload files from \(folder)\n"))
        let result = try JSONReport.decode(Data(contentsOf: output))
        #expect(result.workload.files == ["a-device.log", "b-scripts/lookups.sql"])
        #expect(result.statements.map(\.count) == [1, 20])

        // The workload command reads folders the same way.
        let (listed, listing) = run(["workload", folder, "--format", "json"])
        #expect(listed == ExitCode.success, "\(listing.error)")
        #expect(listing.out.contains("\"b-scripts/lookups.sql\""))

        // A folder with nothing to read is one line naming it.
        let empty = directory.url.appendingPathComponent("empty-logs")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        _ = try write("x", to: "empty-logs/notes.md")
        let (failed, errors) = run(["analyze", store.path, "--workload", empty.path])
        #expect(failed == ExitCode.failure)
        #expect(errors.error == "indexadvisor: error: \(empty.path): the folder has no workload file (.log, .txt, .sql, .jsonl, .ndjson or .trace)\n")
    }

    // Regression (a breaking helper): a link to a .sql file inside the folder was neither read nor listed.
    @Test("a link to a workload file inside --workload FOLDER is read as the file")
    func linkedFileInFolder() throws {
        let outside = try write("-- freq: 30\nSELECT * FROM item WHERE owner = 9;\n", to: "elsewhere/shared.sql")
        _ = try write("-- freq: 20\nSELECT * FROM item WHERE owner = 7;\n", to: "linked/own.sql")
        try FileManager.default.createSymbolicLink(at: directory.url.appendingPathComponent("linked/shared.sql"), withDestinationURL: outside)
        let (code, console) = run(["workload", directory.url.appendingPathComponent("linked").path, "--format", "json"])
        #expect(code == ExitCode.success, "\(console.error)")
        #expect(console.out.contains("\"own.sql\"") && console.out.contains("\"shared.sql\""))
    }
}
