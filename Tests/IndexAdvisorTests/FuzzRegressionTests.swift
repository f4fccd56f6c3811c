import Testing
import Foundation
@testable import IndexAdvisor

/// Replays the inputs in FuzzRegressions/: crashes found by scripts/fuzz (kept there automatically) and
/// hand-written seeds. Each must be read without a crash and with its problems counted.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("every kept workload input reads without a crash", arguments: inputs.filter { $0.hasPrefix("workload-") })
    func workload(name: String) throws {
        let text = String(decoding: try Data(contentsOf: Self.directory.appendingPathComponent(name)), as: UTF8.self)
        let log = WorkloadLoader.parse(text, file: name, format: .coreDataLog)
        let script = WorkloadLoader.parse(text, file: name, format: .sql)
        #expect(log.diagnostics.linesRead > 0)
        #expect(script.diagnostics.linesRead > 0)
        for statement in log.statements + script.statements {
            #expect(statement.count >= 1)
            #expect(statement.observedTiming.map { $0.medianSeconds.isFinite && $0.medianSeconds >= 0 } ?? true)
        }
    }

    @Test("every kept statement input gets a shape or a clean error, within the shape run's deadline", arguments: inputs.filter { $0.hasPrefix("shape-") })
    func shape(name: String) throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, ZFOLDER INTEGER, ZTITLE VARCHAR)")
        let extractor = try ShapeExtractor(schema: SchemaReader.read(from: connection))
        let text = String(decoding: try Data(contentsOf: Self.directory.appendingPathComponent(name)), as: UTF8.self)
        let start = Date()
        let normalized = Fingerprinter.normalize(text)
        _ = try? extractor.shape(of: normalized.parameterizedSQL)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("the seeds say what they test")
    func seeds() throws {
        let text = String(decoding: try Data(contentsOf: Self.directory.appendingPathComponent("workload-seed-overflow-and-unterminated")), as: UTF8.self)
        let script = WorkloadLoader.parse(text, format: .sql)
        #expect(script.diagnostics.skipped.keys.contains { $0.hasPrefix("unreadable '-- freq:' value '99999999999999999999'") })
        #expect(script.diagnostics.skipped.keys.contains { $0.hasPrefix("an unterminated string") })
        let log = WorkloadLoader.parse(String(decoding: try Data(contentsOf: Self.directory.appendingPathComponent("workload-seed-control-bytes")), as: UTF8.self), format: .coreDataLog)
        // -1e999 s is not a duration: the connection time is dropped and the valid total fetch time is kept.
        #expect(log.statements.first?.observedTiming?.medianSeconds == 0.015)
    }
}
