/// The words for what each recommendation and drop is charged of the whole advice's change
/// (``FinalCharges``), the headline's change with its spread, and the one line on how figures were taken:
/// defined once for Markdown and HTML.
extension AnalysisResult {
    /// What `recommendation` is charged with the whole set in place; nil in reports made before it was kept.
    public func charge(of recommendation: Recommendation) -> FinalCharge? {
        guard let charges = finalCharges, charges.recommendations.count == recommendations.count,
              let offset = recommendations.firstIndex(where: { $0.rank == recommendation.rank && $0.name == recommendation.name }) else { return nil }
        return charges.recommendations[offset]
    }

    /// What dropping `finding`'s index is charged with the whole set in place; nil when it is not dropped
    /// or the report predates charges.
    public func charge(ofDrop finding: ExistingIndexFinding) -> FinalCharge? {
        finalCharges?.drops.first { $0.index.sqlFolded == finding.index.sqlFolded }?.charge
    }

    /// `saves 15.12 s of reads (S1, S2, S3), adds 3.37 ms of writes (spread 3.31 ms–3.45 ms; SQLite's
    /// counters: 2.18 ms)`: a recommendation's charge, as the summary and its section print it. Reports
    /// without charges give the figures measured when it was chosen.
    public func chargeText(for recommendation: Recommendation) -> String {
        guard let charge = charge(of: recommendation) else {
            return Figures.readWriteEffect(reads: recommendation.boundedReadSaving, writes: recommendation.boundedWriteCost)
        }
        let served = charge.reads.filter { $0.chargedSeconds != 0 }.map { label(ofStatement: $0.statementID) }
        let reads = readChargeWords(charge)
        return reads + (served.isEmpty ? "" : " (\(Figures.listed(served)))") + slowedReadsText(charge) + ", " + writeChargeText(charge)
    }

    /// `; makes S4 slower: 103.2 ms → 158.1 ms (1.5× slower)`: each read charged to the index whose final
    /// time is measurably slower than as the store is, so that a regression is not left to the statement's
    /// own section (a new user's workout store: an index on the start date made a search that ran ×10 1.5×
    /// slower, and only its table said so). Empty when none is.
    func slowedReadsText(_ charge: FinalCharge) -> String {
        let slowed = charge.reads.compactMap { part -> String? in
            guard part.chargedSeconds < 0, let statement = statement(withID: part.statementID),
                  let before = statement.timingBefore, let after = statement.timingAfter, after.isSlower(than: before) else { return nil }
            return "\(label(ofStatement: part.statementID)) slower: \(Figures.median(before)) → \(Figures.median(after)) (\(Figures.change(before, after, significant: true)))"
        }
        return slowed.isEmpty ? "" : "; makes " + slowed.joined(separator: ", ")
    }

    /// `saves 2.0 µs of writes (spread …)`: a drop's charge; nil without one.
    public func dropChargeText(for finding: ExistingIndexFinding) -> String? {
        guard let charge = charge(ofDrop: finding) else { return nil }
        var parts: [String] = []
        if charge.readSecondsSaved != 0 {
            parts.append(readChargeWords(charge))
        }
        parts.append(writeChargeText(charge))
        return parts.joined(separator: ", ")
    }

    /// A charge's write figure with its spread and the counters' figure beside it.
    func writeChargeText(_ charge: FinalCharge) -> String {
        let writes = boundedWriteCost(charge)
        let words = Figures.readWriteEffect(reads: BoundedFigure(0), writes: writes).components(separatedBy: ", ")[1]
        guard !charge.writes.isEmpty else { return words }
        return words + " (" + Self.spreadAndCounters(charge.writeSecondsRange, counters: charge.writeCounterSeconds, signed: false, bound: writes.bound,
                                                     direction: writes.value) + ")"
    }

    /// `spread 3.31 ms–3.45 ms; SQLite's counters: 2.18 ms` for a charge whose words give its direction
    /// (`adds`, `saves`), or signed for a change (`spread +9.9 ms to +13.0 ms; SQLite's counters: +9.8 ms`).
    /// A figure that is a bound (``FigureBound``) has no spread: the quartiles of a stopped statement are the
    /// timeout, and a spread ending there would read as measured (hostile round 5, F10). Unsigned, the counters'
    /// figure reads in the words' `direction` (the charge's sign); one of the other sign is printed signed, with
    /// `the other way` (issue 39, F3: "adds 570.5 ms of writes (…; SQLite's counters: 533.2 ms)" beside a
    /// headline giving them as −533.2 ms).
    static func spreadAndCounters(_ range: ClosedRange<Double>, counters: Double?, signed: Bool, bound: FigureBound = .exact,
                                  direction: Double = 0) -> String {
        let (low, high) = (range.lowerBound, range.upperBound)
        let spread: String
        if !bound.isExact {
            spread = "spread not known: a time in it was \(Figures.stoppedAtTimeout)"
        } else if low == high {
            spread = "no spread"
        } else if !signed && (low >= 0 || high <= 0) {
            let (small, large) = (min(abs(low), abs(high)), max(abs(low), abs(high)))
            spread = small == 0 ? "spread up to \(Figures.duration(large))" : "spread \(Figures.duration(small))–\(Figures.duration(large))"
        } else {
            spread = "spread \(Figures.signedDuration(low)) to \(Figures.signedDuration(high))"
        }
        let counted = counters.map { counted in
            if signed { return Figures.signedDuration(counted) }
            return counted * direction < 0 ? Figures.signedDuration(counted) + ", the other way" : Figures.measured(abs(counted))
        }
        return spread + (counted.map { "; SQLite's counters: \($0)" } ?? "")
    }

    /// The headline's write change with its spread and SQLite's counters' figure: `+11.6 ms; spread +9.9 ms
    /// to +13.0 ms; SQLite's counters: +9.8 ms`. Nil without charges or writes.
    public var headlineWriteChangeText: String? {
        guard let charges = finalCharges else { return nil }
        let parts = (charges.recommendations + charges.drops.map(\.charge) + [charges.uncharged]).flatMap(\.writes)
        guard !parts.isEmpty else { return nil }
        // The change is bounded as the totals it is the difference of (``boundedEnds(_:)``).
        let ends = boundedEnds(\.kind.isWrite)
        let change = BoundedFigure(totals.writeSecondsAfter, ends.after ? .atLeast : .exact) - BoundedFigure(totals.writeSecondsBefore, ends.before ? .atLeast : .exact)
        let low = parts.reduce(0) { $0 + $1.lowestSeconds }, high = parts.reduce(0) { $0 + $1.highestSeconds }
        let counted = parts.reduce(Double?.some(0)) { sum, part in sum.flatMap { sum in part.counterSeconds.map { sum + $0 } } }
        return Figures.signedDuration(change) + "; " + Self.spreadAndCounters(min(low, high)...max(low, high), counters: counted, signed: true, bound: change.bound)
    }

    /// What the change no recommendation or drop explains comes to, when it is not nothing: `writes +3.0 µs
    /// (no index's work explains it: the clock's noise)`.
    public var unchargedText: String? {
        guard let uncharged = finalCharges?.uncharged, !(uncharged.reads.isEmpty && uncharged.writes.isEmpty) else { return nil }
        var parts: [String] = []
        if !uncharged.reads.isEmpty { parts.append("reads \(Figures.signedDuration(-boundedReadSaving(uncharged)))") }
        if !uncharged.writes.isEmpty { parts.append("writes \(Figures.signedDuration(boundedWriteCost(uncharged)))") }
        return parts.joined(separator: ", ") + " that no index's measured work explains (SQLite's counters show no index changing it: the clock's noise)"
    }

    /// The sentence that says what the summary's charges are.
    public var chargesSentence: String {
        "What each index and drop is charged here is measured with the whole set in place (every statement as the store is and with all of the advice), and the charges add up to the changes above"
            + (unchargedText.map { ", with \($0)" } ?? "") + "."
    }

    /// The one line at the top that says how the figures were taken; the method at the end says the rest.
    public var figuresLine: String {
        guard let version = method.sqliteVersion else { return "Figures: as the method at the end says." }
        let snapshot = "on a private snapshot of the store (SQLite \(version), \(store.hasStatistics ? "with its sqlite_stat1" : "no sqlite_stat1, as the store"))\(timeScope)"
        switch method.costSource ?? .wallClock {
        case .sqliteCounters:
            return "Figures: SQLite's work counters priced in seconds (--cost counters, the same on every run), \(snapshot). The method is at the end."
        case .wallClock:
            let decided = method.decidesOnCounters == true ? "; the choices are decided on SQLite's work counters of the same runs" : ""
            return "Figures: wall-clock medians of up to \(method.repeats) runs per statement \(snapshot)\(decided). The method is at the end."
        }
    }

    /// How sure the advice on `recommendation` is: decided on work counters (with the counts), or the runs'
    /// spread of its main statement, before and after.
    public func howSure(of recommendation: Recommendation) -> String {
        var parts: [String] = []
        if method.decidesOnCounters == true || method.costSource == .sqliteCounters {
            var decided = "decided on work counters"
            if let effect = recommendation.mainEffect, let before = effect.before.vmStepsPerExecution, let after = effect.after.vmStepsPerExecution {
                decided += " (\(label(ofStatement: effect.statementID)): \(Figures.count(Figures.whole(before))) → \(Figures.count(Figures.whole(after))) VM steps per execution)"
            }
            parts.append(decided)
        }
        if method.costSource != .sqliteCounters, let main = recommendation.mainEffect {
            let apart = main.before.isSlower(than: main.after) || main.after.isSlower(than: main.before)
            let before = main.before.isLowerBound == true ? "over \(Figures.duration(main.before.medianSeconds)) (stopped at --statement-timeout)"
                : "\(Figures.duration(main.before.medianSeconds)) (IQR \(Figures.duration(main.before.p25Seconds))–\(Figures.duration(main.before.p75Seconds)))"
            parts.append("on the clock \(label(ofStatement: main.statementID)) \(before) → \(Figures.duration(main.after.medianSeconds)) (IQR \(Figures.duration(main.after.p25Seconds))–\(Figures.duration(main.after.p75Seconds))): \(apart ? "the runs are apart" : "the runs overlap")")
        }
        return parts.isEmpty ? "no measurement to judge it by" : parts.joined(separator: "; ")
    }

    /// The caption over an index's own figures, measured when it was chosen with only the indexes above it
    /// built: a figure of a partial set, labelled as one.
    public func partialSetCaption(for recommendation: Recommendation) -> String {
        let built = recommendation.rank == 1 ? "before any other was built"
            : recommendation.rank == 2 ? "with index 1 built" : "with indexes 1–\(recommendation.rank - 1) built"
        return "Measured when it was chosen, \(built) (the figures above are with the whole set in place)"
    }

    /// A recommendation's section's first two lines, what it saves and what it costs with the whole set in
    /// place: `Saves 15.56 s of reads per workload: S1 21.8 ms → 33.3 µs, … per execution` and `Adds 4.07 ms
    /// of writes (spread …) per workload: S5, S8 and S9; built in 156.7 ms on this store …, 2.9 MiB`.
    /// `scope` follows each time: ` (on the sample)` when the tables were sampled.
    public func chargeLines(for recommendation: Recommendation, charge: FinalCharge, scope: String = "") -> (reads: String, writes: String) {
        let served = charge.reads.filter { $0.chargedSeconds != 0 }
        let reads = readChargeWords(charge).capitalizedFirstLetter
            + " per workload" + (served.isEmpty ? "" : ": " + chargedStatements(served) + " per execution") + scope
        let writes = (charge.writes.isEmpty ? "No write to its table" : writeChargeText(charge).capitalizedFirstLetter + " per workload: "
            + Figures.listed(charge.writes.map { label(ofStatement: $0.statementID) }) + scope)
            + "; " + recommendation.buildSentence.lowercasedFirstLetter
        return (reads, writes)
    }

    /// Each statement a charge covers, with its final change: `S1 55.4 ms → 57.2 µs`, the first four and how
    /// many more.
    public func chargedStatements(_ parts: [ChargedStatement]) -> String {
        let shown = parts.prefix(4).map { part -> String in
            let label = label(ofStatement: part.statementID)
            guard let statement = statement(withID: part.statementID), let before = statement.timingBefore,
                  let after = statement.timingAfter else { return label }
            return "\(label) \(Figures.median(before)) → \(Figures.median(after))"
        }
        return shown.joined(separator: ", ") + (parts.count > 4 ? " and \(parts.count - 4) more" : "")
    }
}

extension Figures {
    /// `+11.6 ms`, `−2.0 µs`: a change of time with its sign.
    public static func signedDuration(_ seconds: Double) -> String {
        seconds > 0 ? "+" + duration(seconds) : seconds < 0 ? "−" + duration(-seconds) : "no change"
    }

    /// `S1`, `S1 and S2`, `S1, S2 and S3`.
    static func listed(_ items: [String]) -> String {
        items.count <= 2 ? items.joined(separator: " and ") : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
