import Testing
import Foundation
@testable import IndexAdvisor

/// Enforced foreign keys make a parent's delete search its child tables (foreignkeys.html#fk_indexes): the
/// analysis enforces them when the app does, plans and times the searches, and proposes the child's index.
@Suite("Foreign keys the app enforces")
struct ForeignKeyEnforcementTests {
    /// A playlist app: each playlist's entries point at it (cascading) and at a track; nothing indexes the
    /// entries' two keys, so deleting a playlist or a track reads every entry.
    static let schema = """
        CREATE TABLE playlist (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT NOT NULL, seconds INTEGER NOT NULL);
        CREATE TABLE entry (id INTEGER PRIMARY KEY, playlist_id INTEGER NOT NULL REFERENCES playlist(id) ON DELETE CASCADE,
                            track_id INTEGER NOT NULL REFERENCES track(id), position INTEGER NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO playlist SELECT i, 'list ' || i, 700000000.0 + i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
        INSERT INTO track SELECT i, 'track ' || i, 120 + i % 200 FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
        INSERT INTO entry SELECT i, 1 + (i * 7) % 2000, 1 + (i * 13) % 5000, i % 30 FROM n;
        """

    static func foreignKeys(_ schema: String) throws -> [ForeignKey] {
        let store = try FixtureStore(schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        return ForeignKeys.all(in: try SchemaReader.read(from: connection), connection: connection)
    }

    @Test("PRAGMA foreign_keys in its spellings is read as on, off, or not that pragma", arguments: [
        ("PRAGMA foreign_keys = ON", true), ("pragma foreign_keys=1;", true), ("PRAGMA main.foreign_keys = true", true),
        ("PRAGMA \"foreign_keys\" = 'on'", true), ("PRAGMA foreign_keys(ON)", true), ("PRAGMA foreign_keys = OFF", false),
        ("PRAGMA foreign_keys = 0", false), ("PRAGMA foreign_keys", nil), ("PRAGMA foreign_key_check", nil),
        ("PRAGMA journal_mode = WAL", nil), ("PRAGMA foreign_keys = maybe", nil),
    ] as [(String, Bool?)])
    func pragmaSetting(sql: String, setting: Bool?) {
        #expect(ForeignKeys.pragmaSetting(sql) == setting)
    }

    @Test("the declared keys are read with their columns and actions")
    func declared() throws {
        let keys = try Self.foreignKeys(Self.schema)
        #expect(keys.map(\.child) == ["entry", "entry"])
        #expect(Set(keys.map(\.parent)) == ["playlist", "track"])
        let cascading = try #require(keys.first { $0.parent == "playlist" })
        #expect(cascading.columns == ["playlist_id"])
        #expect(cascading.parentColumns == ["id"])
        #expect(cascading.onDelete == "CASCADE")
        #expect(cascading.hasAction)
        #expect(keys.first { $0.parent == "track" }?.hasAction == false)
    }

    @Test("enforced when the workload's last foreign_keys pragma turns them on, or, without one, when a key declares an action")
    func enforcement() throws {
        let keys = try Self.foreignKeys(Self.schema)
        let plain = keys.filter { !$0.hasAction }
        func workload(_ text: String) -> Workload { WorkloadLoader.parse(text, file: "w.sql", format: .sql) }
        let on = workload("PRAGMA foreign_keys = ON;\nDELETE FROM track WHERE id = 3;")
        let onThenOff = workload("PRAGMA foreign_keys = ON;\nPRAGMA foreign_keys = OFF;\nDELETE FROM track WHERE id = 3;")
        let none = workload("DELETE FROM track WHERE id = 3;")
        #expect(ForeignKeys.areEnforced(by: on, declared: plain))
        #expect(!ForeignKeys.areEnforced(by: onThenOff, declared: keys))
        #expect(ForeignKeys.areEnforced(by: none, declared: keys))
        #expect(!ForeignKeys.areEnforced(by: none, declared: plain))
        #expect(!ForeignKeys.areEnforced(by: on, declared: []))
    }

    @Test("a parent's delete looks up each child key; a key change only the keys that refer to the changed columns")
    func childAccesses() throws {
        let keys = try Self.foreignKeys(Self.schema)
        let delete = TableAccess(table: "playlist", constraints: [ColumnConstraint(column: "id", op: .equal)], isDeleted: true)
        let searched = ForeignKeys.childAccesses(of: delete, parentTable: nil, foreignKeys: keys)
        #expect(searched.map(\.table) == ["entry"])
        #expect(searched.first?.constraints.map(\.column) == ["playlist_id"])
        #expect(searched.first?.constraints.first?.op == .equal)
        let retitle = TableAccess(table: "track", writtenColumns: ["title"], isUpdated: true)
        #expect(ForeignKeys.childAccesses(of: retitle, parentTable: nil, foreignKeys: keys).isEmpty)
        let renumber = TableAccess(table: "track", writtenColumns: ["id"], isUpdated: true)
        #expect(ForeignKeys.childAccesses(of: renumber, parentTable: nil, foreignKeys: keys).map { $0.constraints.map(\.column) } == [["track_id"]])
        let insert = TableAccess(table: "playlist", isInserted: true)
        #expect(ForeignKeys.childAccesses(of: insert, parentTable: nil, foreignKeys: keys).isEmpty)
    }

    @Test("with the keys enforced, deleting a playlist or a track gets the child's index on the key it searches")
    func parentDeletes() throws {
        let result = try analyze(Self.schema, workload: """
            PRAGMA foreign_keys = ON;
            -- freq: 40
            DELETE FROM playlist WHERE id = 1500;
            -- freq: 20
            DELETE FROM track WHERE id = 4321;
            -- freq: 100
            INSERT INTO entry(playlist_id, track_id, position) VALUES (12, 40, 3);
            """)
        let picks = Set(result.recommendations.map { "\($0.table)(\($0.columns.map(\.name).joined(separator: ", ")))" })
        #expect(picks == ["entry(playlist_id)", "entry(track_id)"])
        // The searches are in the plans before and gone after.
        let delete = try #require(result.statements.first { $0.sql.hasPrefix("DELETE FROM playlist") })
        #expect(delete.planBefore?.findings.contains { $0.kind == .fullTableScan && $0.table == "entry" } == true)
        #expect(delete.planAfter?.findings.contains { $0.kind == .fullTableScan } == false)
        #expect(delete.tables == ["playlist", "entry"])
        #expect(result.method.foreignKeyEnforcement == .workloadPragma)
        #expect(result.methodText.contains("with foreign keys enforced as the app's connections enforce them (the workload turns them on)"))
        #expect(result.statements.allSatisfy { $0.error == nil })
    }

    @Test("without the pragma and without an action, SQLite's default holds: no enforcement, no child search, no index")
    func notEnforced() throws {
        let schema = Self.schema.replacingOccurrences(of: " ON DELETE CASCADE", with: "")
        let result = try analyze(schema, workload: """
            -- freq: 40
            DELETE FROM playlist WHERE id = 1500;
            -- freq: 100
            INSERT INTO entry(playlist_id, track_id, position) VALUES (12, 40, 3);
            """)
        #expect(result.recommendations.isEmpty)
        #expect(result.statements.first?.planBefore?.findings.contains { $0.table == "entry" } == false)
        #expect(result.method.foreignKeyEnforcement == nil)
        #expect(!result.methodText.contains("foreign keys enforced"))
    }
}
