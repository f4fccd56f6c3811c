/// indexadvisor: a query-plan profiler and index advisor for SQLite stores.
public enum IndexAdvisor {
    /// The tool's version.
    public static let version = "0.1.0"
}
