import Foundation

/// Checks that every sentence a report prints agrees with the report's own measurements: it reads an
/// ``AnalysisResult`` (a fresh analysis or a saved JSON report) and the Markdown, HTML, SQL and Swift text
/// the renderers make of it, and lists each false or unsupported sentence as a ``ReportFinding``.
///
/// What it holds a report to:
/// - each recommendation's plan "with it" uses it, and a statement whose final plan uses another index
///   says which later pick took it over; no statement is listed as served by an index its final plan
///   does not use, unqualified;
/// - a time agrees with the plan printed beside it: a full scan of a table of N rows (no LIMIT, with a
///   WHERE) takes at least N × ``secondsPerScannedRow``, whatever the machine's load (load only slows a
///   run), and one statement's plan timed in two places agrees within ``samePlanRatio``;
/// - two identical plans are never shown as a before and an after, or as a change with statistics;
/// - no table cell prints `0 s` (an unmeasured figure says so);
/// - no `#Index` repeats the leading columns of a `#Unique` rule or of an existing index;
/// - every threshold the text names (``ReportThresholds/terms``) is explained in the method section;
/// - "within the noise" is never printed for runs that are apart, or for medians 2× or more apart;
/// - "LIKE against a BINARY index" only where the column has an index;
/// - each query-side advice names a statement of the report;
/// - the headline's totals are the statements' weighted times (count × median) summed;
/// - the headline's read and write changes are what the recommendations and drops are charged, summed,
///   measured with the whole set in place, and a figure measured with part of it says so;
/// - on a Core Data / SwiftData store, every format says the same of whether the model can declare each
///   index, and no key path names `Z_ENT` (``checkModelDeclarations(_:markdown:sql:swift:)``);
/// - no index is recommended under a headline that calls the advice slower, and no counters' figure beside a
///   charge reads with the other sign than the counters' (``checkSlowerHeadline(_:)``, ``checkCounterSigns(_:markdown:)``).
public struct ReportChecker: Sendable {
    /// A recommendation's figures lose when its net saving is below minus this many seconds per workload
    /// (1 ms): a pick chosen on the counters whose wall-clock saving is nil is not a loss. The selection gives
    /// up a pick on the same rule (``AnalysisRun/pickWhoseFiguresLose()``).
    public static let lossToleranceSeconds = 0.001

    /// The least time a full table scan can take per row it reads, in seconds: SQLite steps a few virtual
    /// machine instructions per row (tens of nanoseconds on fast machines; 50 ns each under
    /// `--cost counters`), so 2 ns is far below any real scan and no slower machine can trip it.
    public static let secondsPerScannedRow = 2e-9
    /// Tables smaller than this are not held to the scan floor (their scans are too quick to time well).
    public static let minimumScannedRows = 1_000
    /// How far apart two timings of one statement with the same plan may be before one is taken for the
    /// wrong thing: same plan, data and values do the same work, and 20× is beyond any machine's load.
    public static let samePlanRatio = 20.0

    /// A checker; it keeps no state, so one serves any number of reports.
    public init() {}

    /// Every finding for `result`, grouped by check, each check's in report order; empty when every
    /// sentence checked agrees with the data. Renders `result` in every format to read what it would print.
    public func check(_ result: AnalysisResult) -> [ReportFinding] {
        let markdown = MarkdownReport.render(result)
        let html = HTMLReport.render(result)
        let sql = SQLReport.render(result)
        let swift = SwiftReport.render(result)
        var findings: [ReportFinding] = []
        findings += checkRecommendationPlans(result, markdown: markdown)
        findings += checkClaims(result, markdown: markdown, sql: sql)
        findings += checkTimings(result)
        findings += checkIdenticalPlans(result, markdown: markdown, html: html)
        findings += checkZeros(markdown: markdown, html: html)
        findings += checkDuplicates(result, swift: swift)
        findings += checkThresholds(result, markdown: markdown)
        findings += checkNoise(result, markdown: markdown)
        findings += checkIndexClaims(result, markdown: markdown)
        findings += checkAdviceStatements(result)
        findings += checkTotals(result)
        findings += checkStatementUses(result)
        findings += checkMeasuredBeside(result)
        findings += checkRecommendedAtALoss(result)
        findings += checkRunFigures(result)
        findings += checkCharges(result, markdown: markdown)
        findings += checkPartialSetLabels(result, markdown: markdown, html: html)
        findings += checkModelDeclarations(result, markdown: markdown, sql: sql, swift: swift)
        findings += checkSlowerHeadline(result)
        findings += checkCounterSigns(result, markdown: markdown)
        return findings
    }

    /// Each recommendation's figures were measured with the ones above it built and no other new index, as
    /// the report says ("each one's figures were measured with the ones above it already built"): the plans
    /// of its statements' effects use only the store's indexes, the recommendations above it, and, with it,
    /// itself. A habit store's `(ZISSKIPPED, ZDATE)` showed a "plan without it" searching `(ZDATE)`, a pick
    /// dropped later, and was credited with 0.3 ms of a fetch's 76 ms saving.
    func checkMeasuredBeside(_ result: AnalysisResult) -> [ReportFinding] {
        var allowed = Set(result.store.tables.flatMap(\.indexes).map(\.name.sqlFolded))
        var findings: [ReportFinding] = []
        for recommendation in result.recommendations {
            for effect in recommendation.effects {
                for (what, plan, extra) in [("without", effect.planBefore, nil), ("with", effect.planAfter, recommendation.name.sqlFolded)] {
                    guard let plan else { continue }
                    let strangers = plan.indexesUsed.filter { name in
                        let folded = name.sqlFolded
                        return !allowed.contains(folded) && folded != extra && !folded.hasPrefix("sqlite_autoindex_")
                    }
                    guard !strangers.isEmpty else { continue }
                    let label = result.label(ofStatement: effect.statementID)
                    findings.append(ReportFinding(.measuredBesideOtherIndex, "index \(recommendation.rank) (\(recommendation.name)): \(label)'s plan \(what) it uses \(strangers.joined(separator: ", ")), neither an index of the store nor a recommendation above it"))
                }
            }
            allowed.insert(recommendation.name.sqlFolded)
        }
        return findings
    }

    /// No recommendation's own figures show a loss: a net saving below zero (and below −1 ms, so that a pick
    /// chosen on the counters whose wall-clock saving is nil is not caught) with a statement it serves
    /// measurably slower, unless a note says it was kept together with another index for a join. A new
    /// user's `task(projectId, dueAt)`, listed before a partial index chosen before it and measured without
    /// it again, showed "makes reads 24.47 s slower" and passed. A loss inside the clock's noise is not
    /// flagged: the advice is decided on the counters and gives a pick up when the clock's best case for it
    /// loses (``AnalysisRun/pickNotPaidFor(policy:)``).
    func checkRecommendedAtALoss(_ result: AnalysisResult) -> [ReportFinding] {
        result.recommendations.compactMap { recommendation -> ReportFinding? in
            let slower = recommendation.userEffects.filter { $0.isSignificant && $0.after.medianSeconds > $0.before.medianSeconds }
            let keptForJoin = recommendation.notes.contains(where: \.isKeptForJoin)
            guard recommendation.netSecondsSaved < -Self.lossToleranceSeconds, !slower.isEmpty, !keptForJoin else { return nil }
            let labels = slower.map { result.label(ofStatement: $0.statementID) }
            return ReportFinding(.recommendedAtALoss, "index \(recommendation.rank) (\(recommendation.name)) is recommended, but its figures lose \(Figures.duration(-recommendation.netSecondsSaved)) per workload and make \(labels.joined(separator: ", ")) slower, and no note says why it is kept")
        }
    }

    /// Each statement's `usesRecommendations` is the recommended indexes its final plan names (a breaking
    /// helper's edited S1 claimed `idx_note_title` beside a final plan searching another index, and the
    /// Markdown said "S1's final plan uses idx_note_title").
    func checkStatementUses(_ result: AnalysisResult) -> [ReportFinding] {
        let names = result.recommendations.map(\.name)
        return result.statements.compactMap { statement -> ReportFinding? in
            guard let plan = statement.planAfter else { return nil }
            let used = Set(names.filter { uses(plan, $0) }.map(\.sqlFolded))
            let claimed = Set(statement.usesRecommendations.map(\.sqlFolded))
            guard used != claimed else { return nil }
            let label = result.label(ofStatement: statement.id)
            func list(_ listed: [String]) -> String { listed.isEmpty ? "none" : listed.joined(separator: ", ") }
            return ReportFinding(.usesAgainstPlan, "\(label) says it uses \(list(statement.usesRecommendations)) of the recommended indexes, but its final plan uses \(list(names.filter { used.contains($0.sqlFolded) }))")
        }
    }

    /// Each statement's weighted time is its count × its median, and the headline's totals are the analysed
    /// statements' weighted times summed by kind: the headline and the shares are printed from them (a
    /// breaking helper's edited totals printed "100.0 µs → 13.4 ms (134× slower)" beside statements adding
    /// up to 15 s, and a share of 6592 %).
    func checkTotals(_ result: AnalysisResult) -> [ReportFinding] {
        func agree(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(abs(a), abs(b)) + 1e-12 }
        var findings: [ReportFinding] = []
        let analysed = result.statements.filter { $0.error == nil }
        for statement in analysed {
            let label = result.label(ofStatement: statement.id)
            for (what, timing, weighted) in [("before", statement.timingBefore, statement.weightedSecondsBefore),
                                             ("after", statement.timingAfter, statement.weightedSecondsAfter)] {
                let expected = Double(statement.count) * (timing?.medianSeconds ?? 0)
                if !agree(weighted, expected) {
                    findings.append(ReportFinding(.totalsAgainstStatements, "\(label) \(what): weighted time \(Figures.duration(weighted)), but \(Figures.count(statement.count)) executions × \(Figures.duration(timing?.medianSeconds ?? 0)) is \(Figures.duration(expected))"))
                }
            }
        }
        let sums = [
            ("reads before", result.totals.readSecondsBefore, analysed.filter { $0.kind.isRead }.reduce(0) { $0 + $1.weightedSecondsBefore }),
            ("reads after", result.totals.readSecondsAfter, analysed.filter { $0.kind.isRead }.reduce(0) { $0 + $1.weightedSecondsAfter }),
            ("writes before", result.totals.writeSecondsBefore, analysed.filter { $0.kind.isWrite }.reduce(0) { $0 + $1.weightedSecondsBefore }),
            ("writes after", result.totals.writeSecondsAfter, analysed.filter { $0.kind.isWrite }.reduce(0) { $0 + $1.weightedSecondsAfter }),
        ]
        for (what, total, sum) in sums where !agree(total, sum) {
            findings.append(ReportFinding(.totalsAgainstStatements, "headline \(what): \(Figures.duration(total)), but the statements add up to \(Figures.duration(sum))"))
        }
        // The plan counts too (a breaking helper's edited report said "full table scans 6 → 0" beside a final
        // plan that scans).
        let counts = [
            ("full table scans before", result.totals.fullScansBefore, Totals.count(.fullTableScan, in: analysed, \.planBefore)),
            ("full table scans after", result.totals.fullScansAfter, Totals.count(.fullTableScan, in: analysed, \.planAfter)),
            ("temp B-tree sorts before", result.totals.tempBTreeSortsBefore, Totals.count(.tempBTree, in: analysed, \.planBefore)),
            ("temp B-tree sorts after", result.totals.tempBTreeSortsAfter, Totals.count(.tempBTree, in: analysed, \.planAfter)),
        ]
        for (what, total, planned) in counts where total != planned {
            findings.append(ReportFinding(.totalsAgainstStatements, "headline \(what): \(total), but the statements' plans have \(planned)"))
        }
        // No index saves more than the workload's reads take (a breaking helper's edited report: one index
        // "saves 14.77 s of reads" in a workload of 2.73 s). Twice the reads, so that timings of one statement
        // taken at two moments never trip it. A write whose final plan searches the index (a trigger's or a
        // foreign key's lookup in it) is served as a read is, and counts with the reads.
        for recommendation in result.recommendations {
            let name = recommendation.name.sqlFolded
            let reads = analysed.filter { statement in
                statement.kind.isRead || (statement.planAfter?.indexesUsed.contains { $0.sqlFolded == name } ?? false)
            }.reduce(0) { $0 + $1.weightedSecondsBefore }
            guard recommendation.readSecondsSaved > 2 * reads + 1e-9 else { continue }
            findings.append(ReportFinding(.totalsAgainstStatements, "index \(recommendation.rank) (\(recommendation.name)) saves \(Figures.duration(recommendation.readSecondsSaved)) of reads, but the statements' reads take \(Figures.duration(reads)) before the advice"))
        }
        // An index's read saving is its users' measured changes summed (``Recommendation/userEffects``, each
        // `count × (before − after)`, beyond the noise or not): a breaking helper's edited report
        // claimed 1.5× what its own rows add up to, under the 2× bound above. Only for reports that keep each
        // effect's plans (older ones cannot tell users from the writes beside them).
        for recommendation in result.recommendations where recommendation.effects.contains(where: { $0.planAfter != nil }) {
            func saving(_ effects: [StatementEffect]) -> Double {
                effects.reduce(0) { $0 + Double($1.count) * ($1.before.medianSeconds - $1.after.medianSeconds) }
            }
            // Reports written before a user's change inside the noise counted summed only those beyond it.
            let sum = saving(recommendation.userEffects), beyondNoise = saving(recommendation.userEffects.filter(\.isSignificant))
            let claimed = recommendation.readSecondsSaved
            func agrees(_ total: Double) -> Bool { abs(claimed - total) <= max(0.01 * max(abs(claimed), abs(total)), 1e-6) }
            if !agrees(sum) && !agrees(beyondNoise) {
                findings.append(ReportFinding(.totalsAgainstStatements, "index \(recommendation.rank) (\(recommendation.name)) saves \(Figures.duration(claimed)) of reads, but the statements it serves add up to \(Figures.duration(sum)) (count × before − after)"))
            }
            // The write time it adds is its table's other writes' slowdowns summed (count × (after − before)):
            // at least those beyond the noise, at most all of them (a write inside the noise counts when
            // SQLite's counters show it doing more work, which the report does not keep).
            let writes = recommendation.effects.filter { $0.planAfter == nil && $0.after.medianSeconds > $0.before.medianSeconds }
            func added(_ effects: [StatementEffect]) -> Double {
                effects.reduce(0) { $0 + Double($1.count) * ($1.after.medianSeconds - $1.before.medianSeconds) }
            }
            let least = added(writes.filter(\.isSignificant)), most = added(writes)
            let claimedWrites = recommendation.writeSecondsAdded
            let tolerance = max(0.01 * max(abs(claimedWrites), most), 1e-6)
            if claimedWrites < least - tolerance || claimedWrites > most + tolerance {
                findings.append(ReportFinding(.totalsAgainstStatements, "index \(recommendation.rank) (\(recommendation.name)) adds \(Figures.duration(claimedWrites)) of writes, but its table's writes add up to \(least == most ? Figures.duration(most) : "\(Figures.duration(least))–\(Figures.duration(most))") (count × after − before)"))
            }
        }
        return findings
    }

    /// Each query-side advice names a statement of the report: its heading and bullet print that
    /// statement's label and figures.
    func checkAdviceStatements(_ result: AnalysisResult) -> [ReportFinding] {
        let ids = Set(result.statements.map(\.id))
        return result.queryAdvice.enumerated().compactMap { offset, advice in
            ids.contains(advice.statementID) ? nil
                : ReportFinding(.adviceWithoutStatement, "query advice \(offset + 1) (\(advice.kind.rawValue)) names no statement of the report (\(advice.statementID.isEmpty ? "none" : advice.statementID))")
        }
    }

    // MARK: Recommendations and their statements

    func checkRecommendationPlans(_ result: AnalysisResult, markdown: String) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        for recommendation in result.recommendations {
            guard let main = recommendation.mainEffect, let statement = result.statement(withID: main.statementID),
                  let plans = recommendation.mainPlans(in: result) else { continue }
            let label = result.label(ofStatement: main.statementID)
            let shownUses = plans.after.map { uses($0, recommendation.name) } ?? true
            let finalUses = statement.planAfter.map { uses($0, recommendation.name) } ?? true
            guard !shownUses || !finalUses else { continue }
            let section = markdownSection(of: recommendation, in: markdown)
            if !section.contains("\(label)'s final plan uses") {
                let which = statement.usesRecommendations.isEmpty ? "no recommended index" : statement.usesRecommendations.joined(separator: ", ")
                findings.append(ReportFinding(.planWithoutIndex, "index \(recommendation.rank) (\(recommendation.name)): the plan shown for \(label) \(shownUses ? "uses it, but the final plan uses \(which)" : "does not use it") and no note says which pick took \(label) over"))
            }
        }
        return findings
    }

    func checkClaims(_ result: AnalysisResult, markdown: String, sql: String) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        let sqlLines = sql.split(separator: "\n").map(String.init)
        for recommendation in result.recommendations {
            let takenOver = result.takeovers(of: recommendation).map { result.label(ofStatement: $0.statementID) }
            guard !takenOver.isEmpty else { continue }
            // The SQL migration's comment: `-- 2. for S4, S10: saves …`.
            if let line = sqlLines.first(where: { $0.hasPrefix("-- \(recommendation.rank). for ") }) {
                let list = line.dropFirst("-- \(recommendation.rank). for ".count).prefix { $0 != ":" && $0 != "(" }
                let listed = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                for label in takenOver where listed.contains(label) {
                    findings.append(ReportFinding(.claimNotInFinalPlan, "SQL migration: index \(recommendation.rank) (\(recommendation.name)) is said to be for \(label), whose final plan does not use it"))
                }
            }
            // The Markdown table of the index's effects.
            let section = markdownSection(of: recommendation, in: markdown)
            for label in takenOver {
                let row = section.split(separator: "\n").first { $0.hasPrefix("| \(label) ") }
                if let row, !row.contains("final plan uses another index") {
                    findings.append(ReportFinding(.claimNotInFinalPlan, "index \(recommendation.rank) (\(recommendation.name)): the row for \(label) claims its saving, but \(label)'s final plan does not use it"))
                }
            }
        }
        return findings
    }

    // MARK: Times against plans

    func checkTimings(_ result: AnalysisResult) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        for statement in result.statements where statement.error == nil {
            let label = result.label(ofStatement: statement.id)
            for (plan, timing, what) in [(statement.planBefore, statement.timingBefore, "before"), (statement.planAfter, statement.timingAfter, "after")] {
                if let plan, let timing, let message = scanFloorViolation(plan: plan, timing: timing, statement: statement, result: result) {
                    findings.append(ReportFinding(.timingAgainstPlan, "\(label) \(what): \(message)"))
                }
            }
        }
        for recommendation in result.recommendations {
            guard let main = recommendation.mainEffect, let statement = result.statement(withID: main.statementID),
                  statement.kind.isRead, let plans = recommendation.mainPlans(in: result) else { continue }
            let label = "index \(recommendation.rank) (\(recommendation.name)), \(result.label(ofStatement: main.statementID))"
            let shown = [(plans.before, main.before, "without it"), (plans.after, main.after, "with it")]
            let measured = [(statement.planBefore, statement.timingBefore), (statement.planAfter, statement.timingAfter)]
            for (plan, timing, what) in shown {
                guard let plan else { continue }
                if let message = scanFloorViolation(plan: plan, timing: timing, statement: statement, result: result) {
                    findings.append(ReportFinding(.timingAgainstPlan, "\(label) \(what): \(message)"))
                }
                for case let (other?, otherTiming?) in measured where other.tree == plan.tree {
                    // The same VM-step count is the same work (the fidelity benchmark's test): the wall clock
                    // then differs only by the machine's load, which a busy CI runner can make 20× for a
                    // microsecond lookup. Only timings without counters, or of other work, are compared.
                    if let a = timing.vmStepsPerExecution, let b = otherTiming.vmStepsPerExecution,
                       abs(a - b) <= 0.01 * max(a, b) { continue }
                    let ratio = max(timing.medianSeconds, otherTiming.medianSeconds) / max(min(timing.medianSeconds, otherTiming.medianSeconds), 1e-12)
                    if ratio > Self.samePlanRatio {
                        findings.append(ReportFinding(.timingAgainstPlan, "\(label) \(what): \(Figures.duration(timing.medianSeconds)) beside a plan that the statement's own timing puts at \(Figures.duration(otherTiming.medianSeconds)) (\(Figures.ratio(max(timing.medianSeconds, otherTiming.medianSeconds), min(timing.medianSeconds, otherTiming.medianSeconds))) apart): the time is not of this plan"))
                        break
                    }
                }
            }
        }
        return findings
    }

    /// Why `timing` is too quick for `plan`, when it is: the plan scans a table in full at its top level,
    /// the statement reads to the end (a WHERE, no LIMIT, one table), and the time is below the scan floor.
    func scanFloorViolation(plan: QueryPlan, timing: Timing, statement: StatementReport, result: AnalysisResult) -> String? {
        guard statement.kind.isRead, statement.tables.count == 1 else { return nil }
        let tokens = SQLTokenList(statement.sql)
        let words = (0..<tokens.count)
        guard words.contains(where: { tokens.isWord($0, "WHERE") }), !words.contains(where: { tokens.isWord($0, "LIMIT") }) else { return nil }
        let topLevel = Set(plan.steps.filter { $0.parent == 0 }.map(\.detail))
        for finding in plan.findings where finding.kind == .fullTableScan && topLevel.contains(finding.detail) {
            guard let table = finding.table else { continue }
            let summary = result.store.tables.first { $0.name.sqlFolded == table.sqlFolded }
            guard let rows = summary.map({ $0.sampledRows ?? $0.rows }) ?? finding.tableRows, rows >= Self.minimumScannedRows else { continue }
            // A scan that ran steps at least once per row (`SQLITE_STMTSTATUS_VM_STEP`): fewer steps than rows
            // say it never ran, as when a term is false whatever the row (`AND 0`, `AND ? = 1` with NULL
            // bound), and SQLite skips the loop (a breaking helper: 650 ns beside a scan of 45,000 rows).
            if let steps = timing.vmStepsPerExecution, steps < Double(rows) { continue }
            let floor = Double(rows) * Self.secondsPerScannedRow
            if timing.medianSeconds < floor {
                return "\(Figures.duration(timing.medianSeconds)) beside \(finding.detail), a full scan of \(Figures.count(rows)) rows of \(table) that takes at least \(Figures.duration(floor))"
            }
        }
        return nil
    }

    // MARK: Plans shown as a change

    func checkIdenticalPlans(_ result: AnalysisResult, markdown: String, html: String) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        // Markdown: a caption line ending in ":" and its fence, then another.
        let lines = markdown.components(separatedBy: "\n")
        var blocks: [(caption: String, body: String, start: Int, end: Int)] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("Plan"), line.hasSuffix(":"), index + 1 < lines.count, lines[index + 1].hasPrefix("```") {
                let fence = lines[index + 1].prefix { $0 == "`" }
                var end = index + 2
                while end < lines.count && lines[end] != fence { end += 1 }
                blocks.append((line, lines[(index + 2)..<min(end, lines.count)].joined(separator: "\n"), index, end))
                index = end + 1
                continue
            }
            index += 1
        }
        for (first, second) in zip(blocks, blocks.dropFirst()) where second.start == first.end + 1 {
            if first.body == second.body {
                findings.append(ReportFinding(.identicalPlansAsChange, "Markdown: \"\(first.caption)\" and \"\(second.caption)\" show the same plan"))
            }
        }
        // HTML: two figures in one `plans` block.
        for rest in html.components(separatedBy: #"<div class="plans">"#).dropFirst() {
            // The block ends with its last figure: `</figure></div>` (a plan tree's own divs close before).
            let block = rest.range(of: "</figure></div>").map { rest[..<$0.upperBound] } ?? rest[...]
            let figures = block.components(separatedBy: "</figure>").dropLast().map { figure -> String in
                figure.range(of: "</figcaption>").map { String(figure[$0.upperBound...]) } ?? figure
            }
            if figures.count == 2, figures[0] == figures[1] {
                findings.append(ReportFinding(.identicalPlansAsChange, "HTML: a plan before and after that are the same"))
            }
        }
        // Statistics advice: the plan "with them" must differ from the plan without, which is the statement's
        // final plan (statistics are measured with the advice applied): a breaking helper's genuine report was
        // flagged when ANALYZE would bring back the plan the recommended index had moved the statement off.
        for advice in result.queryAdvice where advice.kind == .statistics {
            let label = result.label(ofStatement: advice.statementID)
            let statement = result.statement(withID: advice.statementID)
            if let with = advice.rewritePlan, let without = statement?.planAfter ?? statement?.planBefore, with.tree == without.tree {
                findings.append(ReportFinding(.identicalPlansAsChange, "\(label): \"\(advice.kind.title)\" with the same plan with and without statistics"))
            } else if let range = advice.advice.range(of: "without statistics "), let middle = advice.advice[range.upperBound...].range(of: ", with them ") {
                let without = advice.advice[range.upperBound..<middle.lowerBound]
                let with = advice.advice[middle.upperBound...]
                if with.hasPrefix(without) && (with.count == without.count || with.dropFirst(without.count).hasPrefix(")")) {
                    findings.append(ReportFinding(.identicalPlansAsChange, "\(label): the statistics advice describes the same plan with and without statistics (\(without))"))
                }
            }
        }
        return findings
    }

    // MARK: Figures

    func checkZeros(markdown: String, html: String) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        for line in markdown.split(separator: "\n") where line.hasPrefix("|") && !line.hasPrefix("|---") {
            let cells = tableCells(String(line))
            if cells.contains(where: { $0 == "0 s" || $0.hasPrefix("0 s (") }) {
                findings.append(ReportFinding(.unmeasuredAsZero, "Markdown row \(cells.first.map { "'\($0)'" } ?? "") prints 0 s"))
            }
        }
        for (format, text) in [("Markdown", markdown), ("HTML", html)] where text.contains(" 0 s → ") || text.contains("→ 0 s ") || text.contains("→ 0 s<") {
            findings.append(ReportFinding(.unmeasuredAsZero, "\(format): a change from or to 0 s"))
        }
        var rest = html[...]
        while let range = rest.range(of: "<td") {
            rest = rest[range.upperBound...]
            guard let open = rest.firstIndex(of: ">"), let close = rest.range(of: "</td>") , open < close.lowerBound else { continue }
            let content = rest[rest.index(after: open)..<close.lowerBound]
            if content == "0 s" || content.hasPrefix("0 s<") { findings.append(ReportFinding(.unmeasuredAsZero, "HTML table cell prints 0 s")) }
        }
        return findings
    }

    func checkDuplicates(_ result: AnalysisResult, swift: String) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        func declarations(_ macro: String) -> [(model: String, paths: [[String]])] {
            swift.split(separator: "\n").filter { $0.hasPrefix("#\(macro)<") }.compactMap { line in
                guard let open = line.firstIndex(of: "<"), let close = line.firstIndex(of: ">") else { return nil }
                let model = String(line[line.index(after: open)..<close])
                let lists = line[close...].split(separator: "[").dropFirst().map { part in
                    part.prefix { $0 != "]" }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                }
                return (model, lists)
            }
        }
        let uniques = declarations("Unique")
        for index in declarations("Index") {
            for paths in index.paths {
                for unique in uniques where unique.model == index.model {
                    if let rule = unique.paths.first(where: { $0.count >= paths.count && Array($0.prefix(paths.count)) == paths }) {
                        findings.append(ReportFinding(.duplicateIndex, "Swift: #Index<\(index.model)>([\(paths.joined(separator: ", "))]) next to #Unique<\(unique.model)>([\(rule.joined(separator: ", "))]), whose unique index already leads with those columns"))
                    }
                }
            }
        }
        let dropped = Set(result.indexesToDrop.map { $0.index.sqlFolded })
        for recommendation in result.recommendations where recommendation.partialPredicate == nil {
            let columns = recommendation.columns.map { $0.name.sqlFolded }
            let table = result.store.tables.first { $0.name.sqlFolded == recommendation.table.sqlFolded }
            for existing in table?.indexes ?? [] where existing.partialPredicate == nil && !dropped.contains(existing.name.sqlFolded) {
                let leading = existing.columns.map(\.sqlFolded)
                if leading.count >= columns.count && Array(leading.prefix(columns.count)) == columns {
                    findings.append(ReportFinding(.duplicateIndex, "index \(recommendation.rank) (\(recommendation.name)) on \(recommendation.columnList): the existing \(existing.name) already leads with those columns"))
                }
            }
        }
        return findings
    }

    // MARK: Words

    func checkThresholds(_ result: AnalysisResult, markdown: String) -> [ReportFinding] {
        let method = result.methodText
        let text = method.isEmpty ? markdown : markdown.replacingOccurrences(of: method, with: "")
        return ReportThresholds.terms.compactMap { term in
            guard text.contains(term.phrase), !method.contains(term.explainedBy) else { return nil }
            return ReportFinding(.unexplainedThreshold, "the report says \"\(term.phrase)\", and its method section does not say what that threshold is")
        }
    }

    func checkNoise(_ result: AnalysisResult, markdown: String) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        for recommendation in result.recommendations {
            let rows = markdownSection(of: recommendation, in: markdown).split(separator: "\n")
            for effect in recommendation.effects {
                let (before, after) = (effect.before, effect.after)
                let apart = before.isSlower(than: after) || after.isSlower(than: before)
                let far = min(before.medianSeconds, after.medianSeconds) > 0 && max(before.medianSeconds, after.medianSeconds) >= 2 * min(before.medianSeconds, after.medianSeconds)
                guard apart || far else { continue }
                let label = result.label(ofStatement: effect.statementID)
                if let row = rows.first(where: { $0.hasPrefix("| \(label) ") }), row.contains("within the noise") {
                    findings.append(ReportFinding(.noiseAgainstRuns, "index \(recommendation.rank) (\(recommendation.name)), \(label): \"within the noise\" for \(Figures.duration(before.medianSeconds)) → \(Figures.duration(after.medianSeconds)), \(apart ? "whose runs are apart" : "medians 2× or more apart")"))
                }
            }
        }
        return findings
    }

    func checkIndexClaims(_ result: AnalysisResult, markdown: String) -> [ReportFinding] {
        guard markdown.contains("against a BINARY index") else { return [] }
        var findings: [ReportFinding] = []
        for advice in result.queryAdvice where advice.kind == .caseInsensitiveLike {
            guard let statement = result.statement(withID: advice.statementID),
                  let column = advice.advice.components(separatedBy: " LIKE '").first, !column.isEmpty else { continue }
            let tables = Set(statement.tables.map(\.sqlFolded))
            let existing = result.store.tables.filter { tables.contains($0.name.sqlFolded) }.flatMap(\.indexes).compactMap(\.columns.first)
            let recommended = result.recommendations.filter { tables.contains($0.table.sqlFolded) }.compactMap(\.columns.first?.name)
            if !(existing + recommended).contains(where: { $0.sqlFolded == column.sqlFolded }) {
                findings.append(ReportFinding(.missingIndex, "\(result.label(ofStatement: advice.statementID)): \"LIKE against a BINARY index\", but \(column) has no index"))
            }
        }
        return findings
    }

    // MARK: Reading the text

    /// The Markdown of `recommendation`'s own section, from its heading to the next heading.
    func markdownSection(of recommendation: Recommendation, in markdown: String) -> String {
        let heading = "### \(recommendation.rank). \(MarkdownReport.inline(recommendation.name))"
        guard let start = markdown.range(of: "\n" + heading + "\n") else { return "" }
        let rest = markdown[start.upperBound...]
        let end = rest.range(of: "\n#")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The cells of a GFM table row, trimmed; `\|` inside a cell does not split it.
    func tableCells(_ row: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in row.dropFirst() {
            if character == "|" && !escaped {
                cells.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
            escaped = character == "\\" && !escaped
        }
        return cells
    }

    func uses(_ plan: QueryPlan, _ index: String) -> Bool {
        plan.indexesUsed.contains { $0.sqlFolded == index.sqlFolded }
    }
}
