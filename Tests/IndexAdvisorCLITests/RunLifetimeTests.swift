import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// The built `indexadvisor` executable, beside the test bundle.
let indexadvisorBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("indexadvisor")

/// A demo store and its log in a private directory, large enough that an analysis takes seconds.
struct DemoInputs {
    let directory: TemporaryDirectory
    let store: URL
    let log: URL

    init(notes: Int = 30_000) throws {
        directory = try TemporaryDirectory()
        store = directory.url.appendingPathComponent("notes.sqlite")
        try NotesDemo.makeStore(at: store, notes: notes)
        log = directory.url.appendingPathComponent("notes.log")
        try NotesDemo.workloadLog().write(to: log, atomically: true, encoding: .utf8)
    }
}

/// Waits (up to 20 s) until a private directory under `parent` holds its snapshot; returns that directory.
func waitForSnapshot(in parent: URL) -> URL? {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
        if let name = runDirectories(in: parent).first {
            let directory = parent.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("snapshot.sqlite").path) { return directory }
        }
        usleep(10_000)
    }
    return nil
}

/// Issue 16, item 4: who owns a private directory, and what happens when it goes away.
@Suite("The private directory's lifetime", .serialized)
struct PrivateDirectoryTests {
    @Test("a directory whose owner.lock is free is removed by the next run; one whose lock is held is kept, whatever its owner.pid says")
    func ownershipByLock() throws {
        let parent = try TemporaryDirectory()
        let crashed = parent.url.appendingPathComponent("indexadvisor-crash1")
        let live = parent.url.appendingPathComponent("indexadvisor-live01")
        let foreign = parent.url.appendingPathComponent("indexadvisor-other1")
        for directory in [crashed, live, foreign] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        }
        // A run killed with SIGKILL mid-transaction: its lock died with it, its journal stayed.
        try Data().write(to: crashed.appendingPathComponent("owner.lock"))
        try Data("journal".utf8).write(to: crashed.appendingPathComponent("snapshot.sqlite-journal"))
        // A live run in another PID namespace: its process id means nothing here, but it holds its lock.
        try Data().write(to: live.appendingPathComponent("owner.lock"))
        try Data("\(Int32.max - 7)\n".utf8).write(to: live.appendingPathComponent("owner.pid"))
        let held = open(live.appendingPathComponent("owner.lock").path, O_RDONLY)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        defer { close(held) }
        // No lock file: being created, or not ours to judge.
        try Data("\(Int32.max - 7)\n".utf8).write(to: foreign.appendingPathComponent("owner.pid"))

        let fresh = try TemporaryDirectory(in: parent.url)
        #expect(!FileManager.default.fileExists(atPath: crashed.path))
        #expect(FileManager.default.fileExists(atPath: live.appendingPathComponent("owner.lock").path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        // The new run's own directory is locked from the start, so no other run can take it for abandoned.
        let mine = open(fresh.url.appendingPathComponent("owner.lock").path, O_RDONLY)
        defer { close(mine) }
        #expect(flock(mine, LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fresh.url.path) == ["owner.lock"])
        fresh.remove()
        #expect(!FileManager.default.fileExists(atPath: fresh.url.path))
    }

    @Test("a directory deleted under its run is reported to the run's watch, with one line naming it")
    func vanishedDirectoryIsWatched() throws {
        let parent = try TemporaryDirectory()
        let watch = RunWatch()
        let directory = try RunWatch.$current.withValue(watch) { try TemporaryDirectory(in: parent.url) }
        #expect(directory.isIntact)
        #expect(watch.vanished.isEmpty)
        try FileManager.default.removeItem(at: directory.url)
        #expect(!directory.isIntact)
        // Seen while the directory is still in use, and once it is removed.
        #expect(watch.vanished == [directory.url.path])
        directory.remove()
        #expect(watch.vanished == [directory.url.path])
        let error = try #require(throws: StoreError.self) { try watch.check() }
        #expect(error.description == "\(directory.url.path): the private snapshot directory was deleted by another process during the run; nothing was written, since its results cannot be trusted; run again (--temp-dir chooses another directory)")
        // Only its lock file deleted: told too, and the directory, still this run's, is removed.
        let other = RunWatch()
        let partly = try RunWatch.$current.withValue(other) { try TemporaryDirectory(in: parent.url) }
        try Data("snapshot".utf8).write(to: partly.url.appendingPathComponent("snapshot.sqlite"))
        try FileManager.default.removeItem(at: partly.url.appendingPathComponent("owner.lock"))
        partly.remove()
        #expect(other.vanished == [partly.url.path])
        // A directory the run removed itself is not lost.
        let kept = try RunWatch.$current.withValue(other) { try TemporaryDirectory(in: parent.url) }
        kept.remove()
        #expect(other.vanished == [partly.url.path])
        #expect(!FileManager.default.fileExists(atPath: partly.url.path))
    }

    @Test("a run whose snapshot is deleted by another process exits 2 with one line and writes no report")
    func vanishedSnapshot() throws {
        let inputs = try DemoInputs()
        let temp = try TemporaryDirectory()
        let report = inputs.directory.url.appendingPathComponent("report.md")
        let process = Process()
        process.executableURL = indexadvisorBinary
        process.arguments = deterministic(["analyze", inputs.store.path, "-w", inputs.log.path, "--temp-dir", temp.url.path, "-o", report.path, "-q"])
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let directory = try #require(waitForSnapshot(in: temp.url))
        try FileManager.default.removeItem(at: directory)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                == "indexadvisor: error: \(directory.path): the private snapshot directory was deleted by another process during the run; nothing was written, since its results cannot be trusted; run again (--temp-dir chooses another directory)\n")
        #expect(!FileManager.default.fileExists(atPath: report.path))
    }

    // Regression: a signal at the wrong moment left snapshot.sqlite-journal behind for good (3 of 34 runs).
    @Test("a signal at any moment of an analysis leaves no private directory and no journal behind")
    func signalAtAnyMoment() throws {
        let inputs = try DemoInputs()
        let temp = try TemporaryDirectory()
        for (round, delay) in [0, 20_000, 60_000, 120_000, 250_000, 400_000, 700_000, 1_000_000].enumerated() {
            let process = Process()
            process.executableURL = indexadvisorBinary
            process.arguments = deterministic(["analyze", inputs.store.path, "-w", inputs.log.path, "--temp-dir", temp.url.path, "-f", "json", "-q"])
            process.standardError = Pipe()
            process.standardOutput = Pipe()
            try process.run()
            #expect(waitForSnapshot(in: temp.url) != nil)
            usleep(UInt32(delay))
            let signal = round % 2 == 0 ? SIGINT : SIGTERM
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationStatus == 128 + signal, "round \(round)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temp.url.path).filter { $0 != "owner.lock" } == [], "round \(round)")
        }
    }
}

/// Issue 16, item 8: a report that cannot be written was found only after the whole analysis.
@Suite("The report's target is checked before the analysis")
struct OutputTargetTests {
    /// A file that is not a database: if the analysis started, the error would be about it.
    let directory: TemporaryDirectory
    let notAStore: URL
    let workload: URL

    init() throws {
        directory = try TemporaryDirectory()
        notAStore = directory.url.appendingPathComponent("notes.txt")
        try Data(String(repeating: "not sqlite ", count: 100).utf8).write(to: notAStore)
        workload = directory.url.appendingPathComponent("w.sql")
        try Data("SELECT * FROM t WHERE a = 1;\n".utf8).write(to: workload)
    }

    func run(_ arguments: [String], console: CapturedConsole = CapturedConsole(), outputProblem: String? = nil) -> (Int32, String) {
        var base = console.console
        base.outputProblem = { outputProblem }
        return (IndexAdvisorCommand.run(deterministic(arguments), console: base), console.error)
    }

    @Test("a missing folder, a folder in the way, /proc, a database and --output \"\" are one line, exit 2, before the store is read")
    func badTargets() throws {
        let file = directory.url.appendingPathComponent("plain.txt")
        try Data("x".utf8).write(to: file)
        let database = directory.url.appendingPathComponent("app.sqlite")
        try SQLiteConnection(path: database.path, mode: .readWriteCreate).execute("CREATE TABLE t(a)")
        var cases: [(String, String)] = [
            (directory.url.appendingPathComponent("no/dir/r.md").path,
             "indexadvisor: error: \(directory.url.path)/no/dir/r.md: cannot write the report (the directory \(directory.url.path)/no/dir does not exist)\n"),
            (file.path + "/r.md", "indexadvisor: error: \(file.path)/r.md: cannot write the report (the directory \(file.path) does not exist)\n"),
            (directory.url.path, "indexadvisor: error: \(directory.url.path): cannot write the report (it is a directory)\n"),
            (database.path, "indexadvisor: error: \(database.path): cannot write the report (it is an SQLite database or write-ahead log; choose another file)\n"),
            ("", "indexadvisor: error: --output needs a file name, not an empty string (usage: indexadvisor analyze STORE [--workload FILE|FOLDER] [--source PATH] [--format md|json|sql|html|swift] [--model PATH] [--output FILE])\n"),
        ]
        #if os(Linux)
        cases.append(("/proc/version", "indexadvisor: error: /proc/version: cannot write the report (it is in /proc, the kernel's view of the system, not a place for a report)\n"))
        #endif
        for (output, message) in cases {
            let (code, error) = run(["analyze", notAStore.path, "-w", workload.path, "-o", output])
            #expect(code == ExitCode.failure, "\(output)")
            #expect(error == message)
        }
        let (checked, checkError) = run(["check", notAStore.path, "-w", workload.path, "-o", directory.url.appendingPathComponent("gone/p.json").path])
        #expect(checked == ExitCode.failure)
        #expect(checkError.contains("gone/p.json: cannot write the report (the directory "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["app.sqlite", "notes.txt", "owner.lock", "plain.txt", "w.sql"])
    }

    @Test("a standard output that cannot take the report is found before the store is read")
    func unusableStandardOutput() {
        let (code, error) = run(["analyze", notAStore.path, "-w", workload.path], outputProblem: "it is closed")
        #expect(code == ExitCode.failure)
        #expect(error == "indexadvisor: error: cannot write the report to standard output (it is closed); use --output FILE\n")
        let (checked, checkError) = run(["check", notAStore.path, "-w", workload.path, "-o", directory.url.appendingPathComponent("p.json").path],
                                        outputProblem: "a pipe whose reader has closed")
        #expect(checked == ExitCode.failure)
        #expect(checkError == "indexadvisor: error: cannot write the report to standard output (a pipe whose reader has closed); use --output FILE\n")
    }

    @Test("the executable with standard output closed, read-only, or a pipe with no reader: one line, exit 2")
    func executableStandardOutput() throws {
        func launch(_ setUp: (Process) throws -> Void) throws -> (Int32, String) {
            let process = Process()
            try setUp(process)
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        let arguments = ["analyze", notAStore.path, "-w", workload.path]
        let closed = try launch { process in
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" >&-", indexadvisorBinary.path] + arguments
        }
        #expect(closed == (2, "indexadvisor: error: cannot write the report to standard output (it is closed); use --output FILE\n"))
        let readOnly = try launch { process in
            process.executableURL = indexadvisorBinary
            process.arguments = arguments
            process.standardOutput = FileHandle(forReadingAtPath: "/dev/null")
        }
        #expect(readOnly == (2, "indexadvisor: error: cannot write the report to standard output (it is open for reading only); use --output FILE\n"))
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let noReader = try launch { process in
            process.executableURL = indexadvisorBinary
            process.arguments = arguments
            process.standardOutput = pipe
        }
        #expect(noReader == (2, "indexadvisor: error: cannot write the report to standard output (a pipe whose reader has closed); use --output FILE\n"))
    }
}

/// Issue 16, item 9: a reader that goes away killed the process with SIGPIPE and no message.
@Suite("A pipe closed while the report is written")
struct ClosedPipeTests {
    @Test("the reader closes after 10 bytes of a 1 MB report: one line, exit 2, not a death by SIGPIPE")
    func readerGoesAway() throws {
        let directory = try TemporaryDirectory()
        let workload = directory.url.appendingPathComponent("many.sql")
        try Data((0..<3000).map { "SELECT * FROM t\($0) WHERE a = 1;\n" }.joined().utf8).write(to: workload)
        let process = Process()
        process.executableURL = indexadvisorBinary
        process.arguments = ["workload", workload.path, "--format", "json"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Like `| head -c 10`: read a little, then close; the rest of the report cannot fit in the pipe.
        let first = try output.fileHandleForReading.read(upToCount: 10)
        #expect(first?.count == 10)
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                == "indexadvisor: error: cannot write the report to standard output (Broken pipe); use --output FILE\n")
    }
}
