import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Bound values drawn from the data")
struct BindingSamplerTests {
    /// 5,000 rows whose `folder` values first appear in descending order (so rowid order and sorted order
    /// differ), with a `rank` column that orders rows within a folder against their rowid.
    func store() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder INTEGER NOT NULL, rank INTEGER NOT NULL, title TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO note SELECT i, 300 - (i % 300), 5000 - i, 'title ' || i FROM n;
            """)
        return connection
    }

    func draw(_ connection: SQLiteConnection) throws -> [[SQLValue]] {
        let schema = try SchemaReader.read(from: connection)
        let workload = WorkloadLoader.parse("SELECT * FROM note WHERE folder = ? ORDER BY rank;", format: .sql)
        let statement = try #require(workload.statements.first)
        let shape = try ShapeExtractor(schema: schema).shape(of: statement.sql)
        var sampler = BindingSampler(connection: connection, schema: schema, seed: 42)
        let (tuples, source) = sampler.samples(for: statement, shape: shape, count: 12)
        #expect(source == .drawn)
        return tuples
    }

    // Regression: the cold values were picked from `SELECT DISTINCT` in scan order, and their rows by
    // `LIMIT 1` in index order, so a store with the advice applied drew other values than the store
    // before it, and `check` on the migrated store timed different lookups than `analyze` predicted.
    @Test("the same seed draws the same values whether or not an index on the columns exists")
    func sameValuesWithIndexes() throws {
        let connection = try store()
        let before = try draw(connection)
        try connection.execute("CREATE INDEX note_folder_rank ON note(folder, rank)")
        let after = try draw(connection)
        #expect(before.count == 12)
        #expect(before == after)
        // Cold draws pick among the distinct folders, so the 12 values are not all one folder.
        #expect(Set(before.map { $0.first.map { "\($0)" } ?? "" }).count > 1)
    }
}
