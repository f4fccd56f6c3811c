import Foundation

/// The output formats of a report.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// GitHub-flavoured Markdown, for a pull request.
    case markdown = "md"
    /// The versioned JSON document (``AnalysisResult``).
    case json
    /// A SQL migration: `CREATE INDEX IF NOT EXISTS` / `DROP INDEX IF EXISTS`, one per line, with comments.
    case sql
    /// One self-contained HTML page with charts (inline CSS and SVG, no network).
    case html
    /// The SwiftData `#Index` / `#Unique` declarations to paste, per model.
    case swift

    /// The file name extension for a report in this format (`md`, `json`, `sql`, `html`, `swift`).
    public var fileExtension: String { rawValue }

    /// Renders `result` in this format. Every format reads the same result and computes nothing.
    public func render(_ result: AnalysisResult) -> String {
        switch self {
        case .markdown: return MarkdownReport.render(result)
        case .json: return JSONReport.render(result)
        case .sql: return SQLReport.render(result)
        case .html: return HTMLReport.render(result)
        case .swift: return SwiftReport.render(result)
        }
    }
}

/// Numbers as reports print them.
public enum Figures {
    /// Seconds as `812 ns`, `41.3 µs`, `23.1 ms`, `1.52 s`.
    public static func duration(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        if magnitude == 0 { return "0 s" }
        if magnitude < 1e-6 { return String(format: "%.0f ns", seconds * 1e9) }
        if magnitude < 1e-3 { return String(format: magnitude < 1e-5 ? "%.2f µs" : "%.1f µs", seconds * 1e6) }
        if magnitude < 1 { return String(format: magnitude < 1e-2 ? "%.2f ms" : "%.1f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }

    /// A measured saving or cost as ``duration(_:)`` shows it, or `none measurable` for 0: the figures that
    /// count only differences beyond the noise are 0 when there was none, and `0 s` would read as a time.
    public static func measured(_ seconds: Double) -> String {
        seconds == 0 ? "none measurable" : duration(seconds)
    }

    /// A time the app's log reported (Core Data prints 0.1 ms steps, `0.0000s` for a quicker one) as
    /// ``duration(_:)`` shows it, or `under 0.1 ms` below that resolution: `median 0 s over 100 executions`
    /// read as measured (a new user's report).
    public static func logged(_ seconds: Double) -> String {
        seconds < 0.000_1 ? "under 0.1 ms" : duration(seconds)
    }

    /// Two weighted times as `12.4 ms → 3.1 ms`, or `none timed` when both are 0 (a workload without
    /// writes, say), which `0 s → 0 s` would present as measured.
    public static func before(_ before: Double, after: Double) -> String {
        before == 0 && after == 0 ? "none timed" : "\(duration(before)) → \(duration(after))"
    }

    /// A speed ratio `before / after` as `42×`, `1.3×`; "—" when undefined.
    public static func ratio(_ before: Double, _ after: Double) -> String {
        guard after > 0, before > 0 else { return "—" }
        let value = before / after
        return value >= 10 ? String(format: "%.0f×", value) : String(format: "%.1f×", value)
    }

    /// A change from `before` to `after` seconds: `42× faster`, `1.3× slower`, or `within the noise`.
    public static func change(_ before: Double, _ after: Double, significant: Bool) -> String {
        guard significant else { return "within the noise" }
        return after <= before ? "\(ratio(before, after)) faster" : "\(ratio(after, before)) slower"
    }

    /// An index's effect on one statement: ``change(_:_:significant:)`` of its timings.
    public static func change(of effect: StatementEffect) -> String {
        change(effect.before, effect.after, significant: effect.isSignificant)
    }

    /// Two timings compared: ``change(_:_:significant:)`` of their medians, except where "within the noise"
    /// would contradict the figures beside it: a write whose runs came out faster without using the index, or
    /// slower while the counters show no more work (so not counted), says so, and medians 2× or more apart
    /// whose runs overlap are "too spread to tell".
    public static func change(_ before: Timing, _ after: Timing, significant: Bool) -> String {
        let (b, a) = (before.medianSeconds, after.medianSeconds)
        // Stopped at the timeout on either side (a lower bound): faster or slower by at least the ratio, or not known.
        if let bounded = boundedChange(before, after) { return bounded }
        let direction = a <= b ? "\(ratio(b, a)) faster" : "\(ratio(a, b)) slower"
        if !significant && after.isSlower(than: before) {
            // A write the score leaves out: with decisions on the counters, one they show doing no more work.
            return "\(direction), not counted: SQLite's work counters show it doing no more work with the index"
        }
        if !significant && before.isSlower(than: after) {
            return "\(direction), not counted: its plan does not use the index"
        }
        if !significant && min(a, b) > 0 && max(a, b) >= 2 * min(a, b) {
            return "\(direction) by the medians, but the runs overlap: too spread to tell"
        }
        return change(b, a, significant: significant)
    }

    /// Two totals compared, for summaries: `6.4× faster`, `1.3× slower`, or `about the same` when they differ
    /// by less than 5 %. (Whether a single statement's difference is real is ``change(_:_:significant:)``'s job.)
    public static func comparison(_ before: Double, _ after: Double) -> String {
        guard before > 0, after > 0 else { return before == after ? "about the same" : (after < before ? "faster" : "slower") }
        if abs(after - before) < 0.05 * max(before, after) { return "about the same" }
        return after < before ? "\(ratio(before, after)) faster" : "\(ratio(after, before)) slower"
    }

    /// True when ``comparison(_:_:)`` calls `after` slower than `before` (5 % or more above it): the headline's
    /// word that no recommendation may stand under (issue 38; the selection gives the set up, `render --check`
    /// flags a report that does it).
    public static func callsSlower(_ before: Double, _ after: Double) -> Bool {
        comparison(before, after).hasSuffix("slower")
    }

    /// A timing as `23.1 ms (IQR 22.8–23.6 ms, median of 7 runs of 3 executions)`.
    /// `12.3 ms`, or `over 10.00 s` for a lower bound (``Timing/isLowerBound``): a timing's median as a table cell.
    public static func median(_ timing: Timing) -> String {
        (timing.isLowerBound == true ? "over " : "") + duration(timing.medianSeconds)
    }

    public static func timing(_ timing: Timing) -> String {
        if timing.isLowerBound == true {
            return "over \(duration(timing.medianSeconds)) (one execution ran past --statement-timeout and was stopped: a lower bound)"
        }
        let runs = timing.runs == 1 ? "1 run" : "median of \(timing.runs) runs"
        let executions = timing.executionsPerRun == 1 ? "1 execution" : "\(count(timing.executionsPerRun)) executions"
        return "\(duration(timing.medianSeconds)) (IQR \(duration(timing.p25Seconds))–\(duration(timing.p75Seconds)), \(runs) of \(executions))"
    }

    /// A share 0…1 as `36 %`, `4.2 %`, `0.3 %`, `<0.1 %`, or `0 %`.
    public static func percent(_ share: Double) -> String {
        let value = share * 100
        if value == 0 { return "0 %" }
        if abs(value) < 0.1 { return "<0.1 %" }
        return String(format: abs(value) < 10 ? "%.1f %%" : "%.0f %%", value)
    }

    /// `1 row`, `3 rows`, `1,200 statements`: a count with its noun, singular or plural.
    public static func counted(_ value: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count(value)) \(value == 1 ? noun : (plural ?? noun + "s"))"
    }

    /// Rows per execution: whole numbers as such, averages to one decimal.
    public static func rows(_ value: Double) -> String {
        value.rounded() == value || value >= 100 ? count(whole(value)) : String(format: "%.1f", value)
    }

    /// An integer with thousands separators: `100,000`.
    public static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result += "," }
            result.append(character)
        }
        return value < 0 ? "-" + result : result
    }
}
