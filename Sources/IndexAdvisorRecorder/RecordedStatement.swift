import Foundation

/// A value bound to a statement, as SQLite stores it: one of its five storage classes
/// (https://sqlite.org/datatype3.html).
public enum RecordedValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// What the recorder gathered for one statement fingerprint (all executions whose SQL normalises to the
/// same text: literals and bound values replaced by `?`, IN lists collapsed, white space and keyword
/// case ignored).
public struct RecordedStatement: Sendable, Equatable {
    /// 16 lower-case hex digits: the fingerprint the `indexadvisor` library computes for the same statement.
    public var fingerprint: String
    /// The statement with `?` placeholders (its literals replaced), as the first execution issued it.
    public var sql: String
    /// `select`, `insert`, `update`, `delete`, `transaction`, `pragma`, `schema` or `other`.
    public var kind: String
    /// Completed executions.
    public var count: Int
    /// Their total duration, in nanoseconds (from the first step to the end of the run, monotonic clock).
    public var totalNanoseconds: UInt64
    /// The median duration of a uniform sample of the executions (see ``WorkloadRecorder/Limits``), in nanoseconds.
    public var medianNanoseconds: UInt64
    /// Rows over all executions: returned by a read (counted with `SQLITE_TRACE_ROW`), changed by an
    /// INSERT, UPDATE or DELETE (`sqlite3_changes`).
    public var rows: Int
    /// A few distinct tuples of parameter values, one value per `?` of ``sql``, in order.
    public var samples: [[RecordedValue]]
    /// When the first execution ended.
    public var firstSeen: Date
    /// When the last execution ended.
    public var lastSeen: Date
}
