import CSQLite
import Foundation
import Locking
import SQLFingerprint

/// Records the statements an app runs on its SQLite connections, for `indexadvisor analyze --workload`.
///
/// Attach it to any `sqlite3 *` handle — GRDB's `Database.sqliteConnection`, SQLite.swift's
/// `Connection.handle`, your own — and it registers a `sqlite3_trace_v2` callback
/// (https://sqlite.org/c3ref/trace_v2.html) for `SQLITE_TRACE_STMT`, `SQLITE_TRACE_ROW`,
/// `SQLITE_TRACE_PROFILE` and `SQLITE_TRACE_CLOSE`. For every completed run of a statement it keeps, by
/// fingerprint (the same one `indexadvisor` computes for the statement in a Core Data log or a `.sql`
/// file: literals and bound values replaced by `?`, IN lists collapsed, white space and keyword case
/// ignored): the number of runs, their total and median duration in nanoseconds (monotonic clock, from
/// the first step to the end of the run), rows returned or changed, a few tuples of bound values
/// (recovered from `sqlite3_expanded_sql`) and when it was first and last seen. ``write(to:)`` saves it as
/// a JSON Lines workload (docs/workload-jsonl.md), by default beside the store
/// (``outputURL(forStore:)``).
///
/// Memory is bounded by ``Limits``. Safe to use from several threads and with several connections at
/// once (GRDB's `DatabasePool`): each connection's state has its own lock, the totals another.
///
/// A connection has one `sqlite3_trace_v2` callback: attaching replaces one the app registered itself
/// (GRDB's `trace(options:)`, SQLite.swift's `trace`), and registering one later ends the recording on
/// that connection. The recorder stops by itself when the connection closes.
///
/// This target does not depend on the `IndexAdvisor` library, so an app can link it alone.
public final class WorkloadRecorder: Sendable {
    /// Bounds on what the recorder keeps.
    public struct Limits: Sendable, Equatable {
        /// Distinct statements (fingerprints) kept; runs of further new ones are counted as dropped.
        public var maxStatements: Int
        /// Durations kept per statement for its median (a uniform sample of all runs).
        public var timingSamples: Int
        /// Distinct tuples of bound values kept per statement.
        public var valueSamples: Int

        public init(maxStatements: Int = 1000, timingSamples: Int = 64, valueSamples: Int = 8) {
            self.maxStatements = max(1, maxStatements)
            self.timingSamples = max(1, timingSamples)
            self.valueSamples = max(0, valueSamples)
        }
    }

    private let aggregate: RecorderAggregate
    private let registry = TapRegistry()
    /// True once a connection attached with foreign keys enforced (`PRAGMA foreign_keys` read at ``attach(_:)``).
    private let enforcedForeignKeys = LockedValue<Bool?>(nil)

    /// A recorder attached to no connection yet.
    public init(limits: Limits = Limits()) {
        aggregate = RecorderAggregate(limits: limits)
    }

    /// The limits this recorder keeps to.
    public var limits: Limits { aggregate.limits }

    /// `<store path>.workload.jsonl`: where `indexadvisor` looks for a store's recorded workload.
    public static func outputURL(forStore store: URL) -> URL {
        URL(fileURLWithPath: store.path + ".workload.jsonl")
    }

    /// Starts recording the statements run on `connection` (a `sqlite3 *`). Attaching to a connection
    /// already attached does nothing.
    /// - Throws: ``RecorderError/traceRegistrationFailed(code:)`` when SQLite refuses the callback.
    public func attach(_ connection: OpaquePointer) throws(RecorderError) {
        let tap = ConnectionTap(aggregate: aggregate, registry: registry, connection: connection)
        let retained = Unmanaged.passRetained(tap)
        guard registry.add(retained, for: UInt(bitPattern: connection)) else {
            retained.release()
            return
        }
        // Read before the trace is set, so that the recorder's own statement is not recorded. GRDB turns
        // foreign keys on before `prepareDatabase`, where the recorder is attached, so a recording showed no
        // pragma and was analysed with them off (hostile round 8, F5).
        if let enforced = Self.foreignKeysEnforced(on: connection) {
            enforcedForeignKeys.withLock { $0 = ($0 ?? false) || enforced }
        }
        let mask = UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_ROW | SQLITE_TRACE_PROFILE | SQLITE_TRACE_CLOSE)
        let rc = sqlite3_trace_v2(connection, mask, recorderTraceCallback, retained.toOpaque())
        if rc != SQLITE_OK {
            if registry.remove(UInt(bitPattern: connection)) { retained.release() }
            throw RecorderError.traceRegistrationFailed(code: rc)
        }
    }

    /// `PRAGMA foreign_keys` of `connection` (https://sqlite.org/pragma.html#pragma_foreign_keys); nil when it
    /// cannot be read.
    private static func foreignKeysEnforced(on connection: OpaquePointer) -> Bool? {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, "PRAGMA foreign_keys", -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return sqlite3_column_int(statement, 0) == 1
    }

    /// Stops recording `connection` and removes the trace callback. Call it while the connection is open
    /// and not in use on another thread (closing the connection also stops the recording).
    public func detach(_ connection: OpaquePointer) {
        guard let tap = registry.take(UInt(bitPattern: connection)) else { return }
        sqlite3_trace_v2(connection, 0, nil, nil)
        tap.release()
    }

    /// The number of connections being recorded.
    public var attachedConnections: Int { registry.count }

    /// What was recorded so far, in order of first execution.
    public var statements: [RecordedStatement] { aggregate.snapshot().statements }

    /// Runs of new statements not kept because ``Limits/maxStatements`` was reached.
    public var droppedExecutions: Int { aggregate.snapshot().dropped }

    /// Forgets what was recorded (attached connections stay attached).
    public func reset() {
        aggregate.reset()
    }

    /// The recorded workload as JSON Lines (docs/workload-jsonl.md): a header line, then one line per statement.
    public func jsonLines() -> String {
        let (statements, dropped, started) = aggregate.snapshot()
        return WorkloadJSONL.encode(statements, dropped: dropped, started: Date(timeIntervalSince1970: started),
                                    written: Date(), sqliteVersion: String(cString: sqlite3_libversion()),
                                    foreignKeys: enforcedForeignKeys.withLock { $0 })
    }

    /// Writes ``jsonLines()`` to `url` atomically (a temporary file renamed into place), replacing the file.
    /// - Throws: the file system's error when the file cannot be written.
    public func write(to url: URL) throws {
        try Data(jsonLines().utf8).write(to: url, options: .atomic)
    }
}
