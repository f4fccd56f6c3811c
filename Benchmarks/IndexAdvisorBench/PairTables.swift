import Foundation
import IndexAdvisor
import IndexAdvisorBenchKit

/// The pairs' tables in the report: one row per pair with every column filled, a ratio inside the run's
/// noise floor printed as a tie, then each pair's configurations, and the run's figures as JSON.
enum PairTables {
    /// `bound` is ``PairEvaluation/Outcome/bound(_:over:)``'s mark: a bounded ratio is never called a tie.
    static func ratio(_ value: Double?, bound: String = "", tie: (Double) -> Bool) -> String {
        guard let value else { return "–" }
        if !bound.isEmpty { return bound + String(format: "%.2f", value) }
        return tie(value) ? "tie (\(String(format: "%.2f", value)))" : String(format: "%.2f", value)
    }

    static func changes(_ set: ChangeSet) -> String {
        let keys = set.creates.map { "+`\(ChangeSet.key($0))`" } + set.drops.map { "−`\($0)`" }
        return keys.isEmpty ? "none" : keys.joined(separator: "<br>")
    }

    static func cost(_ value: Double, _ measure: CostMeasure) -> String {
        measure == .counters ? Figures.count(Int(value.rounded())) + " units" : BenchmarkReport.seconds(value)
    }

    /// The table of `judged` under `title`.
    static func table(title: String, introduction: String, _ judged: [PairJudge.Judged]) -> String {
        var out = ["## \(title)", "", introduction, "",
                   "| pair | largest table | values scored | ours ÷ optimum | ours ÷ .expert | ours ÷ no change | cold: ours ÷ optimum · ÷ .expert | noise floor | ours | optimum (by) | .expert | runs that agreed |",
                   "| --- | ---: | --- | ---: | ---: | ---: | --- | ---: | --- | --- | --- | --- |"]
        for item in judged {
            let o = item.outcome
            let tie = o.isTie
            let drawn = judgedDraws(item)
            let optimum = o.scored[o.optimum]
            let expert = o.expert.map { changes(o.scored[$0].changes) } ?? "–"
            let cold = "\(ratio(o.coldOursOverOptimum, tie: { _ in false })) · \(ratio(o.coldOursOverExpert, tie: { _ in false }))"
            out.append("| \(o.pair) | \(Figures.count(o.largestTable)) rows | \(drawn) | \(ratio(o.oursOverOptimum, bound: o.bound(o.ours, over: o.optimum), tie: tie)) | \(ratio(o.oursOverExpert, bound: o.bound(o.ours, over: o.expert), tie: tie)) | \(ratio(o.oursOverNoChange, bound: o.bound(o.ours, over: o.noChange), tie: tie)) | \(cold) | \(String(format: "%.3f", o.noiseFloor)) | \(changes(o.scored[o.ours].changes)) | \(optimum.label): \(changes(optimum.changes)) | \(expert) | \(o.agreeingRuns) of \(o.advisorSets.count) |")
        }
        let count = judged.count
        let outcomes = judged.map(\.outcome)
        let atOptimum = outcomes.filter { $0.oursOverOptimum <= 1.05 || $0.isTie($0.oursOverOptimum) }.count
        let compared = outcomes.filter { $0.oursOverExpert != nil }
        let notAbove = compared.filter { $0.oursOverExpert! <= 1 || $0.isTie($0.oursOverExpert!) }.count
        let stable = outcomes.filter { $0.agreeingRuns == $0.advisorSets.count }.count
        out += ["", "Ours within 1.05 × the optimum (or tied with it) on \(atOptimum) of \(count); at or below `.expert` (or tied) on \(notAbove) of \(compared.count); the same set in every run on \(stable) of \(count)."]
        return out.joined(separator: "\n")
    }

    /// "fresh draws" when the pair's statements have parameters the scorer drew, else "the pair's literals".
    static func judgedDraws(_ item: PairJudge.Judged) -> String {
        item.outcome.kind == .heldOut || item.hasDraws ? "fresh draws" : "the pair's literals"
    }

    /// Each pair's configurations and how the search went.
    static func details(_ item: PairJudge.Judged) -> String {
        let o = item.outcome
        var out = ["### \(o.pair)", "",
                   "| configuration | changes | warm: median (min–max) | reads | writes | cold | bytes added | build | full scans | temp sorts |",
                   "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for (index, s) in o.scored.enumerated() {
            let mark = index == o.optimum ? " (optimum)" : ""
            let atLeast = s.capped.isEmpty ? "" : "≥ "
            out.append("| \(s.label)\(mark) | \(changes(s.changes)) | \(atLeast)\(cost(s.median, o.measure)) (\(cost(s.spread.low, o.measure))–\(cost(s.spread.high, o.measure))) | \(cost(s.readCost, o.measure)) | \(cost(s.writeCost, o.measure)) | \(s.cold.map { cost($0, o.measure) } ?? "–") | \(ByteCountText.format(s.bytesAdded)) | \(BenchmarkReport.seconds(s.buildSeconds)) | \(s.fullScans) | \(s.tempSorts) |")
        }
        let search = o.search
        out += ["", "The search: \(search.candidates) candidates of its own and `.expert`'s, \(search.elements) elements searched in \(search.groups) group\(search.groups == 1 ? "" : "s") of tables, \(Figures.count(search.configurationsPriced)) sets priced on \(search.plansMeasured) measured plans; \(search.planMismatches) plan\(search.planMismatches == 1 ? "" : "s") the schema clone predicted differed on the store."]
        out.append("Our analyses took \(o.advisorSeconds.map(Figures.duration).joined(separator: ", "))\(item.expertSeconds.map { "; `.expert` took \(Figures.duration($0))" } ?? "").")
        let distinct = Array(Set(o.advisorSets)).sorted { $0.joined() < $1.joined() }
        if distinct.count > 1 {
            out.append("The runs gave \(distinct.count) sets: " + distinct.map { set in
                "\(o.advisorSets.filter { $0 == set }.count)× " + (set.isEmpty ? "none" : set.map { "`\($0)`" }.joined(separator: ", "))
            }.joined(separator: "; ") + ".")
        }
        for s in o.scored where !s.capped.isEmpty {
            out.append("- \(s.label): stopped at the scorer's cap of one execution on \(s.capped.map { "S\($0 + 1)" }.joined(separator: ", ")); its totals are lower bounds (≥).")
        }
        if !search.capped.isEmpty {
            out.append("- The search stopped \(search.capped.count) statement\(search.capped.count == 1 ? "" : "s")' slowest plans at its cap and priced them at it (a lower bound).")
        }
        out += losses(item)
        for note in search.notes { out.append("- \(note)") }
        for failure in item.expertFailures { out.append("- `.expert` failed on `\(failure.sql.prefix(80))`: \(failure.message)") }
        return out.joined(separator: "\n")
    }

    /// Where ours is slower than the optimum or `.expert` beyond the noise: the indexes that differ, what our
    /// analysis said of the ones it left out, and the three statements that account for most of the gap.
    static func losses(_ item: PairJudge.Judged) -> [String] {
        let o = item.outcome
        var rivals: [Int] = []
        if o.oursOverOptimum > 1, !o.isTie(o.oursOverOptimum), o.optimum != o.ours { rivals.append(o.optimum) }
        if let expert = o.expert, let r = o.oursOverExpert, r > 1, !o.isTie(r), expert != o.optimum { rivals.append(expert) }
        var out: [String] = []
        let ours = o.scored[o.ours]
        for rival in rivals.map({ o.scored[$0] }) {
            out.append("- **Lost to \(rival.label)** (\(String(format: "%.2f", ours.pairedRatio(to: rival)))):")
            let mine = Set(ours.changes.creates.map(ChangeSet.key)), theirs = Set(rival.changes.creates.map(ChangeSet.key))
            for key in theirs.subtracting(mine).sorted() {
                let reason = item.analysis?.rejectedCandidates.first { ChangeSet.key($0.sql) == key }.map { " Our analysis rejected it: \($0.reason)." } ?? " Not among our candidates."
                out.append("  - \(rival.label) adds `\(key)`.\(reason)")
            }
            for key in mine.subtracting(theirs).sorted() { out.append("  - we add `\(key)`, which \(rival.label) does not.") }
            for drop in Set(ours.changes.drops).symmetricDifference(rival.changes.drops).sorted() {
                out.append("  - " + (ours.changes.drops.contains(drop) ? "we drop `\(drop)`; \(rival.label) keeps it." : "\(rival.label) drops `\(drop)`; we keep it."))
            }
            let gaps = ours.statementCosts.indices.map { ($0, ours.statementCosts[$0] - rival.statementCosts[$0]) }.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }
            for (i, _) in gaps.prefix(3) {
                let sql = item.statements[i]
                out.append("  - `\(sql.count > 90 ? sql.prefix(90) + "…" : Substring(sql))`: \(cost(ours.statementCosts[i], o.measure)) with ours, \(cost(rival.statementCosts[i], o.measure)) with \(rival.label) (count × cost).")
            }
        }
        return out
    }

    static func json(_ item: PairJudge.Judged) -> [String: Any] {
        let o = item.outcome
        func scored(_ s: WorkloadScorer.Scored) -> [String: Any] {
            var object: [String: Any] = ["label": s.label, "creates": s.changes.creates, "drops": s.changes.drops, "rounds": s.rounds,
                                         "median": s.median, "readCost": s.readCost, "writeCost": s.writeCost, "statementCosts": s.statementCosts,
                                         "bytesAdded": s.bytesAdded, "buildSeconds": s.buildSeconds, "fullScans": s.fullScans,
                                         "tempSorts": s.tempSorts, "hotScans": s.hotScans, "plans": s.plans.map(\.lines),
                                         "cappedStatements": s.capped.map { $0 + 1 }]
            if let cold = s.cold { object["cold"] = cold }
            return object
        }
        var object: [String: Any] = [
            "pair": o.pair, "kind": o.kind.rawValue, "largestTable": o.largestTable, "unit": o.measure.unit,
            "oursOverOptimum": o.oursOverOptimum, "oursOverNoChange": o.oursOverNoChange, "noiseFloor": o.noiseFloor,
            "optimum": o.scored[o.optimum].label, "advisorSets": o.advisorSets, "agreeingRuns": o.agreeingRuns,
            "advisorSeconds": o.advisorSeconds, "configurations": o.scored.map(scored),
            "search": ["candidates": o.search.candidates, "elements": o.search.elements, "groups": o.search.groups,
                       "configurationsPriced": o.search.configurationsPriced, "plansMeasured": o.search.plansMeasured,
                       "planMismatches": o.search.planMismatches, "cappedStatements": o.search.capped.count, "modelCosts": o.search.modelCosts, "noChangeCost": o.search.noChangeCost,
                       "notes": o.search.notes] as [String: Any],
        ]
        if let r = o.oursOverExpert { object["oursOverExpert"] = r }
        if let r = o.coldOursOverOptimum { object["coldOursOverOptimum"] = r }
        if let r = o.coldOursOverExpert { object["coldOursOverExpert"] = r }
        if let seconds = item.expertSeconds { object["expertSeconds"] = seconds }
        return object
    }
}

extension PairJudge.Judged {
    /// The pair's statements' texts, in order (for the losses' lines).
    var statements: [String] { pair.statements.map(\.sql) }
    var hasDraws: Bool { pair.statements.contains { !$0.draws.isEmpty } }
}
