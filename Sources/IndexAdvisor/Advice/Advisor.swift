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
        try run.profileStatements(keepingUnparsable: true, boundingTimeouts: false)
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
        run.snapshot.releaseFullCopy()
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
