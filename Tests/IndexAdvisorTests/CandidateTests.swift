import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Candidate indexes")
struct CandidateTests {
    /// 20,000 rows: `folder` has 200 values, `archived` 2, `period` is NULL on 90 % of rows, `body` is 200 bytes.
    func fixture() throws -> (SQLiteConnection, Schema) {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder INTEGER, archived INTEGER, updated REAL, title TEXT, period TEXT, body TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO note SELECT i, i % 200, i % 2, i * 1.5, 'title ' || i, CASE WHEN i % 10 = 0 THEN 'p' || (i % 3) END, printf('%.*c', 200, 'x') FROM n;
            CREATE INDEX existing ON note(title, updated);
            """)
        return (connection, try SchemaReader.read(from: connection))
    }

    func candidates(_ sql: String) throws -> ([String], [String]) {
        let (connection, schema) = try fixture()
        let shape = try ShapeExtractor(schema: schema).shape(of: sql)
        var generator = CandidateGenerator(schema: schema, statistics: ColumnStatisticsReader(connection: connection))
        let result = try #require(shape.access(to: "note")).constraints.isEmpty && shape.access(to: "note")!.orderBy.isEmpty
            ? [] : generator.candidates(for: try #require(shape.access(to: "note")))
        func describe(_ candidate: IndexCandidate) -> String {
            candidate.columns.map { ($0.name ?? "?") + ($0.isDescending ? " DESC" : "") + ($0.collation == "BINARY" ? "" : " " + $0.collation) }
                .joined(separator: ", ") + (candidate.partialPredicate.map { " WHERE " + $0 } ?? "")
        }
        return (result.map(describe), generator.setAside.map { describe($0.0) })
    }

    @Test("equality columns first (most selective first), then the sort columns; all-descending becomes ascending")
    func equalityThenSort() throws {
        let (candidates, setAside) = try candidates("SELECT * FROM note WHERE archived = ? AND folder = ? ORDER BY updated DESC")
        #expect(candidates.first == "folder, archived, updated")
        #expect(candidates.contains("folder"))
        #expect(setAside.contains("archived"))
        #expect(!candidates.contains("archived"))
    }

    @Test("covering columns: a short title rides along, a 200-byte body never does (4 MB more for a saving the key gives)")
    func noWideCoveringColumn() throws {
        let (narrow, _) = try candidates("SELECT id, title FROM note WHERE folder = ? ORDER BY updated")
        #expect(narrow.contains("folder, updated, title"))
        let (wide, _) = try candidates("SELECT id, title, body FROM note WHERE folder = ? ORDER BY updated")
        #expect(wide.first == "folder, updated")
        // Without the body the index covers nothing, so there is no covering form at all.
        #expect(!wide.contains { $0.hasPrefix("folder, updated, ") }, "\(wide)")
    }

    @Test("a mixed-direction sort keeps its directions")
    func mixedDirections() throws {
        let (candidates, _) = try candidates("SELECT * FROM note WHERE folder = ? ORDER BY updated DESC, id ASC")
        // The mirror of (folder, updated DESC, id): scanned backwards it gives updated DESC, id ASC.
        #expect(candidates.first == "folder, updated, id DESC")
        let (same, _) = try self.candidates("SELECT * FROM note WHERE folder = ? ORDER BY updated DESC, id DESC")
        #expect(same.first == "folder, updated")
    }

    @Test("one range column goes after the equalities")
    func range() throws {
        let (candidates, _) = try candidates("SELECT * FROM note WHERE folder = ? AND updated > ? AND updated < ?")
        #expect(candidates.first == "folder, updated")
    }

    @Test("a mostly-NULL column leads when its values are rarer than the other column's")
    func nullShare() throws {
        // period: 3 values on 10 % of rows (each matches ~3 %); folder: 200 values (each matches 0.5 %).
        // archived: 2 values (50 %): period must come before archived.
        let (candidates, _) = try candidates("SELECT * FROM note WHERE archived = 1 AND period = 'p1' AND updated > 10")
        #expect(candidates.first == "period, archived, updated")
    }

    @Test("IS NOT NULL gets a partial index; LIKE a NOCASE key; an existing index's prefix is not proposed again")
    func partialAndLike() throws {
        let (partial, _) = try candidates("SELECT * FROM note WHERE period IS NOT NULL")
        #expect(partial.contains("period WHERE \"period\" IS NOT NULL"))
        let (like, _) = try candidates("SELECT * FROM note WHERE folder = 3 AND title LIKE 'tit%'")
        #expect(like.contains("folder, title NOCASE"))
        let (served, _) = try candidates("SELECT * FROM note WHERE title = 'x'")
        #expect(!served.contains("title"))
    }

    @Test("CREATE INDEX quotes every identifier")
    func createSQL() {
        let candidate = IndexCandidate(table: "my table", columns: [IndexColumn(name: "order"), IndexColumn(name: "a\"b", isDescending: true, collation: "NOCASE")],
                                       partialPredicate: "\"order\" IS NOT NULL")
        #expect(candidate.createSQL(name: "idx \"1\"", ifNotExists: true)
            == "CREATE INDEX IF NOT EXISTS \"idx \"\"1\"\"\" ON \"my table\" (\"order\", \"a\"\"b\" COLLATE \"NOCASE\" DESC) WHERE \"order\" IS NOT NULL")
    }

    @Test("beside a chosen full index, a partial index on its leading columns is redundant; not the other way round")
    func redundantPartial() {
        // Regression: under load the selection picked ZMOVIE(ZADDED) and then the partial ZMOVIE(ZADDED) WHERE
        // ZADDED IS NOT NULL as a second index, for a few percent of one statement's time.
        let full = IndexCandidate(table: "ZMOVIE", columns: [IndexColumn(name: "ZADDED")])
        let wider = IndexCandidate(table: "ZMOVIE", columns: [IndexColumn(name: "ZADDED"), IndexColumn(name: "ZNAME")])
        let partial = IndexCandidate(table: "ZMOVIE", columns: [IndexColumn(name: "ZADDED")], partialPredicate: "\"ZADDED\" IS NOT NULL")
        let otherPartial = IndexCandidate(table: "ZMOVIE", columns: [IndexColumn(name: "ZADDED")], partialPredicate: "\"ZNAME\" IS NULL")
        #expect(partial.isRedundant(beside: full))
        #expect(partial.isRedundant(beside: wider))
        #expect(full.isRedundant(beside: wider))
        #expect(!full.isRedundant(beside: partial))
        #expect(!partial.isRedundant(beside: otherPartial))
        #expect(!wider.isRedundant(beside: full))
        #expect(!partial.isRedundant(beside: IndexCandidate(table: "ZNOTE", columns: [IndexColumn(name: "ZADDED")])))
    }

    @Test("a partial index whose predicate tests a column the full index lacks is not its left prefix: it holds fewer rows")
    func narrowingPartial() {
        // Regression: `(shop_id, placed) WHERE status = 'open'` was rejected as "a left prefix of the recommended
        // (shop_id, placed)" and never measured, though open orders were 11 % of the rows a page read through it.
        let full = IndexCandidate(table: "orders", columns: [IndexColumn(name: "shop_id"), IndexColumn(name: "placed")])
        let narrowing = IndexCandidate(table: "orders", columns: [IndexColumn(name: "shop_id"), IndexColumn(name: "placed")],
                                       partialPredicate: "\"status\" = 'open'")
        #expect(narrowing.predicateColumns == ["status"])
        #expect(!narrowing.isRedundant(beside: full))
        // The full index's key holds the tested column: the full index serves it (sync-flag's needs_upload).
        let keyed = IndexCandidate(table: "orders", columns: [IndexColumn(name: "status"), IndexColumn(name: "placed")])
        let onStatus = IndexCandidate(table: "orders", columns: [IndexColumn(name: "status")], partialPredicate: "\"status\" = 'open'")
        #expect(onStatus.isRedundant(beside: keyed))
        // A predicate with no quoted column is read as before (redundant beside a full index on the same key).
        let bare = IndexCandidate(table: "orders", columns: [IndexColumn(name: "shop_id")], partialPredicate: "1")
        #expect(bare.predicateColumns == nil)
        #expect(bare.isRedundant(beside: full))
    }
}

@Suite("SwiftData names")
struct SwiftDataNamingTests {
    @Test("column names split into key paths", arguments: [
        ("ZFOLDERID", "folderID"), ("ZISARCHIVED", "isArchived"), ("ZUPDATEDAT", "updatedAt"), ("ZREMOTEID", "remoteID"),
        ("ZSLUG", "slug"), ("ZTITLE", "title"), ("ZQ", "q"), ("ZUNIQUE_ID", "unique_id"), ("ZXYZZY", "xyzzy"),
        ("ZTITLEX", "titleX"),
        // Regression (held-out Core Data stores): a short known word inside a word the vocabulary lacks was cut
        // out of it (`collectiOnID`, `isPEndInG`, `backEndID`).
        ("ZCOLLECTIONID", "collectionID"), ("ZISPENDING", "isPending"), ("ZBACKENDID", "backendID"),
        ("ZONBOARDINGDONE", "onboardingDone"), ("ZWASDELETED", "wasDeleted"), ("ZISPINNED", "isPinned"), ("ZLASTOPENEDAT", "lastOpenedAt"),
        // Regression (held-out transfer queue): an inflection after a known word was cut off it (`startEdat`).
        ("ZSTARTEDAT", "startedAt"), ("ZFINISHEDAT", "finishedAt"), ("ZUPLOADEDAT", "uploadedAt"), ("ZCOUNTS", "counts"),
        ("ZFORMAT", "format"), ("ZCREATEDAT", "createdAt"), ("ZSTATUSRAW", "statusRaw"),
        // A new user's habit tracker: `pro` + `file` (`proFile`).
        ("ZPROFILE", "profile"),
    ])
    func camelCase(column: String, expected: String) {
        let naming = SwiftDataNaming(schema: Schema(tables: []))
        let (name, isGuess) = naming.propertyName(forColumn: column)
        #expect(name == expected)
        #expect(isGuess)
    }

    @Test("spellings are recovered from Core Data and SwiftData index names")
    func recovered() {
        let table = Table(name: "ZMOVIE", columns: [Column(name: "ZCATEGORYID"), Column(name: "ZADDED"), Column(name: "ZISHIDDEN"), Column(name: "ZLASTWATCHEDDATE")], indexes: [
            Index(name: "Z_Movie_SwiftDataIndexOnBinarycategoryId", table: "ZMOVIE", columns: [IndexColumn(name: "ZCATEGORYID")]),
            Index(name: "Z_Movie_SwiftDataIndexOnBinaryisHiddenlastWatchedDate", table: "ZMOVIE", columns: [IndexColumn(name: "ZISHIDDEN"), IndexColumn(name: "ZLASTWATCHEDDATE")]),
            Index(name: "Z_Movie_added", table: "ZMOVIE", columns: [IndexColumn(name: "ZADDED")]),
        ])
        let naming = SwiftDataNaming(schema: Schema(tables: [table]))
        #expect(naming.propertyName(forColumn: "ZCATEGORYID") == ("categoryId", false))
        #expect(naming.propertyName(forColumn: "ZLASTWATCHEDDATE") == ("lastWatchedDate", false))
        #expect(naming.propertyName(forColumn: "ZISHIDDEN") == ("isHidden", false))
        #expect(naming.propertyName(forColumn: "ZADDED") == ("added", false))
        #expect(SwiftDataNaming.indexName(entity: "Movie", properties: ["isHidden", "lastWatchedDate"]) == "Z_Movie_SwiftDataIndexOnBinaryisHiddenlastWatchedDate")
    }
}

@Suite("What-if planning")
struct WhatIfTests {
    static let schema = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);
        CREATE INDEX ia ON t(a);
        """

    @Test("on a store without statistics the empty clone plans as the store, and a hypothetical index is used")
    func withoutStatistics() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(Self.schema)
        let whatIf = try WhatIfPlanner(schema: SchemaReader.read(from: connection))
        let (plan, names) = try whatIf.plan(for: "SELECT * FROM t WHERE b = ?", bindings: [.integer(1)],
                                            with: [IndexCandidate(table: "t", columns: [IndexColumn(name: "b")])])
        #expect(plan.indexesUsed == names)
        let (none, _) = try whatIf.plan(for: "SELECT * FROM t WHERE b = ?", bindings: [.integer(1)], with: [])
        #expect(none.findings.map(\.kind) == [.fullTableScan])
    }

    @Test("on a store with sqlite_stat1 a hypothetical index gets its own statistics, and the planner weighs them")
    func withStatistics() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(Self.schema + """
            ANALYZE;
            DELETE FROM sqlite_stat1;
            INSERT INTO sqlite_stat1 VALUES ('t', 'ia', '100000 1000');
            """)
        let schema = try SchemaReader.read(from: connection)
        #expect(schema.hasStatistics)
        let whatIf = try WhatIfPlanner(schema: schema)
        let candidate = IndexCandidate(table: "t", columns: [IndexColumn(name: "b")])
        let sql = "SELECT * FROM t WHERE a = ? AND b = ?"
        // Without a row of its own, SQLite assumes 10 rows per key and prefers the hypothetical index.
        let (guessed, names) = try whatIf.plan(for: sql, bindings: [.integer(1), .integer(2)], with: [candidate])
        #expect(guessed.indexesUsed == names)
        // With the row ANALYZE would write (5,000 rows per value of b), ia (1,000 per value of a) wins.
        whatIf.statistics[candidate.key] = "100000 5000"
        let (weighed, _) = try whatIf.plan(for: sql, bindings: [.integer(1), .integer(2)], with: [candidate])
        #expect(weighed.indexesUsed == ["ia"])
    }
}

@Suite("Generated names and code stay valid")
struct GeneratedNameTests {
    @Test("store names that are not Swift identifiers never reach generated Swift")
    func swiftIdentifiers() {
        #expect(SwiftDataCode.isSwiftIdentifier("folderID"))
        #expect(SwiftDataCode.isSwiftIdentifier("_x1"))
        #expect(!SwiftDataCode.isSwiftIdentifier("N\"o'te"))
        #expect(!SwiftDataCode.isSwiftIdentifier("a b"))
        #expect(!SwiftDataCode.isSwiftIdentifier("1abc"))
        let columns = [RecommendedColumn(name: "ZX", isDescending: false, collation: "BINARY", keyPath: "\\.x);fatalError();//")]
        let candidate = IndexCandidate(table: "ZNOTE", columns: [IndexColumn(name: "ZX")])
        #expect(SwiftDataCode.indexMacro(entity: "Note", columns: columns, candidate: candidate) == nil)
        #expect(SwiftDataCode.indexMacro(entity: "No te", columns: [RecommendedColumn(name: "ZX", isDescending: false, collation: "BINARY", keyPath: "\\.x")], candidate: candidate) == nil)
    }

    @Test("a recommended index never takes a name a table already has")
    func nameClash() throws {
        let store = try FixtureStore("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder INTEGER, title TEXT);
            CREATE TABLE idx_note_folder (x);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO note SELECT i, i % 300, 't' || i FROM n;
            """)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("-- freq: 50\nSELECT * FROM note WHERE folder = 7;", format: .sql),
                                         options: quickOptions())
        #expect(result.recommendations.map(\.name) == ["idx_note_folder_2"])
        #expect(result.warnings.isEmpty)
    }
}

@Suite("Orders shared by several statements")
struct SharedOrderTests {
    @Test("the shared-order candidates are the same with each statement's shape once or a thousand times over (each distinct shape is compared once)")
    func duplicatesChangeNothing() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder INTEGER, archived INTEGER, pinned INTEGER, updated REAL, title TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO note SELECT i, i % 97, i % 2, i % 3, i * 1.5, 'title ' || i FROM n;
            """)
        let schema = try SchemaReader.read(from: connection)
        let statements = ["SELECT * FROM note WHERE folder = ? AND archived = ? ORDER BY updated DESC",
                          "SELECT * FROM note WHERE folder = ? AND pinned = ? ORDER BY updated DESC",
                          "SELECT * FROM note WHERE folder = ? ORDER BY title"]
        let accesses = try statements.map { try #require(try ShapeExtractor(schema: schema).shape(of: $0).access(to: "note")) }
        func shared(repeating times: Int) -> [String] {
            var generator = CandidateGenerator(schema: schema, statistics: ColumnStatisticsReader(connection: connection))
            for _ in 0..<times { for access in accesses { _ = generator.candidates(for: access) } }
            return generator.sharedOrderCandidates(excluding: []).map(\.key)
        }
        let once = shared(repeating: 1)
        #expect(!once.isEmpty)
        #expect(shared(repeating: 1_000) == once)
    }
}
