import Foundation
import IndexAdvisor

/// What a pair's store holds: each table's columns, its indexes, which of them may be dropped, and
/// whether it keeps `sqlite_stat1` (https://sqlite.org/fileformat2.html#stat1tab).
package struct StoreIndexes: Sendable {
    package struct ExistingIndex: Sendable, Hashable {
        package var name: String
        package var table: String
        /// Its `CREATE INDEX` text.
        package var sql: String
        /// False for an index that backs a UNIQUE constraint, a PRIMARY KEY or a UNIQUE index (dropping it
        /// would change what the store accepts): only the others are removal candidates.
        package var isRemovable: Bool
    }

    /// Table → its columns, as declared.
    package var columns: [String: [String]]
    package var indexes: [ExistingIndex]
    package var hasStatistics: Bool
    /// The store's tables, views and triggers (`sqlite_schema` rows with SQL, in order), to build a clone.
    package var schemaSQL: [(type: String, name: String, sql: String)]

    /// Reads `connection`'s main schema.
    /// - Throws: ``SQLiteError`` when a query fails.
    package init(connection: SQLiteConnection) throws {
        var columns: [String: [String]] = [:]
        var indexes: [ExistingIndex] = []
        var schemaSQL: [(String, String, String)] = []
        for row in try connection.query("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid") {
            guard let type = row[0].textValue, let name = row[1].textValue, let table = row[2].textValue, let sql = row[3].textValue else { continue }
            if name.hasPrefix("sqlite_") { continue }
            schemaSQL.append((type, name, sql))
            if type == "table" {
                columns[name] = try connection.query("SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (0, 2, 3)", [.text(name)]).compactMap { $0.first?.textValue }
            } else if type == "index" {
                let unique = try connection.scalar("SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?", [.text(table), .text(name)])?.integerValue ?? 0
                indexes.append(ExistingIndex(name: name, table: table, sql: sql, isRemovable: unique == 0))
            }
        }
        self.columns = columns
        self.indexes = indexes
        self.schemaSQL = schemaSQL
        hasStatistics = try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'")?.integerValue ?? 0 > 0
    }

    /// The table a name (any case) stands for.
    package func table(named name: String) -> String? {
        columns.keys.first { $0.lowercased() == name.lowercased() }
    }
}
