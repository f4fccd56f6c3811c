import Foundation
import IndexAdvisor

/// `advice`: on four stores built from a seed, the workload's measured cost with no new index, with
/// `.expert`'s indexes, with our advice, and with the best set an exhaustive search over our candidates
/// finds; and the time each advisor takes.
///
/// Method: the search applies every subset of up to `K` of our best candidates (and our drops) to one
/// private copy of the store, times the workload once (each statement the fastest of `--samples` runs
/// after a warm-up, weighted by its count; writes rolled back), and reverts the change. The finalists (no
/// index, `.expert`, ours and the search's best) are then built each on a fresh copy of their own and
/// measured again in `--rounds` rounds interleaved by statement (``ConfigurationSearch/rounds(store:directory:runs:finalists:rounds:say:)``),
/// and each figure is the median of those rounds.
struct AdviceBenchmark: Benchmark {
    let name = "advice"
    let summary = "Workload cost with no new index, sqlite3 .expert, our advice and an exhaustive search over our candidates, on four seeded stores (notes, recordings, shop, events)"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let scale = context.quick ? 0.1 : 1.0
        let seed = UInt64(context.integer("--seed", 7))
        let rounds = context.integer("--rounds", context.quick ? 2 : 5)
        let searchWidth = context.quick ? 5 : 7
        let searchDepth = context.quick ? 2 : 3
        let directory = context.directory.appendingPathComponent("advice")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let start = DispatchTime.now().uptimeNanoseconds
        let stores = try AdviceStores.all(in: directory, scale: scale, seed: seed)
            .filter { store in context.options["--stores"].map { $0.split(separator: ",").contains(Substring(store.name)) } ?? true }
        context.say("built \(stores.count) stores in \(Figures.duration(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))")
        let expert = ExpertRunner.shell().map { ExpertRunner(shell: $0) }
        if expert == nil { context.say("sqlite3 is not installed (Debian: apt-get install sqlite3); .expert is left out") }

        var result = BenchmarkResult()
        var rows: [StoreOutcome] = []
        for store in stores {
            context.say("\(store.name): \(store.summary)")
            rows.append(try evaluate(store, expert: expert, rounds: rounds, width: searchWidth, depth: searchDepth,
                                     samples: context.samples, directory: directory,
                                     keep: context.options["--keep-stores"].map { URL(fileURLWithPath: $0) },
                                     deterministic: context.quick, say: context.say))
        }
        for row in rows {
            if let expertTotal = row.expert?.total.median {
                result.ratios.append(Ratio(name: "\(row.store.name): total time, ours / .expert", value: row.ours.total.median / expertTotal,
                                           meaning: "workload time with our indexes ÷ with .expert's (lower is better)", target: "≤ 1", met: row.ours.total.median <= expertTotal * 1.0001))
            }
            result.ratios.append(Ratio(name: "\(row.store.name): total time, ours / optimum", value: row.ours.total.median / row.optimum.total.median,
                                       meaning: "÷ the best subset found by exhaustive search (1 is the best possible)", target: "≤ 1.1",
                                       met: row.ours.total.median <= row.optimum.total.median * 1.1))
            if let expertSeconds = row.expertSeconds {
                result.ratios.append(Ratio(name: "\(row.store.name): advisor time, ours / .expert", value: row.oursSeconds / expertSeconds,
                                           meaning: "our analysis (it builds and times candidates) ÷ .expert's runs", target: nil, met: nil))
            }
            for configuration in row.finalists {
                result.timings.append(TimingSamples(name: "\(row.store.name): \(configuration.label), workload total", seconds: configuration.totals))
            }
            result.failures += row.failures
            // On the quick run's fixed seed the advice itself is checked (decided on SQLite's counters: deterministic).
            if context.quick, seed == 7,
               let difference = ExpectedAdvice.difference(store: row.store.name, recommendations: row.recommendations, expected: ExpectedAdvice.quick) {
                result.failures.append(difference)
            }
        }
        result.sections = [Self.headline(rows, rounds: rounds, samples: context.samples, width: searchWidth, depth: searchDepth),
                           Self.losses(rows)]
            + rows.map(Self.details)
        result.details["advice"] = rows.map(\.json)
        return result
    }

    typealias Measured = MeasuredConfiguration

    struct StoreOutcome {
        var store: AdviceStore
        var rowCount: Int
        var none: Measured
        var expert: Measured?
        var ours: Measured
        var optimum: Measured
        var finalists: [Measured]
        var searched: Int
        var expertSeconds: Double?
        var expertFailures: [(sql: String, message: String)]
        var oursSeconds: Double
        var recommendations: [String]
        /// Our candidates that were not recommended, with the reason our analysis gave.
        var rejected: [RejectedCandidate]
        /// Our analysis of each statement (its notes say why a statement got no index).
        var statements: [StatementReport]
        var failures: [String]

        var json: [String: Any] {
            var object: [String: Any] = ["store": store.name, "summary": store.summary, "rows": rowCount, "expectation": store.expectation,
                                         "configurationsSearched": searched, "oursSeconds": oursSeconds, "recommendations": recommendations,
                                         "none": none.json, "ours": ours.json, "optimum": optimum.json,
                                         "finalists": finalists.map(\.json), "checkFailures": failures]
            if let expert { object["expert"] = expert.json }
            if let expertSeconds { object["expertSeconds"] = expertSeconds }
            object["expertFailures"] = expertFailures.map { ["sql": $0.sql, "message": $0.message] }
            return object
        }
    }

    func evaluate(_ store: AdviceStore, expert: ExpertRunner?, rounds: Int, width: Int, depth: Int, samples: Int,
                  directory: URL, keep: URL?, deterministic: Bool = false, say: (String) -> Void) throws -> StoreOutcome {
        let workloadURL = directory.appendingPathComponent("\(store.name).sql")
        try Data(store.workloadSQL.utf8).write(to: workloadURL)
        if let keep { try store.keep(workload: workloadURL, in: keep) }
        let rowCount = try ConfigurationSearch.largestTable(store.url)

        // .expert, one statement at a time, as a user runs it.
        var expertOutcome: ExpertRunner.Outcome?
        if let expert {
            expertOutcome = try expert.run(statements: store.distinctReads, store: store.url)
            say("  .expert: \(expertOutcome!.creates.count) indexes in \(Figures.duration(expertOutcome!.seconds))\(expertOutcome!.failures.isEmpty ? "" : ", \(expertOutcome!.failures.count) statements failed")")
        }

        // Our advice, in process, with the defaults a user gets.
        // The quick run's advice is a CI check: decided on SQLite's counters, it cannot change with the
        // machine's load (on wall-clock times, two orders of the same equality columns swapped between runs).
        let advice = try OurAdvice.run(store: store.url, workload: workloadURL, costSource: deterministic ? .sqliteCounters : .wallClock,
                                       directory: directory)
        let analysis = advice.analysis, oursSeconds = advice.seconds
        let ourCreates = advice.creates, ourDrops = advice.drops
        let ours = advice.configuration
        say("  ours: \(ourCreates.count) indexes, \(ourDrops.count) drops in \(Figures.duration(oursSeconds))")

        let elements = ConfigurationSearch.elements(advice, width: width)
        // Deep enough for our advice plus one more change, so the search can beat it by adding as well as by swapping.
        let depth = max(depth, ours.changeCount + 1)
        let evaluator = try WorkloadEvaluator(store: store, copyIn: directory, runs: samples)
        say("  searching the subsets of \(elements.count) changes (up to \(depth) at once)")
        var searched = try ConfigurationSearch.search(evaluator, elements: elements, depth: depth)
        if !searched.contains(where: { IndexConfiguration.same($0.0, ours) }) {
            searched.append((ours, try evaluator.measure(ours).totalSeconds))
            searched.sort { $0.1 < $1.1 }
        }
        let subsets = searched.map(\.0)

        // Finalists, measured again in interleaved rounds.
        let none = IndexConfiguration(name: "no new index")
        let expertConfiguration = expertOutcome.map { IndexConfiguration(name: ".expert", creates: $0.creates) }
        var finalists: [(String, IndexConfiguration)] = [("no new index", none)]
        if let expertConfiguration { finalists.append((".expert", expertConfiguration)) }
        // Ours is one of the searched subsets: label it with its rank, so a missing "search #n" is explained.
        let oursRank = searched.firstIndex { IndexConfiguration.same($0.0, ours) }.map { $0 + 1 }
        finalists.append((oursRank.map { $0 <= 4 ? "ours (search #\($0))" : "ours" } ?? "ours", ours))
        for (index, (subset, _)) in searched.prefix(4).enumerated() where !finalists.contains(where: { IndexConfiguration.same($0.1, subset) }) {
            finalists.append(("search #\(index + 1)", subset))
        }
        let measured = try ConfigurationSearch.rounds(store: store, directory: directory, runs: samples, finalists: finalists, rounds: rounds, say: say)
        let oursMeasured = measured.first { $0.label.hasPrefix("ours") }!
        // The optimum: the best of the searched subsets among the finalists (ours is one of them).
        let optimum = measured.filter { $0.label.hasPrefix("ours") || $0.label.hasPrefix("search") }.min { $0.total.median < $1.total.median }!
        var failures: [String] = []
        for sql in oursMeasured.last.forbiddenScans {
            failures.append("\(store.name): a full table scan is left with our advice in \(sql.prefix(100))")
        }
        return StoreOutcome(store: store, rowCount: rowCount, none: measured[0], expert: measured.first { $0.label == ".expert" },
                            ours: oursMeasured, optimum: optimum, finalists: measured, searched: subsets.count,
                            expertSeconds: expertOutcome?.seconds, expertFailures: expertOutcome?.failures ?? [],
                            oursSeconds: oursSeconds, recommendations: ourCreates.map(IndexConfiguration.key) + ourDrops.map { "DROP \($0)" },
                            rejected: analysis.rejectedCandidates, statements: analysis.statements, failures: failures)
    }

    static func headline(_ rows: [StoreOutcome], rounds: Int, samples: Int, width: Int, depth: Int) -> String {
        func ratio(_ a: Double, _ b: Double?) -> String { b.map { $0 > 0 ? String(format: "%.2f", a / $0) : "–" } ?? "–" }
        func scans(_ m: Measured?) -> String { m.map { "\($0.last.fullScansLeft)" } ?? "–" }
        var out = ["## Advice: ours against `.expert` and the optimum", "",
                   "Workload time (Σ count × median per execution, reads and writes) with each configuration built once on a fresh copy of the store of its own, the copies timed statement by statement in turn. Ratios below 1 favour ours; ours / optimum is at least 1 by construction (the optimum is the best of our advice and the search's best subsets, measured in the same rounds).", "",
                   "| store | largest table | ours / .expert | ours / optimum | ours / no index | full scans left: none · .expert · ours · optimum | indexes: .expert · ours · optimum | advisor time: ours / .expert |",
                   "| --- | ---: | ---: | ---: | ---: | --- | --- | ---: |"]
        for row in rows {
            let indexes = [row.expert, row.ours, row.optimum].map { m -> String in
                guard let m else { return "–" }
                return "+\(m.last.indexesAdded)" + (m.last.indexesDropped > 0 ? " −\(m.last.indexesDropped)" : "")
            }
            out.append("| \(row.store.name) | \(Figures.count(row.rowCount)) rows | \(ratio(row.ours.total.median, row.expert?.total.median)) | \(ratio(row.ours.total.median, row.optimum.total.median)) | \(ratio(row.ours.total.median, row.none.total.median)) | \(scans(row.none)) · \(scans(row.expert)) · \(scans(row.ours)) · \(scans(row.optimum)) | \(indexes.joined(separator: " · ")) | \(ratio(row.oursSeconds, row.expertSeconds)) |")
        }
        out += ["", "Each workload time is the median of \(rounds) rounds, interleaved by statement; in each round every statement is timed \(samples) times after a warm-up on each configuration (the fastest run counts: load only ever slows a run). The search measured every subset of up to \(depth) changes (more when our advice has more) from our \(width) best candidates and our drops, once each, and its four best joined the final rounds."]
        return out.joined(separator: "\n")
    }

    /// "Where we lose": every store where `.expert` or a searched subset beat our advice, with what differs
    /// between the two configurations, why our analysis left the other's indexes out, and the statements
    /// that account for the gap. Written from the run's own figures, whatever they are.
    static func losses(_ rows: [StoreOutcome]) -> String {
        var out = ["## Where we lose", ""]
        var any = false
        for row in rows {
            var rivals: [Measured] = []
            if let expert = row.expert, expert.total.median < row.ours.total.median { rivals.append(expert) }
            if !row.optimum.label.hasPrefix("ours"), row.optimum.total.median < row.ours.total.median { rivals.append(row.optimum) }
            for rival in rivals {
                any = true
                let ours = row.ours.total, theirs = rival.total
                let noise = ours.min <= theirs.max
                out.append("- **\(row.store.name)**: ours / \(rival.label) = \(String(format: "%.2f", ours.median / theirs.median)) (\(BenchmarkReport.seconds(ours.median)) against \(BenchmarkReport.seconds(theirs.median)); "
                           + (noise ? "the rounds' ranges overlap, so the gap is within this run's noise)." : "ours was slower in every round)."))
                // An index and its mirror image (every column's direction flipped) serve the same lookups and sorts.
                func unsorted(_ key: String) -> String { key.replacingOccurrences(of: " DESC", with: "") }
                let ourKeys = Set(row.ours.configuration.creates.map(IndexConfiguration.key)), theirKeys = Set(rival.configuration.creates.map(IndexConfiguration.key))
                for missing in rival.configuration.creates.map(IndexConfiguration.key) where !ourKeys.contains(missing) {
                    if let same = ourKeys.first(where: { unsorted($0) == unsorted(missing) }) {
                        out.append("  - \(rival.label) adds `\(missing)`; we add `\(same)`, the same columns in another direction.")
                    } else if let candidate = row.rejected.first(where: { IndexConfiguration.key($0.sql) == missing })
                                ?? row.rejected.first(where: { unsorted(IndexConfiguration.key($0.sql)) == unsorted(missing) }) {
                        // Candidates set aside before timing (a prefix of a pick, unused once others exist) carry no figures.
                        let measuredAlone = candidate.readSecondsSaved != 0 || candidate.writeSecondsAdded != 0
                        out.append("  - \(rival.label) adds `\(missing)`; our analysis "
                                   + (measuredAlone ? "measured it (alone: \(BenchmarkReport.seconds(candidate.readSecondsSaved)) of reads saved, \(BenchmarkReport.seconds(candidate.writeSecondsAdded)) of writes added) and left it out: "
                                                    : "left it out without timing it: ")
                                   + "\(candidate.reason).")
                    } else {
                        out.append("  - \(rival.label) adds `\(missing)`, which is not among our candidates.")
                    }
                }
                for extra in row.ours.configuration.creates.map(IndexConfiguration.key) where !theirKeys.contains(where: { unsorted($0) == unsorted(extra) }) {
                    out.append("  - we add `\(extra)`, which \(rival.label) does not.")
                }
                for drop in Set(row.ours.configuration.drops).symmetricDifference(rival.configuration.drops).sorted() {
                    out.append("  - " + (row.ours.configuration.drops.contains(drop) ? "we drop `\(drop)`; \(rival.label) keeps it." : "\(rival.label) drops `\(drop)`; we keep it."))
                }
                let oursByEntry = row.ours.entrySeconds, theirsByEntry = rival.entrySeconds
                let slower: [Int] = row.store.entries.indices.filter { i in
                    i < oursByEntry.count && i < theirsByEntry.count && oursByEntry[i] > theirsByEntry[i]
                }
                let worst = slower.sorted { a, b in oursByEntry[a] - theirsByEntry[a] > oursByEntry[b] - theirsByEntry[b] }
                for i in worst.prefix(3) {
                    let entry = row.store.entries[i]
                    let sql = entry.sql.count > 90 ? entry.sql.prefix(90) + "…" : entry.sql
                    let ours = BenchmarkReport.seconds(oursByEntry[i]), theirs = BenchmarkReport.seconds(theirsByEntry[i])
                    let shape = Fingerprinter.normalize(entry.sql).parameterizedSQL
                    let notes = row.statements.first { Fingerprinter.normalize($0.sql).parameterizedSQL == shape }?.notes ?? []
                    out.append("  - ×\(entry.count) `\(sql)`: \(ours) with ours, \(theirs) with \(rival.label) (count × median)."
                               + (notes.isEmpty ? "" : " Our analysis of it: " + notes.map(\.text).joined(separator: " ")))
                }
            }
        }
        if !any { out.append("Nowhere in this run: on every store our advice's workload time was at most `.expert`'s and the search's best.") }
        return out.joined(separator: "\n")
    }

    static func details(_ row: StoreOutcome) -> String {
        var out = ["### \(row.store.name)", "", row.store.summary + ".", "", "Expected: \(row.store.expectation).", "",
                   "| configuration | changes | reads | writes | total: median (min–max) | index bytes | build | full scans | temp sorts |",
                   "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |"]
        for m in row.finalists {
            let changes = (m.configuration.creates.map(IndexConfiguration.key) + m.configuration.drops.map { "DROP \($0)" })
            let list = changes.isEmpty ? "–" : changes.map { "`\($0)`" }.joined(separator: "<br>")
            out.append("| \(m.label)\(m.label == row.optimum.label ? " (optimum)" : "") | \(list) | \(BenchmarkReport.seconds(m.read)) | \(BenchmarkReport.seconds(m.write)) | \(BenchmarkReport.seconds(m.total.median)) (\(BenchmarkReport.seconds(m.total.min))–\(BenchmarkReport.seconds(m.total.max))) | \(ByteCountText.format(m.last.bytesAdded)) | \(BenchmarkReport.seconds(m.last.buildSeconds)) | \(m.last.fullScansLeft) | \(m.last.sortsLeft) |")
        }
        out.append("")
        out.append("Searched \(row.searched) configurations. Our analysis took \(Figures.duration(row.oursSeconds))\(row.expertSeconds.map { "; `.expert` took \(Figures.duration($0)) for \(Figures.counted(row.store.distinctReads.count, "statement"))" } ?? "").")
        for failure in row.expertFailures {
            out.append("- `.expert` failed on `\(failure.sql.prefix(80))…`: \(failure.message)")
        }
        return out.joined(separator: "\n")
    }
}
