import Foundation
import IndexAdvisorTesting
import Testing

@Suite("Query-plan assertions on a store file")
struct StoreFileTests {
    /// A Core Data–style store: `ZNOTE` (`Z_PK`, `Z_ENT`, `Z_OPT`, attributes), `Z_PRIMARYKEY` naming the entity.
    static func coreDataStore(in directory: TemporaryDirectory, rows: Int = 4_000) throws -> URL {
        try coreDataStoreOpen(in: directory, rows: rows).0
    }

    /// The store and the connection that wrote it, still open (so its WAL holds the writes).
    static func coreDataStoreOpen(in directory: TemporaryDirectory, rows: Int = 4_000) throws -> (URL, TestDatabase) {
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let db = try TestDatabase(path: url.path)
        try db.execute("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDERID INTEGER, ZUPDATEDAT TIMESTAMP, ZTITLE VARCHAR);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, \(rows));
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO ZNOTE SELECT i, 1, 1, i % 40, i * 60.0, 'Note ' || i FROM n;
            """)
        return (url, db)
    }

    /// A fetch as Core Data's SQL debug log prints it.
    static let fetch = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZFOLDERID, t0.ZUPDATEDAT, t0.ZTITLE FROM ZNOTE t0 WHERE  t0.ZFOLDERID = ? ORDER BY t0.ZUPDATEDAT DESC LIMIT 20"

    @Test("a store file fails on a full scan and a temp B-tree, suggests the model's #Index, and passes once the index exists")
    func storeFile() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.coreDataStore(in: directory)
        let check = try QueryPlanInspector(storeAt: store).plan(Self.fetch, bindings: [3]).check()
        #expect(check.summary == "full table scan of ZNOTE (4,000 rows, over the 999 allowed), temp B-tree for ORDER BY")
        #expect(check.statement.rows.first?.alias == "t0")
        let suggestion = try #require(check.suggestions.first)
        #expect(suggestion.sql == #"CREATE INDEX IF NOT EXISTS "idx_ZNOTE_ZFOLDERID_ZUPDATEDAT" ON "ZNOTE" ("ZFOLDERID", "ZUPDATEDAT");"#)
        #expect(suggestion.entity == "Note")
        #expect(check.failureMessage.contains("#Index<Note> on the properties stored in ZFOLDERID, ZUPDATEDAT"))
        let line = #line + 2
        withKnownIssue {
            expectQueryPlan(of: Self.fetch, bindings: [3], inStoreAt: store)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.comments.map(\.rawValue).joined().contains("full table scan of ZNOTE (4,000 rows")
        }

        let writer = try TestDatabase(path: store.path)
        try writer.execute(suggestion.sql)
        #expect(try QueryPlanInspector(storeAt: store).plan(Self.fetch).check().passed)
        expectQueryPlan(of: Self.fetch, bindings: [3], inStoreAt: store)
    }

    @Test("the store is opened read-only: planning changes neither the store's bytes nor its WAL's, while the app's stack has it open")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        let (store, writer) = try Self.coreDataStoreOpen(in: directory)
        defer { withExtendedLifetime(writer) {} }
        let files = [store.path, store.path + "-wal"]
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal")).count > 0)
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        // The rows still in the WAL are counted.
        #expect(try QueryPlanInspector(storeAt: store).plan(Self.fetch).rows.first?.tableRows == 4_000)
        let after = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
        #expect(throws: QueryPlanError.self) {
            _ = try QueryPlanInspector(storeAt: directory.url.appendingPathComponent("missing.sqlite"))
        }
    }

    @Test("Core Data's own SQL plans on the store: its string-search function, its collation and its key-list table get stand-ins")
    func coreDataSQL() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.coreDataStore(in: directory)
        let inspector = try QueryPlanInspector(storeAt: store)
        let search = try inspector.plan("SELECT t0.Z_PK FROM ZNOTE t0 WHERE NSCoreDataStringSearch( t0.ZTITLE, ?, 385, 0) ORDER BY t0.ZTITLE COLLATE NSCollateLocaleSensitive")
        #expect(search.rows.map(\.kind) == [.fullTableScan, .tempBTree])
        let keys = try inspector.plan("SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)")
        #expect(keys.check().passed)
        #expect(keys.rows.contains { $0.kind == .rowidLookup && $0.table == "ZNOTE" })
    }
}
