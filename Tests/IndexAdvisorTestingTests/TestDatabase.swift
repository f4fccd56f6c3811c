import CSQLite
import Foundation

/// A raw `sqlite3 *` for the tests, opened as GRDB opens its connections (`SQLITE_OPEN_NOMUTEX`), with rows
/// made by a recursive CTE.
final class TestDatabase {
    let handle: OpaquePointer
    let path: String

    init(path: String = ":memory:") throws {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else { throw TestError("open \(path): result code \(rc)") }
        handle = db
        self.path = path
    }

    /// A notes table: `rows` notes spread over 50 folders, an `updated_at` that grows with the id.
    static func notes(rows: Int = 5_000, path: String = ":memory:") throws -> TestDatabase {
        let db = try TestDatabase(path: path)
        try db.execute("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder_id INTEGER, updated_at REAL, title TEXT, is_archived INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO note (folder_id, updated_at, title, is_archived) SELECT i % 50, i * 10.0, 'note ' || i, i % 7 = 0 FROM n;
            """)
        return db
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else { throw TestError("\(sql): \(message.map { String(cString: $0) } ?? "result code \(rc)")") }
    }

    /// Prepares `sql` once and runs it once per element of `values`, binding integers to its parameters in
    /// order, stepping through every row, as an app's data layer does.
    func run(_ sql: String, values: [[Int64]] = [[]]) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw TestError("prepare \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        for set in values {
            sqlite3_reset(statement)
            for (offset, value) in set.enumerated() { sqlite3_bind_int64(statement, Int32(offset + 1), value) }
            var rc = sqlite3_step(statement)
            while rc == SQLITE_ROW { rc = sqlite3_step(statement) }
            guard rc == SQLITE_DONE else { throw TestError("run \(sql): \(String(cString: sqlite3_errmsg(handle)))") }
        }
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A directory under the system's temporary folder, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("indexadvisor-testing-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
