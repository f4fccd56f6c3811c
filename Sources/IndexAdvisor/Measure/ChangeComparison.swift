/// Times something with the snapshot as it is and with a schema change (an index dropped or added).
///
/// The change is applied for real (committed and checkpointed) and reverted afterwards, in the order
/// as it is → changed → as it is again; the two "as it is" measurements are pooled, so drift on a shared
/// machine shows up as spread instead of as a difference. Applying the change inside a savepoint instead
/// would leave hundreds of dirty pages behind it, and the timed statements would pay for them.
struct ChangeComparison {
    let snapshot: StoreSnapshot
    let timer: StatementTimer

    /// (as it is, with the change), or nil when the change or a measurement failed (the snapshot is
    /// restored in every case).
    /// - Parameters:
    ///   - apply: statements that make the change, e.g. `DROP INDEX "i"`.
    ///   - revert: statements that undo it, e.g. the index's `CREATE INDEX`.
    func compare(apply: [String], revert: [String], sql: String, samples: [[SQLValue]], isWrite: Bool) -> (Timing, Timing)? {
        compare(apply: apply, revert: revert,
                executions: samples.isEmpty ? [Execution(sql: sql, values: [])] : samples.map { Execution(sql: sql, values: $0) },
                isWrite: isWrite)
    }

    /// As ``compare(apply:revert:sql:samples:isWrite:)``, timing `executions` (each with its own text).
    func compare(apply: [String], revert: [String], executions: [Execution], isWrite: Bool) -> (Timing, Timing)? {
        let connection = snapshot.connection
        guard let first = try? timer.time(executions, isWrite: isWrite) else { return nil }
        do {
            for statement in apply { try connection.execute(statement) }
        } catch {
            for statement in revert { _ = try? connection.execute(statement) }
            snapshot.checkpoint()
            return nil
        }
        snapshot.checkpoint()
        let changed = try? timer.time(executions, isWrite: isWrite)
        for statement in revert { _ = try? connection.execute(statement) }
        snapshot.checkpoint()
        guard let changed, let second = try? timer.time(executions, isWrite: isWrite) else { return nil }
        return (Self.pooled(first, second), changed)
    }

    /// One timing from two measurements of the same thing: their runs together, their counters averaged
    /// (the same plan and values give the same counts), its cost source theirs.
    static func pooled(_ a: Timing, _ b: Timing) -> Timing {
        var counters: (vmSteps: Double, pageLookups: Double)?
        if let sa = a.vmStepsPerExecution, let sb = b.vmStepsPerExecution, let pa = a.pageLookupsPerExecution, let pb = b.pageLookupsPerExecution {
            counters = ((sa + sb) / 2, (pa + pb) / 2)
        }
        return Timing.from(samples: a.runSeconds + b.runSeconds, executionsPerRun: a.executionsPerRun,
                           rows: (a.rowsPerExecution + b.rowsPerExecution) / 2, failures: a.failures + b.failures,
                           counters: counters, source: a.costSource)
    }
}
