import CSQLite

/// What the SQLite library in use accepts of one statement (https://sqlite.org/limits.html), read once from
/// a connection of its own (`sqlite3_limit(…, -1)` reads a limit without changing it). The workload readers
/// set aside, counted, what SQLite would refuse anyway, before any of indexadvisor's own work on its text.
package enum SQLiteLimits {
    /// SQLITE_LIMIT_SQL_LENGTH: the longest statement SQLite prepares, in bytes (1,000,000,000 by default).
    package static let sqlLength: Int = values.sqlLength
    /// SQLITE_LIMIT_EXPR_DEPTH: the deepest expression tree SQLite parses (1,000 by default; 0, no limit in
    /// SQLite, is taken as that default, so that nesting stays bounded here).
    package static let expressionDepth: Int = values.expressionDepth

    /// SQLite's compiled-in defaults (SQLITE_MAX_SQL_LENGTH, SQLITE_MAX_EXPR_DEPTH), used when no connection opens.
    static let defaultSQLLength = 1_000_000_000
    static let defaultExpressionDepth = 1_000

    private static let values: (sqlLength: Int, expressionDepth: Int) = {
        guard let connection = try? SQLiteConnection.inMemory() else { return (defaultSQLLength, defaultExpressionDepth) }
        let length = Int(sqlite3_limit(connection.handle, SQLITE_LIMIT_SQL_LENGTH, -1))
        let depth = Int(sqlite3_limit(connection.handle, SQLITE_LIMIT_EXPR_DEPTH, -1))
        return (length > 0 ? length : defaultSQLLength, depth > 0 ? depth : defaultExpressionDepth)
    }()
}
