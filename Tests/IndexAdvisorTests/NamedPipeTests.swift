import Testing
import Foundation
@testable import IndexAdvisor

/// A workload given as a named pipe: read once a writer opens it, and refused with one line when none
/// does, where opening it the plain way blocked `analyze` for ever (a breaking helper's `mkfifo`).
@Suite("Named pipes as input")
struct NamedPipeTests {
    @Test("a named pipe that nothing opens for writing is refused after the wait, with the reason")
    func noWriter() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.url.appendingPathComponent("workload.sql").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let started = Date()
        let error = try #require(throws: WorkloadError.self) { try ChunkedFileReader(path: fifo, writerWaitSeconds: 0.3) }
        #expect(error.description == "\(fifo): cannot read the workload (a named pipe that nothing opened for writing within 0.3 s)")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("a named pipe whose writer comes late and writes slowly is read whole, and the workload's format is found")
    func lateWriter() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.url.appendingPathComponent("workload.sql").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let text = (1...300).map { "-- freq: \($0)\nSELECT * FROM t WHERE a = \($0);\n" }.joined()
        let writer = Thread {
            usleep(200_000)
            let descriptor = open(fifo, O_WRONLY)
            let bytes = Array(text.utf8)
            // Two writes with a pause: the reader must not take the first part for the whole.
            let half = bytes.count / 2
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress!, half) }
            usleep(200_000)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + half, bytes.count - half) }
            close(descriptor)
        }
        writer.start()
        let workload = try WorkloadLoader.read([URL(fileURLWithPath: fifo)])
        #expect(workload.statements.count == 1)
        #expect(workload.statements.first?.count == (1...300).reduce(0, +))
        #expect(workload.diagnostics.statementsRead == 300)
        #expect(workload.diagnostics.formats.first?.format == .sql)
    }
}
