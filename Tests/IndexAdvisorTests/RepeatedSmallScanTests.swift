import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F25: a table under ``PlanFinding/smallTableRows`` rows is scanned faster than an index
/// could help, once; as the inner loop of a correlated subquery it is scanned once per outer row (999 rows ×
/// 20,001, 70 M VM steps), and `check` passed it. Such a repeated scan fails when the statement is hot and
/// its counters show the repetition; a scan that runs a few times does not.
@Suite("A small table scanned once per outer row fails check")
struct RepeatedSmallScanTests {
    static let schema = """
        CREATE TABLE tier (id INTEGER PRIMARY KEY, lo INTEGER, hi INTEGER, name TEXT);
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 599)
        INSERT INTO tier SELECT i + 1, i * 10, i * 10 + 10, 'tier ' || i FROM n;
        CREATE TABLE sample (id INTEGER PRIMARY KEY, v INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO sample SELECT i, (i * 37) % 6000 FROM n;
        """

    static func failures(_ sql: String) throws -> [CheckProblem] {
        let store = try FixtureStore(schema)
        let workload = WorkloadLoader.parse("-- freq: 10\n\(sql);\n-- freq: 100\nSELECT v FROM sample WHERE id = 7;\n", file: "tiers.sql", format: .sql)
        let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        return CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
    }

    @Test("the 600-row scan under a correlated subquery, for 5,000 outer rows, fails; for 3 outer rows it passes")
    func correlated() throws {
        let many = try Self.failures("SELECT s.id, (SELECT name FROM tier WHERE lo <= s.v AND hi > s.v) FROM sample s WHERE s.id BETWEEN 1 AND 5000")
        #expect(many.map(\.kind) == [.fullTableScan])
        #expect(many.first?.message.contains("S1 full table scan of tier once for each row of an outer loop (600 rows a scan, ") == true, "\(many.map(\.message))")
        let few = try Self.failures("SELECT s.id, (SELECT name FROM tier WHERE lo <= s.v AND hi > s.v) FROM sample s WHERE s.id BETWEEN 1 AND 3")
        #expect(few.isEmpty, "\(few.map(\.message))")
    }

    @Test("which scans repeat: under a correlated subquery or a later loop at its level, not the first")
    func repeatedScans() {
        func finding(_ table: String, rows: Int) -> PlanFinding {
            var finding = PlanFinding(kind: .fullTableScan, detail: "SCAN \(table)")
            finding.table = table
            finding.tableRows = rows
            return finding
        }
        let join = QueryPlan(steps: [.init(id: 2, parent: 0, detail: "SCAN tier"), .init(id: 3, parent: 0, detail: "SCAN kind")],
                             findings: [finding("tier", rows: 600), finding("kind", rows: 40)])
        #expect(CheckEvaluator.repeatedSmallScans(join) == [1])
        let correlated = QueryPlan(steps: [.init(id: 2, parent: 0, detail: "SEARCH s USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"),
                                           .init(id: 5, parent: 0, detail: "CORRELATED SCALAR SUBQUERY 1"), .init(id: 9, parent: 5, detail: "SCAN tier")],
                                   findings: [PlanFinding(kind: .rowidLookup, detail: ""), PlanFinding(kind: .other, detail: ""), finding("tier", rows: 600)])
        #expect(CheckEvaluator.repeatedSmallScans(correlated) == [2])
        // A large table's scan is a problem of its own, never counted here.
        let large = QueryPlan(steps: [.init(id: 2, parent: 0, detail: "SCAN a"), .init(id: 3, parent: 0, detail: "SCAN b")],
                              findings: [finding("a", rows: 5), finding("b", rows: 50_000)])
        #expect(CheckEvaluator.repeatedSmallScans(large).isEmpty)
    }
}
