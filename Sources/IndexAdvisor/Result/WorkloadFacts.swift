extension WorkloadSummary {
    /// What was read from `workload`: its files, lines and statements read, distinct statements, what was
    /// set aside and why, each file's format, and what its observed times are; `analysedStatements` of the
    /// distinct statements were (or will be) planned and measured. The one place these facts are read
    /// from the workload, for the analysis's result and for `indexadvisor workload`.
    public init(_ workload: Workload, analysedStatements: Int) {
        let diagnostics = workload.diagnostics
        self.init(files: diagnostics.files, linesRead: diagnostics.linesRead, statementsRead: diagnostics.statementsRead,
                  distinctStatements: workload.statements.count, analysedStatements: analysedStatements,
                  skipped: diagnostics.skipped, skippedExamples: diagnostics.examples,
                  housekeepingStatements: workload.statements.filter { !$0.kind.isAnalysed }.reduce(0) { $0 + $1.count },
                  formats: diagnostics.formats, observedTimeMeans: workload.observedTimeMeaning,
                  setAside: diagnostics.setAside.isEmpty ? nil : diagnostics.setAside)
    }
}

/// What the workload itself says, added to a result: each file's format and why, what the observed times
/// are, and which statements failed on the device.
extension AnalysisResult {
    /// The result with the workload's facts that the analysis does not carry: ``WorkloadSummary/formats``,
    /// ``WorkloadSummary/observedTimeMeans`` and each statement's device failures.
    public func describingWorkload(_ workload: Workload) -> AnalysisResult {
        var result = self
        result.workload.formats = workload.diagnostics.formats
        result.workload.observedTimeMeans = workload.observedTimeMeaning
        let failures = Dictionary(workload.statements.filter { $0.deviceFailures > 0 }.map { ($0.fingerprint.id, $0) },
                                  uniquingKeysWith: { first, _ in first })
        for index in result.statements.indices {
            guard let statement = failures[result.statements[index].id] else { continue }
            result.statements[index].deviceFailures = statement.deviceFailures
            result.statements[index].deviceError = statement.deviceError
        }
        if !workload.sourceSites.isEmpty {
            result.sourceSites = workload.sourceSites
            let located = Dictionary(workload.statements.map { ($0.fingerprint.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in result.statements.indices {
                guard let statement = located[result.statements[index].id] else { continue }
                if !statement.sourceLocations.isEmpty { result.statements[index].sourceLocations = statement.sourceLocations }
                if statement.isFromSourceOnly { result.statements[index].sourceOnly = true }
            }
        }
        return result
    }

    /// Items of the workload skipped, summed over the reasons.
    var skippedWorkloadItems: Int { workload.skipped.values.saturatingSum { $0 } }

    /// Which ends of a total hold a lower bound (``Timing/isLowerBound``: a statement stopped at
    /// `--statement-timeout`), over the analysed statements `included` selects: `before` as the store is,
    /// `after` with the advice.
    func boundedEnds(_ included: (StatementReport) -> Bool = { _ in true }) -> (before: Bool, after: Bool) {
        let analysed = statements.filter { $0.error == nil && included($0) }
        return (analysed.contains { $0.timingBefore?.isLowerBound == true }, analysed.contains { $0.timingAfter?.isLowerBound == true })
    }

    /// Two totals, in seconds, as the reports print them: `100.00 s → 50.02 s`, each end `at least ` when it holds a
    /// lower bound (``boundedEnds(_:)``).
    /// `between` joins the two (the HTML's lead sentence reads "… now and … with the advice").
    public func totals(_ before: Double, _ after: Double, _ included: (StatementReport) -> Bool = { _ in true }, between: String = " → ") -> String {
        let bounded = boundedEnds(included)
        guard !(before == 0 && after == 0) else { return Figures.before(before, after: after) }
        return (bounded.before ? "at least " : "") + Figures.duration(before) + between + (bounded.after ? "at least " : "") + Figures.duration(after)
    }

    /// The change between two totals (``Figures/comparison(_:_:)``), as far as their lower bounds let it be told:
    /// `at least 2.0× faster` when only the total before is a bound and the one after is less; `not known` when
    /// the bound is on the other side of the change, or on both (a ratio of two lower bounds bounds nothing:
    /// hostile round 4, F4, printed "at least 2.0× faster" for a cross join past the timeout before and after).
    public func change(_ before: Double, _ after: Double, _ included: (StatementReport) -> Bool = { _ in true }) -> String {
        let bounded = boundedEnds(included)
        let told = Figures.comparison(before, after)
        switch (bounded.before, bounded.after) {
        case (false, false): return told
        case (true, false) where after < before && told != "about the same",
             (false, true) where after > before && told != "about the same": return "at least " + told
        default: return "not known: " + (bounded.before && bounded.after ? "both totals hold" : "the total \(bounded.before ? "before" : "after") holds") + " a statement stopped at --statement-timeout"
        }
    }

    /// One line on what was read: files with their formats, and what was skipped, for the reports' headlines.
    var workloadHeadline: String {
        var text = "\(Figures.counted(workload.statementsRead, "statement")) read from \(Figures.counted(workload.linesRead, "line"))"
        let skipped = skippedWorkloadItems
        text += skipped > 0 ? ", \(Figures.count(skipped)) skipped (see Workload)" : ", nothing skipped"
        // A statement that could not be timed is in no total: the headline's figures leave it out, so it says so
        // (a breaking helper's 10 executions past a 0.2 s timeout, 2 s at least, under a headline of 835 µs).
        // Statements that share a reason share one clause: "S1 not timed (see Not analysed), not in these totals;
        // S2 not timed (see Not analysed), not in these totals" said the same thing twice in one line.
        let timeout = Figures.duration(method.statementTimeoutSeconds)
        let failed = statements.enumerated().filter { $0.element.error != nil && !$0.element.timedOut }.map { "S\($0.offset + 1)" }
        let stopped = statements.enumerated().filter { $0.element.error != nil && $0.element.timedOut }
        // One stopped at the timeout as the store is was measured with the advice: its time before is a lower bound.
        let bounded = statements.enumerated().filter { $0.element.error == nil && $0.element.timingBefore?.isLowerBound == true }.map { "S\($0.offset + 1)" }
        var parts: [String] = []
        if !failed.isEmpty { parts.append("\(Self.listed(failed)) not timed (see Not analysed), not in these totals") }
        if !stopped.isEmpty {
            let least = stopped.reduce(0.0) { $0 + Double(max(1, $1.element.count)) * method.statementTimeoutSeconds }
            let names = stopped.map { "S\($0.offset + 1)" }
            parts.append("\(Self.listed(names)) not timed: past --statement-timeout (\(timeout) an execution, at least \(Figures.duration(least)) of the workload\(names.count == 1 ? "" : " together")), not in these totals")
        }
        if !bounded.isEmpty {
            let one = bounded.count == 1
            parts.append("\(Self.listed(bounded)) ran past --statement-timeout (\(timeout)) as the store is: \(one ? "its time" : "their times") before, and the totals before, are lower bounds")
        }
        for part in parts { text += "; " + part }
        return text
    }

    /// How many statements a clause of the headline names before "and N more".
    static let listedLimit = 3

    /// `S1`, `S1 and S2`, `S1, S2 and S3`, `S1, S2, S3 and 4 more`.
    static func listed(_ items: [String]) -> String {
        let shown = Array(items.prefix(listedLimit))
        if items.count > shown.count { return shown.joined(separator: ", ") + " and \(Figures.count(items.count - shown.count)) more" }
        return shown.count <= 1 ? shown.joined() : shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
    }

    /// The writes that could not be timed, for the summary's write figures: neither their cost nor what the
    /// advice's indexes add to it is counted, so the advice is chosen without them (a breaking helper's join
    /// table INSERT, 66 % of the executions, was left out of an exit-0 report with a warning on stderr alone).
    /// Nil when every write was timed.
    var untimedWritesText: String? {
        let executions = statements.saturatingSum { max(0, $0.count) }
        let untimed = statements.enumerated().filter { $0.element.error != nil && $0.element.kind.isWrite }
        guard !untimed.isEmpty else { return nil }
        var named = untimed.prefix(3).map { offset, statement in
            "S\(offset + 1) (\(statement.kind.rawValue), ×\(Figures.count(statement.count))"
                + (executions > 0 ? ", \(Figures.percent(Double(statement.count) / Double(executions))) of the workload's executions)" : ")")
        }
        if untimed.count > 3 { named.append("\(Figures.count(untimed.count - 3)) more writes") }
        let one = untimed.count == 1
        let list = named.count == 1 ? named[0] : named.dropLast().joined(separator: ", ") + " and " + named[named.count - 1]
        return "\(list) could not be timed: neither \(one ? "its" : "their") cost nor what the advice's indexes add to it is in these figures, "
            + "and the advice was chosen without \(one ? "it" : "them") (see Not analysed)"
    }
}

extension Workload {
    /// ``observedTimeMeaning`` for a workload that reported no time.
    public static let noObservedTimes = "no observed times"

    /// What "observed time" is made of: per execution, SQLite's time when the log gave it
    /// (`sql connection fetch time`, `sql execution time`), else Core Data's `total fetch execution time`;
    /// the recorder's times are SQLite's.
    public var observedTimeMeaning: String {
        let timed = statements.reduce(0) { $0 + ($1.observedTiming?.count ?? 0) }
        let connection = statements.reduce(0) { $0 + ($1.observedConnectionTiming?.count ?? 0) }
        let fromTotal = statements.reduce(0) { $0 + $1.observedTotalFallbacks }
        let other = max(0, timed - connection - fromTotal)
        guard timed > 0 else { return Self.noObservedTimes }
        var parts: [String] = []
        if connection > 0 { parts.append("SQLite's time ('sql connection fetch time', 'sql execution time') for \(Figures.counted(connection, "execution"))") }
        if fromTotal > 0 {
            parts.append("Core Data's 'total fetch execution time' (SQLite's time plus Core Data's work on the rows) for \(Figures.counted(fromTotal, "execution")) that logged no SQLite time")
        }
        if other > 0 { parts.append("the recorder's time in SQLite for \(Figures.counted(other, "execution"))") }
        return parts.joined(separator: "; ")
    }
}
