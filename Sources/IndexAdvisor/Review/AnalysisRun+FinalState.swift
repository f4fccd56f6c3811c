import Foundation

// MARK: Stage 3: the final state

extension AnalysisRun {
    /// Puts the snapshot in the advice's final state and measures it: every statement is planned (and where it
    /// changed, timed) again, then the existing indexes are
    /// reviewed, statistics checked and query-side advice measured.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when a pick cannot be dropped.
    mutating func measureFinalState() throws {
        if budgetSpent {
            let left = rejected.filter { $0.rejection.isTimeBudget }.count
            warnings.append(.timeBudgetRanOut(budgetSeconds: Int(options.timeBudgetSeconds ?? 0), candidatesLeft: left))
        }
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        // The tables of store indexes the selector took out: their writes have an index fewer to maintain.
        // A pick no final plan uses was given up before (``attributePicksThatPay(_:indexes:oracle:trace:)``).
        let droppedTables = Set(schema.tables.filter { table in table.indexes.contains { removedStoreIndexes.contains($0.name.sqlFolded) } }
            .map(\.name.sqlFolded))
        snapshot.checkpoint()
        restoreIndexOrder()
        try timeFinalState(planner: planner, droppedTables: droppedTables)
        // The headline's figures are these: a set they call slower is timed again, then given up (issue 39, F3).
        try keepFinalStateNoSlower(planner: planner)
        let byTheClock = rejected.filter { $0.rejection.isClockVerdict(decidesOnCounters: decidesOnCounters) }
        if !byTheClock.isEmpty {
            warnings.append(.decidedByTheClock(choices: byTheClock.map { "\($0.table)(\($0.columns.joined(separator: ", ")))" },
                                               load: MachineLoad.oneMinuteAverage(), cores: MachineLoad.cores))
        }
        report("existing indexes", 0, 0)
        var review = ExistingIndexReview(schema: schema, snapshot: snapshot, timer: timer)
        review.decide = decision
        existingIndexes = review
            .review(profiles: profiles, recommendations: picks.map(\.measured.candidate), names: picks.map(\.name), sizes: indexSizes(),
                    removed: removedStoreIndexes, named: namedByIndexedBy ?? indexesNamedByIndexedBy())
        // The review drops and rebuilds the indexes it measures: put them back in the store's order, with
        // their statistics, before the drops are made together.
        restoreIndexOrder()
        try applyDrops(planner: planner)
        measureStatistics()
        measureQueryAdvice()
    }

    /// Each statement's final plan, and its final time where the plan or its writes changed.
    private func timeFinalState(planner: QueryPlanner, droppedTables: Set<String>) throws {
        let changedTables = Set(picks.map { $0.measured.candidate.table.sqlFolded }).union(droppedTables)
        for (position, profile) in profiles.enumerated() where profile.isUsable {
            report("final timings", position, profiles.count)
            profile.planAfter = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)
            let planChanged = profile.planAfter?.steps != profile.planBefore?.steps
            let writesChangedTable = profile.isWrite && !profile.writtenTables.isDisjoint(with: changedTables)
            // The selection timed every statement in full whenever a pick changed its plan or added to its
            // writes: that timing is of the final state unless an unused pick of its table was dropped just
            // now (a write then has one index fewer to maintain). Timing it again would repeat it (issue 18).
            let currentIsFinal = profile.current != nil && profile.currentPlan?.steps == profile.planAfter?.steps
                && !(profile.isWrite && !profile.writtenTables.isDisjoint(with: droppedTables))
            if planChanged || writesChangedTable {
                profile.timingAfter = currentIsFinal ? profile.current
                    : try timeAgain(profile) ?? profile.current
            } else {
                profile.timingAfter = profile.timingBefore
            }
        }
    }

    /// Statistics on top of the indexes: what ANALYZE would add to the advice's final state, workload-wide.
    private mutating func measureStatistics() {
        report("statistics", 0, 0)
        if isOverBudget {
            // It times the whole workload again: past the budget it is left out, and the report says so.
            if !schema.hasStatistics {
                warnings.append(.statisticsNotMeasured(budgetSeconds: Int(options.timeBudgetSeconds ?? 0)))
            }
        } else {
            queryAdvice += StatisticsCheck(snapshot: snapshot, schema: schema, timer: timer).run(profiles: profiles, minimumBenefit: minimumBenefit)
        }
    }

    /// Query-side advice, measured with the whole advice applied, drops included (in a savepoint that is
    /// rolled back, so the report still has the dropped indexes' sizes): a rewrite's plan must not rely on
    /// an index the same report says to drop.
    private mutating func measureQueryAdvice() {
        report("query advice", 0, 0)
        let drops = existingIndexes.filter { $0.dropSQL != nil }.map(\.index)
        let inSavepoint = !drops.isEmpty && (try? snapshot.connection.execute("SAVEPOINT indexadvisor_drops")) != nil
        if inSavepoint {
            for name in drops { _ = try? snapshot.connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(name))") }
        }
        var rewrites = QueryRewrites(snapshot: snapshot, schema: schema, timer: timer)
        rewrites.decide = decision
        if decidesOnCounters { rewrites.screening = screeningTimer }
        queryAdvice += rewrites.run(profiles: profiles, recommendations: picks.map(\.measured.candidate))
        if inSavepoint {
            _ = try? snapshot.connection.execute("ROLLBACK TO indexadvisor_drops; RELEASE indexadvisor_drops")
        }
    }

    /// Makes, on the snapshot, every drop the review advises (redundant, misused, replaced), and re-plans and
    /// re-times the statements of their tables: the final state, and the totals, are the migration's, drops
    /// included. Each drop was measured alone; two that are right alone can be wrong together (dropping a
    /// prefix `(a)` of `(a, b)` and `(a, b)` itself leaves `a` unindexed), so a read whose plan changed and is
    /// measurably slower than before the drops gets back the dropped index it used (else the last dropped
    /// one of its tables), which is then kept with ``DropCaveat/slowerWithOtherDrops``, until none is slower.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when a drop cannot be hidden or put back.
    mutating func applyDrops(planner: QueryPlanner) throws {
        let dropping = existingIndexes.indices.filter { existingIndexes[$0].dropSQL != nil }
        guard !dropping.isEmpty else { return }
        let tables = Set(dropping.map { existingIndexes[$0].table.sqlFolded })
        let touched = profiles.indices.filter { profiles[$0].isUsable && touches(profiles[$0], tables: tables) }
        let before = Dictionary(uniqueKeysWithValues: touched.map { ($0, (plan: profiles[$0].planAfter, timing: profiles[$0].timingAfter)) })
        // Hidden with the selector's (``StoreSnapshot/holdDrops(_:)``): one taken back comes back on the
        // store's own pages, not rebuilt packed (issue 39, F2).
        let dropNames = dropping.map { existingIndexes[$0].index }
        let held = snapshot.heldDrops + dropNames.filter { name in !snapshot.heldDrops.contains { $0.sqlFolded == name.sqlFolded } }
        var withdrawn: Set<String> = []
        func hold() throws { try snapshot.holdDrops(held.filter { !withdrawn.contains($0.sqlFolded) }) }
        try hold()
        snapshot.checkpoint()
        try retime(touched, planner: planner, before: before)
        var kept = dropping
        while let slowed = touched.first(where: { isSlowerThanBefore(profiles[$0], before[$0]) }),
              let offset = dropToWithdraw(for: profiles[slowed], usedBefore: before[slowed]?.plan, among: kept) {
            kept.removeAll { $0 == offset }
            let finding = existingIndexes[offset]
            existingIndexes[offset].dropSQL = nil
            existingIndexes[offset].caveats = [.slowerWithOtherDrops]
            withdrawn.insert(finding.index.sqlFolded)
            try hold()
            restoreIndexOrder(tables: [finding.table.sqlFolded])
            snapshot.checkpoint()
            try retime(touched.filter { touches(profiles[$0], tables: [finding.table.sqlFolded]) }, planner: planner, before: before)
        }
        // An index the planner passed over for a dropped one serves the statement now: it is not unused.
        let usedNow = Set(profiles.flatMap { $0.planAfter?.indexesUsed ?? [] }.map(\.sqlFolded))
        existingIndexes.removeAll { $0.kind == .unusedInWorkload && usedNow.contains($0.index.sqlFolded) }
    }

    /// `profile` timed again, or nil when it cannot be (the caller keeps its last timing); a snapshot whose
    /// folder is full or failing stops the run (``StoreError/snapshotTimingFailed(directory:sql:error:)``):
    /// the final figures would leave that statement's cost out.
    func timeAgain(_ profile: StatementProfile) throws -> Timing? {
        do {
            return try timer.time(profile.executions, isWrite: profile.isWrite)
        } catch let error as StoreError {
            throw error
        } catch {
            return nil
        }
    }

    /// True when `profile` reads or writes one of `tables` (folded names).
    private func touches(_ profile: StatementProfile, tables: Set<String>) -> Bool {
        (profile.shape?.tables ?? []).contains { tables.contains($0.table.sqlFolded) } || !profile.writtenTables.isDisjoint(with: tables)
    }

    /// Plans `positions` again and times those whose plan differs from `before`'s, and every write (its
    /// table has an index fewer or more to maintain); the others keep their final timing.
    private func retime(_ positions: [Int], planner: QueryPlanner, before: [Int: (plan: QueryPlan?, timing: Timing?)]) throws {
        for position in positions {
            let profile = profiles[position]
            profile.planAfter = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)
            if profile.isWrite || profile.planAfter?.steps != before[position]?.plan?.steps {
                profile.timingAfter = try timeAgain(profile) ?? before[position]?.timing
            } else {
                profile.timingAfter = before[position]?.timing
            }
        }
    }

    /// True when a read's plan changed from `before`'s and it is measurably slower than it was, as the
    /// decisions see timings (``decision``).
    private func isSlowerThanBefore(_ profile: StatementProfile, _ before: (plan: QueryPlan?, timing: Timing?)?) -> Bool {
        guard profile.isRead, let before, let old = before.timing, let new = profile.timingAfter,
              profile.planAfter?.steps != before.plan?.steps else { return false }
        return decision(new).isSlower(than: decision(old))
    }

    /// Of the drops still made (`offsets` into ``existingIndexes``), the one to take back for `profile`: the
    /// index its plan used before the drops, else the last one on a table it reads; nil when none is left.
    private func dropToWithdraw(for profile: StatementProfile, usedBefore plan: QueryPlan?, among offsets: [Int]) -> Int? {
        let used = Set((plan?.indexesUsed ?? []).map(\.sqlFolded))
        if let offset = offsets.first(where: { used.contains(existingIndexes[$0].index.sqlFolded) }) { return offset }
        let tables = Set((profile.shape?.tables ?? []).map { $0.table.sqlFolded })
        return offsets.last { tables.contains(existingIndexes[$0].table.sqlFolded) }
    }
}
