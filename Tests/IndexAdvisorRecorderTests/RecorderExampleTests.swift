import Foundation
import Testing
@testable import IndexAdvisor

/// The built example program, beside the test bundle (the test target depends on it, so it is built).
let recorderExampleBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("indexadvisor-recorder-example")

@Suite("The README's recorder example")
struct RecorderExampleTests {
    @Test("it records a raw sqlite3 connection and writes STORE.workload.jsonl, which indexadvisor reads")
    func example() throws {
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("app.sqlite")
        let process = Process()
        process.executableURL = recorderExampleBinary
        process.arguments = [store.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed == store.path + ".workload.jsonl\n")
        let workload = try WorkloadLoader.read([URL(fileURLWithPath: store.path + ".workload.jsonl")])
        #expect(workload.diagnostics.formats.map(\.format) == [.jsonl])
        let counts = Dictionary(workload.statements.map { ($0.sql, $0.count) }, uniquingKeysWith: +)
        #expect(counts["SELECT id, name FROM item WHERE owner = ? ORDER BY name"] == 4)
        #expect(counts.values.reduce(0, +) >= 24)
    }
}
