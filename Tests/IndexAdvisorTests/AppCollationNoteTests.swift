import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39, item 8: a column declared with an app's collation is compared, sorted and indexed under the
/// stand-in whether or not the statement names the collation; the note said so only when it did.
@Suite("A column's app collation gets the stand-in note")
struct AppCollationNoteTests {
    static let schema = """
        CREATE TABLE member(id INTEGER PRIMARY KEY, handle TEXT COLLATE app_fold, city TEXT COLLATE appCityOrder, joined INTEGER);
        CREATE INDEX member_handle ON member(handle);
        """

    func extractor() throws -> ShapeExtractor {
        let connection = try SQLiteConnection.inMemory()
        connection.installStandIns()
        try connection.execute(Self.schema)
        return try ShapeExtractor(schema: SchemaReader.read(from: connection))
    }

    @Test("comparisons, sorts and indexed writes on such a column name its collation; other statements do not",
          arguments: [
            ("SELECT id FROM member WHERE handle = ?", ["app_fold"]),
            ("SELECT id FROM member WHERE joined > ? ORDER BY city", ["appCityOrder"]),
            ("SELECT count(*) FROM member WHERE city >= ? AND handle = ?", ["appCityOrder", "app_fold"]),
            ("INSERT INTO member(handle, city, joined) VALUES (?, ?, ?)", ["app_fold"]),
            ("UPDATE member SET handle = ? WHERE id = ?", ["app_fold"]),
            ("DELETE FROM member WHERE id = ?", ["app_fold"]),
            ("UPDATE member SET joined = ? WHERE id = ?", []),
            ("SELECT handle, city FROM member WHERE id = ?", []),
            ("SELECT id FROM member WHERE handle = ? COLLATE BINARY", []),
          ])
    func declaredCollation(sql: String, expected: [String]) throws {
        #expect(try extractor().shape(of: sql).standIns == expected)
    }

    @Test("analyze: a lookup by the collated column carries the note without naming the collation; the store untouched")
    func noteInTheReport() throws {
        let store = try FixtureStore("SELECT 1")
        let app = try SQLiteConnection(path: store.url.path, mode: .readWrite)
        app.installStandIns()
        try app.execute(Self.schema + """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO member SELECT i, 'Handle' || i, 'City ' || (i % 40), i FROM n;
            """)
        let before = try store.fileState()
        let workload = WorkloadLoader.parse("""
            -- freq: 30
            SELECT id, joined FROM member WHERE handle = 'handle17';
            -- freq: 30
            SELECT handle FROM member WHERE id = 5;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(try store.fileState() == before)
        let note = "timed with stand-ins for app_fold, which only the app's own connection registers; their cost here approximates the real one"
        let lookup = try #require(result.statements.first { $0.sql.contains("handle =") })
        #expect(lookup.notes.map(\.text).contains(note), "\(lookup.notes.map(\.text))")
        let byID = try #require(result.statements.first { $0.sql.contains("id =") })
        #expect(!byID.notes.contains { $0.text.contains("stand-ins") }, "\(byID.notes.map(\.text))")
    }
}
