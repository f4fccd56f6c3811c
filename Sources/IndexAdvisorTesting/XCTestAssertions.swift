#if canImport(XCTest)
import Foundation
import XCTest

// XCTest entry points. Each calls `XCTFail` at the caller's file and line when a plan fails its requirements,
// with ``PlanCheck/failureMessage`` as the message, and never throws.

/// Asserts that the query plan of `sql` on `connection` meets `requirements` (by default: no full scan of a
/// table over 999 rows, no temp B-tree, no automatic index; https://sqlite.org/eqp.html).
/// - Parameters:
///   - sql: one statement; its `?` parameters are bound to `bindings` in order (unbound ones are NULL).
///   - connection: a `sqlite3 *`: GRDB's `Database.sqliteConnection`, SQLite.swift's `Connection.handle`, your own.
/// - Returns: the plan, or nil when the statement could not be planned (a failure is recorded then too).
@discardableResult
public func assertQueryPlan(of sql: String, bindings: [SQLiteValue] = [], on connection: OpaquePointer,
                            _ requirements: PlanRequirements = .default,
                            file: StaticString = #filePath, line: UInt = #line) -> PlannedStatement? {
    checkQueryPlan(of: sql, bindings: bindings, inspector: { QueryPlanInspector(connection: connection) }, requirements,
                   report: { XCTFail($0, file: file, line: line) })
}

/// Asserts that the query plan of `sql` on the store at `store` (opened read-only) meets `requirements`: for
/// Core Data and SwiftData, the statements of the SQL debug log, on the store your test's stack has saved.
/// - Returns: the plan, or nil when the store could not be opened or the statement planned (a failure is recorded then too).
@discardableResult
public func assertQueryPlan(of sql: String, bindings: [SQLiteValue] = [], inStoreAt store: URL,
                            _ requirements: PlanRequirements = .default,
                            file: StaticString = #filePath, line: UInt = #line) -> PlannedStatement? {
    checkQueryPlan(of: sql, bindings: bindings, inspector: { () throws(QueryPlanError) in try QueryPlanInspector(storeAt: store) },
                   requirements, report: { XCTFail($0, file: file, line: line) })
}

/// Runs `body` while recording every statement run on `connection`, then asserts each one's plan meets
/// `requirements`: one failure at `file`/`line` listing the failing statements, one line each (deduplicated
/// by fingerprint), followed by each one's plan, shape and suggested index. See ``QueryPlanRecording``.
/// - Returns: what `body` returns; its error is rethrown after the plans are checked.
@discardableResult
public func assertQueryPlans<Result>(on connection: OpaquePointer, _ requirements: PlanRequirements = .default,
                                     file: StaticString = #filePath, line: UInt = #line,
                                     _ body: () throws -> Result) rethrows -> Result {
    try checkQueryPlans(on: connection, requirements, report: { XCTFail($0, file: file, line: line) }, body)
}

/// The `async` form of ``assertQueryPlans(on:_:file:line:_:)-(_,_,_,_,()->Result)``: `body` must be done
/// with `connection` when it returns.
@discardableResult
public func assertQueryPlans<Result>(on connection: OpaquePointer, _ requirements: PlanRequirements = .default,
                                     file: StaticString = #filePath, line: UInt = #line,
                                     isolation: isolated (any Actor)? = #isolation,
                                     _ body: () async throws -> Result) async rethrows -> Result {
    try await checkQueryPlans(on: connection, requirements, report: { XCTFail($0, file: file, line: line) }, isolation: isolation, body)
}
#endif
