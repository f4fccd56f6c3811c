#if canImport(Testing)
import Foundation
public import Testing

// Swift Testing entry points. Each records an issue (`Issue.record`) at the caller's source location when a
// plan fails its requirements, with ``PlanCheck/failureMessage`` as the comment, and never throws.

/// Expects the query plan of `sql` on `connection` to meet `requirements` (by default: no full scan of a
/// table over 999 rows, no temp B-tree, no automatic index; https://sqlite.org/eqp.html).
///
/// ```swift
/// expectQueryPlan(of: "SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC", on: db)
/// expectQueryPlan(of: "SELECT * FROM note WHERE remote_id = ?", on: db, .usingIndex("note_remote_id"))
/// ```
/// - Parameters:
///   - sql: one statement; its `?` parameters are bound to `bindings` in order (unbound ones are NULL).
///   - connection: a `sqlite3 *`: GRDB's `Database.sqliteConnection`, SQLite.swift's `Connection.handle`, your own.
/// - Returns: the plan, or nil when the statement could not be planned (an issue is recorded then too).
@discardableResult
public func expectQueryPlan(of sql: String, bindings: [SQLiteValue] = [], on connection: OpaquePointer,
                            _ requirements: PlanRequirements = .default,
                            sourceLocation: SourceLocation = #_sourceLocation) -> PlannedStatement? {
    checkQueryPlan(of: sql, bindings: bindings, inspector: { QueryPlanInspector(connection: connection) }, requirements,
                   report: { recordIssue($0, sourceLocation) })
}

/// Expects the query plan of `sql` on the store at `store` (opened read-only) to meet `requirements`.
///
/// For Core Data and SwiftData: the stack's own connection cannot be traced, so plan the statements its SQL
/// debug log shows (`-com.apple.CoreData.SQLDebug 1`) on the store file your test's stack has saved.
/// - Returns: the plan, or nil when the store could not be opened or the statement planned (an issue is recorded then too).
@discardableResult
public func expectQueryPlan(of sql: String, bindings: [SQLiteValue] = [], inStoreAt store: URL,
                            _ requirements: PlanRequirements = .default,
                            sourceLocation: SourceLocation = #_sourceLocation) -> PlannedStatement? {
    checkQueryPlan(of: sql, bindings: bindings, inspector: { () throws(QueryPlanError) in try QueryPlanInspector(storeAt: store) },
                   requirements, report: { recordIssue($0, sourceLocation) })
}

/// Runs `body` while recording every statement run on `connection`, then expects each one's plan to meet
/// `requirements`: one issue at `sourceLocation` listing the failing statements, one line each (deduplicated
/// by fingerprint), followed by each one's plan, shape and suggested index. See ``QueryPlanRecording``.
/// - Returns: what `body` returns; its error is rethrown after the plans are checked.
@discardableResult
public func expectQueryPlans<Result>(on connection: OpaquePointer, _ requirements: PlanRequirements = .default,
                                     sourceLocation: SourceLocation = #_sourceLocation,
                                     _ body: () throws -> Result) rethrows -> Result {
    try checkQueryPlans(on: connection, requirements, report: { recordIssue($0, sourceLocation) }, body)
}

/// The `async` form of ``expectQueryPlans(on:_:sourceLocation:_:)-(_,_,_,()->Result)``: `body` must be done
/// with `connection` when it returns.
@discardableResult
public func expectQueryPlans<Result>(on connection: OpaquePointer, _ requirements: PlanRequirements = .default,
                                     sourceLocation: SourceLocation = #_sourceLocation,
                                     isolation: isolated (any Actor)? = #isolation,
                                     _ body: () async throws -> Result) async rethrows -> Result {
    try await checkQueryPlans(on: connection, requirements, report: { recordIssue($0, sourceLocation) }, isolation: isolation, body)
}

private func recordIssue(_ message: String, _ sourceLocation: SourceLocation) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}
#endif
