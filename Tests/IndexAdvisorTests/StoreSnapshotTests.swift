import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Private snapshot of the store")
struct StoreSnapshotTests {
    static let schema = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO t SELECT i, 'v' || i FROM n;
        """

    @Test("a rollback-journal store is copied without a byte or a time of it changing")
    func rollbackStoreUnchanged() throws {
        let store = try FixtureStore(Self.schema)
        let before = try store.fileState()
        let snapshot = try StoreSnapshot.take(of: store.url)
        #expect(snapshot.method == .immutable)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM t") == .integer(500))
        try snapshot.connection.execute("CREATE INDEX i ON t(v)")
        snapshot.close()
        #expect(try store.fileState() == before)
        #expect(!FileManager.default.fileExists(atPath: snapshot.directory.url.path))
    }

    // A new user's shop store (rollback journal): an UPDATE of one row timed at 149 µs that takes 10 µs in
    // the sqlite3 shell inside a transaction; each timed write made and deleted the journal file.
    @Test("the snapshot of a rollback-journal store is in WAL mode, and its timed writes make no journal file; the store keeps its mode")
    func snapshotInWALMode() throws {
        let store = try FixtureStore(Self.schema)
        let before = try store.fileState()
        let snapshot = try StoreSnapshot.take(of: store.url)
        #expect(try snapshot.connection.scalar("PRAGMA journal_mode") == .text("wal"))
        let journal = snapshot.snapshotURL.path + "-journal"
        var timer = StatementTimer(connection: snapshot.connection)
        timer.repeats = 3
        let timing = try timer.time("UPDATE t SET v = v || 'x' WHERE id = 7", samples: [], isWrite: true)
        #expect(timing.rowsPerExecution == 1)
        #expect(!FileManager.default.fileExists(atPath: journal))
        #expect(try snapshot.connection.scalar("SELECT v FROM t WHERE id = 7") == .text("v7"))  // rolled back
        snapshot.close()
        #expect(try store.fileState() == before)
        let reader = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        #expect(try reader.scalar("PRAGMA journal_mode") == .text("delete"))
    }

    @Test("a cleanly closed WAL store gets no -wal or -shm created beside it")
    func cleanWALStoreUntouched() throws {
        let store = try FixtureStore(Self.schema, walMode: true)
        #expect(try store.fileState().keys.sorted() == [""])
        let before = try store.fileState()
        let snapshot = try StoreSnapshot.take(of: store.url)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM t") == .integer(500))
        snapshot.close()
        #expect(try store.fileState() == before)
    }

    @Test("committed WAL frames an app has not checkpointed are in the snapshot; the -wal and -shm keep their bytes")
    func uncheckpointedWAL() throws {
        let store = try FixtureStore(Self.schema, walMode: true)
        // Keep a connection open (as a running app would) so the WAL is not checkpointed away.
        let app = try SQLiteConnection(path: store.url.path, mode: .readWrite)
        try app.execute("PRAGMA wal_autocheckpoint = 0; INSERT INTO t(v) VALUES ('committed in the WAL')")
        let before = try store.fileState()
        #expect(before["-wal"] != nil)
        let snapshot = try StoreSnapshot.take(of: store.url)
        #expect(snapshot.method == .privateCopy)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM t") == .integer(501))
        #expect(try snapshot.connection.scalar("SELECT v FROM t WHERE id = 501") == .text("committed in the WAL"))
        snapshot.close()
        #expect(try store.fileState() == before)
        _ = app
    }

    @Test("a hot journal (a writer that died mid-transaction) is rolled back in the copy: the last committed state, the files untouched")
    func hotJournal() throws {
        let writer = try FixtureStore(Self.schema)
        // A transaction whose changes spill into the database file before it commits: the journal then
        // holds the original pages. Copy the files while it is open, as a crash would leave them.
        let app = try SQLiteConnection(path: writer.url.path, mode: .readWrite)
        try app.execute("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1; BEGIN; UPDATE t SET v = 'uncommitted ' || id || printf('%.*c', 200, 'x');")
        let directory = try TemporaryDirectory()
        let store = directory.url.appendingPathComponent("crashed.sqlite")
        try FileManager.default.copyItem(at: writer.url, to: store)
        try FileManager.default.copyItem(atPath: writer.url.path + "-journal", toPath: store.path + "-journal")
        try app.execute("ROLLBACK")
        // The journal is hot: without it, the copied file shows the uncommitted rows.
        let bare = directory.url.appendingPathComponent("bare.sqlite")
        try FileManager.default.copyItem(at: store, to: bare)
        let raw = try SQLiteConnection(path: bare.path, mode: .readWrite)
        #expect(try raw.scalar("SELECT count(*) FROM t WHERE v LIKE 'uncommitted%'") != .integer(0))
        func state() throws -> [String: Data] {
            try ["", "-journal"].reduce(into: [:]) { $0[$1] = try Data(contentsOf: URL(fileURLWithPath: store.path + $1)) }
        }
        let before = try state()
        let snapshot = try StoreSnapshot.take(of: store, temporaryParent: directory.url)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM t WHERE v LIKE 'uncommitted%'") == .integer(0))
        #expect(try snapshot.connection.scalar("SELECT v FROM t WHERE id = 7") == .text("v7"))
        snapshot.close()
        #expect(try state() == before)
    }

    @Test("a missing file, a directory, an empty file, a text file and a truncated store each give a one-line error")
    func badFiles() throws {
        let directory = try TemporaryDirectory()
        let empty = directory.url.appendingPathComponent("empty.sqlite")
        try Data().write(to: empty)
        let text = directory.url.appendingPathComponent("notes.txt")
        try Data("hello, this is not a database at all, just some text that is long enough".utf8).write(to: text)
        let truncated = directory.url.appendingPathComponent("truncated.sqlite")
        try Data(Array("SQLite format 3".utf8) + [0] + Array(repeating: 0, count: 40)).write(to: truncated)
        // Links that resolve to nothing are there: not "no such file" (a breaking helper).
        let loop = directory.url.appendingPathComponent("loop1.sqlite"), other = directory.url.appendingPathComponent("loop2.sqlite")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: other.path)
        try FileManager.default.createSymbolicLink(atPath: other.path, withDestinationPath: loop.path)
        let dangling = directory.url.appendingPathComponent("dangling.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent-indexadvisor/x.sqlite")
        let cases: [(URL, String)] = [
            (loop, "loop1.sqlite: cannot read the file (a loop of symbolic links)"),
            (dangling, "dangling.sqlite: cannot read the file (a symbolic link to /nonexistent-indexadvisor/x.sqlite, which does not exist)"),
            (directory.url.appendingPathComponent("missing.sqlite"), "missing.sqlite: no such file"),
            (directory.url, ": is a directory, not a store file"),
            (empty, "empty.sqlite: the file is empty (0 bytes), not a SQLite database"),
            (text, "notes.txt: not a SQLite database (no SQLite header; an encrypted store (e.g. SQLCipher) looks like this too)"),
            (truncated, "truncated.sqlite: not a SQLite database (truncated: 56 bytes, shorter than one page)"),
        ]
        for (url, message) in cases {
            let error = try #require(throws: StoreError.self) { try StoreSnapshot.take(of: url, temporaryParent: directory.url) }
            #expect(error.description.hasSuffix(message), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
        #expect(runDirectories(in: directory.url).isEmpty)
    }

    @Test("a page of garbage after a valid header is reported as not a database or corrupt, and no temp files stay")
    func corruptStore() throws {
        let store = try FixtureStore(Self.schema)
        var bytes = try Data(contentsOf: store.url)
        // Keep the 100-byte header, destroy the schema page.
        for i in 100..<min(bytes.count, 4096) { bytes[i] = 0xA5 }
        try bytes.write(to: store.url)
        let parent = try TemporaryDirectory()
        let error = try #require(throws: StoreError.self) { try StoreSnapshot.take(of: store.url, temporaryParent: parent.url) }
        #expect(error.description.contains("store.sqlite: "))
        #expect(error.description.contains("corrupt") || error.description.contains("not a SQLite database") || error.description.contains("malformed"))
        #expect(runDirectories(in: parent.url).isEmpty)
    }
}

@Suite("A crafted store cannot make indexadvisor run statements")
struct CraftedSchemaTests {
    @Test("schema text with extra statements (ATTACH, DELETE, VACUUM INTO) is refused; nothing outside the snapshot changes")
    func multiStatementSchema() throws {
        let directory = try TemporaryDirectory()
        let victim = directory.url.appendingPathComponent("victim.sqlite")
        let victimConnection = try SQLiteConnection(path: victim.path, mode: .readWriteCreate)
        try victimConnection.execute("CREATE TABLE note(id INTEGER PRIMARY KEY); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO note SELECT i FROM n;")
        let pwned = directory.url.appendingPathComponent("pwned.db")
        let store = directory.url.appendingPathComponent("evil.sqlite")
        let evil = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try evil.execute("""
            CREATE TABLE t(a INT, b INT);
            CREATE INDEX t_a ON t(a);
            CREATE VIEW v AS SELECT * FROM t;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT i % 50, i FROM n;
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = 'CREATE VIEW v AS SELECT * FROM t; ATTACH DATABASE ''\(pwned.path)'' AS p; CREATE TABLE p.x(y);' WHERE name = 'v';
            UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a INT, b INT); ATTACH DATABASE ''\(victim.path)'' AS victim; DELETE FROM victim.note;' WHERE name = 't';
            UPDATE sqlite_schema SET sql = 'CREATE INDEX t_a ON t(a); ATTACH DATABASE ''\(store.path)'' AS self; CREATE TABLE self.injected(z);' WHERE name = 't_a';
            PRAGMA writable_schema = OFF;
            """)
        let storeBytes = try Data(contentsOf: store)
        let workload = WorkloadLoader.parse("-- freq: 10\nSELECT * FROM t WHERE b = 5;\nSELECT * FROM v WHERE a = 3 ORDER BY b;", format: .sql)
        _ = try? Advisor.analyze(storeAt: store, workload: workload, options: quickOptions())
        #expect(!FileManager.default.fileExists(atPath: pwned.path))
        #expect(try victimConnection.scalar("SELECT count(*) FROM note") == .integer(100))
        #expect(try Data(contentsOf: store) == storeBytes)
    }

    @Test("a single statement is run; a second one, or a statement that is not CREATE, is refused")
    func executeDefinition() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.executeDefinition("CREATE TABLE a(x);  -- trailing comment\n")
        let twice = try #require(throws: SQLiteError.self) { try connection.executeDefinition("CREATE TABLE b(x); DROP TABLE a") }
        #expect(twice.message == "schema text holds more than one statement; refused")
        let notCreate = try #require(throws: SQLiteError.self) { try connection.executeDefinition("DROP TABLE a") }
        #expect(notCreate.message == "schema text is not a CREATE statement; refused")
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'a'") == .integer(1))
        #expect(throws: SQLiteError.self) { try connection.execute("ATTACH DATABASE ':memory:' AS other") }
    }
}

@Suite("Snapshots of a store an app is writing to")
struct LiveStoreTests {
    @Test("a WAL store written to continuously by another connection is copied consistently, without opening its -wal or -shm")
    func continuousWriter() throws {
        let store = try FixtureStore("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t(v) VALUES ('first');", walMode: true)
        let path = store.url.path
        let stop = ManagedFlag()
        let writer = Thread {
            guard let app = try? SQLiteConnection(path: path, mode: .readWrite) else { return }
            try? app.execute("PRAGMA wal_autocheckpoint = 0")
            while !stop.isSet {
                try? app.execute("INSERT INTO t(v) VALUES (hex(randomblob(64)))")
            }
        }
        writer.start()
        defer { stop.set() }
        usleep(100_000)
        let snapshot = try StoreSnapshot.take(of: store.url, busyTimeout: 10)
        #expect(snapshot.method == .privateCopy)
        let rows = try #require(try snapshot.connection.scalar("SELECT count(*) FROM t")?.integerValue)
        #expect(rows > 1)
        #expect(try snapshot.connection.scalar("PRAGMA quick_check") == .text("ok"))
        #expect(try snapshot.connection.scalar("SELECT v FROM t WHERE id = 1") == .text("first"))
        snapshot.close()
    }

    @Test("a symbolic link to a store is followed")
    func symlink() throws {
        let store = try FixtureStore("CREATE TABLE t(a); INSERT INTO t VALUES (1);")
        let link = store.directory.url.appendingPathComponent("link.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: store.url)
        let snapshot = try StoreSnapshot.take(of: link)
        #expect(try snapshot.connection.scalar("SELECT count(*) FROM t") == .integer(1))
    }
}

/// A flag set from one thread and read from another.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

@Suite("More bad stores")
struct MoreBadStoreTests {
    @Test("a store written by a newer SQLite (schema format 5) is refused with one line")
    func newerSchemaFormat() throws {
        let store = try FixtureStore("CREATE TABLE t(a); INSERT INTO t VALUES (1);")
        var bytes = try Data(contentsOf: store.url)
        bytes[44] = 0; bytes[45] = 0; bytes[46] = 0; bytes[47] = 5  // header offset 44: schema format number
        try bytes.write(to: store.url)
        let error = try #require(throws: StoreError.self) { try StoreSnapshot.take(of: store.url) }
        #expect(error.description.hasPrefix("\(store.url.path): "))
        #expect(error.description.contains("unsupported file format") || error.description.contains("corrupt") || error.description.contains("not a SQLite database"))
        #expect(!error.description.contains("\n"))
    }

    @Test("a schema of 1,000 tables is read and reviewed quickly")
    func hugeSchema() throws {
        var sql = ""
        for i in 0..<1000 { sql += "CREATE TABLE \"t\(i)\" (id INTEGER PRIMARY KEY, a INTEGER, b TEXT); CREATE INDEX \"i\(i)\" ON \"t\(i)\"(a);\n" }
        let store = try FixtureStore(sql)
        let start = Date()
        let result = try Advisor.review(storeAt: store.url, options: quickOptions())
        #expect(result.store.tables.count == 1000)
        #expect(Date().timeIntervalSince(start) < 30)
    }
}

@Suite("Odd identifiers, end to end")
struct OddIdentifierTests {
    @Test("tables and columns named with spaces, quotes, keywords and emoji get advice whose SQL runs")
    func oddIdentifiers() throws {
        let table = "my \"order\" 📦"
        let column = "group by"
        let store = try FixtureStore("""
            CREATE TABLE \(SQLIdentifier.quote(table)) (id INTEGER PRIMARY KEY, \(SQLIdentifier.quote(column)) INTEGER, "select" TEXT, "Ünïcode" REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO \(SQLIdentifier.quote(table)) SELECT i, i % 300, 'v' || i, i * 0.5 FROM n;
            """)
        let workload = "-- freq: 40\nSELECT \"select\" FROM \(SQLIdentifier.quote(table)) WHERE \(SQLIdentifier.quote(column)) = 7 ORDER BY \"Ünïcode\" DESC;"
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, format: .sql), options: quickOptions())
        let recommendation = try #require(result.recommendations.first)
        #expect(recommendation.table == table)
        #expect(recommendation.columns.map(\.name) == [column, "Ünïcode"])
        // The CREATE INDEX runs as printed, on a copy.
        let copy = try FixtureStore("CREATE TABLE \(SQLIdentifier.quote(table)) (id INTEGER PRIMARY KEY, \(SQLIdentifier.quote(column)) INTEGER, \"select\" TEXT, \"Ünïcode\" REAL);")
        let connection = try SQLiteConnection(path: copy.url.path, mode: .readWrite)
        try connection.execute(recommendation.sql)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'index'") == .integer(1))
        let markdown = checkedRender(result, .markdown)
        #expect(markdown.contains("`my \"order\" 📦`"))
        _ = try JSONReport.decode(Data(ReportFormat.json.render(result).utf8))
    }

    // Regression: two columns named "é" composed (U+00E9) and decomposed (e + U+0301) are two columns to
    // SQLite but one dictionary key to Swift; building the shape trapped ("Duplicate values for key").
    @Test("columns whose names differ only in Unicode normalization do not crash the analysis")
    func unicodeNormalization() throws {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        let store = try FixtureStore("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, "\(composed)" INTEGER, "\(decomposed)" INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO t SELECT i, i % 50, i % 70 FROM n;
            """)
        let workload = "-- freq: 10\nSELECT * FROM t WHERE id = 5;\n-- freq: 10\nSELECT id FROM t WHERE \"\(decomposed)\" = 3;"
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, format: .sql), options: quickOptions())
        #expect(result.statements.count == 2)
        #expect(result.statements.allSatisfy { $0.error == nil })
    }
}

@Suite("Commands a message suggests")
struct SuggestedCommandTests {
    @Test("a path in a suggested command is one shell word: quoted when it has spaces or quotes, as it is otherwise")
    func shellWord() {
        // Regression (a breaking helper): `sqlite3 /tmp/App Support/default.store 'PRAGMA integrity_check'` did not paste.
        #expect(StoreError.shellWord("/tmp/App Support/default.store") == "'/tmp/App Support/default.store'")
        #expect(StoreError.shellWord("/tmp/it's.db") == "'/tmp/it'\\''s.db'")
        #expect(StoreError.shellWord("/tmp/notes-1.sqlite") == "/tmp/notes-1.sqlite")
        #expect(StoreError.shellWord("") == "''")
    }
}
