import IndexAdvisorTesting
import Testing
#if canImport(SQLite3)
import SQLite3  // Apple platforms: the SDK's SQLite
#else
import AppSQLite  // Linux: a system-library target of your package that links libsqlite3
#endif

/// The code under test: in your app, your data layer (GRDB, SQLite.swift or the C API).
func recentNoteTitles(in db: OpaquePointer, folder: Int64) -> [String] {
    var statement: OpaquePointer?
    sqlite3_prepare_v2(db, "SELECT title FROM note WHERE folder_id = ? ORDER BY updated_at DESC LIMIT 20", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    sqlite3_bind_int64(statement, 1, folder)
    var titles: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        titles.append(String(cString: sqlite3_column_text(statement, 0)))
    }
    return titles
}

@Suite struct NoteQueryPlanTests {
    /// A store with the app's schema and indexes, and enough rows that a full scan counts (over 999).
    static func makeStore() -> OpaquePointer {
        var db: OpaquePointer?
        sqlite3_open(":memory:", &db)
        sqlite3_exec(db, """
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder_id INTEGER, updated_at REAL, title TEXT);
            CREATE INDEX note_folder_updated ON note (folder_id, updated_at);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO note (folder_id, updated_at, title) SELECT i % 50, i, 'note ' || i FROM n;
            """, nil, nil, nil)
        return db!
    }

    @Test func recentNotesUseTheFolderIndex() {
        let db = Self.makeStore()
        defer { sqlite3_close(db) }
        // One statement: no full scan of a table over 999 rows, no temp B-tree, no automatic index,
        // and it must use this index.
        expectQueryPlan(of: "SELECT title FROM note WHERE folder_id = ? ORDER BY updated_at DESC LIMIT 20",
                        on: db, .usingIndex("note_folder_updated"))
        // Every statement the code under test runs on the connection inside the scope.
        let titles = expectQueryPlans(on: db) { recentNoteTitles(in: db, folder: 3) }
        #expect(titles.count == 20)
    }
}
