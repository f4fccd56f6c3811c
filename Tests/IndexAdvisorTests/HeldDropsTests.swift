import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39, F2: a store index taken out of the snapshot and brought back is rolled back, not built again:
/// its pages and every other store index's stay the store's (aged, not packed), so a write timed "with the
/// advice" is timed on the same pages as "as the store is".
@Suite("Store indexes taken out of the snapshot come back on their own pages")
struct HeldDropsTests {
    /// Indexes made first and rows inserted after in scattered order: aged pages, as an app's store has.
    static let storeSQL = """
        CREATE TABLE parcel(id INTEGER PRIMARY KEY, depot INTEGER, weight INTEGER, label TEXT, sent INTEGER);
        CREATE INDEX parcel_depot ON parcel(depot);
        CREATE INDEX parcel_weight ON parcel(weight, sent);
        CREATE INDEX parcel_label ON parcel(label);
        CREATE INDEX parcel_sent ON parcel(sent);
        CREATE INDEX parcel_depot_sent ON parcel(depot, sent);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9000)
        INSERT INTO parcel SELECT i, (i * 7919) % 311, (i * 104729) % 997, 'label-' || ((i * 613) % 9000), 1650000000 + (i * 31) % 9000 FROM n;
        """

    /// Each store index's root page and page count (dbstat).
    static func pages(_ snapshot: StoreSnapshot) throws -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        for row in try snapshot.connection.query("""
            SELECT s.name, s.rootpage, (SELECT count(*) FROM dbstat d WHERE d.name = s.name) FROM sqlite_schema s
            WHERE s.type = 'index' AND s.name LIKE 'parcel%' ORDER BY s.rowid
            """) {
            result[row[0].textValue!] = [row[1].integerValue!, row[2].integerValue!]
        }
        return result
    }

    static func indexes(_ snapshot: StoreSnapshot) throws -> SnapshotIndexes {
        var count = 0
        return SnapshotIndexes(snapshot: snapshot, schema: try SchemaReader.read(from: snapshot.connection), savedStatistics: [:]) { _, _ in
            count += 1
            return "candidate_\(count)"
        }
    }

    @Test("a store index dropped and put back twice, beside candidates: every store index keeps its root page, page count and order")
    func droppedTwiceKeepsPages() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        let before = try Self.pages(snapshot)
        let order = IndexOrder.indexes(onTable: "parcel", in: snapshot.connection).map(\.name)
        #expect(before.count == 5)
        let indexes = try Self.indexes(snapshot)
        let byWeight = IndexCandidate(table: "parcel", columns: [IndexColumn(name: "weight")])
        let byLabel = IndexCandidate(table: "parcel", columns: [IndexColumn(name: "label"), IndexColumn(name: "depot")])
        try indexes.bring(to: IndexConfiguration(dropped: ["parcel_weight"], added: [byWeight]))
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'parcel_weight'") == .integer(0))
        try indexes.bring(to: IndexConfiguration(added: [byWeight]))
        try indexes.bring(to: IndexConfiguration(dropped: ["parcel_weight", "parcel_sent"], added: [byWeight, byLabel]))
        try indexes.bring(to: IndexConfiguration(added: [byLabel]))
        let after = try Self.pages(snapshot)
        #expect(after == before)
        // The store's indexes first, in the store's order, then the candidate.
        #expect(IndexOrder.indexes(onTable: "parcel", in: snapshot.connection).map(\.name) == order + ["candidate_2"])
        try indexes.bring(to: .store)
        #expect(try Self.pages(snapshot) == before)
        #expect(snapshot.connection.isAutocommit)
    }

    @Test("an INSERT's page lookups with one store index dropped are fewer than as the store is, after it was dropped and put back")
    func dropNeverAddsPageLookups() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        var timer = StatementTimer(connection: snapshot.connection)
        timer.repeats = 3
        let insert = [Execution(sql: "INSERT INTO parcel(depot, weight, label, sent) VALUES (12, 400, 'label-new', 1650004000)", values: [])]
        let asStore = try #require(try timer.time(insert, isWrite: true).pageLookupsPerExecution)
        let indexes = try Self.indexes(snapshot)
        for _ in 0..<2 {
            try indexes.bring(to: IndexConfiguration(dropped: ["parcel_depot"]))
            let dropped = try #require(try timer.time(insert, isWrite: true).pageLookupsPerExecution)
            #expect(dropped < asStore)  // one index fewer to maintain
            try indexes.bring(to: IndexConfiguration(dropped: ["parcel_label"], added: [IndexCandidate(table: "parcel", columns: [IndexColumn(name: "weight")])]))
            try indexes.bring(to: .store)
            #expect(try #require(try timer.time(insert, isWrite: true).pageLookupsPerExecution) == asStore)
        }
    }

    /// A store with statistics.
    static let crateSQL = """
        CREATE TABLE crate(id INTEGER PRIMARY KEY, shelf INTEGER, code TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO crate SELECT i, (i * 37) % 120, 'c' || i FROM n;
        CREATE INDEX crate_code ON crate(code);
        CREATE INDEX crate_shelf ON crate(shelf);
        ANALYZE;
        """

    static func plan(_ snapshot: StoreSnapshot) throws -> String {
        try snapshot.connection.query("EXPLAIN QUERY PLAN SELECT id FROM crate WHERE shelf = 5").compactMap { $0.last?.textValue }.joined(separator: "; ")
    }

    // Regression: the rows were deleted from sqlite_schema but the connection kept its parsed schema (its own
    // `PRAGMA schema_version` write does not make it read the schema again), so the planner kept using the
    // hidden index and writes kept maintaining it.
    @Test("a hidden store index is gone for the planner and its statistics row with it; put back, both are back; writable_schema is off")
    func hiddenIndexLeavesThePlanner() throws {
        let store = try FixtureStore(Self.crateSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        #expect(try Self.plan(snapshot).contains("USING COVERING INDEX crate_shelf"))
        let statistics = "SELECT stat FROM sqlite_stat1 WHERE idx = 'crate_shelf'"
        let stat = try #require(try snapshot.connection.scalar(statistics))
        try snapshot.holdDrops(["crate_shelf"])
        #expect(try Self.plan(snapshot) == "SCAN crate")
        #expect(try snapshot.connection.scalar(statistics) == nil)
        #expect(try snapshot.connection.scalar("PRAGMA writable_schema") == .integer(0))
        try snapshot.releaseDrops()
        #expect(try Self.plan(snapshot).contains("USING COVERING INDEX crate_shelf"))
        #expect(try snapshot.connection.scalar(statistics) == stat)
        #expect(try snapshot.connection.scalar("PRAGMA writable_schema") == .integer(0))
        #expect(try snapshot.connection.scalar("PRAGMA integrity_check")?.textValue == "ok")
    }

    @Test("a hidden index whose rowid something else took cannot come back: the error is thrown and writable_schema is off")
    func putBackFailureThrows() throws {
        // Without statistics, so the hidden index is the last row of sqlite_schema.
        let store = try FixtureStore(Self.crateSQL.replacingOccurrences(of: "ANALYZE;", with: ""))
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        try snapshot.holdDrops(["crate_shelf"])
        // What the invariant forbids: a schema change while an index is hidden takes the free rowid.
        try snapshot.connection.execute("CREATE TABLE bin(x)")
        #expect(throws: StoreError.self) { try snapshot.releaseDrops() }
        #expect(try snapshot.connection.scalar("PRAGMA writable_schema") == .integer(0))
        #expect(snapshot.heldDrops == ["crate_shelf"])
    }
}
