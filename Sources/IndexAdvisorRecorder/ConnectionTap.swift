import CSQLite
import Foundation
import Locking
import SQLFingerprint

/// The recorder's state for one attached connection: statements running on it (started, rows so far)
/// and the fingerprint slot of each prepared statement it has seen. SQLite calls it from whichever
/// thread uses the connection; the lock makes that safe whatever the connection's threading mode.
final class ConnectionTap: Sendable {
    private struct Running {
        /// The statement's address (`sqlite3_stmt *`).
        var statement: UInt
        var started: UInt64
        var rows: Int
    }

    /// A prepared statement's fingerprint slot, checked against its SQL text (a finalized statement's
    /// address can be reused by a new one).
    private struct Known {
        var sql: [UInt8]
        var slot: Int?
        var generation: Int
        var kind: SQLStatementKind
        var parameters: [SQLLiteral?]
    }

    let aggregate: RecorderAggregate
    let registry: TapRegistry
    /// The connection, as an address (`sqlite3 *`).
    let connection: UInt
    /// What the lock guards; statements by address (`sqlite3_stmt *`).
    private struct State {
        var running: [Running] = []
        var known: [UInt: Known] = [:]
        /// The statement looked up last, and its entry: a loop over one prepared statement skips the dictionary.
        var lastStatement: UInt?
        var lastKnown: Known?
    }

    private let state = LockedValue(State())

    static let knownLimit = 4096
    static let runningLimit = 64

    init(aggregate: RecorderAggregate, registry: TapRegistry, connection: OpaquePointer) {
        self.aggregate = aggregate
        self.registry = registry
        self.connection = UInt(bitPattern: connection)
    }

    /// `SQLITE_TRACE_STMT`: a run of `statement` starts (`text` is its SQL, or `-- …` for a trigger).
    func started(_ statement: OpaquePointer, text: UnsafePointer<CChar>?) {
        if let text, text[0] == 0x2D, text[1] == 0x2D { return }
        let now = Clock.monotonicNanoseconds()
        let address = UInt(bitPattern: statement)
        state.withLock { state in
            if state.running.contains(where: { $0.statement == address }) { return }
            // A run whose end SQLite never reported (it always does, at the latest on reset or finalize).
            if state.running.count >= Self.runningLimit { state.running.removeFirst() }
            state.running.append(Running(statement: address, started: now, rows: 0))
        }
    }

    /// `SQLITE_TRACE_ROW`: `statement` produced a row.
    func row(_ statement: OpaquePointer) {
        let address = UInt(bitPattern: statement)
        state.withLock { state in
            var i = state.running.count - 1
            while i >= 0 {
                if state.running[i].statement == address {
                    state.running[i].rows += 1
                    return
                }
                i -= 1
            }
        }
    }

    /// `SQLITE_TRACE_PROFILE`: a run of `statement` ended; SQLite measured `sqliteNanoseconds`.
    func finished(_ statement: OpaquePointer, sqliteNanoseconds: Int64) {
        let now = Clock.monotonicNanoseconds()
        guard let sql = sqlite3_sql(statement) else { return }
        let length = strlen(sql)
        let address = UInt(bitPattern: statement)
        let (run, found) = state.withLock { state -> (Running?, Known) in
            let index = state.running.firstIndex { $0.statement == address }
            let run = index.map { state.running.remove(at: $0) }
            return (run, knownEntry(address, sql: sql, length: length, in: &state))
        }
        // SQLite's own figure has the VFS clock's resolution (a millisecond with the unix VFS); the
        // monotonic clock from the run's first step is finer.
        let nanoseconds = run.map { now &- $0.started } ?? UInt64(max(0, sqliteNanoseconds))
        var rows = run?.rows ?? 0
        if found.kind == .insert || found.kind == .update || found.kind == .delete, let db = sqlite3_db_handle(statement) {
            rows = Int(sqlite3_changes(db))
        }
        var entry = found
        for attempt in 0..<2 {
            guard let slot = entry.slot else {
                aggregate.drop()
                return
            }
            switch aggregate.record(slot: slot, generation: entry.generation, nanoseconds: nanoseconds, rows: rows, end: now) {
            case .counted:
                return
            case .countedSampleWanted:
                sample(statement, entry: entry, slot: slot)
                return
            case .stale:
                // The recorder was reset: forget the slots and look the statement up once more.
                guard attempt == 0 else { return }
                entry = state.withLock { state in
                    state.known.removeAll()
                    state.lastStatement = nil
                    state.lastKnown = nil
                    return knownEntry(address, sql: sql, length: length, in: &state)
                }
            }
        }
    }

    /// `SQLITE_TRACE_CLOSE`: the connection is closing. Stops tracing it and leaves the registry.
    /// Returns true when the caller must release the reference SQLite held.
    func closing() -> Bool {
        guard registry.remove(connection) else { return false }
        if let handle = OpaquePointer(bitPattern: connection) { sqlite3_trace_v2(handle, 0, nil, nil) }
        return true
    }

    /// The slot for the statement at `statement`, normalising its SQL on first sight; `state` is the
    /// locked state.
    private func knownEntry(_ statement: UInt, sql: UnsafePointer<CChar>, length: Int, in state: inout State) -> Known {
        func matches(_ entry: Known) -> Bool {
            entry.sql.count == length && entry.sql.withUnsafeBytes({ memcmp($0.baseAddress!, sql, length) == 0 })
        }
        if statement == state.lastStatement, let entry = state.lastKnown, matches(entry) { return entry }
        if let entry = state.known[statement], matches(entry) {
            state.lastStatement = statement
            state.lastKnown = entry
            return entry
        }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(sql).assumingMemoryBound(to: UInt8.self), count: length)
        let normalized = SQLNormalizer.normalize(bytes)
        let (slot, generation) = aggregate.slot(for: normalized)
        let entry = Known(sql: Array(bytes), slot: slot, generation: generation, kind: normalized.kind,
                          parameters: normalized.parameterValues)
        if state.known.count >= Self.knownLimit { state.known.removeAll(keepingCapacity: true) }
        state.known[statement] = entry
        state.lastStatement = statement
        state.lastKnown = entry
        return entry
    }

    /// The longest statement text, with its bound values written in, a value sample is read from, in bytes.
    /// `sqlite3_expanded_sql` writes a bound BLOB as hex: 40 inserts of a 10 MB image took 22× as long with the
    /// recorder, 1.7 GB and a 671 MB file (hostile round 8, F24), for values no index is keyed on.
    static let maximumExpandedBytes: Int32 = 64 * 1024

    /// Keeps one tuple of the values of the statement's parameters: its literals, and what the app bound
    /// to its placeholders as `sqlite3_expanded_sql` renders them (https://sqlite.org/c3ref/expanded_sql.html).
    /// An execution whose text with its values would pass ``maximumExpandedBytes`` is counted and timed, and
    /// gives no sample, nor does any later execution of its fingerprint: SQLite returns no text past the connection's `SQLITE_LIMIT_LENGTH`, which is lowered to
    /// that bound for the call and put back (https://sqlite.org/c3ref/limit.html).
    private func sample(_ statement: OpaquePointer, entry: Known, slot: Int) {
        var values: [SQLLiteral] = []
        values.reserveCapacity(entry.parameters.count)
        if entry.parameters.contains(where: { $0 == nil }) {
            let connection = sqlite3_db_handle(statement)
            let limit = sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, -1)
            sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, min(limit, Self.maximumExpandedBytes))
            let text = sqlite3_expanded_sql(statement)
            sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, limit)
            guard let expanded = text else {
                // Past the bound (or out of memory): SQLite still rendered every byte up to the end, so one try
                // per fingerprint is all the app pays (a 10 MB BLOB's insert is about a quarter second slower).
                aggregate.stopSampling(slot: slot, generation: entry.generation)
                return
            }
            defer { sqlite3_free(expanded) }
            let expandedBytes = UnsafeBufferPointer(start: UnsafeRawPointer(expanded).assumingMemoryBound(to: UInt8.self), count: strlen(expanded))
            let bound = entry.sql.withUnsafeBufferPointer { BoundValues.values(original: $0, expanded: expandedBytes) }
            guard var remaining = bound?[...] else { return }
            for parameter in entry.parameters {
                if let parameter {
                    values.append(parameter)
                } else if let value = remaining.popFirst() {
                    values.append(value)
                } else {
                    return
                }
            }
        } else {
            values = entry.parameters.compactMap { $0 }
        }
        guard !values.isEmpty else { return }
        aggregate.addSample(values, slot: slot, generation: entry.generation)
    }
}

/// The connections a recorder is attached to, each with the retained tap SQLite calls back into.
final class TapRegistry: Sendable {
    private let taps = LockedValue<[UInt: Unmanaged<ConnectionTap>]>([:])

    /// Registers `tap` for its connection; false when the connection already has one.
    func add(_ tap: Unmanaged<ConnectionTap>, for connection: UInt) -> Bool {
        taps.withLock { taps in
            guard taps[connection] == nil else { return false }
            taps[connection] = tap
            return true
        }
    }

    /// Removes the connection's tap; true when there was one.
    func remove(_ connection: UInt) -> Bool {
        taps.withLock { $0.removeValue(forKey: connection) != nil }
    }

    /// Removes and returns the connection's tap.
    func take(_ connection: UInt) -> Unmanaged<ConnectionTap>? {
        taps.withLock { $0.removeValue(forKey: connection) }
    }

    var count: Int { taps.withLock { $0.count } }
}

/// The `sqlite3_trace_v2` callback (https://sqlite.org/c3ref/trace_v2.html): `context` is the retained
/// ``ConnectionTap``; `p` the statement (the connection for `SQLITE_TRACE_CLOSE`); `x` the SQL text
/// (`SQLITE_TRACE_STMT`) or a pointer to the run's duration in nanoseconds (`SQLITE_TRACE_PROFILE`).
func recorderTraceCallback(_ event: UInt32, _ context: UnsafeMutableRawPointer?, _ p: UnsafeMutableRawPointer?,
                           _ x: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    let unmanaged = Unmanaged<ConnectionTap>.fromOpaque(context)
    let tap = unmanaged.takeUnretainedValue()
    switch Int32(bitPattern: event) {
    case SQLITE_TRACE_STMT:
        if let statement = OpaquePointer(p) { tap.started(statement, text: x.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }) }
    case SQLITE_TRACE_ROW:
        if let statement = OpaquePointer(p) { tap.row(statement) }
    case SQLITE_TRACE_PROFILE:
        if let statement = OpaquePointer(p) { tap.finished(statement, sqliteNanoseconds: x?.load(as: Int64.self) ?? 0) }
    case SQLITE_TRACE_CLOSE:
        // `tap` stays alive until this function returns.
        if tap.closing() { unmanaged.release() }
    default:
        break
    }
    return 0
}
