import Testing
import Foundation
@testable import IndexAdvisor

/// An aggregate over a related entity's rows on a Core Data store: the only covering key a model can declare
/// (the relationship, then the aggregated attribute) was never a candidate, since no covering form was made on
/// an entity table (a new user's MAX(ZHEARTRATE) per workout stayed at 44.6 ms, 21 % of the workload).
@Suite("Covering keys of model attributes on Core Data tables")
struct EntityCoveringTests {
    static let schema = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Invoice', 0, 0), (2, 'Line', 0, 0);
        CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCUSTOMER INTEGER, ZISSUED TIMESTAMP);
        CREATE TABLE ZLINE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINVOICE INTEGER, ZAMOUNT FLOAT, ZMEMO VARCHAR);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
        INSERT INTO ZINVOICE SELECT i, 1, 1, i % 50, 700000000 + i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 160000)
        INSERT INTO ZLINE SELECT i, 2, 1, 1 + (i * 7919) % 4000, (i % 997) * 1.5, printf('memo %d %.*c', i, 40, 'x') FROM n;
        CREATE INDEX ZINVOICE_ZCUSTOMER_INDEX ON ZINVOICE (ZCUSTOMER);
        CREATE INDEX ZLINE_ZINVOICE_INDEX ON ZLINE (ZINVOICE);
        """

    @Test("the relationship and the aggregated attribute make a declarable covering index, and it is recommended")
    func aggregateOverRelationship() throws {
        let store = try FixtureStore(Self.schema)
        let workload = WorkloadLoader.parse("""
            -- freq: 200
            SELECT t1.Z_PK, SUM(t0.ZAMOUNT) FROM ZLINE t0 JOIN ZINVOICE t1 ON t0.ZINVOICE = t1.Z_PK WHERE t1.ZCUSTOMER = 7 GROUP BY t1.Z_PK;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        let index = try #require(result.recommendations.first { $0.table == "ZLINE" })
        #expect(index.columns.map(\.name) == ["ZINVOICE", "ZAMOUNT"])
        #expect(index.swiftDataIndex?.hasPrefix("#Index<Line>([") == true)
        #expect(result.statements[0].planAfter?.tree.contains("USING COVERING INDEX \(index.name)") == true)
        // The rows' table pages are no longer read: one index page serves many lines.
        let pages = try #require(result.statements[0].timingBefore?.pageLookupsPerExecution)
        let after = try #require(result.statements[0].timingAfter?.pageLookupsPerExecution)
        #expect(after * 2 < pages)
    }
}
