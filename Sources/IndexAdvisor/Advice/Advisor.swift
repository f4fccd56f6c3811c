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
        try run.chooseIndexes()
        run.measureFinalState()
        report("result", 0, 0)
        return run.finish(run.result(storeURL: storeURL, started: clock), stages: stages)
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
        try run.profileStatements()
        for profile in run.profiles where profile.isUsable {
            profile.planAfter = profile.planBefore
            profile.timingAfter = profile.timingBefore
        }
        run.queryAdvice += StatisticsCheck(snapshot: run.snapshot, schema: run.schema, timer: run.timer)
            .run(profiles: run.profiles, minimumBenefit: run.minimumBenefit)
        run.queryAdvice += QueryRewrites(snapshot: run.snapshot, schema: run.schema, timer: run.timer).run(profiles: run.profiles, recommendations: [])
        report("result", 0, 0)
        return run.finish(run.result(storeURL: storeURL, started: clock), stages: stages)
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
        var result = run.finish(run.result(storeURL: storeURL, started: clock), stages: stages)
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
    var statistics: ColumnStatisticsReader
    var warnings: [String] = []
    /// The schema with the store's own row counts (the working `schema` has the sample's).
    var storeSchema: Schema?
    var sampledTables: [SampledTable] = []
    var picks: [IndexSelection.Pick] = []
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

    init(snapshot: StoreSnapshot, schema: Schema, workload: Workload, options: AnalysisOptions, stages: StageClock? = nil,
         report: @escaping (String, Int, Int) -> Void) {
        self.snapshot = snapshot
        self.schema = schema
        self.workload = workload
        self.options = options
        self.report = report
        self.profiles = workload.analysedStatements.map(StatementProfile.init)
        self.statistics = ColumnStatisticsReader(connection: snapshot.connection)
        var timer = StatementTimer(connection: snapshot.connection)
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

    // MARK: Stage 1: shapes, bound values, plans and times as the store is

    mutating func profileStatements() throws {
        let extractor = try ShapeExtractor(schema: schema)
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        var sampler = BindingSampler(connection: snapshot.connection, schema: schema, seed: options.seed)
        for (position, profile) in profiles.enumerated() {
            report("baseline", position, profiles.count)
            let sql = profile.statement.sql
            do {
                profile.shape = try extractor.shape(of: sql)
            } catch {
                // The planner below gives the real reason if the statement does not prepare at all.
                profile.notes.append("its shape could not be read (\(error)); it is timed but gets no candidates")
            }
            if let shape = profile.shape {
                profile.expressionFilters = ExpressionFilters.find(in: sql, shape: shape, schema: schema)
                if !shape.setAside.isEmpty {
                    profile.notes.append("its shape was read without \(shape.setAside.map(Self.setAsideDescription).joined(separator: " and ")): \(shape.setAside.contains { $0.hasPrefix("an IN") || $0.hasPrefix("a VALUES") } ? "the statement has more parameters than SQLite allows once its literals are parameters" : "the virtual tables that give shapes refuse \(shape.setAside.count == 1 ? "it" : "them")"); its plans and times are the whole statement's")
                }
            }
            let parameterCount = (try? snapshot.connection.prepareResolvingStandIns(sql))?.parameterCount
            let (samples, source) = sampler.samples(for: profile.statement, shape: profile.shape,
                                                    count: options.bindingSamples, parameterCount: parameterCount,
                                                    expressions: profile.expressionFilters)
            profile.bindingSource = source
            if source == .observed, profile.statement.observedBindingWeights.count == samples.count {
                // Heavy keys (by the rows the log reported, else counted here) come first, so that neither the
                // selection nor trimming for a slow statement leaves them out; with three sets or fewer, all
                // are timed and nothing need be counted.
                let reported = profile.statement.observedBindingRows
                let heaviness = samples.count <= 3 ? Array(repeating: 0, count: samples.count)
                    : reported.count == samples.count && reported.contains(where: { $0 != nil }) ? reported.map { $0 ?? 0 }
                    : HeavyKeys.matchedRows(samples: samples, shape: profile.shape, schema: schema, connection: snapshot.connection)
                let chosen = ValueSetSelection.select(weights: profile.statement.observedBindingWeights, heaviness: heaviness,
                                                      limit: Self.observedSetsTimed)
                profile.setSamples(chosen.map { samples[$0.position] }, weights: chosen.map(\.weight))
            } else {
                profile.setSamples(samples)
            }
            do {
                // The app's own text, literals in place: SQLite plans `LIMIT 20` differently from `LIMIT ?`.
                profile.planBefore = try planner.plan(for: profile.planSQL, bindings: profile.planBindings)
            } catch let error as SQLiteError {
                profile.error = "does not prepare on this store: \(error.message)"
                continue
            } catch {
                profile.error = "\(error)"
                continue
            }
            do {
                // Enough values that a pass takes about 50 ms, but at least 3 (all when there are fewer).
                if profile.samples.count > 3 {
                    let probe = try timer.time([profile.executions[0]], isWrite: profile.isWrite, giveUpAboveSeconds: 0)
                    // Decided on the counters when the selection is: a busy moment must not change the values timed.
                    let fit = Int(0.05 / max(decision(probe).medianSeconds, 1e-9))
                    profile.trimSamples(to: max(3, min(profile.samples.count, fit)))
                }
                profile.timingBefore = try timer.time(profile.executions, isWrite: profile.isWrite)
                profile.current = profile.timingBefore
                profile.currentPlan = profile.planBefore
            } catch MeasurementError.failed(let error) where error.code == .corrupt || error.code == .notADatabase {
                throw StoreError.sqlite(path: snapshot.storeURL.path, error: error)
            } catch {
                profile.error = "could not be timed: \(error)"
            }
            addNotes(to: profile)
        }
        let failed = profiles.filter { $0.error != nil }
        for profile in failed {
            let position = profiles.firstIndex { $0 === profile }.map { "S\($0 + 1)" } ?? profile.statement.fingerprint.id
            warnings.append("\(position) (\(SQLText.oneLine(profile.statement.text, limit: 80))) \(profile.error!)")
        }
        if profiles.allSatisfy({ !$0.isUsable }) {
            throw WorkloadError.noStatementAnalysable(reasons: failed.map { profile in
                let location = profile.statement.sources.first.map { "\($0.file):\($0.firstLine)" } ?? "workload"
                return "(\(location)) \(profile.error ?? "is not analysable")"
            })
        }
    }

    /// How a part of a statement set aside for its shape (see `MirrorText`) is named in its note.
    static func setAsideDescription(_ part: String) -> String {
        switch part {
        case "RETURNING": return "its RETURNING clause (it only reads the rows written)"
        case "ON CONFLICT": return "its ON CONFLICT clause (the columns its DO UPDATE sets count as updated)"
        default: return "all but the first items of \(part)"
        }
    }

    /// The most observed value sets timed per statement.
    static let observedSetsTimed = 32

    private func addNotes(to profile: StatementProfile) {
        guard let shape = profile.shape else { return }
        for sort in shape.unindexableSorts {
            profile.notes.append("ORDER BY \(sort.column) COLLATE \(sort.collation): \(sort.reason). Sort with a binary comparator instead (in SwiftData, `SortDescriptor(…, comparator: .lexical)`; in Core Data, `compare:`).")
        }
        let measured = profile.timingBefore.map { " It takes \(Figures.duration($0.medianSeconds)) per execution here, ×\(Figures.count(profile.statement.count)) in the workload." } ?? ""
        for access in shape.tables {
            for function in access.columnFunctions where function.sqlFolded.hasPrefix("nscoredata") {
                profile.notes.append("\(access.table) is filtered with \(function) (Core Data's CONTAINS/LIKE/MATCHES with [c]/[d] options): a substring or case-insensitive search that no B-tree index can serve.\(measured) Keep a normalised copy of the text and match it with BEGINSWITH, or use full-text search (FTS5).")
            }
            for function in access.columnFunctions where ["instr", "lower", "upper"].contains(function.sqlFolded) {
                profile.notes.append("\(access.table) is filtered through \(function)(…) on a column: an index on the column cannot serve it.\(measured) For substring search use full-text search (FTS5); for case-insensitive matching, a NOCASE column or index.")
            }
            for constraint in access.constraints where constraint.op == .like || constraint.op == .glob {
                guard let parameter = constraint.parameter, let pattern = profile.samples.first.flatMap({ parameter - 1 < $0.count ? $0[parameter - 1].textValue : nil }) else { continue }
                let wildcards: Set<Character> = constraint.op == .like ? ["%", "_"] : ["*", "?", "["]
                if let first = pattern.first, wildcards.contains(first) {
                    profile.notes.append("\(constraint.column) \(constraint.op.rawValue) '\(pattern)' starts with a wildcard: a substring search that no B-tree index can serve, so SQLite reads every row.\(measured) Full-text search (an FTS5 table over \(constraint.column)) serves it.")
                }
            }
        }
        if !shape.standIns.isEmpty {
            profile.notes.append("timed with stand-ins for \(shape.standIns.joined(separator: ", ")), which only the app's own connection registers; their cost here approximates the real one")
        }
    }

    // MARK: Stage 2: candidates, what-if, measurement, greedy selection

    mutating func chooseIndexes() throws {
        report("candidates", 0, 0)
        candidatesGenerated = true
        var byTable: [String: [Int]] = [:]
        for (position, profile) in profiles.enumerated() where profile.isUsable {
            for table in Set((profile.shape?.tables ?? []).map(\.table.sqlFolded)) { byTable[table, default: []].append(position) }
        }
        statementsByTable = byTable
        statistics.prefetch(candidateStatisticsRequests(), workers: Self.statisticsWorkers, open: snapshot.openReader)
        var generator = CandidateGenerator(schema: schema, statistics: statistics)
        var origins: [String: IndexCandidate] = [:]
        var order: [String] = []
        /// The statement (profile position) that proposed each candidate first.
        var proposer: [String: Int] = [:]
        for (position, profile) in profiles.enumerated() where profile.isUsable && profile.deservesCandidates {
            for access in profile.shape?.tables ?? [] {
                let setAsideBefore = generator.setAside.count
                let generated = generator.candidates(for: access, observed: profile.statement.observedBindings, samples: profile.samples)
                candidatesProposed[position, default: 0] += generated.count + generator.setAside.count - setAsideBefore
                for candidate in generated where origins[candidate.key] == nil {
                    origins[candidate.key] = candidate
                    proposer[candidate.key] = position
                    order.append(candidate.key)
                }
            }
        }
        for (position, profile) in profiles.enumerated() where profile.isUsable && profile.deservesCandidates {
            let expressions = generator.expressionCandidates(for: profile.expressionFilters)
            candidatesProposed[position, default: 0] += expressions.count
            for candidate in expressions where origins[candidate.key] == nil {
                origins[candidate.key] = candidate
                proposer[candidate.key] = position
                order.append(candidate.key)
            }
        }
        for candidate in generator.sharedOrderCandidates(excluding: Set(order)) {
            origins[candidate.key] = candidate
            order.append(candidate.key)
        }
        statistics = generator.statistics
        for (candidate, reason) in generator.setAside where origins[candidate.key] == nil {
            rejected.append(rejection(candidate, score: nil, reason: reason))
        }
        let whatIf = try WhatIfPlanner(schema: schema)
        // Every statement's basic candidates before any wider variant, statements taking turns by the time
        // they could save, so that the budget cannot starve the obvious index of a hot statement. The order
        // comes first, and the what-if planner is asked in that order only until the measuring budget is
        // filled with candidates some statement would use (and that plan unlike each other): asking about
        // every candidate for every statement that could use it grows with the square of the workload
        // (issue 18: 3,000 statements spent 108 s there).
        let items = order.enumerated().map { index, key in
            let candidate = origins[key]!
            let statement = proposer[key]
            let access = statement.flatMap { profiles[$0].shape?.access(to: candidate.table) }
            return CandidateOrder.Item(index: index, proposer: statement, isBasic: CandidateOrder.isBasic(candidate, for: access))
        }
        let ordered = CandidateOrder.order(items) { position in
            // On the counters when the selection decides on them: which candidates fit in the measured budget
            // must not follow the machine's load either.
            profiles[position].weight * (profiles[position].timingBefore.map(decision)?.medianSeconds ?? 0)
        }.map { order[$0] }
        var pool: [(IndexCandidate, [Int])] = []
        var termsUsed: [String: Int] = [:]
        var whatIfPlans: [String: [Int: String]] = [:]
        var planGroups = Set<String>()
        var asked = 0
        for key in ordered {
            if planGroups.count >= options.maxCandidatesMeasured { break }
            asked += 1
            let candidate = origins[key]!
            if schema.hasStatistics, let table = schema.table(named: candidate.table) {
                whatIf.statistics[key] = statistics.statRow(table: table, columns: candidate.columns.compactMap(\.name))
            }
            let use = whatIfUse(of: candidate, chosen: [], whatIf: whatIf)
            termsUsed[key] = use.terms
            whatIfPlans[key] = use.plans
            if !use.users.isEmpty {
                pool.append((candidate, use.users))
                planGroups.insert(EquivalentCandidates.groupKey(candidate, plans: use.plans))
            }
        }
        // One build per set of equal what-if plans (issue 18): the others would measure the same work again.
        let equivalent = EquivalentCandidates.choose(pool.map(\.0), plans: pool.map { whatIfPlans[$0.0.key] ?? [:] }) { candidate in
            guard let table = schema.table(named: candidate.table), let lead = candidate.columns.first?.name else { return nil }
            return statistics.statistics(table: table, columns: [lead])?.matchedFraction
        }
        for (other, kept) in equivalent.leftOut.sorted(by: { $0.key < $1.key }) {
            rejected.append(rejection(pool[other].0, score: nil, reason: "not built: every statement it serves gets the same what-if plan as with \(indexName(for: pool[kept].0, taken: []))\(pool[kept].0.columns.count < pool[other].0.columns.count ? ", which has fewer columns" : ", whose leading column is as selective or more")"))
        }
        pool = equivalent.kept.map { pool[$0] }
        // Past the budget, the candidates not asked about wait too: they count for the statement that proposed them.
        for key in ordered.dropFirst(asked) {
            rejected.append(rejection(origins[key]!, score: nil, reason: "not measured: more than \(options.maxCandidatesMeasured) candidates (--max-candidates)"))
            if let statement = proposer[key] { unmeasuredCandidates[statement, default: 0] += 1 }
        }
        try checkSpace(for: pool.prefix(options.maxCandidatesMeasured).map(\.0))
        let measurer = CandidateMeasurer(snapshot: snapshot, timer: screeningTimer, storeHasStatistics: schema.hasStatistics,
                                         timesWritesBefore: !decidesOnCounters)
        var measured: [MeasuredCandidate] = []
        var measuredCount = 0
        for (offset, (candidate, users)) in pool.prefix(options.maxCandidatesMeasured).enumerated() {
            // The pool is in order of what each statement could save: past the budget, the rest wait.
            if isOverBudget { budgetSpent = true; break }
            report("measuring candidates", offset, min(pool.count, options.maxCandidatesMeasured))
            measuredCount = offset + 1
            if var result = try measure(candidate, users: users, measurer: measurer) {
                result.termsUsed = termsUsed[candidate.key] ?? 0
                result.whatIfPlans = whatIfPlans[candidate.key] ?? [:]
                measured.append(result)
            }
        }
        for (candidate, users) in pool.prefix(options.maxCandidatesMeasured).dropFirst(measuredCount) {
            rejected.append(rejection(candidate, score: nil, reason: "not measured: the time budget (--time-budget \(Int(options.timeBudgetSeconds ?? 0)) s) was spent on candidates for heavier statements"))
            for position in users { unmeasuredCandidates[position, default: 0] += 1 }
        }
        for (candidate, users) in pool.dropFirst(options.maxCandidatesMeasured) {
            rejected.append(rejection(candidate, score: nil, reason: "not measured: more than \(options.maxCandidatesMeasured) candidates (--max-candidates)"))
            for position in users { unmeasuredCandidates[position, default: 0] += 1 }
        }

        var names = takenNames
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
                rejected.append(rejection(other.candidate, score: nil, reason: "a left prefix of the recommended \(wider.name), which serves the same lookups"))
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
            // Candidates that serve the same statements, none of them measurably slower by more than 10 % (runs
            // apart by their interquartile ranges and 10 %), and save within 10 % as much in all (give or take their weighted
            // interquartile widths) are equal as far as timing can tell. Among them, the fixed rules of ``TieBreak`` decide.
            // The weighted interquartile width of a candidate's reader timings: how far its net benefit can
            // move from one run to the next on this machine, so a difference inside it is not a difference.
            func spread(_ candidate: (MeasuredCandidate, CandidateScore)) -> Double {
                candidate.0.users.reduce(0) { sum, position in
                    sum + (candidate.0.after[position].map { $0.p75Seconds - $0.p25Seconds } ?? 0) * profiles[position].weight
                }
            }
            func isNear(_ other: (MeasuredCandidate, CandidateScore), to top: (MeasuredCandidate, CandidateScore), share: Double) -> Bool {
                other.1.hasSignificantGain && other.1.netSeconds >= minimumBenefit
                    && other.1.netSeconds >= top.1.netSeconds * share - spread(top) - spread(other)
                    && Set(other.0.users).isSuperset(of: top.0.users)
            }
            func isEqual(_ other: (MeasuredCandidate, CandidateScore), to top: (MeasuredCandidate, CandidateScore), share: Double) -> Bool {
                isNear(other, to: top, share: share)
                    && top.0.users.allSatisfy { position in
                        guard let mine = other.0.after[position], let theirs = top.0.after[position] else { return false }
                        return !(mine.isSlower(than: theirs) && mine.medianSeconds > theirs.medianSeconds * 1.1)
                    }
            }
            func preferred(_ a: (MeasuredCandidate, CandidateScore), _ b: (MeasuredCandidate, CandidateScore)) -> Bool {
                TieBreak.prefers(a.0, b.0) { profiles[$0].weight }
            }
            var top = leader
            var equals = eligible.filter { isEqual($0, to: top, share: 0.9) }
            // A near tie (within 25 %) that the measurements split against the candidate the order above
            // prefers is timed again, both candidates once more, each statement keeping the faster of its two
            // medians: the machine's load only ever slows a run, so one busy moment does not decide the pick.
            // (Not when deciding on counters: they do not move with the machine's load.)
            if !options.decideOnCounters && options.costSource == .wallClock,
               let favourite = eligible.filter({ isNear($0, to: top, share: 0.75) || $0.0.candidate.key == top.0.candidate.key }).min(by: preferred),
               favourite.0.candidate.key != top.0.candidate.key,
               !equals.contains(where: { $0.0.candidate.key == favourite.0.candidate.key }),
               let again = try remeasure(favourite.0, measurer: measurer), let topAgain = try remeasure(top.0, measurer: measurer) {
                let contenders = [again, topAgain].map { (decisionCopy($0), CandidateScore($0, profiles: profiles, view: decision)) }
                for contender in contenders {
                    if let index = measured.firstIndex(where: { $0.candidate.key == contender.0.candidate.key }) { measured[index] = contender.0 }
                }
                top = contenders.max { $0.1.netSeconds < $1.1.netSeconds }!
                equals = contenders.filter { isEqual($0, to: top, share: 0.9) }
                    + eligible.filter { candidate in isEqual(candidate, to: top, share: 0.9) && !contenders.contains { $0.0.candidate.key == candidate.0.candidate.key } }
            }
            // A candidate that serves the leader's statements and is measurably faster on them (by more than
            // 10 %, runs apart, and by at least the minimum benefit in all) replaces it unless its extra write time is real: beyond the writes' weighted
            // interquartile widths. The leader is chosen by net time, and between two indexes of one table the
            // write figures are the noisy part (microseconds per insert), so a covering index that reads 4×
            // faster must not lose to a narrower one on a write difference inside the noise.
            func writeSpread(_ candidate: MeasuredCandidate) -> Double {
                candidate.writes.reduce(0) { sum, position in
                    let after = candidate.after[position].map { $0.p75Seconds - $0.p25Seconds } ?? 0
                    let before = (candidate.writesBefore[position] ?? profiles[position].current.map(decision)).map { $0.p75Seconds - $0.p25Seconds } ?? 0
                    return sum + (after + before) * profiles[position].weight
                }
            }
            func dominates(_ other: (MeasuredCandidate, CandidateScore), _ top: (MeasuredCandidate, CandidateScore)) -> Bool {
                guard other.0.candidate.key != top.0.candidate.key, other.1.hasSignificantGain,
                      Set(other.0.users).isSuperset(of: top.0.users) else { return false }
                var readGain = 0.0
                for position in top.0.users {
                    guard let mine = other.0.after[position], let theirs = top.0.after[position] else { return false }
                    if mine.isSlower(than: theirs) && mine.medianSeconds > theirs.medianSeconds * 1.1 { return false }
                    if theirs.isSlower(than: mine) && theirs.medianSeconds > mine.medianSeconds * 1.1 {
                        readGain += (theirs.medianSeconds - mine.medianSeconds) * profiles[position].weight
                    }
                }
                let writeExtra = other.1.writeSecondsAdded - top.1.writeSecondsAdded
                // Worth a switch only when the reads gain at least what a new index must save: two orders of
                // the same equality columns differ by noise on microsecond lookups, not by design.
                return readGain >= minimumBenefit && readGain > writeExtra - writeSpread(other.0) - writeSpread(top.0)
            }
            if let better = eligible.filter({ dominates($0, top) }).max(by: { $0.1.netSeconds < $1.1.netSeconds }) {
                top = better
                equals = eligible.filter { isEqual($0, to: top, share: 0.9) }
            }
            let (best, _) = equals.min(by: preferred) ?? top
            measured.removeAll { $0.candidate.key == best.candidate.key }
            let name = indexName(for: best.candidate, taken: names)
            names.insert(name.sqlFolded)
            var changed = Set<Int>()
            var replanned = Set<Int>()
            do {
                let kept = try measurer.measure(best.candidate, name: name, users: best.users, writes: best.writes,
                                                profiles: profiles, keep: true, positions: [])
                // What the pick really did, with every index chosen so far in place: re-plan the table's
                // statements, re-time those whose plan changed and the table's writes.
                let changes = reprofile(table: best.candidate.table, index: name)
                let score = CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite)
                let decided = CandidateScore(changes: changes.map { change in
                    var seen = change
                    seen.before = decision(change.before)
                    seen.after = decision(change.after)
                    return seen
                }, profiles: profiles)
                if decided.hasSignificantGain && decided.netSeconds >= minimumBenefit {
                    picks.append(IndexSelection.Pick(measured: kept, score: score, name: name))
                    changed = Set(changes.map(\.position))
                    replanned = Set(changes.filter { $0.planBefore?.steps != $0.planAfter?.steps }.map(\.position))
                } else {
                    try measurer.drop(name)
                    for change in changes {
                        profiles[change.position].current = change.before
                        profiles[change.position].currentPlan = change.planBefore
                    }
                    rejected.append(rejection(best.candidate, score: score, reason: "built beside \(picks.isEmpty ? "the existing indexes" : picks.map(\.name).joined(separator: ", ")), it did not save measurably more than \(Figures.duration(minimumBenefit)) per workload"))
                }
            } catch let error as StoreError {
                throw error
            } catch {
                warnings.append("index \(name) could not be built: \(error)")
            }
            // Re-measure the candidates that touch what changed, against the new state: a statement they serve
            // whose time changed, or a write whose plan changed. A write the pick only made dearer (one more
            // index to maintain) keeps the candidate's own measured cost, its time with the candidate less its
            // time just before (`writesBefore`): index maintenance adds up index by index, so rebuilding every
            // candidate of the table after each pick only to see the same difference again would cost a build
            // per candidate per pick (issue 18).
            guard !changed.isEmpty else { continue }
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
                    rejected.append(rejection(other.candidate, score: nil, reason: "the planner no longer uses it once \(picks.map(\.name).joined(separator: ", ")) \(picks.count == 1 ? "exists" : "exist")"))
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
            measured = next
        }
        if schema.coreData != nil {
            alternatives = AlternativeSelection.choose(from: measured.filter { !isModelDeclarable($0.candidate) },
                                                       profiles: profiles, minimumBenefit: decisionMinimumBenefit, view: decision,
                                                       countsWrite: countsWrite)
            let chosen = Set(alternatives.map(\.measured.candidate.key))
            measured.removeAll { chosen.contains($0.candidate.key) }
        }
        // The reason follows the decision: on SQLite's counters when the selection decides on them, and then
        // says so, since the report's own figures are wall-clock.
        let byCounters = decidesOnCounters ? " by SQLite's work counters" : ""
        let minimum = decisionMinimumBenefit
        for other in measured {
            let score = CandidateScore(other, profiles: profiles, countsWrite: countsWrite)
            let decided = CandidateScore(other, profiles: profiles, view: decision)
            let reason: String
            let slower = decided.effects.filter { $0.isSignificant && $0.after.medianSeconds > $0.before.medianSeconds }
                .map { "\(label(of: $0.statementID)) \(Figures.change($0.before.medianSeconds, $0.after.medianSeconds, significant: true))" }
            if picks.count >= options.maxNewIndexes {
                reason = "budget reached (--max-indexes \(options.maxNewIndexes))"
            } else if decided.hasSignificantLoss && decided.readSecondsSaved <= 0 {
                reason = "it makes statements slower\(byCounters): " + slower.joined(separator: ", ")
            } else if !isModelDeclarable(other.candidate) && !decided.hasSignificantLoss && decided.hasSignificantGain {
                reason = "no model can declare it (a partial, expression, covering or Core Data bookkeeping index on an entity table), and another form measured as well"
            } else if !decided.hasSignificantGain {
                reason = byCounters.isEmpty ? "no statement got measurably faster (differences inside the noise)"
                    : "no statement got measurably faster by SQLite's work counters (under 5 %)"
            } else if decided.netSeconds < minimum {
                let churn = churnNotes(for: other.candidate).first.map { " " + $0.components(separatedBy: ", and each")[0] + "." } ?? ""
                reason = decided.netSeconds <= 0
                    ? "its cost\(byCounters) (writes\(slower.isEmpty ? "" : ", " + slower.joined(separator: ", "))) outweighs the time it saves.\(churn)"
                    : "it saves \(Figures.duration(decided.netSeconds)) per workload\(byCounters), below the \(Figures.duration(minimum)) worth a schema change"
            } else if budgetSpent {
                reason = "not chosen: the time budget (--time-budget \(Int(options.timeBudgetSeconds ?? 0)) s) ran out during the selection"
            } else {
                reason = "budget reached (--max-indexes-per-table \(options.maxIndexesPerTable)\(options.maxIndexBytes.map { ", --max-index-bytes \($0)" } ?? ""))"
            }
            rejected.append(rejection(other.candidate, score: score, reason: reason))
        }
    }

    /// True when the recommended set may hold `candidate`: on a Core Data or SwiftData entity table, only an
    /// index a model can declare (``SwiftDataCode/isDeclarable(_:)``); on any other table, every form.
    /// The other forms on entity tables compete as ``alternatives``.
    func isModelDeclarable(_ candidate: IndexCandidate) -> Bool {
        schema.coreData?.rootEntity(ofTable: candidate.table) == nil || SwiftDataCode.isDeclarable(candidate)
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

    /// ``minimumBenefit`` in the selection's terms (``decision(_:)``).
    var decisionMinimumBenefit: Double { minimumBenefit(seenThrough: decision) }

    /// The smallest frequency-weighted saving, in seconds, worth recommending an index (a schema change) for:
    /// `minimumBenefitShare` of the workload's measured time with the indexes chosen so far, and at least 1 ms.
    var minimumBenefit: Double { minimumBenefit(seenThrough: { $0 }) }

    /// ``minimumBenefit`` with each statement's timing seen through `view`.
    func minimumBenefit(seenThrough view: (Timing) -> Timing) -> Double {
        let total = profiles.filter(\.isUsable).reduce(0) { $0 + $1.weight * (($1.current ?? $1.timingBefore).map(view)?.medianSeconds ?? 0) }
        return max(0.001, total * options.minimumBenefitShare)
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
    private func whatIfUse(of candidate: IndexCandidate, chosen: [IndexCandidate], whatIf: WhatIfPlanner)
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
    private mutating func measure(_ candidate: IndexCandidate, users: [Int], measurer: CandidateMeasurer,
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
            rejected.append(rejection(candidate, score: nil, reason: "could not be built on the snapshot: \(error)"))
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

    private func rejection(_ candidate: IndexCandidate, score: CandidateScore?, reason: String) -> RejectedCandidate {
        RejectedCandidate(sql: candidate.createSQL(name: indexName(for: candidate, taken: [])), table: candidate.table,
                          columns: candidate.columns.map { $0.displayName + ($0.isDescending ? " DESC" : "") + ($0.collation.uppercased() == "BINARY" ? "" : " COLLATE " + $0.collation) },
                          partialPredicate: candidate.partialPredicate, readSecondsSaved: score?.readSecondsSaved ?? 0,
                          writeSecondsAdded: score?.writeSecondsAdded ?? 0, reason: reason)
    }

    /// A name in the store's own convention: SwiftData's `Z_<Entity>_SwiftDataIndexOnBinary…` for an
    /// entity table when the index can be an `#Index`, else `Z_<Entity>_…` or `idx_<table>_<columns>`.
    /// Every name in the store's schema (tables, views, indexes, triggers share one namespace), folded.
    var takenNames: Set<String> {
        Set(schema.tables.map(\.name.sqlFolded) + schema.views.map(\.name.sqlFolded) + schema.indexes.map(\.name.sqlFolded) + schema.triggerNames.map(\.sqlFolded))
    }

    func indexName(for candidate: IndexCandidate, taken: Set<String>, base fixed: String? = nil) -> String {
        if let fixed {
            var name = fixed
            var suffix = 2
            while taken.contains(name.sqlFolded) { name = "\(fixed)_\(suffix)"; suffix += 1 }
            return name
        }
        var base: String
        let columns = candidate.columns.map(\.displayName)
        if let entity = schema.coreData?.rootEntity(ofTable: candidate.table) {
            let naming = SwiftDataNaming(schema: schema)
            let properties = candidate.columns.map { column in
                column.name.map { naming.propertyName(forColumn: $0).name }
                    ?? column.displayName.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).joined(separator: "_")
            }
            if SwiftDataCode.isDeclarable(candidate) {
                base = SwiftDataNaming.indexName(entity: entity.name, properties: properties)
            } else {
                base = "Z_\(entity.name)_" + properties.joined(separator: "_") + (candidate.partialPredicate == nil ? "" : "_partial")
            }
        } else {
            // Letters, digits and single underscores: `lower(t.name)` becomes `lower_name`.
            let words = ([candidate.table] + columns).flatMap { part in
                part.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
            }
            base = "idx_" + words.joined(separator: "_") + (candidate.partialPredicate == nil ? "" : "_partial")
        }
        if base.count > 120 { base = String(base.prefix(120)) }
        var name = base
        var suffix = 2
        while taken.contains(name.sqlFolded) || picks.contains(where: { $0.name.sqlFolded == name.sqlFolded }) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        return name
    }

    // MARK: Stage 3: the final state

    /// Findings about the store's own indexes, measured in the final state.
    var existingIndexes: [ExistingIndexFinding] = []
    /// Statement and statistics changes, measured.
    var queryAdvice: [QueryAdvice] = []
    /// Findings of a review without a workload.
    var schemaFindings: [SchemaFinding] = []

    mutating func measureFinalState() {
        if budgetSpent {
            let left = rejected.filter { $0.reason.contains("--time-budget") }.count
            warnings.append("the time budget (--time-budget \(Int(options.timeBudgetSeconds ?? 0)) s) ran out: \(left) candidate\(left == 1 ? "" : "s") not measured or not chosen (listed among the rejected candidates); the statements that could save most were measured first")
        }
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        // A pick that a later pick made unnecessary: no final plan uses it. Drop it, keep its write cost off.
        var finalPlans: [Int: QueryPlan] = [:]
        for (position, profile) in profiles.enumerated() where profile.isUsable {
            finalPlans[position] = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)
        }
        let usedNames = Set(finalPlans.values.flatMap(\.indexesUsed).map { $0.sqlFolded })
        for pick in picks where !usedNames.contains(pick.name.sqlFolded) {
            _ = try? snapshot.connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(pick.name))")
            let others = picks.filter { $0.name != pick.name }.map(\.name)
            rejected.append(rejection(pick.measured.candidate, score: pick.score, reason: "no statement uses it once \(others.joined(separator: ", ")) \(others.count == 1 ? "exists" : "exist")"))
        }
        let droppedTables = Set(picks.filter { !usedNames.contains($0.name.sqlFolded) }.map { $0.measured.candidate.table.sqlFolded })
        picks.removeAll { !usedNames.contains($0.name.sqlFolded) }
        snapshot.checkpoint()
        let changedTables = Set(picks.map { $0.measured.candidate.table.sqlFolded })
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
                    : (try? timer.time(profile.executions, isWrite: profile.isWrite)) ?? profile.current
            } else {
                profile.timingAfter = profile.timingBefore
            }
        }
        report("existing indexes", 0, 0)
        var review = ExistingIndexReview(schema: schema, snapshot: snapshot, timer: timer)
        review.decide = decision
        existingIndexes = review
            .review(profiles: profiles, recommendations: picks.map(\.measured.candidate), names: picks.map(\.name), sizes: indexSizes())
        applyMisusedDrops(planner: planner)
        // Statistics on top of the indexes: what ANALYZE would add to the advice's final state, workload-wide.
        report("statistics", 0, 0)
        queryAdvice += StatisticsCheck(snapshot: snapshot, schema: schema, timer: timer).run(profiles: profiles, minimumBenefit: minimumBenefit)
        // Query-side advice is measured with the whole advice applied, drops included (in a savepoint that
        // is rolled back, so the report still has the dropped indexes' sizes): a rewrite's plan must not
        // rely on an index the same report says to drop.
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

    /// Drops, on the snapshot, the existing indexes the review found misused, and re-plans and re-times
    /// the statements of their tables: the final state, and the totals, are the advice's, drops included.
    mutating func applyMisusedDrops(planner: QueryPlanner) {
        let misused = existingIndexes.filter { $0.kind == .misused && $0.dropSQL != nil }
        guard !misused.isEmpty else { return }
        for finding in misused { _ = try? snapshot.connection.execute(finding.dropSQL!) }
        snapshot.checkpoint()
        let tables = Set(misused.map { $0.table.sqlFolded })
        for profile in profiles where profile.isUsable {
            let touched = (profile.shape?.tables ?? []).contains { tables.contains($0.table.sqlFolded) }
                || !profile.writtenTables.isDisjoint(with: tables)
            guard touched else { continue }
            profile.planAfter = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)
            profile.timingAfter = (try? timer.time(profile.executions, isWrite: profile.isWrite)) ?? profile.timingAfter
        }
    }

    // MARK: Result

    func result(storeURL: URL, started: UInt64) -> AnalysisResult {
        let naming = SwiftDataNaming(schema: schema)
        var statistics = self.statistics
        statistics.prefetch(resultStatisticsRequests(), workers: Self.statisticsWorkers, open: snapshot.openReader)
        let sizes = indexSizes()
        let recommendations = picks.enumerated().map { rank, pick -> Recommendation in
            let candidate = pick.measured.candidate
            let entity = schema.coreData?.rootEntity(ofTable: candidate.table)?.name
            let (columns, guessed) = recommendedColumns(candidate, naming: naming)
            let table = schema.table(named: candidate.table)
            let prefixStatistics = table.map { table in
                (1...candidate.columns.count).compactMap { length in
                    statistics.statistics(table: table, columns: candidate.columns.prefix(length).compactMap(\.name))
                }
            } ?? []
            return Recommendation(
                rank: rank + 1, name: pick.name, table: candidate.table, columns: columns,
                partialPredicate: candidate.partialPredicate,
                sql: candidate.createSQL(name: pick.name, ifNotExists: true), entity: entity,
                swiftDataIndex: entity.flatMap { SwiftDataCode.indexMacro(entity: $0, columns: columns, candidate: candidate) },
                keyPathsAreGuessed: guessed, buildSeconds: storeBuildSeconds(pick.measured.buildSeconds, table: candidate.table),
                bytes: storeBytes(pick.measured.bytes, table: candidate.table),
                readSecondsSaved: pick.score.readSecondsSaved, writeSecondsAdded: pick.score.writeSecondsAdded,
                netSecondsSaved: pick.score.netSeconds,
                sampleScale: sample(of: candidate.table)?.sizeFactor,
                sampleBuildSeconds: sample(of: candidate.table).map { _ in pick.measured.buildSeconds },
                sampleBytes: sample(of: candidate.table).map { _ in pick.measured.bytes },
                effects: pick.score.effects, columnStatistics: prefixStatistics,
                notes: churnNotes(for: candidate) + untimedWriteNotes(for: candidate))
        }
        let pickNames = Set(picks.map { $0.name.sqlFolded })
        let statements = profiles.enumerated().map { position, profile -> StatementReport in
            let used = (profile.planAfter?.indexesUsed ?? []).filter { pickNames.contains($0.sqlFolded) }
            var notes = profile.notes
            if profile.isUsable, profile.planBefore?.hasProblem == true, used.isEmpty {
                notes.append(noRecommendationReason(for: position))
            }
            return StatementReport(
                id: profile.statement.fingerprint.id, sql: profile.statement.text,
                parameterizedSQL: profile.statement.sql, valueSetsSeen: valueSetsSeen(profile), valueSetsTimed: profile.samples.isEmpty ? nil : profile.samples.count,
                timedExecutions: profile.isUsable ? profile.executions.map { TimedExecution(sql: $0.sql, values: $0.values, weight: $0.weight) } : nil,
                kind: profile.statement.kind,
                count: profile.statement.count, tables: profile.shape?.tables.map(\.table) ?? [],
                shapeSummary: profile.shape.map(Self.summary), bindingSource: profile.bindingSource.rawValue,
                planBefore: profile.planBefore, planAfter: profile.planAfter,
                timingBefore: profile.timingBefore, timingAfter: profile.timingAfter,
                weightedSecondsBefore: profile.weight * (profile.timingBefore?.medianSeconds ?? 0),
                weightedSecondsAfter: profile.weight * (profile.timingAfter?.medianSeconds ?? 0),
                observedTiming: profile.statement.observedTiming, observedRows: profile.statement.observedRows,
                usesRecommendations: used,
                notes: notes, error: profile.error)
        }
        let workloadColumns = columnsUsedByWorkload()
        let tables = schema.tables.map { table -> TableSummary in
            let columns = workloadColumns[table.name.sqlFolded] ?? []
            return TableSummary(
                name: table.name, entities: schema.coreData?.entities(inTable: table.name).map(\.name) ?? [],
                rows: storeSchema?.table(named: table.name)?.rowCount ?? table.rowCount,
                sampledRows: sampledTables.first { $0.table == table.name }?.sampledRows, columns: table.columns.count,
                indexes: table.indexes.map { IndexSummary(name: $0.name, columns: $0.columnNames, isUnique: $0.isUnique,
                                                          partialPredicate: $0.partialPredicate, bytes: sizes[$0.name]) },
                columnStatistics: columns.compactMap { statistics.statistics(table: table, columns: [$0]) })
        }
        let usable = statements.filter { $0.error == nil }
        func count(_ kind: PlanFinding.Kind, _ plan: (StatementReport) -> QueryPlan?) -> Int {
            usable.reduce(0) { $0 + (plan($1)?.findings.filter { $0.kind == kind && $0.isProblem }.count ?? 0) }
        }
        let totals = Totals(
            readSecondsBefore: usable.filter { $0.kind.isRead }.reduce(0) { $0 + $1.weightedSecondsBefore },
            readSecondsAfter: usable.filter { $0.kind.isRead }.reduce(0) { $0 + $1.weightedSecondsAfter },
            writeSecondsBefore: usable.filter { $0.kind.isWrite }.reduce(0) { $0 + $1.weightedSecondsBefore },
            writeSecondsAfter: usable.filter { $0.kind.isWrite }.reduce(0) { $0 + $1.weightedSecondsAfter },
            fullScansBefore: count(.fullTableScan, \.planBefore), fullScansAfter: count(.fullTableScan, \.planAfter),
            tempBTreeSortsBefore: count(.tempBTree, \.planBefore), tempBTreeSortsAfter: count(.tempBTree, \.planAfter),
            timesFromSample: sampledTables.isEmpty ? nil : true)
        let diagnostics = workload.diagnostics
        let housekeeping = workload.statements.filter { !$0.kind.isAnalysed }.reduce(0) { $0 + $1.count }
        let formatter = ISO8601DateFormatter()
        return AnalysisResult(
            tool: ToolInfo(name: "indexadvisor", version: IndexAdvisor.version, sqliteVersion: SQLiteConnection.libraryVersion,
                           generatedAt: formatter.string(from: Date()),
                           analysisSeconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9),
            store: StoreSummary(fileName: storeURL.lastPathComponent, bytes: snapshot.storeBytes,
                                snapshotMethod: snapshot.method.rawValue, snapshotSeconds: snapshot.copySeconds,
                                isCoreData: schema.coreData != nil, isCloudKitSynced: schema.coreData?.isCloudKitSynced ?? false,
                                hasStatistics: schema.hasStatistics, sampledTables: sampledTables, tables: tables),
            workload: WorkloadSummary(files: diagnostics.files, linesRead: diagnostics.linesRead,
                                      statementsRead: diagnostics.statementsRead, distinctStatements: workload.statements.count,
                                      analysedStatements: usable.count, skipped: diagnostics.skipped,
                                      skippedExamples: diagnostics.examples, housekeepingStatements: housekeeping),
            method: MethodSummary(
                repeats: options.repeats, minimumRunSeconds: options.minimumRunSeconds, bindingSamples: options.bindingSamples,
                statementTimeoutSeconds: options.statementTimeout, seed: options.seed, costSource: options.costSource,
                description: sampleMethod + timingMethod + " on a private snapshot of the store (SQLite \(SQLiteConnection.libraryVersion), \(schema.hasStatistics ? "with the store's sqlite_stat1" : "no sqlite_stat1, as the store")). Each value set is planned and timed as the app's own text, literals in place. Bound values: the workload's own (up to 32 distinct sets chosen over the whole input: the first, the heaviest keys by rows reported or counted here, the most frequent, and an even spread of the rest, each weighted by the executions it stands for), or up to \(options.bindingSamples) drawn from the data (at least 3; fewer for slow statements, so that a pass takes about 50 ms; seed \(options.seed)): whole rows, so values that belong together stay together; an IN list of distinct existing values; a range from a drawn row's value to the value 1 % of the table's rows later in the column's order (10 to 1,000 rows); a LIKE pattern from an existing value's first three characters; fresh keys for the INSERT's primary and unique keys. Writes run inside a savepoint that is rolled back. " + thresholdMethod),
            statements: statements, recommendations: recommendations,
            alternatives: schema.coreData == nil ? nil : alternativeIndexes(naming: naming, taken: Set(picks.map { $0.name.sqlFolded })),
            rejectedCandidates: rejected,
            existingIndexes: existingIndexes,
            uniqueness: UniquenessAudit(schema: schema, connection: snapshot.connection).audit(declared: options.uniqueRules, profiles: profiles),
            queryAdvice: queryAdvice, schemaReview: schemaFindings,
            totals: totals, warnings: snapshot.warnings + warnings)
            .describingWorkload(workload)
    }

    /// A candidate's key columns as a report shows them, with SwiftData key paths on entity tables; and
    /// whether any key path was guessed from a column name.
    func recommendedColumns(_ candidate: IndexCandidate, naming: SwiftDataNaming) -> ([RecommendedColumn], Bool) {
        let isEntityTable = schema.coreData?.rootEntity(ofTable: candidate.table) != nil
        var guessed = false
        let columns = candidate.columns.map { column -> RecommendedColumn in
            var keyPath: String?
            if isEntityTable, let name = column.name {
                let (property, isGuess) = naming.propertyName(forColumn: name)
                keyPath = "\\." + property
                guessed = guessed || isGuess
            }
            return RecommendedColumn(name: column.displayName, isDescending: column.isDescending,
                                     collation: column.collation, keyPath: keyPath)
        }
        return (columns, guessed)
    }

    /// The chosen ``alternatives`` as the report lists them.
    func alternativeIndexes(naming: SwiftDataNaming, taken: Set<String>) -> [AlternativeIndex] {
        let used = Set(profiles.flatMap { $0.planAfter?.indexesUsed ?? [] }.map(\.sqlFolded))
        var names = takenNames.union(taken)
        return alternatives.map { choice in
            let candidate = choice.measured.candidate
            let name = indexName(for: candidate, taken: names)
            names.insert(name.sqlFolded)
            let (columns, _) = recommendedColumns(candidate, naming: naming)
            let keyNames = Set(candidate.columns.compactMap { $0.name?.sqlFolded })
            let replaces = (schema.table(named: candidate.table)?.indexes ?? []).filter { index in
                !index.isUnique && !used.contains(index.name.sqlFolded)
                    && index.columns.first?.name.map { keyNames.contains($0.sqlFolded) } == true
            }.map(\.name)
            return AlternativeIndex(
                name: name, table: candidate.table, columns: columns, partialPredicate: candidate.partialPredicate,
                sql: candidate.createSQL(name: name, ifNotExists: true),
                entity: schema.coreData?.rootEntity(ofTable: candidate.table)?.name,
                readSecondsSaved: choice.score.readSecondsSaved, writeSecondsAdded: choice.score.writeSecondsAdded,
                netSecondsSaved: choice.score.netSeconds, bytes: storeBytes(choice.measured.bytes, table: candidate.table),
                buildSeconds: storeBuildSeconds(choice.measured.buildSeconds, table: candidate.table),
                effects: choice.score.effects, replaces: replaces,
                howToShip: AlternativeShipping.advice(for: candidate, naming: naming))
        }
    }

    /// Distinct value sets the workload showed for `profile`'s statement; nil when it showed none.
    func valueSetsSeen(_ profile: StatementProfile) -> Int? {
        let statement = profile.statement
        return statement.observedBindings.isEmpty ? nil : max(statement.distinctValueSets, statement.observedBindings.count)
    }

    /// How a sample was taken and what its figures mean, for the method section; empty when nothing was sampled.
    var sampleMethod: String {
        guard !sampledTables.isEmpty else { return "" }
        let tables = sampledTables.map { table in
            "\(table.table), about 1 row in \(table.step) (\(Figures.count(table.sampledRows)) of \(Figures.count(table.rows)) rows): index sizes × \(String(format: "%.2f", table.sizeFactor)), build times × \(String(format: "%.2f", table.buildFactor))"
        }.joined(separator: "; ")
        return "Measured on a deterministic sample: \(tables). Plans are the store's. Index sizes and build times are scaled to the store's rows: an index holds one entry per row, so its size grows with the rows (× rows ÷ sampled rows), and building it sorts them (× rows ÷ sampled rows × ln rows ÷ ln sampled rows). Statement and workload times are the sample's, not scaled: a scan's time grows with the table and an index search's barely, so no one factor is right; they compare plans, not the store's absolute times. "
    }

    /// The thresholds the report's sentences name, for the method section: when a difference is "within the
    /// noise", and the saving "worth a schema change" (``minimumBenefit``).
    var thresholdMethod: String {
        "\(ReportThresholds.noise) \(ReportThresholds.schemaChange(share: options.minimumBenefitShare))"
    }

    /// How each statement's time was taken, for the method section.
    var timingMethod: String {
        switch options.costSource {
        case .wallClock:
            let decided = !options.decideOnCounters ? "" : "Which candidate wins, whether a pick saves enough and how many drawn values are timed are decided on SQLite's work counters of the same runs (VM steps and page lookups, priced at \(Int(CounterCost.nanosecondsPerStep)) ns and \(Int(CounterCost.nanosecondsPerPage)) ns), which the machine's load does not move, so the same input gives the same advice; the figures shown are wall-clock. Candidates are screened on one pass each, without a warm-up (the counters need no more); a recommended index is then timed again in full with the other picks in place, so only the rejected candidates' figures are one pass's. "
            return decided + "Each time is the median of up to \(options.repeats) runs (5 when one pass over the statement's bound values takes over 50 ms, 3 over 250 ms), stopping early once at least 5 runs (3 over 50 ms) lie within 10 % of their median (each timing gives its count), after a warm-up pass (discarded, unless it read over \(StatementTimer.uncachedPassFactor) times as many pages as SQLite's page cache holds: then no run can find its pages cached either, and the warm-up is the first run), each run repeating the statement for at least \(Int(options.minimumRunSeconds * 1000)) ms and stepping through every row,"
        case .sqliteCounters:
            return "Each time is SQLite's own work counters for one pass over the statement's bound values, priced at \(Int(CounterCost.nanosecondsPerStep)) ns per virtual machine step and \(Int(CounterCost.nanosecondsPerPage)) ns per page lookup (--cost counters: the same figures on every run, not wall-clock time),"
        }
    }

    /// A note for each write to `candidate`'s table that did not run on the snapshot (every execution
    /// failed, or some did): its cost is missing from the write time above, which is then a lower bound.
    func untimedWriteNotes(for candidate: IndexCandidate) -> [String] {
        let table = candidate.table.sqlFolded
        return profiles.enumerated().compactMap { position, profile in
            guard profile.isWrite, profile.statement.tables.contains(where: { $0.sqlFolded == table }) else { return nil }
            let label = "S\(position + 1) (\(SQLText.oneLine(profile.statement.text, limit: 60)))"
            if let error = profile.error {
                return "The write cost is incomplete: \(label) was not timed: \(error)."
            }
            if let failures = profile.timingBefore?.failures, failures > 0 {
                return "The write cost is incomplete: \(failures) execution\(failures == 1 ? "" : "s") of \(label) failed on the snapshot and are not in its time."
            }
            return nil
        }
    }

    /// For each key column of `candidate` that most writes to its table change (UPDATE … SET it, weighted by
    /// frequency), a note: each such write moves the column's index entry.
    func churnNotes(for candidate: IndexCandidate) -> [String] {
        let table = candidate.table.sqlFolded
        let writes = profiles.filter { $0.isUsable && $0.writtenTables.contains(table) }
        let total = writes.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return [] }
        var notes: [String] = []
        for column in candidate.columns.compactMap(\.name) {
            let changing = writes.filter { profile in
                profile.shape?.access(to: candidate.table).map { access in
                    access.isUpdated && access.writtenColumns.contains { $0.sqlFolded == column.sqlFolded }
                } ?? false
            }.reduce(0) { $0 + $1.weight }
            let share = changing / total
            if share >= 0.3 {
                notes.append(String(format: "%@ changes on %.0f%% of the writes to %@ (UPDATE … SET it), and each such write moves its entry in this index: that cost is in the write time above.", column, share * 100, candidate.table))
            }
        }
        return notes
    }

    /// Why the statement at `position` (flagged, and using no recommendation) got no index, in words that
    /// point only at what the report holds.
    private func noRecommendationReason(for position: Int) -> String {
        let profile = profiles[position]
        let unmeasured = unmeasuredCandidates[position] ?? 0
        guard candidatesGenerated else {
            return "not analysed for indexes: the check command times the store as it is; analyze proposes and measures indexes"
        }
        if let offset = alternatives.firstIndex(where: { $0.measured.users.contains(position) }) {
            let alternative = alternatives[offset].measured
            let change = (profile.current ?? profile.timingBefore).flatMap { before in
                alternative.after[position].map { " (\(Figures.duration(before.medianSeconds)) → \(Figures.duration($0.medianSeconds)))" }
            } ?? ""
            return "no index the model can declare helps it; alternative A\(offset + 1) on \(alternative.candidate.table) (\(alternative.candidate.columns.map(\.displayName).joined(separator: ", "))\(alternative.candidate.partialPredicate.map { " WHERE " + $0 } ?? "")) does\(change): see the alternatives"
        }
        if unmeasured > 0 {
            let limit = budgetSpent ? "--time-budget \(Int(options.timeBudgetSeconds ?? 0)) s or --max-candidates \(options.maxCandidatesMeasured)" : "--max-candidates \(options.maxCandidatesMeasured)"
            return "no index recommended among the candidates measured; \(unmeasured) more that SQLite's planner would use for it \(unmeasured == 1 ? "was" : "were") not measured (\(limit); see rejected candidates)"
        }
        guard let shape = profile.shape else {
            return "no index recommended: its shape could not be read (see above), so no candidate could be proposed for it"
        }
        let tables = shape.tables
        if let small = tables.compactMap({ schema.table(named: $0.table) }).first(where: { $0.rowCount < 1000 }),
           tables.count == 1 {
            return "no index recommended: \(small.name) has only \(small.rowCount) row\(small.rowCount == 1 ? "" : "s"), so a scan is cheap"
        }
        if queryAdvice.contains(where: { $0.kind == .statistics && $0.statementID == profile.statement.fingerprint.id && $0.caveat == nil }) {
            return "no index recommended: ANALYZE statistics let SQLite use the existing indexes well (see the query advice)"
        }
        if !shape.unindexableSorts.isEmpty || tables.contains(where: { !$0.columnFunctions.isEmpty }) {
            return "no index recommended: what makes it slow is in the statement itself (see the notes above)"
        }
        if tables.allSatisfy({ $0.constraints.isEmpty && $0.orderBy.isEmpty }) && profile.expressionFilters.isEmpty {
            return "no index recommended: it filters and sorts on nothing an index can serve (it reads the whole table by design)"
        }
        if candidatesProposed[position, default: 0] == 0 {
            // An index serves =, IN, IS, IS NULL, ranges, LIKE/GLOB prefixes, IS NOT NULL (partial) and ORDER BY
            // (optoverview.html); `!=`, `IS NOT`, REGEXP and MATCH it cannot.
            let servable = tables.contains { access in
                !access.orderBy.isEmpty || access.constraints.contains { $0.op.isEquality || $0.op.isRange || [.like, .glob, .isNotNull].contains($0.op) }
            }
            let terms = Set(tables.flatMap { $0.constraints.map(\.op.rawValue) }).sorted().joined(separator: ", ")
            return servable
                ? "no index recommended: no candidate could be proposed for it, since an index on each of its filter and sort columns exists already"
                : "no index recommended: none of its terms can use an index (\(terms.isEmpty ? "no filter or sort" : terms)), so it reads the table whatever the indexes"
        }
        return "no index recommended: no candidate was used by the planner or made it measurably faster (see rejected candidates)"
    }

    /// Columns the workload filters or sorts on, per lower-cased table name.
    func columnsUsedByWorkload() -> [String: [String]] {
        var result: [String: [String]] = [:]
        for profile in profiles {
            for access in profile.shape?.tables ?? [] {
                var columns = result[access.table.sqlFolded] ?? []
                for name in access.constraints.map(\.column) + access.orderBy.map(\.column)
                where !name.isEmpty && name != "rowid" && !columns.contains(name) {
                    columns.append(name)
                }
                result[access.table.sqlFolded] = columns
            }
        }
        return result
    }

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
            if access.isUpdated { parts.append("UPDATE " + access.writtenColumns.joined(separator: ", ")) }
            if access.isDeleted { parts.append("DELETE") }
            if !access.columnFunctions.isEmpty { parts.append("calls " + access.columnFunctions.joined(separator: ", ")) }
            return access.table + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
        }.joined(separator: " · ")
    }
}
