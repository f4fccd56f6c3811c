/// Everything the advisor knows about one workload statement while it works.
final class StatementProfile {
    let statement: WorkloadStatement
    var shape: StatementShape?
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

    init(statement: WorkloadStatement) {
        self.statement = statement
    }

    var weight: Double { Double(statement.count) }
    var isRead: Bool { statement.kind.isRead }
    var isWrite: Bool { statement.kind.isWrite }
    var isUsable: Bool { error == nil && timingBefore != nil }

    /// Tables the statement writes.
    var writtenTables: Set<String> {
        Set((shape?.tables ?? []).filter(\.isWritten).map { $0.table.sqlFolded })
    }
}
