/// Issue 42, item 2: the headline's changes are what the recommendations are charged, measured with the
/// whole set in place, and a figure measured with only part of it is labelled so.
extension ReportChecker {
    /// The charges (``FinalCharges``) against the statements and the headline: each charge is what its
    /// statements' final changes give by the rule (``FinalChargeLedger``), the charges of all recommendations
    /// and drops with what is uncharged add up to the headline's read and write changes, a read is charged
    /// only to the recommendations its final plan uses, and each summary line prints its charge. A breaking
    /// helper's issue: the headline said writes went up 34 ms beside indexes charged 90 ms in all.
    func checkCharges(_ result: AnalysisResult, markdown: String) -> [ReportFinding] {
        guard let charges = result.finalCharges else { return [] }
        var findings: [ReportFinding] = []
        guard charges.recommendations.count == result.recommendations.count,
              charges.drops.map(\.index.sqlFolded) == result.indexesToDrop.map(\.index.sqlFolded) else {
            return [ReportFinding(.chargesAgainstHeadline, "the charges list \(charges.recommendations.count) recommendations and \(charges.drops.count) drops, but the report has \(result.recommendations.count) and \(result.indexesToDrop.count)")]
        }
        func agree(_ a: Double, _ b: Double, scale: Double) -> Bool { abs(a - b) <= 1e-6 * max(scale, abs(a), abs(b)) + 1e-12 }
        let all = charges.recommendations + charges.drops.map(\.charge) + [charges.uncharged]
        let scale = all.flatMap { $0.reads + $0.writes }.reduce(0) { $0 + abs($1.chargedSeconds) }
        // The headline's changes, as the statements' own totals give them.
        let totals = result.totals
        let sums = [("read time saved", totals.readSecondsBefore - totals.readSecondsAfter, all.reduce(0) { $0 + $1.readSecondsSaved }),
                    ("write time added", totals.writeSecondsAfter - totals.writeSecondsBefore, all.reduce(0) { $0 + $1.writeSecondsAdded })]
        for (what, headline, charged) in sums where !agree(headline, charged, scale: scale) {
            findings.append(ReportFinding(.chargesAgainstHeadline, "headline \(what): \(Figures.signedDuration(headline)), but the recommendations and drops are charged \(Figures.signedDuration(charged)) in all"))
        }
        // Each charge as the statements' final changes give it.
        let expected = FinalChargeLedger(result).charges
        let parties = result.recommendations.map { "index \($0.rank) (\($0.name))" } + result.indexesToDrop.map { "dropping \($0.index)" } + ["what no index explains"]
        let expectedAll = expected.recommendations + expected.drops.map(\.charge) + [expected.uncharged]
        for (party, (stored, computed)) in zip(parties, zip(all, expectedAll)) {
            for (what, a, b) in [("reads saved", stored.readSecondsSaved, computed.readSecondsSaved), ("writes added", stored.writeSecondsAdded, computed.writeSecondsAdded)]
            where !agree(a, b, scale: scale) {
                findings.append(ReportFinding(.chargesAgainstHeadline, "\(party) is charged \(Figures.signedDuration(a)) of \(what), but its statements' changes with the whole set in place give \(Figures.signedDuration(b))"))
            }
            for part in stored.writes where !(min(part.lowestSeconds, part.highestSeconds) - 1e-12...max(part.lowestSeconds, part.highestSeconds) + 1e-12).contains(part.chargedSeconds) {
                findings.append(ReportFinding(.chargesAgainstHeadline, "\(party): \(result.label(ofStatement: part.statementID))'s write charge \(Figures.duration(part.chargedSeconds)) lies outside its own spread"))
            }
        }
        // A read is charged only to an index its final plan uses.
        for (recommendation, charge) in zip(result.recommendations, charges.recommendations) {
            for part in charge.reads {
                let plan = result.statement(withID: part.statementID)?.planAfter
                if !(plan.map { uses($0, recommendation.name) } ?? false) {
                    findings.append(ReportFinding(.chargesAgainstHeadline, "index \(recommendation.rank) (\(recommendation.name)) is charged \(result.label(ofStatement: part.statementID))'s read change, but that statement's final plan does not use it"))
                }
            }
        }
        // The summary prints each recommendation's charge.
        let lines = markdown.split(separator: "\n").map(String.init)
        for recommendation in result.recommendations {
            let prefix = "\(recommendation.rank). \(MarkdownReport.inline(result.summaryDeclaration(for: recommendation)))"
            guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { continue }
            if !line.contains(result.chargeText(for: recommendation)) {
                findings.append(ReportFinding(.chargesAgainstHeadline, "Markdown summary: index \(recommendation.rank)'s line does not print its charge (\(result.chargeText(for: recommendation)))"))
            }
        }
        return findings
    }

    /// Each recommendation's own figures, measured when it was chosen with only the indexes above it built,
    /// are labelled so in Markdown and HTML (``AnalysisResult/partialSetCaption(for:)``), when the report keeps
    /// whole-set charges beside them.
    func checkPartialSetLabels(_ result: AnalysisResult, markdown: String, html: String) -> [ReportFinding] {
        guard result.finalCharges != nil else { return [] }
        var findings: [ReportFinding] = []
        for recommendation in result.recommendations where !recommendation.effects.isEmpty {
            let caption = result.partialSetCaption(for: recommendation)
            if !markdownSection(of: recommendation, in: markdown).contains(MarkdownReport.text(caption)) {
                findings.append(ReportFinding(.partialSetUnlabelled, "Markdown: index \(recommendation.rank) (\(recommendation.name)) shows the figures of when it was chosen without saying they were measured with part of the advice"))
            }
            if !html.contains(HTMLText.escape(caption)) {
                findings.append(ReportFinding(.partialSetUnlabelled, "HTML: index \(recommendation.rank) (\(recommendation.name)) shows the figures of when it was chosen without saying they were measured with part of the advice"))
            }
        }
        return findings
    }
}
