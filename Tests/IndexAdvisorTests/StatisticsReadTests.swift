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

    @Test("statistics read ahead on two connections are the figures read one by one; a worker that cannot open leaves them to be read here")
    func prefetchedStatistics() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        let table = try #require(try SchemaReader.read(from: snapshot.connection).table(named: "item"))
        let requests = [["owner"], ["flag"], ["title"], ["owner", "flag"], ["id"]].map {
            ColumnStatisticsReader.Request(table: table, columns: $0, shares: $0.count == 1)
        }
        // Its own connection has no such table: every figure it gives was read by the workers.
        var ahead = ColumnStatisticsReader(connection: try SQLiteConnection.inMemory())
        ahead.sampleLimit = 3_000  // sampled: the workers must draw the same rows
        ahead.prefetch(requests, workers: 2, open: snapshot.openReader)
        var lazy = ColumnStatisticsReader(connection: snapshot.connection)
        lazy.sampleLimit = 3_000
        for request in requests {
            let lazyRead = lazy.statistics(table: table, columns: request.columns)
            let read = try #require(lazyRead)
            let prefetched = ahead.statistics(table: table, columns: request.columns)
            #expect(prefetched == read)
            #expect(read.isSampled)
        }
        let aheadFlag = ahead.valueShares(table: table, column: "flag")
        let lazyFlag = lazy.valueShares(table: table, column: "flag")
        let aheadOwner = ahead.valueShares(table: table, column: "owner")
        #expect(aheadFlag == lazyFlag)
        #expect(aheadFlag?.count == 4)
        #expect(aheadOwner == nil)
        // Workers that cannot open: nothing is kept, and each figure is still read when asked for.
        struct Refused: Error {}
        var refused = ColumnStatisticsReader(connection: try SQLiteConnection.inMemory())
        refused.prefetch(requests, workers: 2, open: { throw Refused() })
        let refusedOwner = refused.statistics(table: table, columns: ["owner"])
        #expect(refusedOwner == nil)
        var later = ColumnStatisticsReader(connection: snapshot.connection)
        later.sampleLimit = 3_000
        later.prefetch(requests, workers: 2, open: { throw Refused() })
        let laterPair = later.statistics(table: table, columns: ["owner", "flag"])
        let lazyPair = lazy.statistics(table: table, columns: ["owner", "flag"])
        #expect(laterPair != nil)
        #expect(laterPair == lazyPair)
    }
}
