/// Issue 39, hostile round 7, F3: the headline's direction against what the report recommends, and the counters'
/// figure beside each charge against the counters' own sign.
extension ReportChecker {
    /// No index is recommended under a headline that calls the advice slower than the store as it is (the
    /// headline's own words, ``AnalysisResult/change(_:_:_:)``): the run gives such a set up
    /// (``AnalysisRun/keepFinalStateNoSlower(planner:)``). A report at a load of 11 printed "Workload time
    /// 840.8 ms → 1.41 s (1.7× slower): 1 index to add" and passed.
    func checkSlowerHeadline(_ result: AnalysisResult) -> [ReportFinding] {
        guard !result.recommendations.isEmpty else { return [] }
        let totals = result.totals
        let told = result.change(totals.totalSecondsBefore, totals.totalSecondsAfter)
        guard told.hasSuffix("slower") else { return [] }
        let names = result.recommendations.map(\.name).joined(separator: ", ")
        return [ReportFinding(.slowerHeadlineRecommended, "the headline says the workload goes \(result.totals(totals.totalSecondsBefore, totals.totalSecondsAfter)) (\(told)) with the advice, but it recommends \(names)")]
    }

    /// Each summary line's figure of SQLite's counters reads with the sign the counters give: unsigned, in its
    /// charge's words' direction ("adds … of writes (…; SQLite's counters: 2.18 ms)" is +2.18 ms), else by its
    /// own sign. A line that said "adds 570.5 ms of writes (…; SQLite's counters: 533.2 ms)" beside counters
    /// of −533.2 ms (the headline's) passed.
    func checkCounterSigns(_ result: AnalysisResult, markdown: String) -> [ReportFinding] {
        guard let charges = result.finalCharges, charges.recommendations.count == result.recommendations.count else { return [] }
        let lines = markdown.split(separator: "\n").map(String.init)
        var findings: [ReportFinding] = []
        for (recommendation, charge) in zip(result.recommendations, charges.recommendations) {
            guard let counted = charge.writeCounterSeconds, counted != 0 else { continue }
            let prefix = "\(recommendation.rank). \(MarkdownReport.inline(result.summaryDeclaration(for: recommendation)))"
            guard let line = lines.first(where: { $0.hasPrefix(prefix) }), let printed = Self.printedCounterSign(in: line),
                  printed * counted < 0 else { continue }
            findings.append(ReportFinding(.countersAgainstCharge, "Markdown summary: index \(recommendation.rank) (\(recommendation.name)) prints SQLite's counters as \(printed > 0 ? "adding" : "saving") write time, but they give \(Figures.signedDuration(counted))"))
        }
        return findings
    }

    /// The sign a summary line gives SQLite's counters' write figure: its own (`+`, `−`), else that of the
    /// words before it (`adds` +1, `saves` −1); nil when the line prints none.
    static func printedCounterSign(in line: String) -> Double? {
        guard let writes = line.range(of: " of writes ("),
              let counters = line.range(of: "SQLite's counters: ", range: writes.upperBound..<line.endIndex) else { return nil }
        switch line[counters.upperBound...].first {
        case "+": return 1
        case "−", "-": return -1
        default: break
        }
        let before = line[..<writes.lowerBound]
        let adds = before.range(of: "adds ", options: .backwards), saves = before.range(of: "saves ", options: .backwards)
        switch (adds, saves) {
        case (let a?, let s?): return a.lowerBound > s.lowerBound ? 1 : -1
        case (.some, nil): return 1
        case (nil, .some): return -1
        case (nil, nil): return nil
        }
    }
}
