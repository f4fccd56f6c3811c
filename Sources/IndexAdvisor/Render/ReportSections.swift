/// The sections of the Markdown and HTML reports. Which of them a result has, and what a statement's
/// section shows, are decided here once (``ReportOutline``, ``StatementSection``), so the two formats
/// cannot disagree on them; each format only lays the decided content out in its own markup.
enum ReportSection: String, CaseIterable, Sendable {
    /// The headline figures and one line per index to add or drop.
    case summary
    /// The chart of each statement's time before and after (HTML only: a figure Markdown cannot draw).
    case times
    /// The indexes to add, in the order they were chosen.
    case recommendations
    /// Index forms the model cannot declare, measured on top of the recommendations.
    case alternatives
    /// The SQL migration and the SwiftData declarations.
    case codeToPaste
    /// Statements no plain index fixes as written.
    case queryAdvice
    /// Without a workload: findings from the schema and the data, and how to capture a workload.
    case schemaReview
    /// The chart of read benefit against write cost per candidate (HTML only).
    case tradeOff
    /// Every statement: SQL, times, plans.
    case statements
    /// The review of the store's own indexes.
    case existingIndexes
    /// The uniqueness audit.
    case uniqueness
    /// The candidates not recommended, with the reason.
    case rejected
    /// The app's fetch sites (`--source`).
    case sourceSites
    /// The store's tables and indexes.
    case store

    /// The heading both formats give the section (the recommendations' heading is each format's own:
    /// "Recommended indexes" in Markdown, "Indexes to add" in HTML).
    var title: String {
        switch self {
        case .summary: return "Summary"
        case .times: return "Time per statement, before and after"
        case .recommendations: return "Indexes to add"
        case .alternatives: return "Alternatives the model cannot declare"
        case .codeToPaste: return "Code to paste"
        case .queryAdvice: return "Query-side advice"
        case .schemaReview: return "Schema review"
        case .tradeOff: return "Read benefit against write cost"
        case .statements: return "Statements"
        case .existingIndexes: return "Existing indexes"
        case .uniqueness: return "Uniqueness"
        case .rejected: return "Candidates not recommended"
        case .sourceSites: return "Fetch sites in the Swift source"
        case .store: return "Store"
        }
    }

    /// True for the charts, which only HTML draws.
    var isChart: Bool { self == .times || self == .tradeOff }
}

/// Which sections a result has content for. Markdown prints exactly these (but the charts); HTML prints
/// them too, and also prints the existing-index review, the uniqueness audit and the candidates when they
/// are empty, with a sentence saying so, because its table of contents always links to them.
struct ReportOutline: Sendable {
    /// The sections with content, in ``ReportSection`` order.
    let sections: [ReportSection]

    init(_ result: AnalysisResult) {
        sections = ReportSection.allCases.filter { Self.hasContent($0, in: result) }
    }

    func contains(_ section: ReportSection) -> Bool {
        sections.contains(section)
    }

    private static func hasContent(_ section: ReportSection, in result: AnalysisResult) -> Bool {
        switch section {
        case .summary, .times, .statements, .store: return true
        case .recommendations: return !result.recommendations.isEmpty
        case .alternatives: return result.alternatives?.isEmpty == false
        case .codeToPaste: return !result.recommendations.isEmpty || !result.indexesToDrop.isEmpty
        case .queryAdvice: return !result.queryAdvice.isEmpty
        case .schemaReview: return !result.schemaReview.isEmpty || !result.captureHint.isEmpty
        case .tradeOff: return !result.recommendations.isEmpty || result.rejectedCandidates.contains(where: \.hasFigures)
        case .existingIndexes: return !result.existingIndexes.isEmpty
        case .uniqueness: return !result.uniqueness.isEmpty
        case .rejected: return !result.rejectedCandidates.isEmpty
        case .sourceSites: return !result.sourceSiteRows.isEmpty
        }
    }
}

/// What one statement's section shows, decided once for Markdown and HTML.
struct StatementSection: Sendable {
    /// How the statement's plans are shown.
    enum Plans: Sendable, Equatable {
        /// No plan rows to show.
        case none
        /// One plan: the advice did not change it (or there is no plan after).
        case unchanged(QueryPlan)
        /// The plan before and the different plan after.
        case changed(before: QueryPlan, after: QueryPlan)
    }

    let statement: StatementReport
    /// `S1`, `S2`, … in workload order.
    let label: String

    /// The share of the workload's weighted time before the change, with its bound (``AnalysisResult/boundedShare(_:)``).
    let boundedShare: BoundedFigure

    /// "12 % of `whole`", "share of `whole` not known", or "not timed" (``AnalysisResult/shareText(_:of:)``).
    func share(of whole: String) -> String {
        statement.timingBefore == nil ? "not timed" : Figures.share(boundedShare, of: whole)
    }

    /// The sampled tables the statement reads or writes (``StoreSummary/sampledTables``): its rows and times
    /// are the sample's.
    let samples: [SampledTable]

    init(_ statement: StatementReport, label: String, in result: AnalysisResult) {
        self.statement = statement
        self.label = label
        boundedShare = result.boundedShare(statement)
        let tables = Set(statement.tables.map(\.sqlFolded))
        samples = result.store.sampledTables.filter { tables.contains($0.table.sqlFolded) }
    }

    /// Every statement's section, in workload order.
    static func all(in result: AnalysisResult) -> [StatementSection] {
        result.statements.enumerated().map { StatementSection($1, label: "S\($0 + 1)", in: result) }
    }

    /// The time after the advice, when the section shows one: only when the plan changed or the time
    /// differs from the time before (an identical plan and time is not shown as a change).
    var after: Timing? {
        guard let after = statement.timingAfter,
              statement.planAfter?.tree != statement.planBefore?.tree || after != statement.timingBefore else { return nil }
        return after
    }

    /// `3 rows per execution`, `1 row changed per execution`: the rows of one execution before the advice;
    /// `… per execution on the sample (item: 1 row in 3)` when a table it touches was sampled, since the rows
    /// found are then the sample's (a key the sample lacks finds none).
    var rowsBefore: String? {
        guard let before = statement.timingBefore, before.isLowerBound != true else { return statement.timingBefore == nil ? nil : "rows not counted (stopped)" }
        let rows = Figures.rows(before.rowsPerExecution)
        let scope = samples.isEmpty ? "" : " on the sample (" + samples.map { "\($0.table): 1 row in \($0.step)" }.joined(separator: ", ") + ")"
        return "\(rows) \(rows == "1" ? "row" : "rows")\(statement.kind.isWrite ? " changed" : "") per execution\(scope)"
    }

    /// One of a statement's facts.
    enum Fact: Sendable, Equatable {
        /// The shape SQLite's planner read (`ZNOTE: =ZFOLDERID …`).
        case shape(String)
        /// The fetch sites that issue it (`--source`); Markdown prints them above the list, as a sentence.
        case source([String])
        /// Where the timed bound values came from.
        case boundValues(String)
        /// The time before the advice, with ``rowsBefore``.
        case before(Timing, rows: String)
        /// The time after the advice (``after``).
        case after(Timing)
        /// The app's log's own median time, with the rows its last execution returned.
        case observed(ObservedTiming, lastRows: Int?)
        /// The rows the app's log reported, when it reported no time.
        case observedRows(Int)
        /// The recommended indexes its final plan uses.
        case uses([String])
    }

    /// The statement's facts, in the order both formats list them (empty for a statement not analysed).
    var facts: [Fact] {
        guard statement.error == nil else { return [] }
        var facts: [Fact] = []
        if let shape = statement.shapeSummary, shape.contains(":") { facts.append(.shape(shape)) }
        if let locations = statement.sourceLocations, !locations.isEmpty { facts.append(.source(locations)) }
        facts.append(.boundValues(statement.boundValuesSummary))
        if let before = statement.timingBefore, let rows = rowsBefore { facts.append(.before(before, rows: rows)) }
        if let after { facts.append(.after(after)) }
        if let observed = statement.observedTiming {
            facts.append(.observed(observed, lastRows: statement.observedRows))
        } else if let rows = statement.observedRows {
            facts.append(.observedRows(rows))
        }
        if !statement.usesRecommendations.isEmpty { facts.append(.uses(statement.usesRecommendations)) }
        return facts
    }

    /// The plans to draw: both when the advice changed the plan, else the one plan.
    var plans: Plans {
        guard let before = statement.planBefore, !before.steps.isEmpty else { return .none }
        if let after = statement.planAfter, after.tree != before.tree { return .changed(before: before, after: after) }
        return .unchanged(before)
    }
}
