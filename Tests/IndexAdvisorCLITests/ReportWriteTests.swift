import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// Issue 39, item 15: a report cut short by the file size limit (`ulimit -f`) left a partial
/// `.NAME.indexadvisor-XXXXXX` beside the target, and one left by a run killed mid-write stayed for good.
/// A writer now holds an exclusive `flock` on its temporary file until the rename; the next write of the same
/// report removes the ones whose lock is free.
@Suite("Report files: nothing half-written is left", .serialized)
struct ReportWriteTests {
    /// The committed demo report, which renders to tens of kilobytes in every format.
    static let demoReport = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("reports/demo.json")

    /// The names in `directory` that are temporary report files.
    static func temporaries(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.contains(".indexadvisor-") }.sorted()
    }

    /// `indexadvisor arguments` under the shell's `limits`: how it ended, its status and its standard error.
    static func run(_ arguments: [String], limits: String) throws -> (reason: Process.TerminationReason, status: Int32, error: String) {
        try runIndexAdvisor(arguments, limits: limits)
    }

    @Test("a report larger than ulimit -f: one line 'File too large', exit 2, no temporary file, an existing report kept as it was",
          arguments: [["-f", "html"], ["-f", "md"], ["-f", "json"]])
    func fileTooLarge(format: [String]) throws {
        let directory = try TemporaryDirectory()
        let fresh = directory.url.appendingPathComponent("quarterly.\(format[1])")
        let existing = directory.url.appendingPathComponent("yearly.\(format[1])")
        try Data("the report of last year\n".utf8).write(to: existing)
        for target in [fresh, existing] {
            // 12 blocks: a few kilobytes, far below any of the demo's reports.
            let run = try Self.run(["render", Self.demoReport.path] + format + ["-o", target.path], limits: "ulimit -f 12")
            #expect(run.reason == .exit && run.status == ExitCode.failure, "\(run.reason) \(run.status) \(run.error)")
            #expect(run.error == "indexadvisor: error: \(target.path): cannot write the report (File too large)\n")
            #expect(Self.temporaries(in: directory.url).isEmpty, "\(Self.temporaries(in: directory.url))")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
        #expect(try String(contentsOf: existing, encoding: .utf8) == "the report of last year\n")
        // Without the limit the same command writes it.
        #expect(try Self.run(["render", Self.demoReport.path] + format + ["-o", fresh.path], limits: "true").status == ExitCode.success)
        #expect(FileManager.default.fileExists(atPath: fresh.path) && Self.temporaries(in: directory.url).isEmpty)
    }

    @Test("temporary files of writers that are gone are removed by the next write of the same report; a live writer's, another report's and other names are kept")
    func abandonedTemporaries() throws {
        let directory = try TemporaryDirectory()
        let report = directory.url.appendingPathComponent("weekly.md")
        func make(_ name: String, _ text: String = "# half a rep") throws -> URL {
            let url = directory.url.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url
        }
        // Left by runs killed mid-write (no handler ran): nothing holds their lock.
        _ = try make(".weekly.md.indexadvisor-k9Xw2Q")
        _ = try make(".weekly.md.indexadvisor-000000", "")
        // A writer killed by SIGKILL while it held the lock: the kernel released it.
        let killed = try make(".weekly.md.indexadvisor-Dead01")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") {
            // The shell opens the file, flock(1) locks that open file, and the shell becomes `sleep`, which holds it.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/bin/sh")
            holder.arguments = ["-c", "exec 9<\"$0\"; /usr/bin/flock 9; exec /bin/sleep 30", killed.path]
            try holder.run()
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let probe = open(killed.path, O_RDONLY)
                let free = flock(probe, LOCK_EX | LOCK_NB) == 0
                close(probe)
                if !free { break }
                usleep(20_000)
            }
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        // A live writer: its lock is held (by this process, a different open file than the writer's).
        let live = try make(".weekly.md.indexadvisor-Live01")
        let liveDescriptor = open(live.path, O_RDONLY)
        #expect(liveDescriptor >= 0 && flock(liveDescriptor, LOCK_EX | LOCK_NB) == 0)
        // Another report's, a longer name, a folder of the same shape: not this report's temporary files.
        _ = try make(".monthly.md.indexadvisor-k9Xw2Q")
        _ = try make(".weekly.md.indexadvisor-k9Xw2Q.keep")
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(".weekly.md.indexadvisor-Dir001"), withIntermediateDirectories: false)

        let run = try Self.run(["render", Self.demoReport.path, "-o", report.path], limits: "true")
        #expect(run.reason == .exit && run.status == ExitCode.success, "\(run.error)")
        #expect(try String(contentsOf: report, encoding: .utf8).hasPrefix("# indexadvisor report"))
        #expect(Self.temporaries(in: directory.url) == [".monthly.md.indexadvisor-k9Xw2Q", ".weekly.md.indexadvisor-Dir001",
                                                         ".weekly.md.indexadvisor-Live01", ".weekly.md.indexadvisor-k9Xw2Q.keep"])
        #expect(try String(contentsOf: live, encoding: .utf8) == "# half a rep")
        // Once the live writer is gone, its file goes with the next write.
        close(liveDescriptor)
        #expect(try Self.run(["render", Self.demoReport.path, "-o", report.path], limits: "true").status == ExitCode.success)
        #expect(Self.temporaries(in: directory.url) == [".monthly.md.indexadvisor-k9Xw2Q", ".weekly.md.indexadvisor-Dir001",
                                                         ".weekly.md.indexadvisor-k9Xw2Q.keep"])
    }

    @Test("an in-process write removes an abandoned temporary file of its target and leaves none of its own")
    func inProcess() throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("digest.sql")
        try Data("-- cut sh".utf8).write(to: directory.url.appendingPathComponent(".digest.sql.indexadvisor-Ab3dE9"))
        try AtomicFile.write("CREATE INDEX IF NOT EXISTS \"d\" ON \"t\" (\"a\");\n", to: target.path)
        #expect(Self.temporaries(in: directory.url).isEmpty)
        #expect(try String(contentsOf: target, encoding: .utf8) == "CREATE INDEX IF NOT EXISTS \"d\" ON \"t\" (\"a\");\n")
    }
}
