import Foundation
import IndexAdvisor
import IndexAdvisorBenchKit

/// `advice`: the four seeded stores the advisor has long been measured on (notes, recordings, shop,
/// events), judged like every other pair (``PairEvaluation``): our advice against `.expert`'s, no change and
/// the benchmark's own optimum; and the time each advisor takes. They are regression pairs: the advisor has
/// been changed while looking at them. With `--quick` (CI) only the deterministic checks run: our advice on
/// SQLite's counters twice, memoised and not (the same set), no hot read left scanning, and the fixed seed's expected advice
/// (``ExpectedAdvice``).
struct AdviceBenchmark: Benchmark {
    let name = "advice"
    let summary = "Workload cost with no change, sqlite3 .expert, our advice and the benchmark's own optimum on four seeded stores (notes, recordings, shop, events)"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let seed = UInt64(context.integer("--seed", 7))
        let directory = context.directory.appendingPathComponent("advice")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let start = DispatchTime.now().uptimeNanoseconds
        let stores = try AdviceStores.all(in: directory, scale: context.quick ? 0.1 : 1.0, seed: seed)
            .filter { store in context.options["--stores"].map { $0.split(separator: ",").contains(Substring(store.name)) } ?? true }
        context.say("built \(stores.count) stores in \(Figures.duration(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))")
        let expert = ExpertRunner.shell().map { ExpertRunner(shell: $0) }
        if expert == nil { context.say("sqlite3 is not installed (Debian: apt-get install sqlite3); .expert is left out") }
        let judge = PairJudge(settings: PairJudge.settings(context), expert: expert, directory: directory)
        var result = BenchmarkResult()
        var judged: [PairJudge.Judged] = []
        for store in stores {
            context.say("\(store.name): \(store.summary)")
            if let keep = context.options["--keep-stores"] {
                let workload = directory.appendingPathComponent("\(store.name).sql")
                try Data(store.workloadSQL.utf8).write(to: workload)
                try store.keep(workload: workload, in: URL(fileURLWithPath: keep))
            }
            let pair = store.pair
            let checks = try judge.deterministicChecks(pair)
            result.failures += checks.failures
            // The expected advice names tables and columns as the store spells them.
            let spelled = checks.sets[0].creates.map { create in
                String(create[(create.range(of: " ON ")?.upperBound ?? create.startIndex)...]).replacingOccurrences(of: "\"", with: "")
            } + checks.sets[0].drops.map { "DROP \($0)" }
            if context.quick, seed == 7, let difference = ExpectedAdvice.difference(store: store.name, recommendations: spelled,
                                                                                   expected: ExpectedAdvice.quick) {
                result.failures.append(difference)
            }
            if context.quick { continue }
            let item = try judge.judge(pair, say: context.say)
            judged.append(item)
            let o = item.outcome
            result.ratios.append(Ratio(name: "\(store.name): ours / optimum", value: o.oursOverOptimum,
                                       meaning: "workload time with our advice ÷ with the best set the benchmark found (its own candidates, .expert's, no change)",
                                       target: "≤ 1.05", met: o.oursOverOptimum <= 1.05 || o.isTie(o.oursOverOptimum)))
            if let r = o.oursOverExpert {
                result.ratios.append(Ratio(name: "\(store.name): ours / .expert", value: r, meaning: "workload time with our advice ÷ with .expert's",
                                           target: "≤ 1", met: r <= 1 || o.isTie(r)))
            }
            if let seconds = item.expertSeconds, let ours = o.advisorSeconds.first {
                result.ratios.append(Ratio(name: "\(store.name): advisor time, ours / .expert", value: ours / seconds,
                                           meaning: "our analysis (it builds and times candidates) ÷ .expert's runs", target: nil, met: nil))
            }
        }
        if context.quick {
            result.notes.append("--quick: the deterministic checks only (advice on SQLite's counters, twice; hot reads; the fixed seed's expected advice).")
            return result
        }
        result.sections = [PairTables.table(title: "Advice: the four seeded stores (regression pairs)", introduction: Self.introduction, judged)]
            + judged.map(PairTables.details)
        result.details["advice"] = judged.map(PairTables.json)
        return result
    }

    static let introduction = "Regression pairs: the advisor has been changed while looking at these stores, so they show regressions, not generalization. Every configuration is measured by the benchmark's own scorer (Benchmarks/IndexAdvisorBenchKit): built on a fresh copy of its own, timed statement by statement in turn in interleaved rounds, writes committed, and the workload's literals as the values (these stores' workloads have no drawn parameters). The optimum is the least warm total among no change, `.expert`'s set, ours and the best sets of a branch and bound over the benchmark's own candidates (not ours); within the noise floor (ours measured twice on two copies) a ratio is a tie and the optimum is the set with fewer bytes."
}
