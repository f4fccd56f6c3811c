import Foundation

/// Figures derived from lower bounds (``BoundedFigure``) as every report prints them: "at least", "at most"
/// or "not known", never a bare number (hostile round 5, F10).
extension Figures {
    /// Why a figure is not known, for a table cell that has no timing beside it to say so.
    public static let stoppedAtTimeout = "stopped at --statement-timeout"

    /// `at least `, `at most ` or nothing, put before a figure bounded so; nothing for one not known.
    static func qualifier(_ bound: FigureBound) -> String {
        switch bound {
        case .atLeast: return "at least "
        case .atMost: return "at most "
        case .exact, .notKnown: return ""
        }
    }

    /// ``duration(_:)`` of the figure, `at least 1.20 s`, `at most 3.0 ms`, or `not known`.
    public static func duration(_ figure: BoundedFigure) -> String {
        figure.bound == .notKnown ? "not known" : qualifier(figure.bound) + duration(figure.value)
    }

    /// ``measured(_:)`` of the figure, bounded as ``duration(_:)-(BoundedFigure)`` prints it; for a table cell,
    /// `not known (stopped at --statement-timeout)` when the bounds say nothing (a 0 with a bound is no figure).
    public static func measured(_ figure: BoundedFigure) -> String {
        if figure.bound.isExact { return measured(figure.value) }
        if figure.bound == .notKnown || figure.value == 0 { return "not known (\(stoppedAtTimeout))" }
        return qualifier(figure.bound) + duration(figure.value)
    }

    /// ``signedDuration(_:)`` of a change, with its bound in words: `down by at least 998.0 ms`, `up by at
    /// least 2.1 s`, `at least −3.0 ms`, `at most +1.2 ms`, or `not known`.
    public static func signedDuration(_ change: BoundedFigure) -> String {
        let (value, bound) = (change.value, change.bound)
        switch bound {
        case .exact: return signedDuration(value)
        case .notKnown: return "not known"
        case .atMost where value < 0: return "down by at least " + duration(-value)
        case .atLeast where value > 0: return "up by at least " + duration(value)
        case _ where value == 0: return "not known"
        default: return qualifier(bound) + signedDuration(value)
        }
    }

    /// A share 0…1 as ``percent(_:)`` prints it, `≥ 28 %` for a lower bound (rounded down, so that the bound
    /// holds as printed), `≤ 30 %` for an upper one (rounded up), or `not known`.
    public static func percent(_ share: BoundedFigure) -> String {
        let value = share.value * 100
        switch share.bound {
        case .exact: return percent(share.value)
        case .notKnown: return "not known"
        case .atLeast:
            if value < 0.1 { return "> 0 %" }
            return "≥ " + (value < 10 ? String(format: "%.1f %%", (value * 10).rounded(.down) / 10) : String(format: "%.0f %%", value.rounded(.down)))
        case .atMost:
            if value < 0.1 { return "≤ 0.1 %" }
            return "≤ " + (value < 10 ? String(format: "%.1f %%", (value * 10).rounded(.up) / 10) : String(format: "%.0f %%", value.rounded(.up)))
        }
    }

    /// `12 % of the time`, `≥ 28 % of the time`, or `share of the time not known`.
    public static func share(_ share: BoundedFigure, of whole: String) -> String {
        share.bound == .notKnown ? "share of \(whole) not known" : "\(percent(share)) of \(whole)"
    }

    /// "saves 1.2 ms of reads, adds 30 µs of writes", with the verb turned when a figure is negative (a
    /// candidate that made reads slower, an index whose writes got cheaper): never "saves -28 ms"; each figure
    /// with its bound (a statement it serves stopped at the timeout): "saves at least 1.2 s of reads", "makes
    /// reads at most 4.2 s slower", "read saving not known".
    public static func readWriteEffect(reads: BoundedFigure, writes: BoundedFigure) -> String {
        let readWords = words(reads, unknown: "read saving not known", none: "saves no measurable read time",
                              up: { "saves \($0) of reads" }, down: { "makes reads \($0) slower" })
        let writeWords = words(writes, unknown: "write cost not known", none: "adds no measurable write time",
                               up: { "adds \($0) of writes" }, down: { "saves \($0) of writes" })
        return readWords + ", " + writeWords
    }

    /// `figure` in words: `unknown` when its bound is not known (or it is a bound of zero), `none` for an exact
    /// zero, else `up` or `down` (negative) of its size with its qualifier ("at least 1.2 s").
    private static func words(_ figure: BoundedFigure, unknown: String, none: String,
                              up: (String) -> String, down: (String) -> String) -> String {
        if figure.bound == .notKnown || (figure.value == 0 && !figure.bound.isExact) { return unknown }
        if figure.value > 0 { return up(qualifier(figure.bound) + duration(figure.value)) }
        if figure.value < 0 { return down(qualifier(figure.bound.negated) + duration(-figure.value)) }
        return none
    }

    /// ``readWriteEffect(reads:writes:)`` of two measured figures.
    public static func readWriteEffect(readSaved: Double, writeAdded: Double) -> String {
        readWriteEffect(reads: BoundedFigure(readSaved), writes: BoundedFigure(writeAdded))
    }

    /// Two timings compared when one is a lower bound (``Timing/isLowerBound``), nil when neither is: `at least
    /// 12× faster` when the time before is one and the time after is less, `at least 2.0× slower` when the time
    /// after is one and more than the time before, else `not known: …` (two stopped times are not "within the
    /// noise": hostile round 5, F10).
    public static func boundedChange(_ before: Timing, _ after: Timing) -> String? {
        let (b, a) = (before.medianSeconds, after.medianSeconds)
        switch (before.isLowerBound == true, after.isLowerBound == true) {
        case (false, false): return nil
        case (true, true): return "not known: \(stoppedAtTimeout) before and after"
        case (true, false): return a < b ? "at least \(ratio(b, a)) faster" : "not known: the time before was \(stoppedAtTimeout)"
        case (false, true): return a > b ? "at least \(ratio(a, b)) slower" : "not known: the time after was \(stoppedAtTimeout)"
        }
    }
}
