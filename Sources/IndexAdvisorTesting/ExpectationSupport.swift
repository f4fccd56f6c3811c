/// What the Swift Testing and XCTest entry points share: each plans, checks and hands the failure text to its
/// framework's `report` (`Issue.record`, `XCTFail`) with the caller's source location already bound.

/// Plans `sql` on the inspector `makeInspector` opens and reports ``PlanCheck/failureMessage`` when the plan
/// fails `requirements`, or why it could not be planned; the plan, or nil when there is none.
func checkQueryPlan(of sql: String, bindings: [SQLiteValue], inspector makeInspector: () throws(QueryPlanError) -> QueryPlanInspector,
                    _ requirements: PlanRequirements, report: (String) -> Void) -> PlannedStatement? {
    do {
        let plan = try makeInspector().plan(sql, bindings: bindings)
        let check = plan.check(requirements)
        if !check.passed { report(check.failureMessage) }
        return plan
    } catch {
        report("the query plan could not be read: \(error)")
        return nil
    }
}

/// Runs `body` inside a ``QueryPlanRecording`` of `connection` and reports the recording's failure message
/// (or why it did not start); what `body` returns, its error rethrown after the report.
func checkQueryPlans<Result>(on connection: OpaquePointer, _ requirements: PlanRequirements, report: (String) -> Void,
                             _ body: () throws -> Result) rethrows -> Result {
    let recording: QueryPlanRecording
    do {
        recording = try QueryPlanRecording.start(on: connection)
    } catch {
        report("the query-plan recording did not start: \(error)")
        return try body()
    }
    defer {
        let result = recording.finish(requirements)
        if !result.passed { report(result.failureMessage) }
    }
    return try body()
}

/// The `async` form of ``checkQueryPlans(on:_:report:_:)``.
func checkQueryPlans<Result>(on connection: OpaquePointer, _ requirements: PlanRequirements, report: (String) -> Void,
                             isolation: isolated (any Actor)?, _ body: () async throws -> Result) async rethrows -> Result {
    let recording: QueryPlanRecording
    do {
        recording = try QueryPlanRecording.start(on: connection)
    } catch {
        report("the query-plan recording did not start: \(error)")
        return try await body()
    }
    defer {
        let result = recording.finish(requirements)
        if !result.passed { report(result.failureMessage) }
    }
    return try await body()
}

