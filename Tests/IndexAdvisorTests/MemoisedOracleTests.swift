import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 40: the cost oracle remembers each statement's cost by its plan, so a configuration whose plans did
/// not change costs nothing to ask about again. The memo may only save work: the serial run that remembers
/// nothing (``AnalysisOptions/memoisesCosts`` false) must recommend the same, on SQLite's counters (which
/// repeat exactly), while timing reads more often.
@Suite("The oracle's memo saves timings and changes no advice")
struct MemoisedOracleTests {
    static let schema = """
        CREATE TABLE visit (id INTEGER PRIMARY KEY, patient INTEGER NOT NULL, clinic INTEGER NOT NULL,
                            day INTEGER NOT NULL, kind TEXT NOT NULL, note TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO visit SELECT i, i % 2500, i % 23, 40000 - i, CASE i % 9 WHEN 0 THEN 'x-ray' ELSE 'check' END, 'n' || i FROM n;
        CREATE INDEX visit_day ON visit(day);
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, visit_id INTEGER NOT NULL, amount REAL NOT NULL, paid INTEGER NOT NULL);
        INSERT INTO invoice SELECT id, id, (id % 400) * 1.25, id % 5 = 0 FROM visit WHERE id % 2 = 0;
        """
    static let workload = """
        -- freq: 60
        SELECT id, day FROM visit WHERE patient = 1234 ORDER BY day DESC;
        -- freq: 25
        SELECT count(*) FROM visit WHERE clinic = 7 AND day > 31000;
        -- freq: 15
        SELECT v.id, i.amount FROM visit v JOIN invoice i ON i.visit_id = v.id WHERE v.patient = 88;
        -- freq: 10
        SELECT id FROM invoice WHERE paid = 0 AND amount > 450 ORDER BY amount LIMIT 5;
        -- freq: 4
        UPDATE visit SET note = 'seen' WHERE id = 4321;
        -- freq: 2
        INSERT INTO invoice (visit_id, amount, paid) VALUES (29999, 12.5, 0);
        """

    static func run(memoises: Bool) throws -> AnalysisResult {
        var options = quickOptions()
        options.costSource = .sqliteCounters
        options.memoisesCosts = memoises
        return try analyze(schema, workload: workload, options: options)
    }

    static func readTimings(_ result: AnalysisResult) -> Int? {
        result.method.stageSeconds?.first { $0.stage == "timing reads" }?.count
    }

    @Test("the same indexes and drops with and without the memo; the memo times reads fewer times")
    func sameAdvice() throws {
        let memoised = try Self.run(memoises: true)
        let fresh = try Self.run(memoises: false)
        // The patient's visits, the clinic's range, the join's lookup and the unpaid range each get an index.
        #expect(Set(memoised.recommendations.map(\.name)) == ["idx_visit_patient", "idx_visit_clinic_day", "idx_invoice_visit_id_amount", "idx_invoice_amount"])
        #expect(memoised.recommendations.map(\.sql) == fresh.recommendations.map(\.sql))
        #expect(memoised.existingIndexes.compactMap(\.dropSQL) == fresh.existingIndexes.compactMap(\.dropSQL))
        let withMemo = try #require(Self.readTimings(memoised)), without = try #require(Self.readTimings(fresh))
        #expect(withMemo < without, "read timings: \(withMemo) memoised, \(without) not")
    }
}
