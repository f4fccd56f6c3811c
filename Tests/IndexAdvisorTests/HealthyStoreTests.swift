import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 16, item 1: healthy stores that were refused as corrupt.
@Suite("Healthy stores are never called corrupt")
struct HealthyStoreTests {
    /// A store made by a connection that registered `register` first, as the app's own connection does.
    static func appStore(_ sql: String, register: (SQLiteConnection) throws -> Void) throws -> FixtureStore {
        let store = try FixtureStore("SELECT 1")
        let app = try SQLiteConnection(path: store.url.path, mode: .readWrite)
        try register(app)
        try app.execute(sql)
        return store
    }

    // GRDB's `.collate(.localizedCaseInsensitiveCompare)` leaves an app collation on an indexed column.
    @Test("an app-defined collation on an indexed column: the store is analysed, with no warning")
    func appCollation() throws {
        let store = try Self.appStore("""
            CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT COLLATE swiftLocalizedCaseInsensitiveCompare, score INTEGER);
            CREATE INDEX player_on_name ON player(name);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO player SELECT i, 'Player ' || i, i % 1000 FROM n;
            """) { $0.installStandIns() }
        let snapshot = try StoreSnapshot.take(of: store.url)
        #expect(snapshot.warnings.isEmpty)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM player INDEXED BY player_on_name WHERE name > 'a'") == .integer(20000))
        snapshot.close()
        let workload = WorkloadLoader.parse("-- freq: 100\nSELECT * FROM player WHERE score = ? ORDER BY name;\n", file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(result.warnings.isEmpty)
        #expect(result.statements.first?.error == nil)
        #expect(result.recommendations.first?.columns.first?.name == "score")
    }

    @Test("an app function in a CHECK constraint and in a generated column: analysed, with one warning saying so")
    func appFunction() throws {
        let store = try Self.appStore("""
            CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT CHECK (app_slug(name) <> ''),
                             slug TEXT GENERATED ALWAYS AS (app_slug(name)) VIRTUAL, kind INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO tag(id, name, kind) SELECT i, 'Tag ' || i, i % 400 FROM n;
            """) { try $0.registerStandInFunction(named: "app_slug") }
        let snapshot = try StoreSnapshot.take(of: store.url, busyTimeout: 1)
        #expect(snapshot.warnings == [.standInFunctions(["app_slug"])])
        #expect(snapshot.warnings.map(\.text) == ["the schema calls app_slug, which only the app registers: the private copy gives it a stand-in that returns NULL and does not enforce CHECK constraints"])
        snapshot.close()
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT * FROM tag WHERE kind = ?;
            -- freq: 10
            INSERT INTO tag(name, kind) VALUES (?, ?);
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(result.statements.allSatisfy { $0.error == nil }, "\(result.statements.map(\.error))")
        #expect(result.recommendations.first?.columns.map(\.name) == ["kind"])
        #expect(result.warnings.first?.text.hasPrefix("the schema calls app_slug") == true)
    }

    @Test("the schema's function calls are found; keywords, table names and type names are not taken for functions")
    func calledNames() {
        let names = SQLiteConnection.calledNames(in: [
            "CREATE TABLE IF NOT EXISTS t(a VARCHAR(20) CHECK (app_check(a) AND length(a) > 0), b AS (\"App Fn\"(a)), FOREIGN KEY(a) REFERENCES p(id), UNIQUE(a, b))",
            "CREATE INDEX i ON t(lower_ascii(a)) WHERE a IN (1, 2) AND NOT exists_fn(b)",
            "CREATE VIRTUAL TABLE f USING fts5(body)",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT RAISE(ABORT, 'x'); INSERT INTO log(x) VALUES (app_check(new.a)); END",
        ])
        #expect(names == ["app_check", "length", "App Fn", "lower_ascii", "exists_fn"])
    }

    // SQLite 3.40.1's quick_check says "NULL value in prefix_keywords.rank" for this valid WITHOUT ROWID table.
    @Test("a WITHOUT ROWID table whose key is not its first columns is analysed")
    func withoutRowid() throws {
        let store = try FixtureStore("""
            CREATE TABLE prefix_keywords(keyword_prefix TEXT NOT NULL, keyword_suffix TEXT NOT NULL DEFAULT '',
                rank INTEGER NOT NULL, suggestion_id INTEGER NOT NULL,
                PRIMARY KEY (keyword_prefix, keyword_suffix, suggestion_id)) WITHOUT ROWID;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO prefix_keywords SELECT 'k' || (i % 500), 's' || i, i % 7, i FROM n;
            """)
        let workload = WorkloadLoader.parse("""
            -- freq: 50
            SELECT keyword_prefix, rank FROM prefix_keywords WHERE suggestion_id = ?;
            -- freq: 5
            DELETE FROM prefix_keywords WHERE suggestion_id = ?;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(result.statements.allSatisfy { $0.error == nil })
        #expect(result.recommendations.first?.columns.first?.name == "suggestion_id")
        #expect(result.warnings.allSatisfy { $0.text.hasPrefix("PRAGMA quick_check reported \"NULL value in prefix_keywords.rank") })
    }

    @Test("a check's finding on data that reads well is a warning; a page that cannot be read is corruption")
    func findingIsEvidence() throws {
        // A row that breaks its CHECK constraint: quick_check reports it in every SQLite release, yet every
        // page reads.
        let store = try FixtureStore("""
            CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER CHECK (a >= 0), b TEXT);
            CREATE INDEX t_b ON t(b);
            CREATE INDEX t_a_partial ON t(a) WHERE a > 10;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i, i % 90, printf('%040d', i * 7919) FROM n;
            PRAGMA ignore_check_constraints = ON; INSERT INTO t VALUES (20001, -1, 'x'); PRAGMA ignore_check_constraints = OFF;
            """)
        let snapshot = try StoreSnapshot.take(of: store.url)
        #expect(snapshot.warnings == [.quickCheckFindings(findings: "CHECK constraint failed in t", storePath: store.url.path)])
        #expect(snapshot.warnings.map(\.text) == ["PRAGMA quick_check reported \"CHECK constraint failed in t\", but every table and index reads without error, so the store is analysed; run `sqlite3 \(store.url.path) 'PRAGMA integrity_check'` with the app's SQLite to be sure"])
        snapshot.close()
        // The same store with its table's root page damaged (header and cell pointers included), so that
        // every read of t fails: refused, naming the check and the read that failed. (A page picked from the
        // middle of the file was sometimes one whose damage SQLite never reads: the test flaked.)
        let (root, pageSize) = try { () throws -> (Int, Int) in
            let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
            let root = try #require(connection.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 't'")?.integerValue)
            let size = try #require(connection.scalar("PRAGMA page_size")?.integerValue)
            return (Int(root), Int(size))
        }()
        var bytes = try Data(contentsOf: store.url)
        let start = (root - 1) * pageSize
        for offset in start..<(start + 2000) { bytes[offset] ^= 0x5A }
        try bytes.write(to: store.url)
        let error = try #require(throws: StoreError.self) { try StoreSnapshot.take(of: store.url) }
        #expect(error.description.hasPrefix("\(store.url.path): the database is corrupt (quick_check: "))
        #expect(!error.description.contains("\n"))
    }
}

/// Issue 16, item 1: a writer mid-transaction with no journal on disk left a torn file behind it.
@Suite("A store locked by a writer is busy, not corrupt", .serialized)
struct LockedStoreTests {
    /// Starts a writer in another process (SQLite locks belong to a process): it sets `journalMode`, opens a
    /// transaction that rewrites every row and spills pages into the file (SQLite's EXCLUSIVE lock), says
    /// "ready", then commits after `holdSeconds`.
    static func writer(_ store: URL, journalMode: String, holdSeconds: Double) throws -> (Process, Pipe) {
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA journal_mode=" + sys.argv[2]).fetchall()
            c.execute("PRAGMA cache_size=20")
            c.execute("BEGIN")
            c.execute("UPDATE t SET b = randomblob(300)")
            print("ready", flush=True)
            time.sleep(float(sys.argv[3]))
            c.execute("COMMIT")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, store.path, journalMode, String(holdSeconds)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(line.trimmingCharacters(in: .whitespacesAndNewlines) == "ready")
        return (process, output)
    }

    static let schema = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, b BLOB);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i, randomblob(200) FROM n;
        """

    @Test("journal_mode OFF or MEMORY, locked mid-transaction: busy after --busy-timeout, the store untouched", arguments: ["OFF", "MEMORY"])
    func lockedMidTransaction(journalMode: String) throws {
        let store = try FixtureStore(Self.schema)
        let (process, _) = try Self.writer(store.url, journalMode: journalMode, holdSeconds: 60)
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        #expect(StoreSnapshot.writerHoldsLock(on: store.url.path))
        let before = try Data(contentsOf: store.url)
        let parent = try TemporaryDirectory()
        let error = try #require(throws: StoreError.self) { try StoreSnapshot.take(of: store.url, temporaryParent: parent.url, busyTimeout: 0.5) }
        guard case .busy = error else { Issue.record("not busy: \(error)"); return }
        #expect(error.description.hasPrefix("\(store.url.path): the store kept changing or stayed locked for "))
        #expect(runDirectories(in: parent.url).isEmpty)
        #expect(try Data(contentsOf: store.url) == before)
    }

    @Test("a writer that commits within --busy-timeout: the snapshot has the committed rows")
    func retriedUntilCommitted() throws {
        let store = try FixtureStore(Self.schema)
        let (process, _) = try Self.writer(store.url, journalMode: "OFF", holdSeconds: 1)
        let snapshot = try StoreSnapshot.take(of: store.url, busyTimeout: 60)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(snapshot.warnings.isEmpty)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM t WHERE length(b) = 300") == .integer(20000))
        #expect(!StoreSnapshot.writerHoldsLock(on: store.url.path))
        snapshot.close()
    }
}
