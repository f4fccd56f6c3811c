import Foundation

/// Analyses a store against a workload: snapshot, shapes, plans, candidates, what-if, measurement,
/// selection. The user's store is only read (see ``StoreSnapshot``); everything else happens on the
/// private snapshot, which is removed before this returns or throws.
public enum Advisor {
    /// Runs the whole analysis.
    /// - Parameters:
    ///   - storeURL: the SQLite store (Core Data, SwiftData, GRDB, any SQLite file).
    ///   - workload: the statements to advise for (``WorkloadLoader``).
    ///   - progress: called at each stage and for each measured item.
    /// - Returns: the ``AnalysisResult`` every report format renders.
    /// - Throws: ``StoreError`` when the store cannot be read; ``WorkloadError/noStatementAnalysable(reasons:)``
    ///   when no statement of the workload could be analysed against this store.
    public static func analyze(storeAt storeURL: URL, workload: Workload, options: AnalysisOptions = AnalysisOptions(),
                               progress: ((AnalysisProgress) -> Void)? = nil) throws -> AnalysisResult {
        let clock = DispatchTime.now().uptimeNanoseconds
        let stages = StageClock()
        let report = stageReporter(started: clock, stages: stages, progress)
        var run = try prepare(storeAt: storeURL, workload: workload, options: options, stages: stages, report: report)
        defer { run.snapshot.close() }
        try run.profileStatements()
        try run.selectIndexes()
        try run.measureFinalState()
        report("result", 0, 0)
        return run.finish(run.result(storeURL: storeURL, started: clock, measured: run.resultMeasurements()), stages: stages)
    }

    /// Plans and times the workload's statements as the store is, without building candidates: what
    /// `indexadvisor check` needs (full scans, temp B-tree sorts, times to compare with a baseline, query
    /// advice). Much faster than ``analyze(storeAt:workload:options:progress:)``.
    /// - Throws: as ``analyze(storeAt:workload:options:progress:)``.
    public static func profile(storeAt storeURL: URL, workload: Workload, options: AnalysisOptions = AnalysisOptions(),
                               progress: ((AnalysisProgress) -> Void)? = nil) throws -> AnalysisResult {
        let clock = DispatchTime.now().uptimeNanoseconds
        let stages = StageClock()
        let report = stageReporter(started: clock, stages: stages, progress)
        var run = try prepare(storeAt: storeURL, workload: workload, options: options, stages: stages, report: report)
        defer { run.snapshot.close() }
        try run.profileStatements(keepingUnparsable: true)
        for profile in run.profiles where profile.isUsable {
            profile.planAfter = profile.planBefore
            profile.timingAfter = profile.timingBefore
        }
        run.queryAdvice += StatisticsCheck(snapshot: run.snapshot, schema: run.schema, timer: run.timer)
            .run(profiles: run.profiles, minimumBenefit: run.minimumBenefit)
        run.queryAdvice += QueryRewrites(snapshot: run.snapshot, schema: run.schema, timer: run.timer).run(profiles: run.profiles, recommendations: [])
        report("result", 0, 0)
        return run.finish(run.result(storeURL: storeURL, started: clock, measured: run.resultMeasurements()), stages: stages)
    }

    /// Reviews the store from its schema and data alone, for when there is no workload: redundant indexes
    /// with their measured write cost, unindexed references with a lookup timed with and without an index,
    /// identity-like columns, large tables without indexes, statistics, Core Data hierarchy indexes; and how
    /// to capture a workload. Makes no claim about the app's statements.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public static func review(storeAt storeURL: URL, options: AnalysisOptions = AnalysisOptions(),
                              progress: ((AnalysisProgress) -> Void)? = nil) throws -> AnalysisResult {
        let clock = DispatchTime.now().uptimeNanoseconds
        let stages = StageClock()
        let report = stageReporter(started: clock, stages: stages, progress)
        let empty = Workload(statements: [], diagnostics: WorkloadDiagnostics())
        var run = try prepare(storeAt: storeURL, workload: empty, options: options, stages: stages, report: report)
        defer { run.snapshot.close() }
        report("schema review", 0, 0)
        var review = SchemaReview(schema: run.schema, snapshot: run.snapshot, timer: run.timer, seed: options.seed)
        run.schemaFindings = review.run(sizes: run.indexSizes())
        report("result", 0, 0)
        var result = run.finish(run.result(storeURL: storeURL, started: clock, measured: run.resultMeasurements()), stages: stages)
        result.captureHint = CaptureHint.lines(storePath: storeURL.path, isCoreData: run.schema.coreData != nil)
        return result
    }

    /// Reports a stage (and item `done` of `total`) to `progress` with the seconds since `clock` (nanoseconds
    /// of `DispatchTime`).
    private static func stageReporter(started clock: UInt64, stages: StageClock, _ progress: ((AnalysisProgress) -> Void)?) -> (String, Int, Int) -> Void {
        { stage, done, total in
            stages.enter(stage)
            progress?(AnalysisProgress(stage: stage, done: done, total: total,
                                       elapsedSeconds: Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9))
        }
    }

    /// The one-line shape summary reports print, for the fuzz target (it exercises every shape field).
    package static func summaryForFuzzing(_ shape: StatementShape) -> String {
        AnalysisRun.summary(shape)
    }

    /// Takes the snapshot, reads the schema and samples large tables.
    private static func prepare(storeAt storeURL: URL, workload: Workload, options: AnalysisOptions, stages: StageClock,
                                report: @escaping (String, Int, Int) -> Void) throws -> AnalysisRun {
        report("snapshot", 0, 0)
        let snapshot = try StoreSnapshot.take(of: storeURL, temporaryParent: options.temporaryDirectory, busyTimeout: options.busyTimeout)
        let storeSchema: Schema
        var schema: Schema
        var sampled: [SampledTable] = []
        do {
            storeSchema = try SchemaReader.read(from: snapshot.connection)
            schema = storeSchema
            if let sampleRows = options.sampleRows {
                report("sampling", 0, 0)
                sampled = try snapshot.sampleLargeTables(schema: storeSchema, maxRows: sampleRows)
                if !sampled.isEmpty { schema = try SchemaReader.read(from: snapshot.connection) }
            }
        } catch let error as SQLiteError {
            snapshot.close()
            throw StoreError.sqlite(path: storeURL.path, error: error)
        }
        var run = AnalysisRun(snapshot: snapshot, schema: schema, workload: workload, options: options, stages: stages, report: report)
        run.storeSchema = storeSchema
        run.sampledTables = sampled
        return run
    }
}

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
        foreignKeys = ForeignKeys.all(in: schema, connection: snapshot.connection)
        enforcesForeignKeys = ForeignKeys.areEnforced(by: workload, declared: foreignKeys)
            && (try? snapshot.connection.execute("PRAGMA foreign_keys = ON")) != nil
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
        return result
    }

    // MARK: Stage 1: shapes, bound values, plans and times as the store is (AnalysisRun+Profiling.swift)

    // MARK: Stage 2: candidates, what-if, measurement, greedy selection

    mutating func chooseIndexes() throws {
        report("candidates", 0, 0)
        candidatesGenerated = true
        let generated = generateCandidates()
        let whatIf = try WhatIfPlanner(schema: schema, enforcesForeignKeys: enforcesForeignKeys)
        let pool = askWhatIf(generated, whatIf: whatIf)
        let measurer = CandidateMeasurer(snapshot: snapshot, timer: screeningTimer, storeHasStatistics: schema.hasStatistics,
                                         timesWritesBefore: !decidesOnCounters, storeIndexNames: storeIndexNames)
        var measured = try measure(pool, measurer: measurer)
        let firstMeasured = measured
        var names = takenNames
        try pickGreedily(&measured, measurer: measurer, whatIf: whatIf, names: &names)
        // A join that no single index changes (``JoinSets``); then the one-at-a-time selection again, against
        // the workload as the join's set left it (what is worth a schema change is relative to it).
        for _ in 0..<3 {
            let joined = try chooseJoinSets(proposed: generated.proposed, measurer: measurer, whatIf: whatIf, names: &names)
            guard !joined.changed.isEmpty else { break }
            measured = try refreshed(measured, changed: joined.changed, replanned: joined.replanned, measurer: measurer, whatIf: whatIf)
            try pickGreedily(&measured, measurer: measurer, whatIf: whatIf, names: &names)
        }
        try revisePicks(pool: firstMeasured, measured: &measured, measurer: measurer, whatIf: whatIf, names: &names)
        if schema.coreData != nil {
            alternatives = AlternativeSelection.choose(from: measured.filter { !isModelDeclarable($0.candidate) },
                                                       profiles: profiles, minimumBenefit: decisionMinimumBenefit, view: decision,
                                                       countsWrite: countsWrite)
            let chosen = Set(alternatives.map(\.measured.candidate.key))
            measured.removeAll { chosen.contains($0.candidate.key) }
        }
        rejectUnchosen(measured)
    }

    /// The greedy selection: picks the candidate that saves the most (net of writes) while one saves at least
    /// ``minimumBenefit``, builds it for real, and re-measures the candidates it touched
    /// (``refreshed(_:changed:replanned:measurer:whatIf:)``). `measured` loses the picks and the candidates
    /// the planner no longer uses.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when the snapshot cannot be put back.
    mutating func pickGreedily(_ measured: inout [MeasuredCandidate], measurer: CandidateMeasurer, whatIf: WhatIfPlanner,
                               names: inout Set<String>) throws {
        while picks.count < options.maxNewIndexes, !measured.isEmpty {
            if isOverBudget, !picks.isEmpty { budgetSpent = true; break }
            report("selection", picks.count, options.maxNewIndexes)
            // Worth a schema change relative to what is left: after the first picks have removed the big
            // scans, a pick that saves a third of the remaining time counts even if it is small next to
            // the workload as it was.
            let minimumBenefit = self.decisionMinimumBenefit
            // A left prefix of a chosen index (or a partial index on its leading columns) adds writes and
            // nothing the chosen one cannot serve.
            let chosen = picks.map(\.measured.candidate)
            for other in measured where chosen.contains(where: { other.candidate.isRedundant(beside: $0) }) {
                let wider = picks.first { other.candidate.isRedundant(beside: $0.measured.candidate) }!
                rejected.append(rejection(other.candidate, score: nil, reason: .leftPrefixOfPick(wider: wider.name)))
            }
            measured.removeAll { other in chosen.contains { other.candidate.isRedundant(beside: $0) } }
            let scored = measured.map { (decisionCopy($0), CandidateScore($0, profiles: profiles, view: decision)) }
            let perTable = Dictionary(grouping: picks, by: { $0.measured.candidate.table.sqlFolded }).mapValues(\.count)
            // The size budget is the store's: sizes measured on a sample are scaled first.
            let usedBytes = picks.reduce(Int64(0)) { $0 + storeBytes($1.measured.bytes, table: $1.measured.candidate.table) }
            let eligible = scored.filter { candidate, _ in
                isModelDeclarable(candidate.candidate)
                    && perTable[candidate.candidate.table.sqlFolded, default: 0] < options.maxIndexesPerTable
                    && options.maxIndexBytes.map { usedBytes + storeBytes(candidate.bytes, table: candidate.candidate.table) <= $0 } ?? true
            }
            guard let leader = eligible.filter({ $0.1.hasSignificantGain }).max(by: { $0.1.netSeconds < $1.1.netSeconds }),
                  leader.1.netSeconds >= minimumBenefit else { break }
            var best = try settle(leader, among: eligible, measured: &measured, measurer: measurer, minimumBenefit: minimumBenefit)
            // `Z_ENT` leads a pick only where it saves page reads over the same key without it, which a model
            // can declare; otherwise it only adds a check of a row that is read anyway.
            if leadsWithEntityColumn(best.candidate),
               let plain = eligible.first(where: { TieBreak.entityColumnSavesNoPages(plain: $0.0, entityLed: best) }) {
                best = plain.0
            }
            let widened = Set(measured.filter { TieBreak.entityColumnSavesNoPages(plain: best, entityLed: $0) }.map(\.candidate.key))
            for other in measured where widened.contains(other.candidate.key) {
                rejected.append(rejection(other.candidate, score: nil, reason: .entityColumnSavesNoPages))
            }
            measured.removeAll { widened.contains($0.candidate.key) }
            measured.removeAll { $0.candidate.key == best.candidate.key }
            let name = indexName(for: best.candidate, taken: names)
            names.insert(name.sqlFolded)
            let (changed, replanned) = try buildPick(best, name: name, measurer: measurer, minimumBenefit: minimumBenefit)
            // Re-measure the candidates that touch what changed, against the new state: a statement they serve
            // whose time changed, or a write whose plan changed. A write the pick only made dearer (one more
            // index to maintain) keeps the candidate's own measured cost, its time with the candidate less its
            // time just before (`writesBefore`): index maintenance adds up index by index, so rebuilding every
            // candidate of the table after each pick only to see the same difference again would cost a build
            // per candidate per pick (issue 18).
            guard !changed.isEmpty else { continue }
            measured = try refreshed(measured, changed: changed, replanned: replanned, measurer: measurer, whatIf: whatIf)
        }
    }

    /// The pick among `eligible` once `leader` (the largest net saving) is known: a near tie the wall clock
    /// split is timed again, a candidate measurably faster on the leader's statements replaces it, and among
    /// candidates equal as far as timing can tell the fixed rules of ``TieBreak`` decide (``SelectionRound``).
    /// `measured` takes the re-timed figures.
    /// - Throws: ``StoreError`` when the snapshot cannot be put back after a re-timing.
    mutating func settle(_ leader: SelectionRound.Scored, among eligible: [SelectionRound.Scored], measured: inout [MeasuredCandidate],
                         measurer: CandidateMeasurer, minimumBenefit: Double) throws -> MeasuredCandidate {
        // Candidates equal as far as timing can tell are settled by the fixed rules of ``TieBreak``.
        let round = SelectionRound(weights: profiles.map(\.weight), currentWrites: profiles.map { $0.current.map(decision) },
                                   minimumBenefit: minimumBenefit)
        var top = leader
        var equals = eligible.filter { round.isEqual($0, to: top) }
        // A near tie (within 25 %) that the measurements split against the candidate the order above
        // prefers is timed again, both candidates once more, each statement keeping the faster of its two
        // medians: the machine's load only ever slows a run, so one busy moment does not decide the pick.
        // (Not when deciding on counters: they do not move with the machine's load.)
        if !options.decideOnCounters && options.costSource == .wallClock,
           let favourite = eligible.filter({ round.isNear($0, to: top, share: 0.75) || $0.0.candidate.key == top.0.candidate.key }).min(by: round.preferred),
           favourite.0.candidate.key != top.0.candidate.key,
           !equals.contains(where: { $0.0.candidate.key == favourite.0.candidate.key }),
           let again = try remeasure(favourite.0, measurer: measurer), let topAgain = try remeasure(top.0, measurer: measurer) {
            let contenders = [again, topAgain].map { (decisionCopy($0), CandidateScore($0, profiles: profiles, view: decision)) }
            for contender in contenders {
                if let index = measured.firstIndex(where: { $0.candidate.key == contender.0.candidate.key }) { measured[index] = contender.0 }
            }
            top = contenders.max { $0.1.netSeconds < $1.1.netSeconds }!
            equals = contenders.filter { round.isEqual($0, to: top) }
                + eligible.filter { candidate in round.isEqual(candidate, to: top) && !contenders.contains { $0.0.candidate.key == candidate.0.candidate.key } }
        }
        // A candidate measurably faster on the leader's statements replaces it unless its extra writes are real.
        if let better = eligible.filter({ round.dominates($0, top) }).max(by: { $0.1.netSeconds < $1.1.netSeconds }) {
            top = better
            equals = eligible.filter { round.isEqual($0, to: top) }
        }
        return (equals.min(by: round.preferred) ?? top).0
    }

    /// Builds `best` for real under `name` with the picks in place, re-plans and re-times what it touches
    /// (``reprofile(table:index:)``), and keeps it as a pick when it measurably saves at least `minimumBenefit`
    /// (in the selection's terms, ``decision(_:)``); otherwise drops it again, restores the statements' timings
    /// and rejects it with the reason.
    /// - Returns: the statements (profile positions) whose timing the kept pick changed, and those whose plan
    ///   it changed; both empty when it was not kept.
    /// - Throws: ``StoreError`` when the snapshot cannot be put back; another failure is a warning.
    mutating func buildPick(_ best: MeasuredCandidate, name: String, measurer: CandidateMeasurer,
                            minimumBenefit: Double) throws -> (changed: Set<Int>, replanned: Set<Int>) {
        var changed = Set<Int>()
        var replanned = Set<Int>()
        do {
            let kept = try measurer.measure(best.candidate, name: name, users: best.users, writes: best.writes,
                                            profiles: profiles, keep: true, positions: [])
            // What the pick really did, with every index chosen so far in place: re-plan the table's
            // statements, re-time those whose plan changed and the table's writes.
            let changes = reprofile(table: best.candidate.table, index: name)
            let score = CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite)
            let decided = decidedScore(changes)
            let saves = decided.hasSignificantGain && decided.netSeconds >= minimumBenefit
            // Chosen on the counters, the pick must not cost more than it saves by the wall clock, beyond
            // the runs' spread (``ClockCheck``); the wall clock is what the report's figures are. Only asked
            // of a pick the counters keep: the confirmation drops, re-times and rebuilds the index.
            let definition = best.candidate.createSQL(name: name)
            let clockLoss = saves && decidesOnCounters
                && ClockCheck.showsLoss(changes, weight: { profiles[$0].weight }, minimumBenefit: self.minimumBenefit)
                && confirmsLoss(of: name, definition: definition, changes: changes)
            // A counted saving too small for the counters to tell, by their fixed rule
            // (``ClockCheck/isInsideResolution(_:weight:countsWrite:minimumBenefit:)``).
            let marginal = saves && !clockLoss && decidesOnCounters
                && ClockCheck.isInsideResolution(changes, weight: { profiles[$0].weight }, countsWrite: countsWrite, minimumBenefit: minimumBenefit)
            if saves && !clockLoss && !marginal {
                picks.append(IndexSelection.Pick(measured: kept, score: score, name: name, builtBeside: Set(picks.map(\.name.sqlFolded))))
                changed = Set(changes.map(\.position))
                replanned = Set(changes.filter { $0.planBefore?.steps != $0.planAfter?.steps }.map(\.position))
            } else {
                try measurer.drop(name)
                putBack(changes)
                if marginal {
                    let counted = ClockCheck.countedBounds(changes, weight: { profiles[$0].weight }, countsWrite: countsWrite)
                    rejected.append(rejection(best.candidate, score: score, reason: .marginalByCounters(
                        countedSpeedup: ClockCheck.countedSpeedup(changes), readsSaved: counted.readsSaved,
                        writesAdded: counted.writesAdded, minimumSeconds: minimumBenefit)))
                } else if clockLoss {
                    let bounds = ClockCheck.bounds(changes, weight: { profiles[$0].weight })
                    rejected.append(rejection(best.candidate, score: score, reason: .costsMoreByTheClock(readsSavedAtMost: bounds.readsSavedAtMost,
                                                                                                        writesAddedAtLeast: bounds.writesAddedAtLeast)))
                } else {
                    rejected.append(rejection(best.candidate, score: score, reason: .notWorthBuilt(picks: picks.map(\.name), minimumSeconds: minimumBenefit)))
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            warnings.append(.indexNotBuilt(name: name, error: "\(error)"))
        }
        return (changed, replanned)
    }

    /// The statements at `changes`' positions as they were before the changes (their timings and plans), the
    /// last change first: after an index that made them is dropped again.
    func putBack(_ changes: [TimingChange]) {
        for change in changes.reversed() {
            profiles[change.position].current = change.before
            profiles[change.position].currentPlan = change.planBefore
        }
    }

    /// True when the loss the wall clock showed for the index `name` (``ClockCheck``) holds when its statements
    /// are timed again with and without it, interleaved (``ChangeComparison``: with it, without, with it
    /// again): a load spike during one measurement does not veto a pick, so a busy machine does not change
    /// the advice (issue 15). The index is in place afterwards.
    func confirmsLoss(of name: String, definition: String, changes: [TimingChange]) -> Bool {
        guard let again = timedAgain(name, definition: definition, changes: changes) else { return false }
        return ClockCheck.showsLoss(again, weight: { profiles[$0].weight }, minimumBenefit: minimumBenefit)
    }

    /// `changes` timed again with and without the index `name`, interleaved (``ChangeComparison``: with it,
    /// without, with it again); nil when a statement could not be timed. The index is in place afterwards.
    func timedAgain(_ name: String, definition: String, changes: [TimingChange]) -> [TimingChange]? {
        let items = changes.map { ChangeComparison.Item(executions: profiles[$0.position].executions, isWrite: profiles[$0.position].isWrite) }
        guard let results = ChangeComparison(snapshot: snapshot, timer: timer).compare(
            apply: ["DROP INDEX \(SQLIdentifier.quote(name))"], revert: [definition], items: items) else { return nil }
        var again: [TimingChange] = []
        for (change, result) in zip(changes, results) {
            guard let (with, without) = result else { return nil }
            var timed = change
            timed.before = without
            timed.after = with
            again.append(timed)
        }
        return again
    }

    /// `measured` against the state after a pick changed the timings at `changed` (and the plans at
    /// `replanned`): the candidates that touch what changed are asked about again and re-timed where their
    /// plan differs from the one they were timed with; the others are kept as they are.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when a candidate cannot be dropped again.
    mutating func refreshed(_ measured: [MeasuredCandidate], changed: Set<Int>, replanned: Set<Int>, measurer: CandidateMeasurer,
                            whatIf: WhatIfPlanner) throws -> [MeasuredCandidate] {
        var next: [MeasuredCandidate] = []
        for other in measured {
            let touched = Set(other.users).intersection(changed).union(Set(other.writes).intersection(replanned))
                .union(Set(other.writes).intersection(changed).filter { other.writesBefore[$0] == nil })
            guard !touched.isEmpty else {
                next.append(other)
                continue
            }
            let use = whatIfUse(of: other.candidate, chosen: picks.map(\.measured.candidate), whatIf: whatIf)
            let users = use.users
            if users.isEmpty {
                // The picks its statements use now, not every pick so far (a new user's book(published) was
                // said to lose to an ISBN index no statement of it touched); else the picks on its table.
                let used = Set(other.users.flatMap { profiles[$0].currentPlan?.indexesUsed ?? [] }.map(\.sqlFolded))
                let serving = picks.map(\.name).filter { used.contains($0.sqlFolded) }
                let sameTable = picks.filter { $0.measured.candidate.table.sqlFolded == other.candidate.table.sqlFolded }.map(\.name)
                let named = !serving.isEmpty ? serving : (!sameTable.isEmpty ? sameTable : picks.map(\.name))
                rejected.append(rejection(other.candidate, score: nil, reason: .plannerNoLongerUses(picks: named)))
                continue
            }
            // A statement whose plan with the candidate is still the one it was timed with does the same
            // work: its timing holds, and only what it is compared with (the statement's current time)
            // moved. Without another such statement or write to time, the candidate is not built again.
            let samePlan = Set(users).filter { position in
                other.after[position] != nil && use.plans[position] != nil && use.plans[position] == other.whatIfPlans[position]
            }
            // Statements it no longer serves need no timing: they leave its score.
            let stale = touched.intersection(Set(users + other.writes)).union(Set(users).subtracting(other.users))
                .subtracting(samePlan)
            if stale.isEmpty {
                var kept = other
                kept.users = users
                kept.termsUsed = use.terms
                next.append(kept)
                continue
            }
            if var result = try measure(other.candidate, users: users, measurer: measurer, positions: stale) {
                result.termsUsed = use.terms
                result.whatIfPlans = use.plans
                for (position, timing) in other.after where result.after[position] == nil && !stale.contains(position) {
                    result.after[position] = timing
                    result.writesBefore[position] = other.writesBefore[position]
                }
                next.append(result)
            }
        }
        return next
    }

    /// True when the recommended set may hold `candidate`: on a Core Data or SwiftData entity table, only an
    /// index a model can declare (``SwiftDataCode/isDeclarable(_:)``), or one that leads with `Z_ENT` on a
    /// table several entities share (``leadsWithEntityColumn(_:)``); on any other table, every form.
    /// The other forms on entity tables compete as ``alternatives``.
    func isModelDeclarable(_ candidate: IndexCandidate) -> Bool {
        schema.coreData?.rootEntity(ofTable: candidate.table) == nil || SwiftDataCode.isDeclarable(candidate)
            || leadsWithEntityColumn(candidate)
    }

    /// True when `candidate` is `Z_ENT` followed by model attributes, on a table an entity hierarchy shares:
    /// the form a fetch of one sub-entity needs while Core Data's own `Z_ENT` index is there (issue 15).
    func leadsWithEntityColumn(_ candidate: IndexCandidate) -> Bool {
        guard candidate.columns.count >= 2, candidate.columns.first?.name?.sqlFolded == "z_ent",
              (schema.coreData?.entities(inTable: candidate.table).count ?? 0) > 1 else { return false }
        return SwiftDataCode.isDeclarable(IndexCandidate(table: candidate.table, columns: Array(candidate.columns.dropFirst()),
                                                         partialPredicate: candidate.partialPredicate))
    }

    /// The note on a recommendation that leads with `Z_ENT` (``leadsWithEntityColumn(_:)``): why, and how to ship it.
    func entityColumnNote(for candidate: IndexCandidate) -> [PickNote] {
        guard leadsWithEntityColumn(candidate) else { return [] }
        let entities = schema.coreData?.entities(inTable: candidate.table).map(\.name) ?? []
        let own = schema.table(named: candidate.table)?.indexes.filter { $0.columnNames.first?.sqlFolded == "z_ent" }.map(\.name) ?? []
        return [.entityLeads(table: candidate.table, entities: entities, coreDataIndexes: own)]
    }

    /// True when the selection decides on SQLite's counters while the figures are wall-clock.
    var decidesOnCounters: Bool { options.decideOnCounters && options.costSource == .wallClock }

    /// The timer that screens candidates (issue 18). When the choice is made on SQLite's counters, which one
    /// pass gives exactly, a candidate is timed on one pass, without a warm-up, instead of up to
    /// ``AnalysisOptions/repeats`` runs: the repeats only narrow a wall-clock figure the decision does not read.
    /// A pick is timed again in full with the picks in place (``reprofile(table:index:)``), so every figure
    /// of the advice is a full median; only the rejected candidates' figures are one pass's.
    var screeningTimer: StatementTimer {
        guard decidesOnCounters else { return timer }
        var screening = timer
        screening.repeats = 0
        return screening
    }

    /// A timing as the selection sees it: priced by SQLite's counters when ``AnalysisOptions/decideOnCounters``.
    func decision(_ timing: Timing) -> Timing {
        options.decideOnCounters ? timing.decisionView : timing
    }

    /// `measured` with every timing seen through ``decision(_:)``.
    func decisionCopy(_ measured: MeasuredCandidate) -> MeasuredCandidate {
        var copy = measured
        copy.after = measured.after.mapValues(decision)
        copy.writesBefore = measured.writesBefore.mapValues(decision)
        return copy
    }

    /// Which writes' added wall-clock time a reported score counts: with decisions on the counters, only
    /// the writes the counters show doing measurably more work with the index; else all.
    var countsWrite: ((TimingChange) -> Bool)? {
        guard options.decideOnCounters, options.costSource == .wallClock else { return nil }
        return { [self] change in decision(change.after).isSlower(than: decision(change.before)) }
    }

    /// The score of `changes` as the selection decides (every timing through ``decision(_:)``), with no
    /// write left out: whether a pick or a join's set measurably saves enough.
    func decidedScore(_ changes: [TimingChange]) -> CandidateScore {
        CandidateScore(changes: changes.map { change in
            var seen = change
            seen.before = decision(change.before)
            seen.after = decision(change.after)
            return seen
        }, profiles: profiles)
    }

    /// ``minimumBenefit`` in the selection's terms (``decision(_:)``).
    var decisionMinimumBenefit: Double { minimumBenefit(seenThrough: decision) }

    /// The smallest frequency-weighted saving, in seconds, worth recommending an index (a schema change) for:
    /// `minimumBenefitShare` of the workload's measured time with the indexes chosen so far, and at least 1 ms.
    var minimumBenefit: Double { minimumBenefit(seenThrough: { $0 }) }

    /// ``minimumBenefit`` with each statement's timing seen through `view`.
    func minimumBenefit(seenThrough view: (Timing) -> Timing) -> Double {
        let total = profiles.filter(\.isUsable).reduce(0) { $0 + $1.weight * (($1.current ?? $1.timingBefore).map(view)?.medianSeconds ?? 0) }
        return max(AnalysisOptions.minimumBenefitFloorSeconds, total * options.minimumBenefitShare)
    }

    /// "S3" for the statement with fingerprint `id` (its position in the report).
    func label(of id: String) -> String {
        profiles.firstIndex { $0.statement.fingerprint.id == id }.map { "S\($0 + 1)" } ?? id
    }

    /// Re-plans the statements on `table` and re-times those whose plan changed and the table's writes,
    /// updating each profile's current timing and plan.
    /// Re-plans and re-times `table`'s statements after `index` was built: those whose plan changed, and
    /// its writes. A statement is the index's user only when its new plan uses the index: a plan that
    /// changed to another index is timed (its change shows) but not claimed for this one.
    mutating func reprofile(table: String, index: String) -> [TimingChange] {
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        var changes: [TimingChange] = []
        for (position, profile) in profiles.enumerated() where profile.isUsable {
            guard let shape = profile.shape, shape.access(to: table) != nil else { continue }
            let plan = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)
            let planChanged = plan?.steps != profile.currentPlan?.steps
            let writesTable = profile.writtenTables.contains(table.sqlFolded)
            guard planChanged || writesTable, let before = profile.current,
                  let after = try? timer.time(profile.executions, isWrite: profile.isWrite) else { continue }
            let usesIndex = plan?.indexesUsed.contains { $0.sqlFolded == index.sqlFolded } ?? false
            changes.append(TimingChange(position: position, before: before, after: after, planBefore: profile.currentPlan,
                                        planAfter: plan, isUser: planChanged && usesIndex))
            profile.current = after
            profile.currentPlan = plan
        }
        return changes
    }

    /// Positions of the profiles whose what-if plan uses `candidate` when `chosen` also exist.
    private func whatIfUsers(of candidate: IndexCandidate, chosen: [IndexCandidate], whatIf: WhatIfPlanner) -> [Int] {
        whatIfUse(of: candidate, chosen: chosen, whatIf: whatIf).users
    }

    /// The profiles whose what-if plan uses `candidate`, and how many WHERE terms those plans resolve through it.
    func whatIfUse(of candidate: IndexCandidate, chosen: [IndexCandidate], whatIf: WhatIfPlanner)
        -> (users: [Int], terms: Int, plans: [Int: String]) {
        var users: [Int] = []
        var terms = 0
        var plans: [Int: String] = [:]
        let folded = candidate.table.sqlFolded
        let table = schema.table(named: candidate.table)
        for position in statementsByTable[folded] ?? [] {
            let profile = profiles[position]
            guard let accesses = profile.shape?.tables.filter({ $0.table.sqlFolded == folded }),
                  accesses.contains(where: { PlausibleUse.could(candidate, serve: $0, table: table, hasStatistics: schema.hasStatistics) })
            else { continue }
            // Only the chosen indexes on the statement's own tables can change its plan.
            let tables = Set((profile.shape?.tables ?? []).map(\.table.sqlFolded))
            guard let (plan, names) = try? whatIf.plan(for: profile.planSQL, bindings: profile.planBindings,
                                                      with: chosen.filter { tables.contains($0.table.sqlFolded) } + [candidate]),
                  let name = names.last?.sqlFolded else { continue }
            let uses = plan.findings.filter { $0.index?.sqlFolded == name }
            if !uses.isEmpty {
                users.append(position)
                plans[position] = EquivalentCandidates.signature(of: plan, index: name)
                terms += uses.reduce(0) { $0 + ($1.constraints.map { $0.components(separatedBy: " AND ").count } ?? 0) }
            }
        }
        return (users, terms, plans)
    }


    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when the snapshot could not be put
    ///   back; any other failure is reported on the candidate.
    mutating func measure(_ candidate: IndexCandidate, users: [Int], measurer: CandidateMeasurer,
                                  positions: Set<Int>? = nil) throws -> MeasuredCandidate? {
        let writes = profiles.indices.filter { profiles[$0].isUsable && profiles[$0].writtenTables.contains(candidate.table.sqlFolded) }
        do {
            var result = try measurer.measure(candidate, name: indexName(for: candidate, taken: takenNames, base: "indexadvisor_candidate"), users: users, writes: writes,
                                              profiles: profiles, positions: positions)
            if let table = schema.table(named: candidate.table), let lead = candidate.columns.first?.name {
                result.leadMatchedFraction = statistics.statistics(table: table, columns: [lead])?.matchedFraction
            }
            return result
        } catch let error as StoreError {
            throw error
        } catch {
            rejected.append(rejection(candidate, score: nil, reason: .buildFailed(error: "\(error)")))
            return nil
        }
    }

    /// Times `candidate`'s readers once more and keeps, per statement, the faster of the two medians (writes
    /// keep the first measurement). Nil when the index cannot be built again.
    private func remeasure(_ candidate: MeasuredCandidate, measurer: CandidateMeasurer) throws -> MeasuredCandidate? {
        let again: MeasuredCandidate
        do {
            again = try measurer.measure(candidate.candidate, name: indexName(for: candidate.candidate, taken: takenNames, base: "indexadvisor_candidate"),
                                                users: candidate.users, writes: candidate.writes, profiles: profiles,
                                         positions: Set(candidate.users))
        } catch let error as StoreError {
            throw error
        } catch {
            return nil
        }
        var merged = candidate
        for (position, timing) in again.after where candidate.users.contains(position) {
            if let first = candidate.after[position], first.medianSeconds <= timing.medianSeconds { continue }
            merged.after[position] = timing
        }
        return merged
    }

    func rejection(_ candidate: IndexCandidate, score: CandidateScore?, reason: RejectionReason) -> RejectedCandidate {
        RejectedCandidate(sql: candidate.createSQL(name: indexName(for: candidate, taken: [])), table: candidate.table,
                          columns: candidate.columns.map { $0.displayName + ($0.isDescending ? " DESC" : "") + ($0.collation.uppercased() == "BINARY" ? "" : " COLLATE " + $0.collation) },
                          partialPredicate: candidate.partialPredicate, readSecondsSaved: score?.readSecondsSaved ?? 0,
                          writeSecondsAdded: score?.writeSecondsAdded ?? 0, rejection: reason)
    }

    // MARK: Stage 3: the final state

    /// Findings about the store's own indexes, measured in the final state.
    var existingIndexes: [ExistingIndexFinding] = []
    /// Statement and statistics changes, measured.
    var queryAdvice: [QueryAdvice] = []
    /// Findings of a review without a workload.
    var schemaFindings: [SchemaFinding] = []

    // measureFinalState() and the misused drops: AnalysisRun+FinalState.swift

    /// Each index's size (`dbstat`); for an index of a sampled table, scaled to the store's rows.
    func indexSizes() -> [String: Int64] {
        var sizes: [String: Int64] = [:]
        let rows = (try? snapshot.connection.query("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'")) ?? []
        let tableOf = Dictionary(rows.compactMap { row in row[0].textValue.map { ($0, row[1].textValue ?? "") } },
                                 uniquingKeysWith: { first, _ in first })
        for row in (try? snapshot.connection.query("SELECT name, sum(pgsize) FROM dbstat GROUP BY name")) ?? [] {
            if let name = row[0].textValue, let bytes = row[1].integerValue {
                sizes[name] = tableOf[name].map { storeBytes(bytes, table: $0) } ?? bytes
            }
        }
        return sizes
    }

    /// Fails before any candidate is built when the snapshot's folder has too little room for the indexes
    /// the measurement may hold at once (see ``IndexSpaceCheck``).
    /// - Throws: ``StoreError/insufficientSpaceForIndexes(directory:neededBytes:availableBytes:candidates:)``.
    func checkSpace(for candidates: [IndexCandidate]) throws {
        guard !candidates.isEmpty else { return }
        var check = IndexSpaceCheck(connection: snapshot.connection, schema: schema)
        let needed = check.bytesNeeded(for: candidates, keptAtOnce: min(options.maxNewIndexes, candidates.count))
        let folder = snapshot.directory.url.deletingLastPathComponent()
        guard let free = options.assumedFreeBytes ?? IndexSpaceCheck.freeBytes(in: snapshot.directory.url), free < needed else { return }
        throw StoreError.insufficientSpaceForIndexes(directory: folder.path, neededBytes: needed, availableBytes: free,
                                                    candidates: candidates.count)
    }

    /// The sample `table` was measured on, if it was sampled.
    func sample(of table: String) -> SampledTable? {
        sampledTables.first { $0.table.sqlFolded == table.sqlFolded }
    }

    /// An index's size measured on the snapshot, as it would be on the store (see ``SampledTable/sizeFactor``).
    func storeBytes(_ bytes: Int64, table: String) -> Int64 {
        sample(of: table).map { Int64((Double(bytes) * $0.sizeFactor).rounded()) } ?? bytes
    }

    /// An index's build time measured on the snapshot, as it would be on the store (see ``SampledTable/buildFactor``).
    func storeBuildSeconds(_ seconds: Double, table: String) -> Double {
        sample(of: table).map { seconds * $0.buildFactor } ?? seconds
    }

    /// `ZNOTE: ZFOLDERID =, ZISARCHIVED =; ORDER BY ZUPDATEDAT DESC`.
    static func summary(_ shape: StatementShape) -> String {
        shape.tables.map { access in
            var parts: [String] = []
            let filters = access.constraints.filter { !$0.column.isEmpty }.map { constraint -> String in
                let value = constraint.isJoin ? " (join)" : ""
                let op = constraint.op == .isNull || constraint.op == .isNotNull ? " \(constraint.op.rawValue)" : " \(constraint.op.rawValue)"
                return constraint.column + op + value
            }
            if !filters.isEmpty { parts.append(filters.joined(separator: ", ")) }
            if !access.orderBy.isEmpty {
                parts.append("ORDER BY " + access.orderBy.map { term in
                    term.column + (term.collation.uppercased() == "BINARY" ? "" : " COLLATE \(term.collation)") + (term.isDescending ? " DESC" : "")
                }.joined(separator: ", "))
            }
            if access.isInserted { parts.append("INSERT") }
            if access.isUpdated { parts.append("UPDATE " + access.updatedColumns.joined(separator: ", ")) }
            if access.isDeleted { parts.append("DELETE") }
            if !access.columnFunctions.isEmpty { parts.append("calls " + access.columnFunctions.joined(separator: ", ")) }
            return access.table + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
        }.joined(separator: " · ")
    }
}
