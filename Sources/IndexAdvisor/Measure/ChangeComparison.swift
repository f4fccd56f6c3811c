/// Times something with the snapshot as it is and with a schema change (an index dropped or added).
///
/// The change is applied for real (committed and checkpointed) and reverted afterwards, in the order
/// as it is → changed → as it is again; the two "as it is" measurements are pooled, so drift on a shared
/// machine shows up as spread instead of as a difference. Applying the change inside a savepoint instead
/// would leave hundreds of dirty pages behind it, and the timed statements would pay for them; but a store
/// index dropped and made again comes back packed full, and every later insert into it splits pages (issue 39,
/// F2): a store index is therefore hidden and put back (`hiding:`, ``StoreSnapshot/holdDrops(_:)``), so its pages
/// are the store's throughout.
struct ChangeComparison {
    let snapshot: StoreSnapshot
    let timer: StatementTimer

    /// (as it is, with the change), or nil when the change or a measurement failed (the snapshot is
    /// restored in every case).
    /// - Parameters:
    ///   - apply: statements that make the change, e.g. `DROP INDEX "i"`.
    ///   - revert: statements that undo it, e.g. a candidate's `DROP INDEX`.
    func compare(apply: [String], revert: [String], sql: String, samples: [[SQLValue]], isWrite: Bool) -> (Timing, Timing)? {
        compare(apply: apply, revert: revert,
                executions: samples.isEmpty ? [Execution(sql: sql, values: [])] : samples.map { Execution(sql: sql, values: $0) },
                isWrite: isWrite)
    }

    /// As ``compare(apply:revert:sql:samples:isWrite:)``, timing `executions` (each with its own text).
    func compare(apply: [String], revert: [String], executions: [Execution], isWrite: Bool) -> (Timing, Timing)? {
        compare(apply: apply, revert: revert, hiding: nil, executions: executions, isWrite: isWrite)
    }

    /// As ``compare(apply:revert:sql:samples:isWrite:)`` with the store's indexes `names` hidden as the change.
    func compare(hiding names: [String], sql: String, samples: [[SQLValue]], isWrite: Bool) -> (Timing, Timing)? {
        compare(apply: [], revert: [], hiding: names,
                executions: samples.isEmpty ? [Execution(sql: sql, values: [])] : samples.map { Execution(sql: sql, values: $0) },
                isWrite: isWrite)
    }

    private func compare(apply: [String], revert: [String], hiding: [String]?, executions: [Execution], isWrite: Bool) -> (Timing, Timing)? {
        guard let first = try? timer.time(executions, isWrite: isWrite) else { return nil }
        let undo = Undo(apply: apply, revert: revert, hiding: hiding, snapshot: snapshot)
        do {
            try undo.apply()
        } catch {
            undo.run()
            snapshot.checkpoint()
            return nil
        }
        snapshot.checkpoint()
        let changed = try? timer.time(executions, isWrite: isWrite)
        undo.run()
        snapshot.checkpoint()
        guard let changed, let second = try? timer.time(executions, isWrite: isWrite) else { return nil }
        return (Self.pooled(first, second), changed)
    }

    /// How a change is made and undone: by statements, or by hiding store indexes and putting them back.
    private struct Undo {
        let statements: [String]
        let revert: [String]
        let hiding: [String]?
        let snapshot: StoreSnapshot
        let held: [String]

        init(apply: [String], revert: [String], hiding: [String]?, snapshot: StoreSnapshot) {
            (statements, self.revert, self.hiding, self.snapshot) = (apply, revert, hiding, snapshot)
            held = snapshot.heldDrops
        }

        func apply() throws {
            if let hiding {
                try snapshot.holdDrops(held + hiding.filter { name in !held.contains { $0.sqlFolded == name.sqlFolded } })
            }
            for statement in statements { try snapshot.connection.execute(statement) }
        }

        func run() {
            if hiding != nil { _ = try? snapshot.holdDrops(held) }
            for statement in revert { _ = try? snapshot.connection.execute(statement) }
        }
    }

    /// One statement of a batch: what ``compare(apply:revert:items:)`` times.
    struct Item {
        var executions: [Execution]
        var isWrite: Bool
    }

    /// As ``compare(apply:revert:executions:isWrite:)`` for several statements and one change, made once:
    /// every item is timed as it is, the change is applied, every item is timed, the change is reverted and
    /// every item is timed again. Dropping an index to see what each of its statements does without it then
    /// rebuilds it once instead of once per statement (issue 18: the rebuilds were most of the review).
    /// - Returns: per item, (as it is, with the change), or nil when one of its three timings failed; nil
    ///   for the whole batch when the change could not be applied. The snapshot is restored in every case.
    func compare(apply: [String], revert: [String], items: [Item]) -> [(Timing, Timing)?]? {
        compare(apply: apply, revert: revert, hiding: nil, items: items)
    }

    /// As ``compare(apply:revert:items:)`` with the store's indexes `names` hidden as the change.
    func compare(hiding names: [String], items: [Item]) -> [(Timing, Timing)?]? {
        compare(apply: [], revert: [], hiding: names, items: items)
    }

    private func compare(apply: [String], revert: [String], hiding: [String]?, items: [Item]) -> [(Timing, Timing)?]? {
        let firsts = items.map { try? timer.time($0.executions, isWrite: $0.isWrite) }
        guard firsts.contains(where: { $0 != nil }) else { return items.map { _ in nil } }
        let undo = Undo(apply: apply, revert: revert, hiding: hiding, snapshot: snapshot)
        do {
            try undo.apply()
        } catch {
            undo.run()
            snapshot.checkpoint()
            return nil
        }
        snapshot.checkpoint()
        let changed = zip(items, firsts).map { item, first in first == nil ? nil : try? timer.time(item.executions, isWrite: item.isWrite) }
        undo.run()
        snapshot.checkpoint()
        return items.indices.map { index -> (Timing, Timing)? in
            guard let first = firsts[index], let with = changed[index],
                  let second = try? timer.time(items[index].executions, isWrite: items[index].isWrite) else { return nil }
            return (Self.pooled(first, second), with)
        }
    }

    /// One timing from two measurements of the same thing: their runs together, their counters averaged
    /// (the same plan and values give the same counts), its cost source theirs.
    static func pooled(_ a: Timing, _ b: Timing) -> Timing {
        var counters: WorkCounters?
        if let ca = a.counters, let cb = b.counters {
            counters = WorkCounters(vmSteps: (ca.vmSteps + cb.vmSteps) / 2, pageLookups: (ca.pageLookups + cb.pageLookups) / 2,
                                    isWrite: ca.isWrite, uncachedPages: (ca.uncachedPages + cb.uncachedPages) / 2)
        }
        return Timing.from(samples: a.runSeconds + b.runSeconds, executionsPerRun: a.executionsPerRun,
                           rows: (a.rowsPerExecution + b.rowsPerExecution) / 2, failures: a.failures + b.failures,
                           counters: counters, source: a.costSource)
    }
}
