import Testing
import Foundation
@testable import IndexAdvisorCLI
import IndexAdvisor

/// `--model` and `--source` given Core Data models on the command line.
@Suite("Core Data models on the command line")
struct CoreDataModelCommandTests {
    static let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IndexAdvisorTests/Fixtures/CoreDataApp")

    func run(_ arguments: [String]) -> (Int32, CapturedConsole) {
        let console = CapturedConsole()
        return (IndexAdvisorCommand.run(deterministic(arguments), console: console.console), console)
    }

    @Test("a --model file that is no model is refused before the analysis: one line, exit 2, nothing on stdout")
    func notAModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try makeItemStore(in: directory, rows: 500, owners: 10)
        let workload = directory.url.appendingPathComponent("w.sql")
        try "SELECT * FROM item WHERE owner = 7;\n".write(to: workload, atomically: true, encoding: .utf8)
        let plist = directory.url.appendingPathComponent("contents")
        try "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n".write(to: plist, atomically: true, encoding: .utf8)
        let notes = directory.url.appendingPathComponent("NOTES.md")
        try "# notes\n".write(to: notes, atomically: true, encoding: .utf8)
        for (path, message) in [
            (plist.path, "--model \(plist.path): not a Core Data model (its XML root element is <plist>, not <model>); give an .xcdatamodeld, an .xcdatamodel or its contents file, or Swift source"),
            (notes.path, "--model \(notes.path): neither Swift source (.swift) nor a Core Data model (.xcdatamodeld, .xcdatamodel or its XML contents file) (--model takes Swift files, Core Data models or folders)"),
        ] {
            for command in [["analyze", store.path, "--workload", workload.path], ["render", workload.path]] {
                let (code, console) = run(command + ["--model", path])
                #expect(code == 2, "\(command)")
                #expect(console.out.isEmpty)
                #expect(console.error == IndexAdvisorCommand.usageLine(UsageError(message, command: command[0])), "\(console.error)")
            }
        }
        // The fixture model is read, and folders holding it too.
        let (code, console) = run(["analyze", store.path, "--workload", workload.path, "--model", Self.app.appendingPathComponent("Model/Birding.xcdatamodeld").path, "--quiet"])
        #expect(code == 0, "\(console.error)")
    }
}
