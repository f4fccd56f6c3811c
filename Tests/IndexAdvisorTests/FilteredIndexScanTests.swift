import Testing
import Foundation
@testable import IndexAdvisor

/// A full index scan of a table the statement filters is a full scan (a new user's chat store).
@Suite("A filtered full index scan counts as a full scan")
struct FilteredIndexScanTests {
    // Regression (a new user): `SCAN message USING INDEX message_on_sentAt` for `WHERE kind = 'sticker' ORDER
    // BY sentAt DESC` read all 250,001 entries (217 ms ×20) and `check` passed with exit 0, while the report
    // said "full table scans 0 → 0". Shape of my own: a parcel log ordered by scan time, with a depot filter.
    static let schema = """
        CREATE TABLE parcel_event (id INTEGER PRIMARY KEY, depot INTEGER NOT NULL, scanned_at REAL NOT NULL, note TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
        INSERT INTO parcel_event SELECT i, i % 300, i * 1.5, 'event ' || i FROM n;
        CREATE INDEX parcel_event_scanned_at ON parcel_event(scanned_at);
        """
    static let workload = """
        -- freq: 50
        SELECT * FROM parcel_event WHERE depot = 17 ORDER BY scanned_at DESC;
        -- freq: 50
        SELECT id, scanned_at FROM parcel_event ORDER BY scanned_at DESC LIMIT 20;
        """

    @Test("check fails the filtered one, not the LIMIT read of the index's first entries; the totals count it")
    func filteredScanFails() throws {
        let store = try FixtureStore(Self.schema)
        let workload = WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql)
        let profiled = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(profiled.statements.count == 2)
        let filtered = try #require(profiled.statements.first { $0.sql.contains("depot") })
        let latest = try #require(profiled.statements.first { $0.sql.contains("LIMIT 20") })
        let scan = try #require(filtered.planBefore?.findings.first { $0.kind == .fullIndexScan })
        #expect(scan.index == "parcel_event_scanned_at")
        #expect(scan.filtersWholeIndex == true)
        #expect(scan.isFullScan)
        let unfiltered = try #require(latest.planBefore?.findings.first { $0.kind == .fullIndexScan })
        #expect(unfiltered.filtersWholeIndex == nil)
        #expect(!unfiltered.isProblem)
        let failures = CheckEvaluator.evaluate(profiled, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        #expect(failures.map(\.statement) == ["S1"])
        #expect(failures.first?.message.hasPrefix("S1 full scan of parcel_event through every entry of parcel_event_scanned_at, its rows filtered one by one (40,000 rows;") == true)
        #expect(profiled.totals.fullScansBefore == 1)
        let analysed = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        expectTrueReport(analysed)
        #expect(analysed.totals.fullScansBefore == 1)
        #expect(analysed.totals.fullScansAfter == 0)
        #expect(analysed.recommendations.contains { $0.columns.first?.name == "depot" })
    }
}
