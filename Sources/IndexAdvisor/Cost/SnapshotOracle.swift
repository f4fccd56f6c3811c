import Foundation

/// The cost oracle of an analysis: plans from the what-if clone (``WhatIfPlanner``), costs measured on the
/// private snapshot. It is the only code of the selection that creates or drops an index on the snapshot:
/// it brings the snapshot to a configuration by the difference (``SnapshotIndexes``), times statements with
/// the run's timer, and memoises each cost by (statement, its plan from the planner, and for a write the
/// indexes its tables hold): a configuration whose plans did not change costs nothing to ask about again.
package final class SnapshotOracle: CostOracle {
    package let statements: [CostStatement]
    let profiles: [StatementProfile]
    let whatIf: WhatIfPlanner
    let indexes: SnapshotIndexes
    let timer: StatementTimer
    let planner: QueryPlanner
    private var memo: [String: MeasuredCost] = [:]
    private var planMemo: [String: PlanSignature] = [:]
    /// Costs measured (not memoised), and plans the clone predicted that the snapshot did not choose.
    package private(set) var measurements = 0
    package private(set) var planMismatches = 0
    /// False: nothing is remembered (no cost, no plan, no baseline seeded), and every question is answered by
    /// planning and measuring afresh: the serial, unmemoised run the memoised one must agree with (issue 40).
    let memoises: Bool

    init(profiles: [StatementProfile], whatIf: WhatIfPlanner, indexes: SnapshotIndexes, timer: StatementTimer, planner: QueryPlanner,
         memoises: Bool = true) {
        self.memoises = memoises
        self.profiles = profiles
        self.whatIf = whatIf
        self.indexes = indexes
        self.timer = timer
        self.planner = planner
        statements = profiles.map { profile in
            let tables = Set((profile.shape?.tables ?? []).map { $0.table.sqlFolded })
            return CostStatement(weight: profile.isUsable ? profile.weight : 0, isWrite: profile.isWrite,
                                 tables: profile.isUsable ? tables : [], writtenTables: profile.isUsable ? profile.writtenTables : [])
        }
    }

    /// The configuration's part that matters to statement `s`: what is on its tables.
    func relevant(_ configuration: IndexConfiguration, to s: Int) -> IndexConfiguration {
        configuration.restricted(to: statements[s].tables, tableOf: indexes.tableOfStoreIndex)
    }

    package func plan(of s: Int, under configuration: IndexConfiguration) throws -> PlanSignature {
        let part = relevant(configuration, to: s)
        let key = "\(s)|\(part)"
        if memoises, let known = planMemo[key] { return known }
        let profile = profiles[s]
        guard profile.isUsable else { throw UnmeasurableStatement("not analysed") }
        let (plan, names) = try whatIf.plan(for: profile.planSQL, bindings: profile.planBindings, with: part.added, without: part.dropped)
        var refs: [String: IndexRef] = [:]
        for (candidate, name) in zip(part.added, names) { refs[name.sqlFolded] = .candidate(candidate.key) }
        let signature = Self.signature(of: plan) { refs[$0.sqlFolded] ?? .store($0.sqlFolded) }
        if memoises { planMemo[key] = signature }
        return signature
    }

    package func cost(of s: Int, under configuration: IndexConfiguration) throws -> MeasuredCost {
        let key = try memoKey(s, configuration)
        if memoises, let known = memo[key] { return known }
        return try measure(s, under: configuration, key: key)
    }

    /// Not remembered: the figures the report attributes stay those of the first measurement (a write's counters
    /// move with the rows earlier timings added, so a second measurement would make them differ run to run).
    package func remeasure(_ s: Int, under configuration: IndexConfiguration) throws -> MeasuredCost {
        try measure(s, under: configuration, key: nil)
    }

    /// Read `s` timed again under `configuration`, and remembered in place of its first timing: the figures the
    /// report attributes are then this one's. Only for a read (a write's counters move with the rows earlier
    /// timings added: ``remeasure(_:under:)``).
    package func measureAgain(_ s: Int, under configuration: IndexConfiguration) throws -> MeasuredCost {
        precondition(!statements[s].isWrite, "a write's timing is never replaced")
        return try measure(s, under: configuration, key: try memoKey(s, configuration))
    }

    /// The memo's key: the statement, its predicted plan, and for a write the indexes its tables hold.
    private func memoKey(_ s: Int, _ configuration: IndexConfiguration) throws -> String {
        let predicted = try plan(of: s, under: configuration)
        let writeKey = statements[s].isWrite ? indexes.present(on: statements[s].writtenTables, under: configuration) : ""
        return "\(s)|\(predicted)|\(writeKey)"
    }

    private func measure(_ s: Int, under configuration: IndexConfiguration, key: String?) throws -> MeasuredCost {
        let predicted = try plan(of: s, under: configuration)
        try indexes.bring(to: configuration)
        let profile = profiles[s]
        let timing: Timing
        do {
            timing = try timer.time(profile.executions, isWrite: profile.isWrite)
        } catch MeasurementError.timedOut(let seconds, _) {
            // Still past the timeout with this configuration: no faster than that (a lower bound), remembered
            // so that it is not run for another timeout's length again.
            timing = .stopped(atSeconds: seconds, isWrite: profile.isWrite)
        } catch let error as MeasurementError {
            throw UnmeasurableStatement("\(error)")
        }
        let queryPlan = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)
        let real = queryPlan.map { Self.signature(of: $0, ref: indexes.ref(ofIndexNamed:)) } ?? predicted
        if real != predicted { planMismatches += 1 }
        measurements += 1
        let cost = MeasuredCost(timing: timing, plan: real, queryPlan: queryPlan)
        if let key, memoises { memo[key] = cost }
        return cost
    }

    /// Records `timing` (with `plan`) as statement `s`'s cost under `configuration` without measuring it: the
    /// baseline the profiling stage already timed with the same timer.
    func seed(_ s: Int, under configuration: IndexConfiguration, timing: Timing, plan: QueryPlan?) throws {
        guard memoises else { return }
        let predicted = try self.plan(of: s, under: configuration)
        let writeKey = statements[s].isWrite ? indexes.present(on: statements[s].writtenTables, under: configuration) : ""
        let signature = plan.map { Self.signature(of: $0, ref: indexes.ref(ofIndexNamed:)) } ?? predicted
        memo["\(s)|\(predicted)|\(writeKey)"] = MeasuredCost(timing: timing, plan: signature, queryPlan: plan)
    }

    /// `plan`'s steps with every index named by `ref`: a candidate by its key, a store index by its name.
    static func signature(of plan: QueryPlan, ref: (String) -> IndexRef) -> PlanSignature {
        var uses = Set<IndexRef>()
        let steps = zip(plan.steps, plan.findings).map { step, finding -> String in
            guard let name = finding.index else { return step.detail }
            let reference = ref(name)
            uses.insert(reference)
            let label: String
            switch reference {
            case .candidate(let key): label = "<\(key)>"
            case .store(let store): label = store
            }
            return step.detail.replacingOccurrences(of: "INDEX \(name)", with: "INDEX \(label)")
        }
        return PlanSignature(steps: steps, uses: uses)
    }
}
