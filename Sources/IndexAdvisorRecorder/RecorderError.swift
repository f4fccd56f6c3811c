/// Why the recorder could not attach to a connection.
public enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `sqlite3_trace_v2` refused the registration (SQLite's result code; https://sqlite.org/rescode.html).
    case traceRegistrationFailed(code: Int32)

    public var description: String {
        switch self {
        case .traceRegistrationFailed(let code): return "sqlite3_trace_v2 failed with result code \(code)"
        }
    }
}
