import Testing
import Foundation
@testable import IndexAdvisor

/// A limited candidate budget cannot starve the obvious index of a statement.
@Suite("Candidate order: every statement's basic candidates first")
struct CandidateOrderTests {
    @Test("basic candidates of all statements before any wider one; statements take turns, the costliest first")
    func order() {
        let items = [
            CandidateOrder.Item(index: 0, proposer: 0, isBasic: true),
            CandidateOrder.Item(index: 1, proposer: 0, isBasic: true),
            CandidateOrder.Item(index: 2, proposer: 0, isBasic: false),
            CandidateOrder.Item(index: 3, proposer: 1, isBasic: true),
            CandidateOrder.Item(index: 4, proposer: 2, isBasic: true),
            CandidateOrder.Item(index: 5, proposer: nil, isBasic: false),
            CandidateOrder.Item(index: 6, proposer: 1, isBasic: false),
        ]
        let potential: [Int: Double] = [0: 1.0, 1: 5.0, 2: 0.5]
        #expect(CandidateOrder.order(items) { potential[$0]! } == [3, 0, 4, 1, 6, 2, 5])
    }

    // Regression (new users' stores): a hot lookup by remote ID stayed a full scan; its one-column index
    // was "not measured: more than 24 candidates" while covering variants of other statements were.
    @Test("with a budget of three, the remote-ID lookup's own index is measured and recommended")
    func obviousCandidateMeasured() throws {
        let store = try FixtureStore("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, remote_id TEXT, folder INTEGER, kind INTEGER, archived INTEGER,
                               updated REAL, title TEXT, body TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO note SELECT i, printf('R%08d', i * 7919 % 30000), i % 300, i % 7, i % 2, 1700000000.0 + i, 't' || i, 'b' || i FROM n;
            """)
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT title, body FROM note WHERE folder = 12 AND archived = 0 AND kind = 3 ORDER BY updated DESC;
            -- freq: 60
            SELECT title FROM note WHERE kind = 2 AND archived = 1 AND updated > 1700010000.0 ORDER BY folder;
            -- freq: 30
            SELECT * FROM note WHERE remote_id = 'R00004242';
            """, file: "w.sql", format: .sql)
        var options = quickOptions()
        options.maxCandidatesMeasured = 3
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: options)
        #expect(result.recommendations.contains { $0.columns.map(\.name) == ["remote_id"] }, "\(result.recommendations.map(\.sql))")
        let lookup = try #require(result.statements.last)
        #expect(lookup.planAfter?.findings.contains { $0.kind == .fullTableScan } == false)
        // The statements whose other candidates were left out say so, not that none helped.
        #expect(result.rejectedCandidates.contains { $0.reason.hasPrefix("not measured: more than 3 candidates") })
    }
}
