import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 18: column statistics read with less work, the same figures.
@Suite("Column statistics read with less work")
struct StatisticsReadTests {
    static let storeSQL = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, flag INTEGER, title TEXT, copy INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO item SELECT i, i % 500, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 3 END, 'title ' || i, i FROM n;
        CREATE INDEX item_owner ON item(owner);
        """

    @Test("value shares come from the column's statistics when those already count too many values; the same answer as the query")
    func sharesFromStatistics() throws {
        let store = try FixtureStore(Self.storeSQL)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let table = try #require(try SchemaReader.read(from: connection).table(named: "item"))
        var fresh = ColumnStatisticsReader(connection: connection)
        var informed = ColumnStatisticsReader(connection: connection)
        // owner: 500 values, over the 32 shares are kept for.
        let ownerStatistics = informed.statistics(table: table, columns: ["owner"])
        let ownerShares = informed.valueShares(table: table, column: "owner")
        let ownerSharesFresh = fresh.valueShares(table: table, column: "owner")
        #expect(ownerStatistics?.distinctValues == 500)
        #expect(ownerShares == nil)
        #expect(ownerSharesFresh == nil)
        // flag: 0, 1, 2 and NULL, four groups: the shares are read, and agree with a reader that never counted them.
        let flagStatistics = informed.statistics(table: table, columns: ["flag"])
        #expect(flagStatistics?.distinctValues == 3)
        let informedShares = informed.valueShares(table: table, column: "flag")
        let shares = try #require(informedShares)
        let freshShares = fresh.valueShares(table: table, column: "flag")
        #expect(shares == freshShares)
        #expect(shares.count == 4)
        #expect(shares[.null] == 0.1)
        // Exactly at the limit (3 values and NULL with limit 4) still gives the shares; one under does not.
        var limited = ColumnStatisticsReader(connection: connection)
        _ = limited.statistics(table: table, columns: ["flag"])
        let limitedShares = limited.valueShares(table: table, column: "flag", limit: 3)
        #expect(limitedShares == nil)
        var limitedFresh = ColumnStatisticsReader(connection: connection)
        let limitedFreshShares = limitedFresh.valueShares(table: table, column: "flag", limit: 3)
        #expect(limitedFreshShares == nil)
        var atLimit = ColumnStatisticsReader(connection: connection)
        _ = atLimit.statistics(table: table, columns: ["flag"])
        let atLimitShares = atLimit.valueShares(table: table, column: "flag", limit: 4)
        #expect(atLimitShares == shares)
    }

    @Test("the rowid's statistics are counted, not grouped: the same figures as a copy of the column, whole and sampled")
    func rowidStatistics() throws {
        let store = try FixtureStore(Self.storeSQL)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let table = try #require(try SchemaReader.read(from: connection).table(named: "item"))
        for limit in [200_000, 3_000] {
            var reader = ColumnStatisticsReader(connection: connection)
            reader.sampleLimit = limit
            let rowidRead = reader.statistics(table: table, columns: ["id"])
            let copyRead = reader.statistics(table: table, columns: ["copy"])
            let rowid = try #require(rowidRead)
            let copy = try #require(copyRead)
            #expect(rowid.distinctValues == copy.distinctValues)
            #expect(rowid.nullFraction == copy.nullFraction)
            #expect(rowid.mostCommonShare == copy.mostCommonShare)
            #expect(rowid.sampledRows == copy.sampledRows)
            #expect(rowid.isSampled == copy.isSampled)
            #expect(rowid.sampledRows == (limit == 3_000 ? copy.sampledRows : 20_000))
            #expect(rowid.isSampled == (limit == 3_000))
        }
    }
}
