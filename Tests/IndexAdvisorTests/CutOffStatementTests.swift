import Testing
import Foundation
@testable import IndexAdvisor

/// A statement a log cut off is malformed input: counted with the skipped lines, not listed as a statement.
@Suite("Statements cut off in a log are counted, not analysed")
struct CutOffStatementTests {
    // Regression (a breaking helper): 33 cut-off copies of one fetch (`… FROM ZNOTE t0 WH`, `SELECT 0, t0.Z`)
    // became statements S2–S35, "not timed", and filled the headline. Shape of my own: a recipe app's fetch,
    // its log cut off mid-line four ways, beside a statement on a table the store lacks (which stays listed).
    static let schema = """
        CREATE TABLE ZRECIPE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCUISINE INTEGER, ZTITLE VARCHAR, ZRATING FLOAT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO ZRECIPE SELECT i, 1, 1, i % 40, 'Recipe ' || i, (i % 50) / 10.0 FROM n;
        """
    static let full = "SELECT 0, t0.Z_PK, t0.ZTITLE, t0.ZRATING FROM ZRECIPE t0 WHERE ( t0.ZCUISINE = ?) ORDER BY t0.ZRATING DESC LIMIT 30"

    static func entry(_ sql: String, bind: Int?) -> String {
        "CoreData: sql: \(sql)\n" + (bind.map { "CoreData: details: SQLite bind[0] = int64(\($0))\n" } ?? "")
            + "CoreData: annotation: sql connection fetch time: 0.0040s\n"
    }

    @Test("cut-off copies that do not parse, or do not prepare and start a statement that does, are skipped with their count")
    func cutOffCopies() throws {
        var log = ""
        for cuisine in [3, 7, 11, 19] { log += Self.entry(Self.full, bind: cuisine) }
        log += Self.entry("SELECT 0, t0.Z_PK, t0.ZTITLE, t0.ZRATING FROM ZRECIPE t0 WHERE ( t0.ZCUI", bind: nil)   // incomplete input
        log += Self.entry("SELECT 0, t0.Z_PK, t0.ZTITLE, t0.ZRATING FROM ZRECIPE t0 WH", bind: nil)                // syntax error
        log += Self.entry("SELECT 0, t0.Z_PK, t0.ZTITLE, t0.ZRATING FROM ZRECIPE", bind: nil)                     // no such column: t0.Z_PK
        log += Self.entry("SELECT 0, t0.Z_PK, t0.Z", bind: nil)                                                    // no such column, a prefix
        log += Self.entry("SELECT 0, t0.Z_PK FROM ZRECIPES t0 WHERE ( t0.ZCUISINE = ?)", bind: 4)                  // no such table: stays
        let workload = WorkloadLoader.parse(log, file: "recipes.log", format: .coreDataLog)
        #expect(workload.statements.count == 6)
        let store = try FixtureStore(Self.schema)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        expectTrueReport(result)
        #expect(result.statements.count == 2)
        #expect(result.statements.first?.sql.hasPrefix("SELECT 0, t0.Z_PK, t0.ZTITLE, t0.ZRATING FROM ZRECIPE t0 WHERE") == true)
        #expect(result.statements.last?.error == "does not prepare on this store: no such table: ZRECIPES")
        #expect(result.workload.skipped[AnalysisRun.unparsableReason] == 4)
        #expect(result.workload.distinctStatements == 2)
        #expect(result.workload.skippedExamples.contains { $0.hasPrefix(AnalysisRun.unparsableReason + ": SELECT 0, t0.Z_PK") })
        #expect(!result.recommendations.isEmpty)
    }
}
