import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 40, item 2: a candidate is built once per analysis; a configuration that leaves it out hides it, and
/// one that wants it back shows it again, pages and statistics as they were.
@Suite("A candidate built once, hidden and shown again")
struct SnapshotIndexesReuseTests {
    static let storeSQL = """
        CREATE TABLE visit (id INTEGER PRIMARY KEY, patient INTEGER, clinic INTEGER, day INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO visit SELECT i, (i * 7919) % 4000, i % 37, 20000 + i % 365 FROM n;
        CREATE INDEX visit_day ON visit(day);
        ANALYZE;
        """

    /// The store, a snapshot of it, and its indexes as a configuration, candidates named `cand_` + their columns.
    static func snapshotIndexes() throws -> (FixtureStore, StoreSnapshot, SnapshotIndexes) {
        let store = try FixtureStore(storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        let indexes = SnapshotIndexes(snapshot: snapshot, schema: try SchemaReader.read(from: snapshot.connection),
                                      savedStatistics: IndexOrder.statistics(in: snapshot.connection)) { candidate, _ in
            "cand_" + candidate.columns.compactMap(\.name).joined(separator: "_")
        }
        return (store, snapshot, indexes)
    }

    func indexNames(_ connection: SQLiteConnection) throws -> [String] {
        try connection.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'visit' ORDER BY rowid").compactMap { $0.first?.textValue }
    }

    func plan(_ connection: SQLiteConnection, _ sql: String) throws -> String {
        try connection.query("EXPLAIN QUERY PLAN " + sql).compactMap { $0.last?.textValue }.joined(separator: "; ")
    }

    @Test("going back to a configuration shows its candidates again without building them; the planner sees exactly the configuration")
    func builtOnce() throws {
        let (store, snapshot, indexes) = try Self.snapshotIndexes()
        defer { snapshot.close(); _ = store }
        let clock = StageClock()
        indexes.clock = clock
        let patient = IndexCandidate(table: "visit", columns: [IndexColumn(name: "patient")])
        let clinic = IndexCandidate(table: "visit", columns: [IndexColumn(name: "clinic"), IndexColumn(name: "day")])
        let connection = snapshot.connection

        try indexes.bring(to: IndexConfiguration(added: [patient]))
        let root = try connection.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'cand_patient'")
        try indexes.bring(to: IndexConfiguration(added: [clinic]))
        #expect(try indexNames(connection) == ["visit_day", "cand_clinic_day"])
        #expect(try plan(connection, "SELECT id FROM visit WHERE patient = 12").contains("SCAN visit"))
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_stat1 WHERE idx = 'cand_patient'") == .integer(0))

        try indexes.bring(to: IndexConfiguration(added: [patient, clinic]))
        try indexes.bring(to: IndexConfiguration(dropped: ["visit_day"], added: [patient]))
        #expect(try indexNames(connection) == ["cand_patient"])
        #expect(try plan(connection, "SELECT id FROM visit WHERE patient = 12").contains("INDEX cand_patient (patient=?)"))
        #expect(try plan(connection, "SELECT id FROM visit WHERE day = 20100").contains("SCAN visit"))
        // Same pages as when it was built, and its own statistics back.
        #expect(try connection.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'cand_patient'") == root)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_stat1 WHERE idx = 'cand_patient'") == .integer(1))
        #expect(clock.candidateBuilds == 2)

        // The order the configuration wants is not the order they were built in: the one out of order is
        // built again, behind the other.
        try indexes.bring(to: IndexConfiguration(added: [clinic, patient]))
        #expect(try indexNames(connection) == ["visit_day", "cand_clinic_day", "cand_patient"])
        #expect(clock.candidateBuilds == 3)

        // A timed write is rolled back, so a hidden index stays right; at the end the hidden ones are left
        // hidden for good, their pages not put on the freelist, where later writes would take them.
        try indexes.bring(to: IndexConfiguration(added: [clinic]))
        let free = try connection.scalar("PRAGMA freelist_count")
        try indexes.retireHiddenCandidates()
        #expect(try indexNames(connection) == ["visit_day", "cand_clinic_day"])
        #expect(snapshot.heldDrops.isEmpty)
        #expect(indexes.built["visit"] == [clinic.key])
        #expect(try connection.scalar("PRAGMA freelist_count") == free)
        try snapshot.holdDrops(["visit_day"])
        try snapshot.releaseDrops()
        #expect(try indexNames(connection) == ["visit_day", "cand_clinic_day"])
        #expect(try connection.scalar("SELECT count(*) FROM visit INDEXED BY cand_clinic_day WHERE clinic = 5") == .integer(541))
    }

    @Test("in order: wanted keys in the built order, others between them allowed")
    func inOrder() {
        #expect(SnapshotIndexes.isInOrder(["a", "c"], within: ["a", "b", "c"]))
        #expect(SnapshotIndexes.isInOrder([], within: ["a"]))
        #expect(!SnapshotIndexes.isInOrder(["c", "a"], within: ["a", "b", "c"]))
        #expect(!SnapshotIndexes.isInOrder(["d"], within: ["a", "b", "c"]))
        #expect(!SnapshotIndexes.isInOrder(["a"], within: []))
    }

    @Test("on a full folder, the hidden candidates are dropped to make room and the build is tried once more")
    func fullFolderDropsHidden() throws {
        let (store, snapshot, indexes) = try Self.snapshotIndexes()
        defer { snapshot.close(); _ = store }
        let patient = IndexCandidate(table: "visit", columns: [IndexColumn(name: "patient")])
        let clinic = IndexCandidate(table: "visit", columns: [IndexColumn(name: "clinic")])
        try indexes.bring(to: IndexConfiguration(added: [patient]))
        try indexes.bring(to: IndexConfiguration.store)
        // Room for one candidate more than the file holds now, not two.
        let pages = try #require(try snapshot.connection.scalar("PRAGMA page_count")?.integerValue)
        _ = try snapshot.connection.scalar("PRAGMA max_page_count = \(pages + 3)")
        try indexes.bring(to: IndexConfiguration(added: [clinic]))
        #expect(try indexNames(snapshot.connection) == ["visit_day", "cand_clinic"])
        #expect(indexes.built["visit"] == [clinic.key])
        #expect(snapshot.heldDrops.isEmpty)
    }

    @Test("on an auto-vacuum file, the candidates left out are dropped at the end, and the file stays whole")
    func autoVacuumDrops() throws {
        let store = try FixtureStore("PRAGMA auto_vacuum = FULL;\n" + Self.storeSQL)
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        #expect(try snapshot.connection.scalar("PRAGMA auto_vacuum") == .integer(1))
        let indexes = SnapshotIndexes(snapshot: snapshot, schema: try SchemaReader.read(from: snapshot.connection), savedStatistics: [:]) { candidate, _ in
            "cand_" + candidate.columns.compactMap(\.name).joined(separator: "_")
        }
        let patient = IndexCandidate(table: "visit", columns: [IndexColumn(name: "patient")])
        let clinic = IndexCandidate(table: "visit", columns: [IndexColumn(name: "clinic")])
        try indexes.bring(to: IndexConfiguration(added: [patient]))
        try indexes.bring(to: IndexConfiguration(dropped: ["visit_day"], added: [clinic]))
        try indexes.retireHiddenCandidates()
        #expect(indexes.built["visit"] == [clinic.key])
        #expect(snapshot.heldDrops == ["visit_day"])
        try snapshot.releaseDrops()
        #expect(try indexNames(snapshot.connection) == ["visit_day", "cand_clinic"])
        #expect(try snapshot.connection.scalar("PRAGMA integrity_check") == .text("ok"))
    }
}
