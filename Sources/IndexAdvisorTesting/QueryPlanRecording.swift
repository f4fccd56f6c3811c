internal import CSQLite
import Foundation
import Locking
import SQLFingerprint

/// Records every statement the code under test runs on one connection while the recording is open, and plans
/// each one when it is finished (`EXPLAIN QUERY PLAN` with the values it ran with; https://sqlite.org/eqp.html).
///
/// It registers a `sqlite3_trace_v2` callback (`SQLITE_TRACE_STMT`, https://sqlite.org/c3ref/trace_v2.html)
/// that keeps, per fingerprint (the one `indexadvisor` and its recorder compute: literals and bound values as
/// `?`, IN lists collapsed, white space and keyword case ignored), the number of runs and up to ``runLimit``
/// distinct runs: the SQL text (its literals) and the values bound to it (recovered from `sqlite3_expanded_sql`).
/// Each run kept is planned, and the first that fails is reported. Only reads
/// and writes are kept (`SELECT`, `INSERT`, `UPDATE`, `DELETE`, `WITH …`), not pragmas, transactions or
/// schema changes; statements a trigger runs are not reported apart.
///
/// A connection has one trace callback: starting replaces one the app registered (GRDB's
/// `trace(options:)`, SQLite.swift's `trace`, an attached `WorkloadRecorder`), and finishing leaves the
/// connection with none. Statements are planned when the recording finishes, against the schema as it is
/// then, on the same connection: the code under test must be done with the connection by then.
public final class QueryPlanRecording: Sendable {
    /// One statement (fingerprint) the recording saw.
    public struct Statement: Sendable, Hashable {
        /// One distinct run: its SQL text, as prepared, and the values bound to its parameters in order (empty
        /// when it has none, or when they could not be recovered).
        public struct Run: Sendable, Hashable {
            public var sql: String
            public var bindings: [SQLiteValue]
        }

        /// 16 lower-case hex digits.
        public var fingerprint: String
        /// How many times it ran.
        public var executions: Int
        /// Distinct runs, in order, at most ``QueryPlanRecording/runLimit``: the literals of the text or the
        /// bound values differ (a partial index may serve one value and not another).
        public var runs: [Run]

        /// The SQL text of its first run.
        public var sql: String { runs.first?.sql ?? "" }
    }

    /// A recorded statement that fails: its plan's check, or why it could not be planned.
    public struct Finding: Sendable {
        public var statement: Statement
        /// The failing check of the first of its runs that fails; nil when it could not be planned.
        public var check: PlanCheck?
        /// Why it could not be planned at the end of the recording (a table the code under test dropped).
        public var error: QueryPlanError?

        /// One line: what fails, the statement, its executions, and the suggested index.
        public var line: String {
            var sql = statement.sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            while sql.hasSuffix(";") { sql.removeLast() }
            let runs = " (×\(statement.executions))"
            if let error { return "does not plan at the end of the recording: \(error.shapeReason) — \(sql)\(runs)" }
            guard let check else { return sql + runs }
            return check.summary + " — " + sql + runs + (check.suggestions.isEmpty ? "" : " → " + check.suggestions.map(\.sql).joined(separator: " "))
        }
    }

    /// What a finished recording found.
    public struct Report: Sendable {
        /// Every statement recorded, in order of first run.
        public var statements: [Statement]
        /// The statements that fail, in order of first run.
        public var findings: [Finding]
        /// Runs of statements not kept because ``statementLimit`` fingerprints were already kept.
        public var droppedExecutions: Int
        /// True when the connection closed before the recording finished, so nothing could be planned.
        public var connectionClosed: Bool

        public var passed: Bool { findings.isEmpty && !connectionClosed }

        /// One line per failing statement, then each one's plan, shape and suggestion
        /// (``PlanCheck/failureMessage``). Empty when the recording passes.
        public var failureMessage: String {
            guard !passed else { return "" }
            if connectionClosed {
                return "the connection closed before the query-plan recording finished: its \(statements.count) statements could not be planned"
            }
            let noun = statements.count == 1 ? "statement" : "statements"
            var lines = ["\(findings.count) of \(statements.count) \(noun) run in the recording fail their query-plan requirements:"]
            lines += findings.map { "- " + $0.line }
            if droppedExecutions > 0 {
                lines.append("(\(droppedExecutions) runs of further statements were not kept: over \(QueryPlanRecording.statementLimit) fingerprints)")
            }
            let details = findings.compactMap { $0.check?.failureMessage }
            if !details.isEmpty { lines += [""] + details.joined(separator: "\n\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            return lines.joined(separator: "\n")
        }
    }

    /// Distinct runs kept per statement (each is planned: a partial index may serve one value and not another).
    public static let runLimit = 4
    /// Fingerprints kept per recording.
    public static let statementLimit = 1_000

    private let connection: UInt
    private let tap: RecordingTap
    /// Connections with an open recording.
    private static let recording = LockedValue<Set<UInt>>([])

    private init(connection: UInt, tap: RecordingTap) {
        self.connection = connection
        self.tap = tap
    }

    /// Starts recording the statements run on `connection` (a `sqlite3 *`).
    /// - Throws: ``QueryPlanError/alreadyRecording`` when a recording is open on it,
    ///   ``QueryPlanError/traceRegistrationFailed(code:)`` when SQLite refuses the callback.
    public static func start(on connection: OpaquePointer) throws(QueryPlanError) -> QueryPlanRecording {
        let address = UInt(bitPattern: connection)
        guard recording.withLock({ $0.insert(address).inserted }) else { throw .alreadyRecording }
        let tap = RecordingTap()
        let retained = Unmanaged.passRetained(tap)
        let rc = sqlite3_trace_v2(connection, UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_CLOSE), recordingTraceCallback, retained.toOpaque())
        guard rc == SQLITE_OK else {
            retained.release()
            _ = recording.withLock { $0.remove(address) }
            throw .traceRegistrationFailed(code: rc)
        }
        return QueryPlanRecording(connection: address, tap: tap)
    }

    /// Stops recording (removes the trace callback) and returns what was recorded. Calling it again returns the
    /// same statements.
    @discardableResult
    public func stop() -> [Statement] {
        if tap.stop(), let handle = OpaquePointer(bitPattern: connection) {
            if !tap.isClosed { sqlite3_trace_v2(handle, 0, nil, nil) }
            // SQLite held the tap since start; it no longer calls back.
            Unmanaged.passUnretained(tap).release()
            _ = Self.recording.withLock { $0.remove(connection) }
        }
        return tap.statements
    }

    /// Stops recording and plans every recorded statement's runs on the connection,
    /// judging each plan against `requirements`.
    public func finish(_ requirements: PlanRequirements = .default) -> Report {
        let statements = stop()
        guard !tap.isClosed, let handle = OpaquePointer(bitPattern: connection) else {
            return Report(statements: statements, findings: [], droppedExecutions: tap.dropped, connectionClosed: true)
        }
        let inspector = QueryPlanInspector(connection: handle)
        var findings: [Finding] = []
        for statement in statements {
            do {
                for run in statement.runs {
                    let check = try inspector.plan(run.sql, bindings: run.bindings).check(requirements)
                    if !check.passed {
                        findings.append(Finding(statement: statement, check: check))
                        break
                    }
                }
            } catch {
                findings.append(Finding(statement: statement, error: error))
            }
        }
        return Report(statements: statements, findings: findings, droppedExecutions: tap.dropped, connectionClosed: false)
    }
}

/// The recording's state, which SQLite's callback reaches from whichever thread runs a statement.
final class RecordingTap: Sendable {
    private struct State {
        var statements: [QueryPlanRecording.Statement] = []
        /// Fingerprint → position in `statements`.
        var positions: [String: Int] = [:]
        /// SQL text → fingerprint, or nil for a statement that is not kept (a pragma), so each text is normalised once.
        var fingerprints: [String: String?] = [:]
        var dropped = 0
        var isStopped = false
        var isClosed = false
    }

    private let state = LockedValue(State())

    var statements: [QueryPlanRecording.Statement] { state.withLock { $0.statements } }
    var dropped: Int { state.withLock { $0.dropped } }
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Marks the recording stopped; true the first time.
    func stop() -> Bool {
        state.withLock { state in
            defer { state.isStopped = true }
            return !state.isStopped
        }
    }

    /// `SQLITE_TRACE_CLOSE`: the connection is closing; nothing may be called on it afterwards.
    func closed() {
        state.withLock { $0.isClosed = true }
    }

    /// `SQLITE_TRACE_STMT`: `statement` starts a run.
    func ran(_ statement: OpaquePointer) {
        guard let text = sqlite3_sql(statement) else { return }
        let sql = String(cString: text)
        // The helper's own statements (an expectation inside the scope).
        if sql.hasPrefix(PlanningConnection.marker) { return }
        let known = state.withLock { state -> String?? in state.isStopped ? .some(nil) : state.fingerprints[sql] }
        let fingerprint: String?
        if let known {
            fingerprint = known
        } else {
            let normalized = SQLNormalizer.normalize(sql)
            fingerprint = normalized.kind.isAnalysed ? normalized.fingerprintID : nil
            state.withLock { $0.fingerprints[sql] = fingerprint }
        }
        guard let fingerprint else { return }
        let wantsRun = state.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            if let position = state.positions[fingerprint] {
                state.statements[position].executions += 1
                return state.statements[position].runs.count < QueryPlanRecording.runLimit
            }
            guard state.statements.count < QueryPlanRecording.statementLimit else {
                state.dropped += 1
                return false
            }
            state.positions[fingerprint] = state.statements.count
            state.statements.append(.init(fingerprint: fingerprint, executions: 1, runs: []))
            return true
        }
        guard wantsRun else { return }
        let run = QueryPlanRecording.Statement.Run(sql: sql, bindings: sqlite3_bind_parameter_count(statement) > 0 ? Self.boundValues(statement, sql: sql) ?? [] : [])
        state.withLock { state in
            guard let position = state.positions[fingerprint],
                  state.statements[position].runs.count < QueryPlanRecording.runLimit,
                  !state.statements[position].runs.contains(run) else { return }
            state.statements[position].runs.append(run)
        }
    }

    /// The values bound to `statement`, one per parameter, from `sqlite3_expanded_sql`
    /// (https://sqlite.org/c3ref/expanded_sql.html); nil when they cannot be lined up with its parameters.
    private static func boundValues(_ statement: OpaquePointer, sql: String) -> [SQLiteValue]? {
        guard let expanded = sqlite3_expanded_sql(statement) else { return nil }
        defer { sqlite3_free(expanded) }
        var original = sql
        let values = original.withUTF8 { bytes in
            BoundValues.values(original: bytes, expanded: UnsafeBufferPointer(start: UnsafeRawPointer(expanded).assumingMemoryBound(to: UInt8.self),
                                                                              count: strlen(expanded)))
        }
        guard let values, values.count == Int(sqlite3_bind_parameter_count(statement)) else { return nil }
        return values.map(SQLiteValue.init)
    }
}

/// The `sqlite3_trace_v2` callback: `context` is the retained ``RecordingTap``, `p` the statement (the
/// connection for `SQLITE_TRACE_CLOSE`), `x` the statement's text or, for a trigger's, a `-- ` comment.
private func recordingTraceCallback(_ event: UInt32, _ context: UnsafeMutableRawPointer?, _ p: UnsafeMutableRawPointer?,
                                    _ x: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    let tap = Unmanaged<RecordingTap>.fromOpaque(context).takeUnretainedValue()
    switch Int32(bitPattern: event) {
    case SQLITE_TRACE_STMT:
        if let text = x?.assumingMemoryBound(to: CChar.self), text[0] == 0x2D, text[1] == 0x2D { return 0 }
        if let statement = OpaquePointer(p) { tap.ran(statement) }
    case SQLITE_TRACE_CLOSE:
        tap.closed()
    default:
        break
    }
    return 0
}
