import Foundation

/// The state of one analysis as it moves through the stages.
struct AnalysisRun {
    let snapshot: StoreSnapshot
    let schema: Schema
    let workload: Workload
    let options: AnalysisOptions
    let report: (String, Int, Int) -> Void
    var profiles: [StatementProfile]
    /// Statements SQLite cannot parse (a log line cut off, text that is not SQL), left out before profiling
    /// and counted with the workload's skipped lines (``setAsideUnparsable()``): distinct statements,
    /// executions, and one example.
    var unparsable: (statements: Int, executions: Int, example: String?) = (0, 0, nil)
    var statistics: ColumnStatisticsReader
    var warnings: [AnalysisWarning] = []
    /// The schema with the store's own row counts (the working `schema` has the sample's).
    var storeSchema: Schema?
    var sampledTables: [SampledTable] = []
    var picks: [IndexSelection.Pick] = []
    /// The selector's rounds (``SelectionTrace``), and the alternatives' search on top of the picks.
    var selectionTrace = SelectionTrace()
    var alternativeTrace = SelectionTrace()
    /// The forms no model can declare that the second search added on top of the picks, in its order.
    var alternativeCandidates: [IndexCandidate] = []
    /// Plans the what-if clone predicted that the snapshot did not choose, during the selection.
    var selectionMismatches = 0
    /// On a Core Data or SwiftData store: forms no model can declare, measured with the picks in place.
    var alternatives: [AlternativeSelection.Choice] = []
    /// For each statement (profile position), how many candidates were proposed for it (set-aside ones
    /// included): every one is either recommended or listed among the rejected candidates.
    var candidatesProposed: [Int: Int] = [:]
    /// False until the candidate stage has run (`check` and the schema review never run it).
    var candidatesGenerated = false
    /// When the analysis started (``DispatchTime`` nanoseconds), for ``AnalysisOptions/timeBudgetSeconds``.
    let startedAt = DispatchTime.now().uptimeNanoseconds
    /// True when the time budget stopped the measuring or the selection early.
    var budgetSpent = false

    /// True once the analysis has run past ``AnalysisOptions/timeBudgetSeconds``.
    var isOverBudget: Bool {
        guard let budget = options.timeBudgetSeconds else { return false }
        return Double(DispatchTime.now().uptimeNanoseconds - startedAt) / 1e9 >= budget
    }
    /// For each statement (profile position), how many candidates its plan would use were left unmeasured.
    var unmeasuredCandidates: [Int: Int] = [:]
    var rejected: [RejectedCandidate] = []
    /// The usable statements (profile positions, in order) that read or write each table (folded name): what
    /// the what-if planner is asked about for a candidate on it, instead of every statement.
    var statementsByTable: [String: [Int]] = [:]
    let timer: StatementTimer
    /// The foreign keys the store declares (``ForeignKeys/all(in:connection:)``).
    let foreignKeys: [ForeignKey]
    /// True when the app's connections enforce foreign keys (``ForeignKeys/areEnforced(by:declared:)``): the
    /// snapshot and the what-if clone then enforce them too, so a parent's delete is planned and timed with
    /// its lookups of the child rows, and those lookups get candidates.
    let enforcesForeignKeys: Bool
    /// True when the workload turns recursive triggers on (`PRAGMA recursive_triggers`): the snapshot and the
    /// what-if clone run with them on too, so a REPLACE is planned and timed with the DELETE triggers it fires.
    let recursiveTriggers: Bool
    /// The store's `sqlite_stat1` rows by index (folded name), as the snapshot had them before any index was
    /// dropped and rebuilt (``IndexOrder``): a rebuilt index gets its own rows back.
    let savedStatistics: [String: [[SQLValue]]]

    init(snapshot: StoreSnapshot, schema: Schema, workload: Workload, options: AnalysisOptions, stages: StageClock? = nil,
         report: @escaping (String, Int, Int) -> Void) {
        self.snapshot = snapshot
        self.schema = schema
        self.workload = workload
        self.options = options
        self.report = report
        self.profiles = workload.analysedStatements.map(StatementProfile.init)
        self.statistics = ColumnStatisticsReader(connection: snapshot.connection)
        savedStatistics = schema.hasStatistics ? IndexOrder.statistics(in: snapshot.connection) : [:]
        if let pages = options.snapshotGrowthPages, let count = (try? snapshot.connection.scalar("PRAGMA page_count"))?.integerValue {
            _ = try? snapshot.connection.scalar("PRAGMA max_page_count = \(count + Int64(pages))")
        }
        foreignKeys = ForeignKeys.all(in: schema, connection: snapshot.connection)
        enforcesForeignKeys = ForeignKeys.areEnforced(by: workload, declared: foreignKeys)
            && (try? snapshot.connection.execute("PRAGMA foreign_keys = ON")) != nil
        // The app's connections fire DELETE triggers for the rows a REPLACE deletes, and let a trigger fire
        // itself, only with recursive triggers on (lang_conflict.html, lang_createtrigger.html): as the workload
        // sets them, so are the snapshot's (hostile round 8, F17).
        recursiveTriggers = ForeignKeys.workloadSetting(workload, pragma: "recursive_triggers") == true
            && (try? snapshot.connection.execute("PRAGMA recursive_triggers = ON")) != nil
        var timer = StatementTimer(connection: snapshot.connection)
        timer.defersForeignKeys = enforcesForeignKeys
        timer.repeats = options.repeats
        timer.minimumRunSeconds = options.minimumRunSeconds
        timer.statementTimeout = options.statementTimeout
        timer.costSource = options.costSource
        timer.clock = stages
        self.timer = timer
    }

    /// `result` with the per-stage breakdown in its method section (the clock is stopped first).
    func finish(_ result: AnalysisResult, stages: StageClock) -> AnalysisResult {
        stages.close()
        var result = result
        result.method.stageSeconds = stages.breakdown
        result.method.machineLoad = stages.machineLoad
        return result
    }

    // MARK: Stage 1: shapes, bound values, plans and times as the store is (AnalysisRun+Profiling.swift)

    // MARK: Stage 3: the final state

    /// The indexes (folded names) `INDEXED BY` names anywhere (``indexesNamedByIndexedBy()``), read once by the
    /// selection for the selector and the review alike; nil until then.
    var namedByIndexedBy: Set<String>?
    /// The store's indexes (folded names) the selector took out: dropped in the final state.
    var removedStoreIndexes: Set<String> = []
    /// Findings about the store's own indexes, measured in the final state.
    var existingIndexes: [ExistingIndexFinding] = []
    /// Statement and statistics changes, measured.
    var queryAdvice: [QueryAdvice] = []
    /// Findings of a review without a workload.
    var schemaFindings: [SchemaFinding] = []
}
