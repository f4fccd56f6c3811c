import Foundation
import IndexAdvisor
import IndexAdvisorBenchKit

/// Runs our advisor and `.expert` on a pair and hands both to the benchmark's own judge
/// (``PairEvaluation``), and runs the deterministic checks CI holds our advice to.
struct PairJudge {
    let settings: PairEvaluation.Settings
    let expert: ExpertRunner?
    let directory: URL

    /// The evaluation settings for a run: `--quick` is CI's pass (few rounds, a narrow search).
    static func settings(_ context: BenchmarkContext) -> PairEvaluation.Settings {
        var settings = PairEvaluation.Settings()
        let quick = context.quick
        settings.advisorRuns = context.integer("--stability-runs", quick ? 1 : 5)
        settings.search.depth = context.integer("--search-depth", quick ? 2 : 5)
        settings.search.width = context.integer("--search-width", quick ? 8 : 24)
        settings.search.valueSets = quick ? 2 : 4
        settings.search.measure = .wallClock(runs: quick ? 1 : 3)
        settings.scorer.rounds = context.integer("--rounds", quick ? 1 : 5)
        settings.scorer.measure = .wallClock(runs: context.samples)
        settings.scorer.valueSets = quick ? 3 : 6
        settings.scorer.writesPerRound = quick ? 5 : 12
        settings.scorer.cold = !quick
        return settings
    }

    /// Our analysis's set for `workload`, the default options but for `costSource`.
    static func ours(store: URL, workload: URL, costSource: CostSource, directory: URL, memoises: Bool = true) throws -> (ChangeSet, AnalysisResult) {
        var options = AnalysisOptions()
        options.temporaryDirectory = directory
        options.costSource = costSource
        options.memoisesCosts = memoises
        let analysis = try Advisor.analyze(storeAt: store, workload: try WorkloadLoader.load([workload]), options: options)
        let changes = ChangeSet(creates: analysis.recommendations.map(\.sql),
                                drops: analysis.existingIndexes.filter { $0.dropSQL != nil }.map(\.index))
        return (changes, analysis)
    }

    struct Judged {
        var pair: BenchPair
        var outcome: PairEvaluation.Outcome
        /// The first wall-clock run's analysis (its reasons for what it left out).
        var analysis: AnalysisResult?
        var expertSeconds: Double?
        var expertFailures: [(sql: String, message: String)]
    }

    /// The whole judgement of `pair`.
    func judge(_ pair: BenchPair, say: (String) -> Void) throws -> Judged {
        var expertSet: ChangeSet?
        var expertSeconds: Double?
        var failures: [(String, String)] = []
        if let expert {
            let outcome = try expert.run(statements: try pair.expertStatements(), store: pair.store)
            expertSet = ChangeSet(creates: outcome.creates)
            expertSeconds = outcome.seconds
            failures = outcome.failures
            say("  .expert: \(outcome.creates.count) indexes in \(Figures.duration(outcome.seconds))")
        }
        var first: AnalysisResult?
        let outcome = try PairEvaluation(settings: settings).evaluate(pair, advisor: { pair, workload in
            let (changes, analysis) = try Self.ours(store: pair.store, workload: workload, costSource: .wallClock, directory: directory)
            if first == nil { first = analysis }
            return changes
        }, expert: expertSet, directory: directory, say: say)
        return Judged(pair: pair, outcome: outcome, analysis: first, expertSeconds: expertSeconds, expertFailures: failures)
    }

    /// CI's checks, on SQLite's counters (deterministic): two runs of our advice, the second with no cost
    /// remembered (``AnalysisOptions/memoisesCosts``), give the same set, and no
    /// read the pair marks hot keeps a full table scan (or an automatic index) with it. One line per failure.
    func deterministicChecks(_ pair: BenchPair) throws -> (sets: [ChangeSet], failures: [String]) {
        let workload = try pair.writeAdvisorWorkload(in: directory)
        var sets: [ChangeSet] = []
        // The second run remembers no cost (issue 40): the same set says both that the advice is stable and that
        // the oracle's memo only saves work.
        for memoises in [true, false] {
            sets.append(try Self.ours(store: pair.store, workload: workload, costSource: .sqliteCounters, directory: directory, memoises: memoises).0)
        }
        var failures: [String] = []
        if !sets[0].isSame(as: sets[1]) {
            failures.append("\(pair.name): our advice on the counters differs between the memoised run and the serial, unmemoised one: \(sets[0].keys) and \(sets[1].keys)")
        }
        let hot = pair.statements.filter { $0.isHot && !$0.isWrite }
        if !hot.isEmpty {
            var scorer = WorkloadScorer.Settings()
            scorer.rounds = 0
            scorer.cold = false
            let scored = try WorkloadScorer(pair: pair, settings: scorer).score([("ours", sets[0])], in: directory)
            for sql in scored[0].hotScans { failures.append("\(pair.name): a hot read keeps a full table scan with our advice (counters): \(sql.prefix(100))") }
        }
        return (sets, failures)
    }
}

extension AdviceStore {
    /// The store as a regression pair: its literal statements, its hot reads marked.
    var pair: BenchPair {
        BenchPair(name: name, kind: .regression, summary: summary, store: url,
                  statements: entries.map { entry in
                      PairStatement(sql: entry.sql, count: entry.count, isHot: mustNotScan.contains { entry.sql.hasPrefix($0) })
                  })
    }
}
