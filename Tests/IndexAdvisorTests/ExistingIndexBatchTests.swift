import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 18: the existing-index review leaves an index out once for all the statements it times.
@Suite("An index left out once for all its statements")
struct ExistingIndexBatchTests {
    static let storeSQL = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, flag INTEGER, title TEXT, copy INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO item SELECT i, i % 500, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 3 END, 'title ' || i, i FROM n;
        CREATE INDEX item_owner ON item(owner);
        """

    @Test("an index left out for several statements is dropped and rebuilt once; each statement still gets its own before and without")
    func oneRebuildForAllStatements() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        var timer = StatementTimer(connection: snapshot.connection)
        timer.costSource = .sqliteCounters
        let version = { try snapshot.connection.scalar("PRAGMA schema_version")?.integerValue ?? -1 }
        let before = try version()
        let items = [
            ChangeComparison.Item(executions: [Execution(sql: "SELECT id FROM item WHERE owner = 7", values: [])], isWrite: false),
            ChangeComparison.Item(executions: [Execution(sql: "SELECT id FROM item WHERE owner = 8", values: [])], isWrite: false),
            ChangeComparison.Item(executions: [Execution(sql: "INSERT INTO item(owner, title) VALUES (7, 'x')", values: [])], isWrite: true),
        ]
        let definition = try #require(try snapshot.connection.scalar("SELECT sql FROM sqlite_master WHERE name = 'item_owner'")?.textValue)
        let results = try #require(ChangeComparison(snapshot: snapshot, timer: timer)
            .compare(apply: ["DROP INDEX item_owner"], revert: [definition], items: items))
        // One DROP and one CREATE: the schema changed twice, not twice per statement.
        #expect(try version() == before + 2)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'item_owner'") == .integer(1))
        #expect(results.count == 3)
        // Each read finds its 40 rows through the index and scans 20,000 without it; the insert has one index less to maintain.
        for offset in 0..<2 {
            let (current, without) = try #require(results[offset])
            #expect(current.rowsPerExecution == 40)
            #expect(without.rowsPerExecution == 40)
            #expect(try #require(without.vmStepsPerExecution) > 100 * (try #require(current.vmStepsPerExecution)))
        }
        let (insert, insertWithout) = try #require(results[2])
        #expect(try #require(insert.vmStepsPerExecution) > (try #require(insertWithout.vmStepsPerExecution)))
        // The same figures as one comparison per statement, the longer way.
        for (offset, item) in items.enumerated() {
            let (current, without) = try #require(ChangeComparison(snapshot: snapshot, timer: timer)
                .compare(apply: ["DROP INDEX item_owner"], revert: [definition], executions: item.executions, isWrite: item.isWrite))
            #expect(current.vmStepsPerExecution == results[offset]?.0.vmStepsPerExecution)
            #expect(without.vmStepsPerExecution == results[offset]?.1.vmStepsPerExecution)
        }
    }

    @Test("a batch whose change cannot be applied is nil and leaves the snapshot as it was")
    func failedChange() throws {
        let store = try FixtureStore(Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        var timer = StatementTimer(connection: snapshot.connection)
        timer.costSource = .sqliteCounters
        let results = ChangeComparison(snapshot: snapshot, timer: timer).compare(
            apply: ["DROP INDEX no_such_index"], revert: [],
            items: [ChangeComparison.Item(executions: [Execution(sql: "SELECT id FROM item WHERE owner = 7", values: [])], isWrite: false)])
        #expect(results == nil)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index'") == .integer(1))
    }
}
