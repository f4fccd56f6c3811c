import Foundation
import IndexAdvisor

/// `generalization`: does the advice hold on stores and workloads that nobody tuned the selection on?
/// Eleven seeded pairs with other shapes than the `advice` stores (``GeneralizationStores``) and the shared
/// real cases (``SharedCases``, when `../shared/cases` is there). On each: our advice with the default
/// options (run 5 times on the wall clock: does it pick the same set?), our advice on SQLite's counters
/// (run twice: it must be the same), `.expert`'s indexes, and the best subset an exhaustive search over our
/// candidates finds, all timed by the same ``WorkloadEvaluator``.
///
/// Targets (issue 15): ours ≤ 1.05 × the optimum, never above `.expert`, 5 of 5 runs the same set. They are
/// reported, never enforced: a timing does not fail a run. The run fails only on deterministic facts of the
/// counters advice: a hot read (``AdviceStore/mustNotScan``) left with a full table scan, or two runs on the
/// counters that disagree.
struct GeneralizationBenchmark: Benchmark {
    let name = "generalization"
    let summary = "Our advice (wall clock ×5, counters ×2) against sqlite3 .expert and an exhaustive search over our candidates, on thirteen seeded pairs of new shapes and the shared real cases"

    struct Settings {
        var stabilityRuns: Int
        var rounds: Int
        var width: Int
        var depth: Int
        /// Search deeper when our advice has more changes than `depth` (off in CI's quick pass).
        var extendDepth: Bool
        /// `--search-cap N`: the most subsets the exhaustive search measures; past it the depth is lowered
        /// (not below `--search-depth`) and the neighbours of our advice are measured besides.
        var searchCap: Int
        var samples: Int
        var quick: Bool
        /// `--keep-stores DIR`: each store as built and its workload, to reproduce a row by hand.
        var keep: URL?
    }

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let quick = context.quick
        // --quick is CI's pass (a debug build, about a minute): one wall-clock run, a narrow search, one round.
        let settings = Settings(stabilityRuns: context.integer("--stability-runs", quick ? 1 : 5),
                                rounds: context.integer("--rounds", quick ? 1 : 3),
                                width: context.integer("--search-width", quick ? 3 : 7), depth: context.integer("--search-depth", quick ? 2 : 3),
                                extendDepth: !quick || context.options["--search-depth"] != nil, searchCap: context.integer("--search-cap", 1_000),
                                samples: context.samples, quick: quick,
                                keep: context.options["--keep-stores"].map { URL(fileURLWithPath: $0) })
        let seed = UInt64(context.integer("--seed", 7))
        let directory = context.directory.appendingPathComponent("generalization")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wanted = context.options["--stores"].map { Set($0.split(separator: ",").map(String.init)) }
        let start = DispatchTime.now().uptimeNanoseconds
        var pairs: [(AdviceStore, SharedCases.Case?)] = try GeneralizationStores.all(in: directory, scale: quick ? 0.1 : 1, seed: seed)
            .filter { wanted?.contains($0.name) ?? true }
            .map { ($0, nil) }
        let shell = ExpertRunner.shell()
        var notes: [String] = []
        if quick {
            notes.append("The shared cases are left out with --quick (their stores are full size).")
        } else if let casesDirectory = SharedCases.directory(option: context.options["--cases"]) {
            if let shell {
                pairs += try SharedCases.load(from: casesDirectory, into: directory, shell: shell)
                    .filter { wanted?.contains($0.store.name) ?? true }
                    .map { ($0.store, $0) }
            } else {
                notes.append("The shared cases are left out: the sqlite3 shell, which builds their stores, is not installed.")
            }
        } else {
            notes.append("The shared cases are left out: no \(context.options["--cases"] ?? "../shared/cases") directory (a clone has none; `--cases DIR` names one).")
        }
        for note in notes { context.say(note) }
        context.say("built \(pairs.count) stores in \(Figures.duration(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))")
        let expert = shell.map { ExpertRunner(shell: $0) }
        if expert == nil { context.say("sqlite3 is not installed (Debian: apt-get install sqlite3); .expert is left out") }

        var outcomes: [Outcome] = []
        for (store, sharedCase) in pairs {
            context.say("\(store.name): \(store.summary)")
            outcomes.append(try evaluate(store, sharedCase: sharedCase, expert: expert, settings: settings, directory: directory, say: context.say))
        }

        var result = BenchmarkResult()
        for outcome in outcomes {
            result.failures += outcome.failures
            result.ratios.append(Ratio(name: "\(outcome.store.name): ours / optimum", value: outcome.oursOverOptimum,
                                       meaning: "generalization: workload time with our advice ÷ the best searched subset", target: "≤ 1.05",
                                       met: outcome.oursOverOptimum <= 1.05))
            if let ratio = outcome.oursOverExpert {
                result.ratios.append(Ratio(name: "\(outcome.store.name): ours / .expert", value: ratio,
                                           meaning: "generalization: workload time with our advice ÷ with .expert's", target: "≤ 1", met: ratio <= 1))
            }
        }
        result.notes = notes
        result.sections = [Self.table(outcomes, settings: settings, notes: notes)] + outcomes.map(Self.details)
        result.details["generalization"] = outcomes.map(\.json)
        return result
    }

    /// Pairs whose deterministic checks fail with the advisor as it is, by name, with the reason (the
    /// advisor's fault, not the pair's). Their failures are reported, not fatal, until the advisor is fixed.
    /// (teams-join was one until the advisor searched joins for index sets, ``JoinSets``.)
    static let knownFailures: [String: String] = [:]

    struct Outcome {
        var store: AdviceStore
        var sharedCase: SharedCases.Case?
        var rowCount: Int
        var hasStatistics: Bool
        var none: MeasuredConfiguration
        var expert: MeasuredConfiguration?
        /// True when `.expert`'s set is ours under other names, planning every read alike: ours' measurement stands for it.
        var expertIsOurs = false
        var ours: MeasuredConfiguration
        var counters: MeasuredConfiguration
        /// `ours`, `counters`, `expert` and `optimum` are measured in the ratio rounds, after the optimum was
        /// chosen in the final rounds (`finalists`).
        var optimum: MeasuredConfiguration
        /// Ours ÷ the optimum in the final rounds the optimum was chosen in (biased towards it).
        var selectionOursOverOptimum: Double
        var finalists: [MeasuredConfiguration]
        var searched: Int
        /// When the search's depth was capped (``Settings/searchCap``): the depth it had, and the neighbours of
        /// our advice measured besides.
        var capped: (depth: Int, wanted: Int, neighbours: Int, cap: Int)? = nil
        /// The sets of the wall-clock runs, as sorted keys, in run order (the first is `ours`).
        var wallClockSets: [[String]]
        var countersSets: [[String]]
        var oursSeconds: [Double]
        var countersSeconds: [Double]
        /// Hot reads left with a full table scan by the counters advice.
        var scansLeft: [String]
        var failures: [String]
        /// Check failures of a pair in ``GeneralizationBenchmark/knownFailures``, reported without failing the run.
        var known: [String]

        // Paired by round (``MeasuredConfiguration/pairedRatio(to:)``).
        var oursOverOptimum: Double { ours.pairedRatio(to: optimum) }
        var countersOverOptimum: Double { counters.pairedRatio(to: optimum) }
        var oursOverExpert: Double? { expert.map { ours.pairedRatio(to: $0) } }
        var countersOverExpert: Double? { expert.map { counters.pairedRatio(to: $0) } }
        /// How many wall-clock runs gave the most common set.
        var agreeing: Int { Dictionary(grouping: wallClockSets, by: { $0 }).values.map(\.count).max() ?? 0 }
        var countersAgree: Bool { Set(countersSets).count <= 1 }

        var json: [String: Any] {
            var object: [String: Any] = ["store": store.name, "summary": store.summary, "rows": rowCount, "sqliteStat1": hasStatistics,
                                         "oursOverOptimum": oursOverOptimum, "countersOverOptimum": countersOverOptimum,
                                         "selectionOursOverOptimum": selectionOursOverOptimum,
                                         "wallClockSets": wallClockSets, "countersSets": countersSets, "agreeingRuns": agreeing,
                                         "oursSeconds": oursSeconds, "countersSeconds": countersSeconds, "configurationsSearched": searched,
                                         "none": none.json, "ours": ours.json, "counters": counters.json, "optimum": optimum.json,
                                         "finalists": finalists.map(\.json), "hotScansLeft": scansLeft, "checkFailures": failures, "knownFailures": known]
            if let oursOverExpert { object["oursOverExpert"] = oursOverExpert }
            if let countersOverExpert { object["countersOverExpert"] = countersOverExpert }
            if let expert { object["expert"] = expert.json }
            if let sharedCase { object["matchesFix"] = sharedCase.isRight(ours.configuration) }
            return object
        }
    }

    func evaluate(_ store: AdviceStore, sharedCase: SharedCases.Case?, expert: ExpertRunner?, settings: Settings,
                  directory: URL, say: (String) -> Void) throws -> Outcome {
        let workloadURL = directory.appendingPathComponent("\(store.name).sql")
        try Data(store.workloadSQL.utf8).write(to: workloadURL)
        if let keep = settings.keep { try store.keep(workload: workloadURL, in: keep) }
        let rowCount = try ConfigurationSearch.largestTable(store.url)

        let expertOutcome = try expert?.run(statements: store.distinctReads, store: store.url)
        if let expertOutcome { say("  .expert: \(expertOutcome.creates.count) indexes") }

        // Our advice: on the wall clock, as a user gets it, several times; on SQLite's counters twice.
        var wallClock: [OurAdvice] = []
        for run in 0..<max(1, settings.stabilityRuns) {
            wallClock.append(try OurAdvice.run(store: store.url, workload: workloadURL, directory: directory))
            say("  ours (wall clock) run \(run + 1): \(wallClock[run].configuration.keys.joined(separator: "; ")) in \(Figures.duration(wallClock[run].seconds))")
        }
        var counters: [OurAdvice] = []
        for run in 0..<2 {
            counters.append(try OurAdvice.run(store: store.url, workload: workloadURL, costSource: .sqliteCounters, directory: directory))
            say("  ours (counters) run \(run + 1): \(counters[run].configuration.keys.joined(separator: "; "))")
        }
        let ours = wallClock[0].configuration, oursCounters = counters[0].configuration
        let hasStatistics = wallClock[0].analysis.store.hasStatistics

        let evaluator = try WorkloadEvaluator(store: store, copyIn: directory, runs: settings.samples)
        // The deterministic checks: plans and the counters' picks, no timing.
        var failures: [String] = []
        let scansLeft = try evaluator.forbiddenScans(with: oursCounters)
        for sql in scansLeft {
            failures.append("generalization \(store.name): a hot read keeps a full table scan with our advice (counters): \(sql.prefix(100))")
        }
        if counters[0].configuration.keys != counters[1].configuration.keys {
            failures.append("generalization \(store.name): two runs of our advice on the counters differ: \(counters[0].configuration.keys) and \(counters[1].configuration.keys)")
        }
        // A failure already known (and filed) is reported without failing the run; a known one that no
        // longer happens is said too, so that the list is pruned when the advisor is fixed.
        var known: [String] = []
        if let reason = Self.knownFailures[store.name] {
            if failures.isEmpty {
                known.append("\(store.name): listed as a known failure (\(reason)) but its checks pass now: remove it from `GeneralizationBenchmark.knownFailures`.")
            } else {
                known = failures.map { "\($0) (known: \(reason))" }
                failures = []
            }
        }
        for line in known { say("  \(line)") }

        // The search over our candidates (the first wall-clock run's, with the counters' picks added).
        let elements = ConfigurationSearch.elements(wallClock[0], width: settings.width, also: [oursCounters])
        // Deep enough for our advice plus one more change (a full run), so the search can beat it by adding as well as by swapping.
        let wanted = settings.extendDepth ? max(settings.depth, ours.changeCount + 1, oursCounters.changeCount) : settings.depth
        let depth = ConfigurationSearch.cappedDepth(count: elements.count, wanted: wanted, floor: settings.depth, cap: settings.searchCap)
        say("  searching the subsets of \(elements.count) changes (up to \(depth) at once\(depth < wanted ? ", capped from \(wanted) at \(settings.searchCap) subsets" : ""))")
        var searched = try ConfigurationSearch.search(evaluator, elements: elements, depth: depth)
        for configuration in [ours, oursCounters] where !searched.contains(where: { IndexConfiguration.same($0.0, configuration) }) {
            searched.append((configuration, try evaluator.measure(configuration).totalSeconds))
        }
        var neighbours = 0
        if depth < wanted {
            // The capped search still tries one change more, less or other than our advice.
            for configuration in [ours, oursCounters] {
                let around = ConfigurationSearch.neighbours(of: configuration, elements: elements, known: searched.map(\.0))
                neighbours += around.count
                searched += try ConfigurationSearch.measureEach(evaluator, around)
            }
            say("  and \(neighbours) neighbours of our advice")
        }
        searched.sort { $0.1 < $1.1 }

        var finalists: [(String, IndexConfiguration)] = [("no new index", IndexConfiguration(name: "no new index"))]
        let expertConfiguration = expertOutcome.map { IndexConfiguration(name: ".expert", creates: $0.creates) }
        // `.expert`'s set is ours under other names when it creates the same indexes and every read plans
        // alike: one measurement stands for both (case 06: the same ZMOVIE(ZADDED) came out 1.07 apart under
        // a load of 3–5, a 4.7 s statement in the ratio rounds).
        var expertIsOurs = false
        if let expertConfiguration, IndexConfiguration.same(expertConfiguration, ours) {
            let theirPlans = try evaluator.readPlans(with: expertConfiguration), ourPlans = try evaluator.readPlans(with: ours)
            expertIsOurs = theirPlans == ourPlans
        }
        if let expertConfiguration, !expertIsOurs { finalists.append((".expert", expertConfiguration)) }
        // Each set is measured once: when the counters pick the wall clock's set, or the search's best is
        // one of ours, that one measurement stands for both (two measurements of one set differ by noise).
        finalists.append(("ours", ours))
        let countersLabel = IndexConfiguration.same(ours, oursCounters) ? "ours" : "ours (counters)"
        if countersLabel != "ours" { finalists.append((countersLabel, oursCounters)) }
        for (index, (subset, _)) in searched.prefix(3).enumerated() where !finalists.contains(where: { IndexConfiguration.same($0.1, subset) }) {
            finalists.append(("search #\(index + 1)", subset))
        }
        var measured = try ConfigurationSearch.rounds(store: store, directory: directory, runs: settings.samples, finalists: finalists, rounds: settings.rounds, say: say)
        if expertIsOurs, let expertConfiguration, let oursFinal = measured.first(where: { $0.label == "ours" }) {
            measured.insert(oursFinal.standing(for: expertConfiguration, label: ".expert"), at: 1)
        }
        // The optimum: the best of the searched subsets measured in the final rounds (ours are searched subsets
        // too), against ours round by round (ours is 1 against itself, so a rival must beat it in the paired median).
        let oursMeasured = measured.first { $0.label == "ours" }!
        // A set that is another finalist's plus indexes no read's plan uses (every read planned alike) does the
        // same reads and maintains more indexes: it is never the better one, whatever the noise says (sync-flag:
        // ours plus document(deleted) came out 1.06 times faster, its update 12.6 → 10.9 ms).
        let readPlans = try measured.map { try evaluator.readPlans(with: $0.configuration) }
        func dominated(_ index: Int) -> Bool {
            let mine = measured[index].configuration
            return measured.indices.contains { other in
                let theirs = measured[other].configuration
                return other != index && Set(theirs.drops) == Set(mine.drops) && readPlans[other] == readPlans[index]
                    && Set(theirs.creates.map(IndexConfiguration.key)).isStrictSubset(of: Set(mine.creates.map(IndexConfiguration.key)))
            }
        }
        let optimum = measured.indices.filter { (measured[$0].label.hasPrefix("ours") || measured[$0].label.hasPrefix("search")) && !dominated($0) }
            .map { measured[$0] }
            .min { $0.pairedRatio(to: oursMeasured) < $1.pairedRatio(to: oursMeasured) }!
        // The ratios come from rounds of their own: the optimum is the least of up to four noisy totals in the
        // rounds above, so those rounds favour it by the noise it was chosen on (wide-catalog: ours and ours
        // plus an index no statement's plan uses came 1.07–1.08 apart there in two runs). Measured again
        // with only the sets the ratios compare, that choice does not weigh on them.
        var compared = finalists.filter { ["ours", countersLabel, ".expert"].contains($0.0) }
        if !compared.contains(where: { $0.0 == optimum.label }) { compared.append((optimum.label, optimum.configuration)) }
        say("  ratio rounds: \(compared.map(\.0).joined(separator: ", "))")
        let ratioRounds = try ConfigurationSearch.rounds(store: store, directory: directory, runs: settings.samples, finalists: compared, rounds: settings.rounds, say: say)
        func again(_ label: String) -> MeasuredConfiguration? {
            if label == ".expert", expertIsOurs, let expertConfiguration { return ratioRounds.first { $0.label == "ours" }?.standing(for: expertConfiguration, label: ".expert") }
            return ratioRounds.first { $0.label == label }
        }
        return Outcome(store: store, sharedCase: sharedCase, rowCount: rowCount, hasStatistics: hasStatistics, none: measured[0],
                       expert: again(".expert"), expertIsOurs: expertIsOurs, ours: again("ours")!, counters: again(countersLabel)!, optimum: again(optimum.label)!,
                       selectionOursOverOptimum: oursMeasured.pairedRatio(to: optimum), finalists: measured,
                       searched: searched.count, capped: depth < wanted ? (depth, wanted, neighbours, settings.searchCap) : nil, wallClockSets: wallClock.map(\.configuration.keys), countersSets: counters.map(\.configuration.keys),
                       oursSeconds: wallClock.map(\.seconds), countersSeconds: counters.map(\.seconds), scansLeft: scansLeft, failures: failures,
                       known: known)
    }

    static func table(_ outcomes: [Outcome], settings: Settings, notes: [String]) -> String {
        func ratio(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "–" }
        func changes(_ configuration: IndexConfiguration) -> String {
            let keys = configuration.creates.map { "+`\(IndexConfiguration.key($0))`" } + configuration.drops.map { "−`\($0)`" }
            return keys.isEmpty ? "none" : keys.joined(separator: "<br>")
        }
        var out = ["## Generalization: advice on shapes it was not tuned on", "",
                   "Workload time (Σ count × the fastest timed run per execution, reads and rolled-back writes) with each configuration built once on a fresh copy of the store of its own, by the `advice` benchmark's evaluator (the search reuses one copy and times each plan once). *Ours* is `Advisor.analyze` with the default options (wall clock); *counters* the same with `costSource = .sqliteCounters`. The optimum is the best subset an exhaustive search over our candidates found (our recommendations, then our rejected candidates, up to \(settings.width), and our drops; every subset of up to \(settings.depth) changes\(settings.extendDepth ? ", or one more than our advice has" : "")), measured in the same final rounds; when the search's best is one of ours, ours is the optimum (the optimum is the subset whose paired ratio to ours is least there, leaving out a set that is another finalist's plus indexes no read's plan uses). The ratios are then measured in \(settings.rounds) rounds of their own, of ours, the counters' set, `.expert`'s and the optimum only: chosen as the least of several noisy totals, the optimum is favoured by the rounds it was chosen in. Each ratio is paired: the median over those rounds of the two configurations' totals in the same round. The rounds go statement by statement: one workload entry is timed on every configuration's copy in turn (the order rotated) before the next, so two configurations' times of a statement are taken milliseconds apart and a load that changes over seconds weighs on both alike. Targets (issue 15): ours ÷ optimum ≤ 1.05, ours ÷ `.expert` ≤ 1, \(settings.stabilityRuns) of \(settings.stabilityRuns) runs the same set; ±5 % is a tie on this machine. They are reported here, not enforced.", "",
                   "| pair | largest table | sqlite_stat1 | ours ÷ optimum | ours ÷ .expert | counters ÷ optimum | counters ÷ .expert | indexes (ours) | same set: wall clock | counters: 2 runs | hot scans left (counters) |",
                   "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | --- | --- | ---: |"]
        for outcome in outcomes {
            let name = outcome.sharedCase.map { "\(outcome.store.name) (fix: \($0.isRight(outcome.ours.configuration) ? "yes" : "no"))" } ?? outcome.store.name
            out.append("| \(name) | \(Figures.count(outcome.rowCount)) rows | \(outcome.hasStatistics ? "yes" : "no") | \(ratio(outcome.oursOverOptimum)) | \(ratio(outcome.oursOverExpert)) | \(ratio(outcome.countersOverOptimum)) | \(ratio(outcome.countersOverExpert)) | \(changes(outcome.ours.configuration)) | \(outcome.agreeing) of \(outcome.wallClockSets.count) | \(outcome.countersAgree ? "same" : "**differ**") | \(outcome.store.mustNotScan.isEmpty ? "–" : "\(outcome.scansLeft.count)") |")
        }
        let count = outcomes.count
        let withinOptimum = outcomes.filter { $0.oursOverOptimum <= 1.05 }.count
        let compared = outcomes.filter { $0.oursOverExpert != nil }
        let notAbove = compared.filter { $0.oursOverExpert! <= 1 }.count, withinTie = compared.filter { $0.oursOverExpert! <= 1.05 }.count
        let stable = outcomes.filter { $0.agreeing == $0.wallClockSets.count }.count
        out += ["",
                "Targets met: ours ÷ optimum ≤ 1.05 on \(withinOptimum) of \(count); ours ÷ `.expert` ≤ 1 on \(notAbove) of \(compared.count) (≤ 1.05, a tie, on \(withinTie)); the same set in every wall-clock run on \(stable) of \(count); the counters' two runs agree on \(outcomes.filter(\.countersAgree).count) of \(count).",
                "",
                "Each workload time is the median of \(settings.rounds) round\(settings.rounds == 1 ? "" : "s"), interleaved by statement; in each round every statement is timed \(settings.samples) times after a warm-up on each configuration, and the fastest run counts (load only ever slows a run). *Same set* counts the runs (of \(settings.stabilityRuns), on the wall clock, one after another) that gave the most common set of changes; the first run is the *ours* measured. *Hot scans left*: reads the pair marks as hot that keep a full table scan with the counters advice (the CI check). A shared case's name says whether our (wall-clock) advice is its `expected.md` fix exactly (index names aside)."]
        let known = outcomes.flatMap(\.known)
        if !known.isEmpty { out += ["", "Known failures (reported, not failing the run):"] + known.map { "- \($0)" } }
        if settings.quick { out += ["", "**A `--quick` run: stores at a tenth of their size (2,000 to 10,000 rows in the largest table)\(settings.stabilityRuns < 5 || settings.depth < 3 ? ", fewer runs or a narrower search" : ""); not the full suite's figures.**"] }
        for note in notes { out += ["", note] }
        return out.joined(separator: "\n")
    }

    static func details(_ outcome: Outcome) -> String {
        var out = ["### \(outcome.store.name)", "", outcome.store.summary + ".", "", "Expected: \(outcome.store.expectation).", "",
                   "| configuration | changes | total: median (min–max) | full scans | temp sorts |", "| --- | --- | --- | ---: | ---: |"]
        for m in outcome.finalists {
            let changes = m.configuration.keys
            out.append("| \(m.label)\(m.label == outcome.optimum.label ? " (optimum)" : "") | \(changes.isEmpty ? "–" : changes.map { "`\($0)`" }.joined(separator: "<br>")) | \(BenchmarkReport.seconds(m.total.median)) (\(BenchmarkReport.seconds(m.total.min))–\(BenchmarkReport.seconds(m.total.max))) | \(m.last.fullScansLeft) | \(m.last.sortsLeft) |")
        }
        out.append("")
        if outcome.expertIsOurs {
            out.append("`.expert`'s set is ours under other names, and every read plans alike with either: one measurement stands for both.")
        }
        if outcome.optimum.label != "ours" {
            out.append("In those rounds, in which the optimum was chosen, ours ÷ optimum was \(String(format: "%.2f", outcome.selectionOursOverOptimum)); in the ratio rounds, \(String(format: "%.2f", outcome.oursOverOptimum)).")
        }
        let distinct = Array(Set(outcome.wallClockSets)).sorted { $0.joined() < $1.joined() }
        if distinct.count > 1 {
            out.append("The wall-clock runs gave \(distinct.count) sets: " + distinct.map { set in
                "\(outcome.wallClockSets.filter { $0 == set }.count)× " + (set.isEmpty ? "none" : set.map { "`\($0)`" }.joined(separator: ", "))
            }.joined(separator: "; ") + ".")
        }
        let cap = outcome.capped.map { " (every subset of up to \($0.depth) changes, not \($0.wanted): that would be over \($0.cap); and the \($0.neighbours) sets one change more, less or other than our advice and the counters')" } ?? ""
        out.append("Searched \(outcome.searched) configurations\(cap). Our analyses took \(outcome.oursSeconds.map(Figures.duration).joined(separator: ", ")) (wall clock) and \(outcome.countersSeconds.map(Figures.duration).joined(separator: ", ")) (counters).")
        return out.joined(separator: "\n")
    }
}
