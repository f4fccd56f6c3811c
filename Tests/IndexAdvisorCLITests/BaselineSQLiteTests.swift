import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// Issue 39, hostile round 7, F9: `check --baseline` compared a baseline measured with another SQLite without a
/// word; it is not comparable, as one of the other `--cost` or sampling is. And F8 at the command line: a write
/// timed as a no-op says so on stderr too.
@Suite("A baseline of another SQLite, and a no-op write, at the command line", .serialized)
struct BaselineSQLiteTests: CheckScratch {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let orchard = """
        CREATE TABLE tree (id INTEGER PRIMARY KEY, row_no INTEGER, variety TEXT, planted INTEGER);
        CREATE INDEX tree_row ON tree(row_no);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO tree SELECT i, i % 80, 'v' || (i % 13), 1990 + i % 30 FROM n;
        """

    /// The baseline at `path` with its `method.sqliteVersion` set to `version` (removed when nil) and, with
    /// `tool`, its `tool.sqliteVersion` too, written to `name`.
    func edited(_ path: String, _ name: String, method version: String?, tool: String? = nil, cost: String? = nil) throws -> String {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var method = try #require(json["method"] as? [String: Any])
        method["sqliteVersion"] = version
        if let cost { method["costSource"] = cost }
        json["method"] = method
        if let tool {
            var info = try #require(json["tool"] as? [String: Any])
            info["sqliteVersion"] = tool
            json["tool"] = info
        }
        let url = directory.url.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        return url.path
    }

    @Test("a baseline measured with another SQLite fails once, compares no times, and says which two")
    func otherSQLite() throws {
        let store = try store("orchard.sqlite", Self.orchard)
        let workload = try file("orchard.sql", "-- freq: 400\nSELECT variety FROM tree WHERE row_no = 12;\n-- freq: 30\nSELECT id FROM tree WHERE planted = 2001;\n")
        let baseline = directory.url.appendingPathComponent("orchard.json").path
        let (written, _) = run(["check", store.path, "-w", workload.path, "-q", "-o", baseline, "--min-share", "1"])
        #expect(written == ExitCode.success)
        // Like for like: it passes.
        let (same, sameConsole) = run(["check", store.path, "-w", workload.path, "-q", "--baseline", baseline, "--min-share", "1"])
        #expect(same == ExitCode.success, "\(sameConsole.out)")
        let here = SQLiteConnection.libraryVersion
        let older = try edited(baseline, "older.json", method: "3.31.1")
        let (code, console) = run(["check", store.path, "-w", workload.path, "-q", "--baseline", older, "--min-share", "1"])
        #expect(code == ExitCode.checkFailed, "\(console.out)")
        let failures = console.out.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        #expect(failures == ["FAIL the baseline was measured with SQLite 3.31.1 and this check with SQLite \(here): their plans and times cannot be compared (another SQLite plans and runs statements otherwise); run both with the same SQLite (or write a new baseline with check --output)"],
                "\(console.out)")
        #expect(console.out.contains("indexadvisor check: 1 failure, 0 warnings in 2 statements"), "\(console.out)")
        // A report written before the method kept the version: the tool's is the same library.
        let oldReport = try edited(baseline, "old-report.json", method: nil, tool: "3.45.0")
        let (old, oldConsole) = run(["check", store.path, "-w", workload.path, "-q", "--baseline", oldReport, "--min-share", "1"])
        #expect(old == (here == "3.45.0" ? ExitCode.success : ExitCode.checkFailed), "\(oldConsole.out)")
        #expect(oldConsole.out.contains("measured with SQLite 3.45.0 and this check") == (here != "3.45.0"), "\(oldConsole.out)")
        let oldSame = try edited(baseline, "old-same.json", method: nil)
        #expect(run(["check", store.path, "-w", workload.path, "-q", "--baseline", oldSame, "--min-share", "1"]).0 == ExitCode.success)
        // Another --cost and another SQLite: both are said, each once, and on GitHub Actions by their kind.
        let both = try edited(baseline, "both.json", method: "3.31.1", cost: "time")
        let (twice, twiceConsole) = run(["check", store.path, "-w", workload.path, "-q", "--baseline", both, "--min-share", "1"])
        #expect(twice == ExitCode.checkFailed)
        let lines = twiceConsole.out.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        #expect(lines.count == 2 && lines[0].hasPrefix("FAIL the baseline was measured with --cost time") && lines[1].hasPrefix("FAIL the baseline was measured with SQLite 3.31.1"), "\(lines)")
        #expect(CheckProblem.Kind.baselineOtherSqlite.rawValue == "baseline-other-sqlite")
    }

    @Test("a write timed only on keys that match no row warns on stderr, and not under -q")
    func noOpWriteOnStderr() throws {
        let store = try store("empty-orchard.sqlite", """
            CREATE TABLE tree (id INTEGER PRIMARY KEY, row_no INTEGER, variety TEXT, planted INTEGER);
            CREATE TABLE pick_log (id INTEGER PRIMARY KEY, tree_id INTEGER, kg INTEGER);
            CREATE TRIGGER tree_gone AFTER DELETE ON tree BEGIN DELETE FROM pick_log WHERE tree_id = OLD.id; END;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9000) INSERT INTO pick_log SELECT i, i % 400, i % 9 FROM n;
            """)
        let workload = try file("felled.sql", "-- freq: 20\nDELETE FROM tree WHERE id = 41;\n-- freq: 20\nDELETE FROM tree WHERE id = 42;\n")
        let (code, console) = run(["analyze", store.path, "-w", workload.path, "-f", "json"])
        #expect(code == ExitCode.success, "\(console.error)")
        let warning = "indexadvisor: warning: S1 (DELETE FROM tree WHERE id = 41) was timed on the app's own id in all 2 value sets timed, which match no row of tree on the snapshot, which has none: those executions change no row, so its figure times a no-op, not the app's write (nor its triggers' work); time it on a store that holds the rows it changes\n"
        #expect(console.error.contains(warning), "\(console.error)")
        #expect(console.out.contains("\"valueSetsChangingNoRow\""), "\(console.out.prefix(300))")
        let (_, quiet) = run(["analyze", store.path, "-w", workload.path, "-f", "json", "-q"])
        #expect(!quiet.error.contains("no-op"))
    }
}
