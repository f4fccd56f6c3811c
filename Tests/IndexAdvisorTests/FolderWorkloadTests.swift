import Testing
import Foundation
@testable import IndexAdvisor

/// A folder given as the workload, holding a file that is no workload: set aside and counted, the other
/// files read (a breaking helper's folder with one UTF-16 export made the whole run exit 2, and a FIFO and a
/// link to /dev/zero in it were passed over without a word).
@Suite("Folders as workloads")
struct FolderWorkloadTests {
    @Test("a UTF-16 file and a FIFO in a folder are listed as set aside; the folder's SQL is read")
    func setAside() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("captures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("-- freq: 4\nSELECT * FROM t WHERE a = 1;\n".utf8).write(to: folder.appendingPathComponent("a.sql"))
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("SELECT 1;\n".data(using: .utf16LittleEndian)!)
        try utf16.write(to: folder.appendingPathComponent("b.log"))
        #expect(mkfifo(folder.appendingPathComponent("c.sql").path, 0o644) == 0)
        let workload = try WorkloadLoader.read([folder])
        #expect(workload.statements.map(\.count) == [4])
        #expect(workload.diagnostics.skippedCount == 2)
        #expect(workload.diagnostics.examples.contains("c.sql: a FIFO, device or socket in the folder, not read"))
        #expect(workload.diagnostics.examples.contains { $0.hasPrefix("b.log: a file in UTF-16") })
        // Named on its own, the UTF-16 file is still refused.
        #expect(throws: WorkloadError.self) { try WorkloadLoader.read([folder.appendingPathComponent("b.log")]) }
    }
}
