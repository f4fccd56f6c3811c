import Testing
import Foundation
@testable import IndexAdvisor

/// One statement whose value sets plan differently (issue: a breaking helper's CI false negative).
@Suite("The value set planned is the one with the most full scans")
struct ValueSetPlanTests {
    // Regression (a breaking helper): with a partial index on `(n) WHERE s = 'open'`, the workload's
    // `s = 'open'` and `s = 'closed'` shared one statement; only the first literal was planned, so `check`
    // passed (exit 0) and the report said "full table scans 0 → 0" while half the executions scanned the
    // table. Shape of my own: shipments, a partial index for the ones in transit.
    static let schema = """
        CREATE TABLE shipment (id INTEGER PRIMARY KEY, carrier INTEGER NOT NULL, state TEXT NOT NULL, weight REAL NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO shipment SELECT i, i % 40, CASE WHEN i % 10 = 0 THEN 'in_transit' ELSE 'delivered' END, i * 0.5 FROM n;
        CREATE INDEX shipment_in_transit ON shipment(carrier) WHERE state = 'in_transit';
        """
    static let workload = """
        -- freq: 150
        SELECT * FROM shipment WHERE state = 'in_transit' AND carrier = 7;
        -- freq: 150
        SELECT * FROM shipment WHERE state = 'delivered' AND carrier = 7;
        """

    @Test("check fails on the value set that scans, and the report plans it, with a note")
    func scanningValueSetIsPlanned() throws {
        let store = try FixtureStore(Self.schema)
        let workload = WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql)
        #expect(workload.statements.count == 1)
        let profiled = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        let statement = try #require(profiled.statements.first)
        #expect(statement.planBefore?.findings.contains { $0.kind == .fullTableScan } == true)
        #expect(statement.timedExecutions?.first?.sql.contains("'delivered'") == true)
        #expect(statement.notes.map(\.text).contains { $0.hasPrefix("Its value sets do not all plan alike") })
        let problems = CheckEvaluator.evaluate(profiled, baseline: nil, thresholds: CheckThresholds())
        #expect(problems.filter(\.isFailure).map(\.kind) == [.fullTableScan])
        #expect(problems.first?.message.contains("'delivered'") == true)
        let analysed = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        expectTrueReport(analysed)
        #expect(analysed.totals.fullScansBefore == 1)
        #expect(analysed.totals.fullScansAfter == 0)
        #expect(!analysed.recommendations.isEmpty)
    }
}
