import Foundation
@testable import IndexAdvisor

/// The CLI tests' store: `item(id, owner, name)` with `rows` rows spread over `owners` owners, written to
/// `app.sqlite` in `directory`. One place for the table every command test analyses.
func makeItemStore(in directory: TemporaryDirectory, rows: Int, owners: Int) throws -> URL {
    let store = directory.url.appendingPathComponent("app.sqlite")
    let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
    try connection.execute("""
        CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER, name TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO item SELECT i, i % \(owners), 'item ' || i FROM n;
        """)
    return store
}
