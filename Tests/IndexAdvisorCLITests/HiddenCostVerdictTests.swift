import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// Issue 39, items 2 and 6 at the command line: `check` fails a write whose trigger scans a table, and a
/// healthy store whose schema holds SQL of a newer SQLite is said to need one, not called corrupt.
@Suite("check sees a trigger's scan; a newer SQLite's schema is not corruption", .serialized)
struct HiddenCostVerdictTests: CheckScratch {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    // Item 2: the write itself is a primary-key search; its BEFORE DELETE trigger reads all 12,000 rows of
    // `booking` for the room's bookings. The read beside it is quick.
    static let rooms = """
        CREATE TABLE room(id INTEGER PRIMARY KEY, floor INTEGER, label TEXT);
        CREATE TABLE booking(id INTEGER PRIMARY KEY, room_id INTEGER, day INTEGER, state TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO room SELECT i, i % 12, 'room ' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000) INSERT INTO booking SELECT i, i % 400 + 1, i % 365, 'held' FROM n;
        CREATE TRIGGER room_closed BEFORE UPDATE OF floor ON room
        BEGIN
          UPDATE booking SET state = 'moved' WHERE room_id = OLD.id AND state = 'held';
        END;
        """

    @Test("a hot write whose trigger scans a table fails check; with the trigger's index it passes; the store untouched")
    func triggerScanFailsCheck() throws {
        let bare = try store("rooms.sqlite", Self.rooms)
        let indexed = try store("rooms-indexed.sqlite", Self.rooms + "CREATE INDEX booking_room ON booking(room_id);")
        let workload = try file("rooms.sql", "-- freq: 60\nUPDATE room SET floor = floor + 1 WHERE id = 31;\n-- freq: 60\nSELECT label FROM room WHERE id = 8;\n")
        let bytes = try Data(contentsOf: bare)
        let (code, console) = run(["check", bare.path, "-w", workload.path, "-q"])
        #expect(code == ExitCode.checkFailed, "\(console.out)")
        let failures = console.out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("FAIL ") }
        #expect(failures.count == 1, "\(console.out)")
        #expect(failures.first?.hasPrefix("FAIL S1 full table scan of booking (12,000 rows; ×60, ") == true, "\(console.out)")
        #expect(try Data(contentsOf: bare) == bytes)
        let (fixed, after) = run(["check", indexed.path, "-w", workload.path, "-q"])
        #expect(fixed == ExitCode.success, "\(after.out)")
        // analyze proposes the index the trigger needs.
        let (analyzed, report) = run(["analyze", bare.path, "-w", workload.path, "--format", "sql", "-q"])
        #expect(analyzed == ExitCode.success, "\(report.error)")
        #expect(report.out.contains("CREATE INDEX IF NOT EXISTS") && report.out.contains("ON \"booking\" (\"room_id\""), "\(report.out)")
        #expect(try Data(contentsOf: bare) == bytes)
    }

    // Item 6: sqlite_schema rewritten on a throwaway file with SQL this SQLite (3.40) cannot parse: a view with
    // an aggregate's ORDER BY (3.44) and a CHECK with a digit separator (3.46).
    @Test("a store whose schema is SQL of a newer SQLite: one line saying it needs one, not corrupt; exit 2, the store untouched",
          arguments: [
            ("tally", "CREATE VIEW tally AS SELECT shelf, string_agg(title, ', ' ORDER BY title) AS titles FROM book GROUP BY shelf", "view"),
            ("book", "CREATE TABLE book(id INTEGER PRIMARY KEY, shelf INTEGER, title TEXT, pages INTEGER CHECK (pages < 10_000))", "table"),
          ])
    func newerSchema(name: String, sql: String, type: String) throws {
        // A SQLite that parses it has nothing to report.
        guard CoreDataLogReader.isSyntaxError(sql) else { return }
        let url = try store("newer-\(name).sqlite", """
            CREATE TABLE book(id INTEGER PRIMARY KEY, shelf INTEGER, title TEXT, pages INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO book SELECT i, i % 9, 'Book ' || i, 100 + i FROM n;
            """)
        do {
            let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
            try connection.execute("PRAGMA writable_schema = ON")
            if type == "view" {
                let insert = try connection.prepare("INSERT INTO sqlite_schema(type, name, tbl_name, rootpage, sql) VALUES ('view', ?, ?, 0, ?)")
                try insert.bind([.text(name), .text(name), .text(sql)])
                try insert.run()
            } else {
                let update = try connection.prepare("UPDATE sqlite_schema SET sql = ? WHERE name = ?")
                try update.bind([.text(sql), .text(name)])
                try update.run()
            }
        }
        let workload = try file("books.sql", "-- freq: 10\nSELECT title FROM book WHERE shelf = 3;\n")
        let bytes = try Data(contentsOf: url)
        for command in ["analyze", "check"] {
            let temp = try TemporaryDirectory()
            let (code, console) = run([command, url.path, "-w", workload.path, "--temp-dir", temp.url.path])
            #expect(code == ExitCode.failure, "\(console.out)")
            let lines = console.error.split(separator: "\n")
            #expect(lines.count == 1, "\(console.error)")
            #expect(console.error.hasPrefix("indexadvisor: error: \(url.path): the schema uses SQL that SQLite \(SQLiteConnection.libraryVersion) cannot parse (malformed database schema (\(name))"), "\(console.error)")
            #expect(console.error.contains("the store needs a newer SQLite if one wrote it (it is then not corrupt), else its schema is damaged"), "\(console.error)")
            #expect(!console.error.contains("PRAGMA integrity_check"), "\(console.error)")
            #expect(runDirectories(in: temp.url).isEmpty)
            #expect(try Data(contentsOf: url) == bytes)
        }
    }
}
