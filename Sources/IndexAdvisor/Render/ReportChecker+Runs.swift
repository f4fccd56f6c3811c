import Foundation

extension ReportChecker {
    /// Every timing in `result` whose summary its own runs do not give: the quartiles out of order
    /// (min ≤ p25 ≤ median ≤ p75 ≤ max), a run count that is not the number of runs kept, a median, quartile
    /// or extreme that those runs do not have (``Timing`` takes them by linear interpolation over the sorted
    /// runs), or, for a timing on SQLite's counters, a time that is not their price (``CounterCost``). Every
    /// timing the advisor writes is made from its runs that way, so only an edited report fails: one with a
    /// median moved outside its own interquartile range passed every other check.
    func checkRunFigures(_ result: AnalysisResult) -> [ReportFinding] {
        var timings: [(String, Timing)] = []
        for (offset, statement) in result.statements.enumerated() {
            let label = result.label(ofStatement: statement.id)
            if let timing = statement.timingBefore { timings.append(("\(label) (statements[\(offset)]) before", timing)) }
            if let timing = statement.timingAfter { timings.append(("\(label) (statements[\(offset)]) after", timing)) }
        }
        func effects(_ list: [StatementEffect], _ owner: String) {
            for effect in list {
                let label = "\(owner), \(result.label(ofStatement: effect.statementID))"
                timings.append(("\(label) without it", effect.before))
                timings.append(("\(label) with it", effect.after))
            }
        }
        for recommendation in result.recommendations { effects(recommendation.effects, "index \(recommendation.rank) (\(recommendation.name))") }
        for (offset, alternative) in (result.alternatives ?? []).enumerated() { effects(alternative.effects, "alternative A\(offset + 1)") }
        return timings.compactMap { label, timing in
            Self.runProblem(timing).map { ReportFinding(.runsAgainstSummary, "\(label): \($0)") }
        }
    }

    /// What is wrong with `timing`'s summary against its runs, in words, or nil when its runs give it.
    static func runProblem(_ timing: Timing) -> String? {
        func agree(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(abs(a), abs(b)) + 1e-12 }
        let stated = [("min", timing.minSeconds), ("p25", timing.p25Seconds), ("median", timing.medianSeconds),
                      ("p75", timing.p75Seconds), ("max", timing.maxSeconds)]
        for (low, high) in zip(stated, stated.dropFirst()) where low.1 > high.1 && !agree(low.1, high.1) {
            return "its \(low.0) \(Figures.duration(low.1)) is above its \(high.0) \(Figures.duration(high.1))"
        }
        if !timing.runSeconds.isEmpty {
            if timing.runs != timing.runSeconds.count {
                return "it says \(timing.runs) run\(timing.runs == 1 ? "" : "s") and lists \(timing.runSeconds.count)"
            }
            let recomputed = Timing.from(samples: timing.runSeconds, executionsPerRun: timing.executionsPerRun,
                                         rows: timing.rowsPerExecution, failures: timing.failures)
            let again = [recomputed.minSeconds, recomputed.p25Seconds, recomputed.medianSeconds, recomputed.p75Seconds, recomputed.maxSeconds]
            for ((name, value), expected) in zip(stated, again) where !agree(value, expected) {
                return "its \(name) is \(Figures.duration(value)), and its own runs give \(Figures.duration(expected))"
            }
        }
        if timing.costSource == .sqliteCounters, let counters = timing.counters {
            let priced = CounterCost.seconds(counters)
            if !agree(timing.medianSeconds, priced) {
                return "a time on SQLite's counters of \(Figures.duration(timing.medianSeconds)), where their price is \(Figures.duration(priced))"
            }
        }
        return nil
    }
}
