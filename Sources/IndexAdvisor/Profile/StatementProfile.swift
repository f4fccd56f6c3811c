/// Everything the advisor knows about one workload statement while it works.
final class StatementProfile {
    let statement: WorkloadStatement
    var shape: StatementShape?
    /// Filters on an expression of a column (found lexically, see ``ExpressionFilters``).
    var expressionFilters: [ExpressionFilter] = []
    /// The value sets timed, each a full tuple of the statement's parameters (literals included).
    private(set) var samples: [[SQLValue]] = []
    /// How many of the workload's executions each sample stands for (nil: one each).
    private(set) var sampleWeights: [Double]?
    /// Where each sample's WHERE keys came from, for an UPDATE or DELETE some of whose observed keys match no
    /// row (nil: the app's own, or not looked at); reordered and trimmed with the samples.
    private(set) var existingRowKeys: ExistingRowKeys?
    /// What is timed: each sample as the app's own text (its literals in place), with its weight.
    private(set) var executions: [Execution]
    /// The text planned for the report's plans: the app's statement as it ran it (the first sample's text).
    var planSQL: String { executions.first?.sql ?? statement.sql }
    /// The values bound to ``planSQL``'s own placeholders.
    var planBindings: [SQLValue] { executions.first?.values ?? [] }
    var bindingSource = BindingSampler.Source.none
    var planBefore: QueryPlan?
    var timingBefore: Timing?
    /// The timing and the plan under the indexes chosen so far.
    var current: Timing?
    var currentPlan: QueryPlan?
    var planAfter: QueryPlan?
    var timingAfter: Timing?
    var notes: [StatementNote] = []
    /// Set when the statement cannot be analysed; one line.
    var error: String?
    /// SQLite's parse error for the app's own text (``WorkloadStatement/text``) when only the runnable form
    /// parses: literals the app wrote in a syntax this SQLite lacks (`1_000`, from SQLite 3.46) are read as
    /// values and bound, so the runnable form would be timed in place of a statement that cannot run here.
    var textParseError: SQLiteError?

    /// Sets the value sets to time and their weights (nil: one each), and the executions built from them.
    func setSamples(_ samples: [[SQLValue]], weights: [Double]? = nil, keys: ExistingRowKeys? = nil) {
        self.samples = samples
        self.sampleWeights = weights
        self.existingRowKeys = keys
        executions = LiteralExecutions.executions(for: statement, samples: samples, weights: weights)
    }

    /// Moves the sample at `index` (and its weight) first, the others keeping their order: the one planned
    /// (``planSQL``), and kept by ``trimSamples(to:)``.
    func moveSampleFirst(_ index: Int) {
        guard index > 0, index < samples.count else { return }
        var reordered = samples
        reordered.insert(reordered.remove(at: index), at: 0)
        var weights = sampleWeights
        if var w = weights, index < w.count {
            w.insert(w.remove(at: index), at: 0)
            weights = w
        }
        setSamples(reordered, weights: weights, keys: existingRowKeys?.movingFirst(index))
    }

    /// Records that the value sets timed changed no row (``AnalysisRun/changedNoRow(_:timing:)``), when no key
    /// of theirs was looked at.
    func markChangingNoRow(_ keys: ExistingRowKeys) {
        guard existingRowKeys == nil, keys.sources.count == samples.count else { return }
        existingRowKeys = keys
    }

    /// Keeps the first `count` samples (and their weights): the ones that matter most come first.
    func trimSamples(to count: Int) {
        guard count < samples.count else { return }
        setSamples(Array(samples.prefix(count)), weights: sampleWeights.map { Array($0.prefix(count)) }, keys: existingRowKeys?.prefix(count))
    }

    init(statement: WorkloadStatement) {
        self.statement = statement
        self.executions = LiteralExecutions.executions(for: statement, samples: [])
    }

    var weight: Double { Double(statement.count) }
    var isRead: Bool { statement.kind.isRead }
    var isWrite: Bool { statement.kind.isWrite }
    var isUsable: Bool { error == nil && timingBefore != nil }

    /// True when the statement filters `table` (a name, any case): a WHERE or ON term on its columns, an
    /// expression filter, or a string search function (`NSCoreDataStringSearch…`, `instr`) on them.
    func filters(table: String) -> Bool {
        let folded = table.sqlFolded
        if expressionFilters.contains(where: { $0.table.sqlFolded == folded }) { return true }
        return shape?.tables.contains { access in
            access.table.sqlFolded == folded && (access.filtersRows
                || access.columnFunctions.contains { $0.sqlFolded.hasPrefix("nscoredata") || $0.sqlFolded == "instr" })
        } ?? false
    }

    /// `plan` with each full index scan of a table this statement filters marked
    /// (``PlanFinding/filtersWholeIndex``), for the report and `check`. A scan of a partial index
    /// (`isPartial(name)`: one that holds at most half its table's rows) is not marked: it reads only the rows
    /// its WHERE admits, which is what it is for (the count of escalated tickets through `(project_id) WHERE
    /// state = 'escalated'` reads 5 % of them).
    func markingFilteredScans(_ plan: QueryPlan?, isPartial: (String) -> Bool) -> QueryPlan? {
        guard var plan else { return nil }
        for index in plan.findings.indices where plan.findings[index].kind == .fullIndexScan {
            guard let table = plan.findings[index].table, filters(table: table),
                  !(plan.findings[index].index.map(isPartial) ?? false) else { continue }
            plan.findings[index].filtersWholeIndex = true
        }
        return plan
    }

    /// True when candidates are worth generating: the plan has a problem (a full scan, a temp B-tree, an
    /// automatic index), or it reads a whole index although the statement filters (an index search could
    /// do better) — unless statistics alone fix it.
    var deservesCandidates: Bool {
        guard let plan = planBefore else { return false }
        if plan.hasProblem { return true }
        if examinesManyRowsPerResult { return true }
        let filters = !expressionFilters.isEmpty || (shape?.tables.contains(where: \.filtersRows) ?? false)
        return filters && plan.findings.contains { $0.kind == .fullIndexScan && ($0.tableRows ?? Int.max) >= PlanFinding.smallTableRows }
    }

    /// True when the statement searches an index yet does much more work than it returns: over 100 SQLite
    /// VM steps per row returned (a COUNT counts as the rows it counts cannot be known: it returns one) and
    /// at least 50 µs per execution. What makes a statement worth candidates is its cost, not the word SCAN:
    /// a SEARCH on a left prefix that then checks thousands of rows one by one is as slow as a scan.
    var examinesManyRowsPerResult: Bool {
        guard isRead, let timing = timingBefore, let steps = timing.vmStepsPerExecution, timing.medianSeconds >= 50e-6,
              planBefore?.findings.contains(where: { $0.kind == .indexSearch || $0.kind == .coveringIndexSearch }) == true else { return false }
        return steps / max(1, timing.rowsPerExecution) > 100
    }

    /// The WHERE terms an index search leaves to be checked row by row, by table access
    /// (`SEARCH post USING INDEX post_on_authorId (authorId=?)` for `authorId = 3 AND status = 'draft'`
    /// leaves `status =`), when the statement does more than 20 VM steps per row it returns and takes at
    /// least 50 µs per execution; empty otherwise. Rows are read that such a term then throws away, which
    /// an index on both columns would not read: a new user's drafts of an author read 25,119 rows for
    /// 2,261 (58 steps a row) and got no candidate under ``examinesManyRowsPerResult``'s 100. Whether a
    /// term throws enough away is the candidate generator's call, from the data
    /// (``CandidateGenerator/discardsRows(_:table:samples:)``). A search that reads only the rows it
    /// returns takes about 15 steps a row.
    var rowCheckedTerms: [(access: TableAccess, terms: [ColumnConstraint])] {
        guard isRead, let plan = planBefore, let shape, let timing = timingBefore, let steps = timing.vmStepsPerExecution,
              timing.medianSeconds >= 50e-6, steps / max(1, timing.rowsPerExecution) > 20 else { return [] }
        return plan.findings.compactMap { finding in
            guard finding.kind == .indexSearch || finding.kind == .coveringIndexSearch, let table = finding.table,
                  let access = shape.access(to: table) else { return nil }
            let resolved = Set((finding.constraints ?? "").components(separatedBy: " AND ").map { term in
                String(term.prefix { !"=<>! ".contains($0) }).sqlFolded
            })
            let left = access.constraints.filter { !$0.isJoin && !resolved.contains($0.column.sqlFolded) }
            return left.isEmpty ? nil : (access, left)
        }
    }

    /// Tables the statement writes.
    var writtenTables: Set<String> {
        Set((shape?.tables ?? []).filter(\.isWritten).map { $0.table.sqlFolded })
    }
}
