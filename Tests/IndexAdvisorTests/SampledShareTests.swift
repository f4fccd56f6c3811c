import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F10: on a store sampled in part, a statement on a sampled table is timed on 1 row in k
/// and one on a whole table on all of it; `check` weighed the two as they were, so a full scan of the sampled
/// table that is 12 % of the store's workload passed at 1.8 %. Its time now counts × k for the share that
/// makes a statement hot, and the line says so.
@Suite("check weighs a sampled table's statement by the store's rows")
struct SampledShareTests {
    static let schema = """
        CREATE TABLE reading (id INTEGER PRIMARY KEY, probe INTEGER, value INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8000)
        INSERT INTO reading SELECT i, i % 50, i % 7 FROM n;
        CREATE TABLE station (id INTEGER PRIMARY KEY, name TEXT, height INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1900)
        INSERT INTO station SELECT i, 's' || i, i % 300 FROM n;
        """

    static func failures(sampleRows: Int) throws -> (AnalysisResult, [CheckProblem]) {
        let store = try FixtureStore(schema)
        let workload = WorkloadLoader.parse("""
            -- freq: 10
            SELECT count(*) FROM reading WHERE probe = 5;
            -- freq: 430
            SELECT sum(height) FROM station WHERE id BETWEEN 100 AND 1600;
            """, file: "probes.sql", format: .sql)
        var options = quickOptions()
        options.sampleRows = sampleRows
        let result = try Advisor.profile(storeAt: store.url, workload: workload, options: options)
        return (result, CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure))
    }

    @Test("the scan of the table sampled 1 in 8 fails as on the whole store, its line saying how it was weighed")
    func sampledScanFails() throws {
        let (sampledRun, sampled) = try Self.failures(sampleRows: 1_000)
        #expect(sampledRun.store.sampledTables.map(\.table) == ["reading"])
        #expect(sampledRun.store.sampledTables.map(\.step) == [8])
        // As timed, the scan is under the 5 % that makes a statement hot; × 8 it is over it.
        let scan = try #require(sampledRun.statements.first { $0.sql.contains("reading") })
        let total = sampledRun.statements.reduce(0) { $0 + $1.weightedSecondsBefore }
        #expect(scan.weightedSecondsBefore / total < 0.05)
        #expect(sampled.map(\.kind) == [.fullTableScan])
        #expect(sampled.first?.message.contains("full table scan of reading (8,000 rows in the store, measured on 1 row in 8;") == true, "\(sampled.map(\.message))")
        #expect(sampled.first?.message.contains("with its time on 1 row in 8 taken × 8") == true, "\(sampled.map(\.message))")
        let (_, whole) = try Self.failures(sampleRows: 0)
        #expect(whole.map(\.kind) == [.fullTableScan])
    }
}
