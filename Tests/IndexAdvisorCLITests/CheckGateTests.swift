import Testing
import Foundation
@testable import IndexAdvisorCLI
import IndexAdvisor

/// Issue 16, item 2: `check` passed while a hot statement could not be timed.
@Suite("check fails a hot statement it cannot time", .serialized)
struct CheckGateTests {
    let directory: TemporaryDirectory
    let store: URL

    init() throws {
        directory = try TemporaryDirectory()
        store = try makeItemStore(in: directory, rows: 2000, owners: 50)
    }

    /// A workload whose hot statement counts to `limit` (10^8 is slow by construction, whatever the machine).
    func workload(_ name: String, limit: String, hot: String? = nil) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        let statement = hot ?? "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(limit)) SELECT count(*) FROM c"
        try Data("-- freq: 500\n\(statement);\n-- freq: 10\nSELECT * FROM item WHERE id = 5;\n".utf8).write(to: url)
        return url
    }

    func run(_ arguments: [String], gitHubActions: Bool = false) -> (Int32, CapturedConsole) {
        let captured = CapturedConsole(isGitHubActions: gitHubActions)
        return (IndexAdvisorCommand.run(deterministic(arguments + ["--repeats", "3", "-q"]), console: captured.console), captured)
    }

    // Regression (a new user): "9 failures, 1 warning in 9 statements" read as every statement failing, where
    // 6 did (a scan and a sort are two failures of one statement).
    @Test("the summary says how many statements the failures are in when one has several")
    func failuresPerStatement() throws {
        let scanAndSort = try workload("sorted.sql", limit: "1", hot: "SELECT * FROM item WHERE name = 'item 7' ORDER BY owner")
        let (code, console) = run(["check", store.path, "-w", scanAndSort.path, "--min-share", "0.001"])
        #expect(code == ExitCode.checkFailed)
        let lines = console.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("FAIL S1 ") }.count == 2)
        #expect(lines.last?.hasPrefix("indexadvisor check: 2 failures (1 statement), 0 warnings in 2 statements") == true, "\(lines.last ?? "")")
    }

    @Test("a hot statement past --statement-timeout fails (exit 1), also under -q, and is an annotation on GitHub Actions")
    func timedOut() throws {
        let slow = try workload("slow.sql", limit: "100000000")
        let (code, console) = run(["check", store.path, "-w", slow.path, "--statement-timeout", "0.2"])
        #expect(code == ExitCode.checkFailed)
        let lines = console.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "FAIL S1 timed out: an execution ran past --statement-timeout (200.0 ms) (×500, at least 99% of workload time): WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT count(*) … (shortened)")
        // Both statements were checked, the one that could not be timed too (a breaking helper read
        // "3 failures … in 1 statement" for a workload of three, two of them interrupted).
        #expect(lines.last?.hasPrefix("indexadvisor check: 1 failure, 0 warnings in 2 statements (1 could not be timed)") == true, "\(lines.last ?? "")")
        let (annotated, github) = run(["check", store.path, "-w", slow.path, "--statement-timeout", "0.2"], gitHubActions: true)
        #expect(annotated == ExitCode.checkFailed)
        #expect(github.out.hasPrefix("::error title=indexadvisor statement-timed-out::S1 timed out: an execution ran past --statement-timeout (200.0 ms)"))
    }

    @Test("a statement fast in the baseline that now times out fails, quoting the baseline's time")
    func timedOutAgainstBaseline() throws {
        let fast = try workload("fast.sql", limit: "1000")
        let baseline = directory.url.appendingPathComponent("baseline.json")
        let (written, first) = run(["check", store.path, "-w", fast.path, "-o", baseline.path])
        #expect(written == ExitCode.success, "\(first.out)")
        let slow = try workload("slow.sql", limit: "100000000")
        let (code, console) = run(["check", store.path, "-w", slow.path, "--baseline", baseline.path, "--statement-timeout", "0.2"])
        #expect(code == ExitCode.checkFailed)
        let line = try #require(console.out.split(separator: "\n").first { $0.hasPrefix("FAIL S1 ") }.map(String.init))
        #expect(line.hasPrefix("FAIL S1 timed out: an execution ran past --statement-timeout (200.0 ms); "))
        #expect(line.contains(" in the baseline (×500, at least 99% of workload time): WITH RECURSIVE"))
        // The quick statement is not hot: the workload's time counts the one that timed out, at its timeout.
        #expect(console.out.split(separator: "\n").filter { $0.hasPrefix("FAIL") }.count == 1, "\(console.out)")
    }

    @Test("a hot statement that no longer prepares fails with SQLite's reason; a rare one stays a warning")
    func doesNotPrepare() throws {
        let broken = try workload("broken.sql", limit: "", hot: "SELECT * FROM item WHERE owner = 3 AND archived = 0")
        let (code, console) = run(["check", store.path, "-w", broken.path])
        #expect(code == ExitCode.checkFailed)
        #expect(console.out.hasPrefix("FAIL S1 cannot be checked: does not prepare on this store: no such column: archived (×500, 98% of the workload's executions): SELECT * FROM item WHERE owner = 3 AND archived = 0\n"))
        let rare = directory.url.appendingPathComponent("rare.sql")
        try Data("-- freq: 1\nSELECT * FROM item WHERE archived = 0;\n-- freq: 500\nSELECT * FROM item WHERE id = 5;\n".utf8).write(to: rare)
        let (passed, quiet) = run(["check", store.path, "-w", rare.path])
        #expect(passed == ExitCode.success, "\(quiet.out)")
        #expect(quiet.out.hasPrefix("indexadvisor check: 0 failures"))
    }
}
