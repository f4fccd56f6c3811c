import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// Issue 39, item 13: a run that could start no thread retried for ever inside Dispatch, and SIGTERM and
/// SIGINT went to a Dispatch source that needed a new thread to run: only SIGKILL ended it, and its private
/// folder stayed. Each run here is a child under `ulimit`, through /bin/sh.
@Suite("Runs that the system lets start few threads or none", .serialized)
struct ThreadLimitTests {
    /// Runs `indexadvisor arguments` under the shell's `limits` (`ulimit -p 1`), as `nobody` when this process
    /// is root (root is exempt from the process limit), with `TMPDIR` at `temp`; returns the process once it
    /// has started.
    static func launch(_ arguments: [String], limits: String, temp: URL, asNobody: Bool = false) throws -> (Process, Pipe) {
        let process = Process()
        let script = "\(limits); exec \"$0\" \"$@\""
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script, indexadvisorBinary.path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, indexadvisorBinary.path] + arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temp.path
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        return (process, errors)
    }

    /// Waits up to `seconds` for `process` to end; false (and the process killed) when it did not.
    static func ended(_ process: Process, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    @Test("no thread at all (a process limit already reached): one line and exit 2 within seconds, nothing left in the temporary folder")
    func noThread() throws {
        let root = getuid() == 0
        // Root ignores the process limit; `nobody` does not. Without setpriv there is no one to be.
        guard !root || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let temp = try TemporaryDirectory()
        // `nobody` writes there: the private folder would go there, and the reports.
        chmod(temp.url.path, 0o777)
        let started = Date()
        let (process, errors) = try Self.launch(["demo", "--notes", "500", "--output-dir", temp.url.appendingPathComponent("out").path, "--quiet"],
                                                limits: "ulimit -p 1", temp: temp.url, asNobody: root)
        #expect(Self.ended(process, within: 15))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == ExitCode.failure)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.hasPrefix("indexadvisor: error: cannot start a thread (Resource temporarily unavailable, 20 attempts over 1.0 s)"))
        #expect(message.filter { $0 == "\n" }.count == 1 && message.hasSuffix("\n"))
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.url.path).filter { $0 != "owner.lock" }.isEmpty)
    }

    /// Each new thread would need a 2 GB stack (the default is the stack limit) in a 1.5 GB address space:
    /// the system refuses every thread with the default stack.
    static let noDefaultStack = "ulimit -s 2000000; ulimit -v 1500000"

    @Test("threads with the default stack refused: the analysis runs on the threads it has and writes its report")
    func noWorkers() throws {
        let inputs = try DemoInputs(notes: 3_000)
        let temp = try TemporaryDirectory()
        let report = inputs.directory.url.appendingPathComponent("limited.json")
        let (process, _) = try Self.launch(deterministic(["analyze", inputs.store.path, "-w", inputs.log.path, "--temp-dir", temp.url.path,
                                                          "--format", "json", "-o", report.path, "-q"]),
                                           limits: Self.noDefaultStack, temp: temp.url)
        #expect(Self.ended(process, within: 120))
        #expect(process.terminationStatus == ExitCode.success)
        let result = try JSONReport.decode(Data(contentsOf: report))
        // The demo's workload, every statement planned and timed, and the index it needs found.
        #expect(result.statements.count >= 6)
        #expect(result.statements.allSatisfy { $0.error == nil && $0.timingBefore != nil })
        #expect(!result.recommendations.isEmpty)
        #expect(runDirectories(in: temp.url).isEmpty)
    }

    @Test("threads with the default stack refused: SIGTERM and SIGINT still end the run with one line and remove its private folder",
          arguments: [SIGTERM, SIGINT])
    func signalWithoutNewThreads(signal: Int32) throws {
        let inputs = try DemoInputs(notes: 30_000)
        let temp = try TemporaryDirectory()
        let report = inputs.directory.url.appendingPathComponent("interrupted.md")
        let (process, errors) = try Self.launch(deterministic(["analyze", inputs.store.path, "-w", inputs.log.path, "--temp-dir", temp.url.path,
                                                               "-o", report.path, "-q"]),
                                                limits: Self.noDefaultStack, temp: temp.url)
        #expect(waitForSnapshot(in: temp.url) != nil)
        usleep(200_000)
        kill(process.processIdentifier, signal)
        #expect(Self.ended(process, within: 20))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal)
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                == "indexadvisor: interrupted (\(name)); temporary files removed\n")
        #expect(runDirectories(in: temp.url).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: report.path))
    }
}
