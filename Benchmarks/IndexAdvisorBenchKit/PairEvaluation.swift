import Foundation
import IndexAdvisor

/// One pair judged: an advisor's sets (run several times), `.expert`'s, no change, and the best sets of the
/// benchmark's own ``OptimumSearch``, all measured by one ``WorkloadScorer`` run. The optimum is the
/// configuration with the least warm total, whoever proposed it; two totals within the run's noise floor
/// (the advisor's set measured twice, on two copies) are a tie, broken on fewer bytes.
package struct PairEvaluation {
    package struct Settings: Sendable {
        package var search = OptimumSearch.Settings()
        package var scorer = WorkloadScorer.Settings()
        /// How many times the advisor is run (do its sets agree?).
        package var advisorRuns = 5
        package init() {}
    }

    /// An advisor: the pair and the workload file it is given (``BenchPair/writeAdvisorWorkload(in:)``) → its set.
    package typealias Advisor = (BenchPair, URL) throws -> ChangeSet

    package struct Outcome: Sendable {
        package var pair: String
        package var kind: BenchPair.Kind
        package var largestTable: Int
        package var scored: [WorkloadScorer.Scored]
        /// Index into ``scored`` of each role.
        package var ours: Int
        package var oursAgain: Int
        package var expert: Int?
        package var noChange: Int
        package var optimum: Int
        /// The advisor's sets of every run, as sorted keys.
        package var advisorSets: [[String]]
        package var advisorSeconds: [Double]
        package var search: OptimumSearch.Outcome
        package var measure: CostMeasure

        package var agreeingRuns: Int { Dictionary(grouping: advisorSets, by: { $0 }).values.map(\.count).max() ?? 0 }
        /// |ours ÷ ours again − 1|: what the same set measures apart in this run.
        package var noiseFloor: Double { abs(scored[ours].pairedRatio(to: scored[oursAgain]) - 1) }
        package var oursOverOptimum: Double { scored[ours].pairedRatio(to: scored[optimum]) }
        package var oursOverExpert: Double? { expert.map { scored[ours].pairedRatio(to: scored[$0]) } }
        package var oursOverNoChange: Double { scored[ours].pairedRatio(to: scored[noChange]) }
        package var coldOursOverOptimum: Double? { scored[ours].coldRatio(to: scored[optimum]) }
        package var coldOursOverExpert: Double? { expert.flatMap { scored[ours].coldRatio(to: scored[$0]) } }
        /// True when `ratio` is within the noise floor of 1.
        package func isTie(_ ratio: Double) -> Bool { abs(ratio - 1) <= noiseFloor }
        /// How `scored[a]` ÷ `scored[b]` is to be read when a statement of either was stopped at the scorer's
        /// cap (its total is then a lower bound): "" exact, "≤" (only `b` capped), "≥" (only `a`), "?" (both).
        package func bound(_ a: Int, over b: Int?) -> String {
            guard let b else { return "" }
            switch (scored[a].capped.isEmpty, scored[b].capped.isEmpty) {
            case (true, true): return ""
            case (true, false): return "≤ "
            case (false, true): return "≥ "
            case (false, false): return "? "
            }
        }
    }

    let settings: Settings

    package init(settings: Settings) { self.settings = settings }

    /// Judges `advisor` on `pair`, with `expert` as `.expert`'s set (nil when the shell is missing).
    /// - Throws: what the advisor, the search or the scorer throws.
    package func evaluate(_ pair: BenchPair, advisor: Advisor, expert: ChangeSet?, directory: URL,
                          say: (String) -> Void = { _ in }) throws -> Outcome {
        let workload = try pair.writeAdvisorWorkload(in: directory)
        var sets: [ChangeSet] = []
        var seconds: [Double] = []
        for run in 0..<max(1, settings.advisorRuns) {
            let start = DispatchTime.now().uptimeNanoseconds
            sets.append(try advisor(pair, workload))
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            say("  advisor run \(run + 1): \(sets[run].keys.joined(separator: "; "))")
        }
        let search = try OptimumSearch(pair: pair, expert: expert?.creates ?? [], settings: settings.search, directory: directory).run()
        say("  search: \(search.candidates) candidates, \(search.elements) elements in \(search.groups) groups, \(search.configurationsPriced) sets priced, \(search.plansMeasured) plans measured")
        var configurations: [(String, ChangeSet)] = [("no change", .none), ("ours", sets[0]), ("ours, again", sets[0])]
        if let expert { configurations.append((".expert", expert)) }
        for (k, finalist) in search.finalists.enumerated() where !configurations.contains(where: { $0.1.isSame(as: finalist) && $0.0 != "ours, again" }) {
            configurations.append(("search #\(k + 1)", finalist))
        }
        let scored = try WorkloadScorer(pair: pair, settings: settings.scorer).score(configurations, in: directory, say: say)
        let label = { (name: String) in scored.firstIndex { $0.label == name } }
        let ours = label("ours")!, again = label("ours, again")!
        let noise = abs(scored[ours].pairedRatio(to: scored[again]) - 1)
        // The optimum: least warm total; within the noise of it, the fewest bytes. "ours, again" is ours. A total
        // with a statement stopped at the cap is a lower bound: such a configuration is the optimum only if all are.
        let measured = scored.indices.filter { $0 != again }
        let finished = measured.filter { scored[$0].capped.isEmpty }
        let pool = finished.isEmpty ? measured : finished
        let fastest = pool.min { scored[$0].median < scored[$1].median }!
        let optimum = pool.filter { abs(scored[$0].pairedRatio(to: scored[fastest]) - 1) <= noise }
            .min { scored[$0].bytesAdded != scored[$1].bytesAdded ? scored[$0].bytesAdded < scored[$1].bytesAdded : scored[$0].median < scored[$1].median } ?? fastest
        let largest = try Self.largestTable(pair.store)
        return Outcome(pair: pair.name, kind: pair.kind, largestTable: largest, scored: scored, ours: ours, oursAgain: again,
                       expert: label(".expert"), noChange: label("no change")!, optimum: optimum, advisorSets: sets.map(\.keys),
                       advisorSeconds: seconds, search: search, measure: settings.scorer.measure)
    }

    /// Rows of the store's largest table.
    package static func largestTable(_ url: URL) throws -> Int {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        var largest = 0
        for row in try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'") {
            guard let table = row.first?.textValue,
                  let count = try? connection.scalar("SELECT count(*) FROM \(SQLQuote.identifier(table))")?.integerValue else { continue }
            largest = max(largest, Int(count))
        }
        return largest
    }
}
