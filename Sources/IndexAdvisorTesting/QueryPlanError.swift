/// Why a statement could not be planned, a store could not be opened or a recording could not start.
/// Each case keeps SQLite's result code (https://sqlite.org/rescode.html) and message.
public enum QueryPlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite refused `sql` (`EXPLAIN QUERY PLAN` of it, or a statement the helper runs to read the schema).
    case statementFailed(code: Int32, message: String, sql: String)
    /// The store at `path` could not be opened read-only.
    case storeNotOpened(code: Int32, message: String, path: String)
    /// `sqlite3_trace_v2` refused the recording's callback (https://sqlite.org/c3ref/trace_v2.html).
    case traceRegistrationFailed(code: Int32)
    /// A recording is already open on this connection: a connection has one trace callback.
    case alreadyRecording

    public var description: String {
        switch self {
        case .statementFailed(let code, let message, let sql):
            return "SQLite error \(code): \(message) — while planning `\(sql)`"
        case .storeNotOpened(let code, let message, let path):
            return "SQLite error \(code): \(message) — while opening \(path) read-only"
        case .traceRegistrationFailed(let code):
            return "sqlite3_trace_v2 failed with result code \(code)"
        case .alreadyRecording:
            return "a query-plan recording is already open on this connection (one trace callback per connection)"
        }
    }
}
