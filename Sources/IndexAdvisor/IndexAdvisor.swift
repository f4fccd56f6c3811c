/// indexadvisor: a query-plan profiler and index advisor for SQLite stores.
public enum IndexAdvisor {
    /// The tool's version.
    public static let version = "0.1.0"
}

extension IndexAdvisor {
    /// The version of the SQLite library indexadvisor is linked with, e.g. "3.40.1".
    public static var sqliteLibraryVersion: String { SQLiteConnection.libraryVersion }
}
