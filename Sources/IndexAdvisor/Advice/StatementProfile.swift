/// Everything the advisor knows about one workload statement while it works.
final class StatementProfile {
    let statement: WorkloadStatement
    var shape: StatementShape?
    /// Filters on an expression of a column (found lexically, see ``ExpressionFilters``).
    var expressionFilters: [ExpressionFilter] = []
    var samples: [[SQLValue]] = []
    var bindingSource = BindingSampler.Source.none
    var planBefore: QueryPlan?
    var timingBefore: Timing?
    /// The timing and the plan under the indexes chosen so far.
    var current: Timing?
    var currentPlan: QueryPlan?
    var planAfter: QueryPlan?
    var timingAfter: Timing?
    var notes: [String] = []
    /// Set when the statement cannot be analysed; one line.
    var error: String?
    /// True when ANALYZE statistics alone give it a plan without problems (see ``StatisticsCheck``).
    var fixedByStatistics = false

    init(statement: WorkloadStatement) {
        self.statement = statement
    }

    var weight: Double { Double(statement.count) }
    var isRead: Bool { statement.kind.isRead }
    var isWrite: Bool { statement.kind.isWrite }
    var isUsable: Bool { error == nil && timingBefore != nil }

    /// True when candidates are worth generating: the plan has a problem (a full scan, a temp B-tree, an
    /// automatic index), or it reads a whole index although the statement filters (an index search could
    /// do better) — unless statistics alone fix it.
    var deservesCandidates: Bool {
        guard let plan = planBefore, !fixedByStatistics else { return false }
        if plan.hasProblem { return true }
        let filters = !expressionFilters.isEmpty || (shape?.tables.contains { !$0.constraints.isEmpty } ?? false)
        return filters && plan.findings.contains { $0.kind == .fullIndexScan && ($0.tableRows ?? Int.max) >= PlanFinding.smallTableRows }
    }

    /// Tables the statement writes.
    var writtenTables: Set<String> {
        Set((shape?.tables ?? []).filter(\.isWritten).map { $0.table.sqlFolded })
    }
}
