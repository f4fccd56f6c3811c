import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F15: a Core Data log line over the reader's 1 MB bound was skipped as a long line, so a
/// fetch with a huge IN list that the app ran 20 times at 0.5 s each was in no statement, and `check` passed
/// ("0 failures … in 1 statement"); the same statement in a `.sql` file fails it. A cut `sql:` line is now a
/// statement set aside while reading, counted with its executions, and the times after it go to no statement.
@Suite("A logged statement longer than a log line is set aside, not lost")
struct LongLogLineTests {
    static func log(longFetches: Int) -> String {
        let values = (0..<220_000).map { "'k\($0)'" }.joined(separator: ",")
        var lines: [String] = []
        for _ in 0..<longFetches {
            lines.append("CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZCODE IN (\(values))")
            lines.append("CoreData: annotation: sql connection fetch time: 0.5000s")
            lines.append("CoreData: annotation: total fetch execution time: 0.5010s for 0 rows.")
        }
        lines.append("CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.Z_PK = ?")
        lines.append("CoreData: details: SQLite bind[0] = (int64)7")
        lines.append("CoreData: annotation: sql connection fetch time: 0.0001s")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("20 cut fetches: one set-aside statement of 20 executions; the lookup keeps its own time only")
    func setAside() throws {
        let workload = WorkloadLoader.parse(Self.log(longFetches: 20), file: "items.log", format: .coreDataLog)
        let setAside = workload.diagnostics.setAside
        #expect(setAside.map(\.count) == [20])
        #expect(setAside.first?.location == "items.log:1")
        #expect(setAside.first?.reason == "statement on a log line longer than 1 MB, not read whole")
        #expect(setAside.first?.excerpt.hasPrefix("SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZCODE IN ('k0','k1',") == true)
        #expect(workload.statements.map(\.count) == [1])
        #expect(workload.statements.first?.observedTiming?.medianSeconds == 0.0001)
    }

    @Test("check fails the hot set-aside fetch as not checkable; the store untouched")
    func checkFails() throws {
        let store = try FixtureStore("""
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCODE VARCHAR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO ZITEM SELECT i, 1, 1, 'k' || i FROM n;
            """)
        let before = try Data(contentsOf: store.url)
        let workload = WorkloadLoader.parse(Self.log(longFetches: 20), file: "items.log", format: .coreDataLog)
        let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        let failures = CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        #expect(failures.map(\.kind) == [.statementFailed])
        #expect(failures.first?.message.hasPrefix("items.log:1 cannot be checked: statement on a log line longer than 1 MB, not read whole (×20, 95% of the workload's executions)") == true,
                "\(failures.map(\.message))")
        #expect(try Data(contentsOf: store.url) == before)
    }
}
