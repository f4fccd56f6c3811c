/// Thresholds of `indexadvisor check`.
public struct CheckThresholds: Sendable, Equatable {
    /// A statement counts as hot when it takes at least this share (0…1) of the workload's measured time…
    public var minimumShare = 0.05
    /// …or runs at least this many times (nil: the share alone decides); and in either case takes at least
    /// this long in all, in seconds per workload: a sort of a few rows that is half of a 50 µs workload is
    /// nothing an index could save (``AnalysisOptions/minimumBenefitFloorSeconds``, what `analyze` would
    /// recommend an index for at the least), so it neither fails the check nor keeps a fixed store red.
    public var minimumSeconds = AnalysisOptions.minimumBenefitFloorSeconds
    public var minimumCount: Int?
    /// A statement fails as a regression when its median exceeds the baseline's by this factor and the two
    /// timings' interquartile ranges do not overlap (different machines and runs differ; 1.5 = 50 % slower).
    public var slowdownFactor = 1.5

    public init() {}

    /// True when a statement that takes `share` (0…1, of the workload's time or of its executions) and runs
    /// `count` times is hot by ``minimumShare`` or ``minimumCount`` (``minimumSeconds`` is the caller's).
    func isHot(share: Double, count: Int) -> Bool {
        share >= minimumShare || (minimumCount.map { count >= $0 } ?? false)
    }
}

/// One problem `check` found.
public struct CheckProblem: Sendable, Codable, Equatable {
    public enum Kind: KebabCaseKind, Codable {
        case fullTableScan
        case tempBTreeSort
        case slowerThanBaseline
        /// A baseline was given but none of its statements is in this workload: nothing was compared.
        case baselineUnmatched
        /// A hot statement ran past `--statement-timeout`: it could not be timed at all.
        case statementTimedOut
        /// A hot statement no longer prepares on the store (a column or table is gone), this SQLite cannot parse it
        /// (SQL of a newer SQLite), or every execution failed.
        case statementFailed
        /// The baseline's figures come from the other cost source (`--cost time` against `--cost counters`):
        /// seconds of work counters and wall-clock seconds cannot be compared.
        case baselineOtherCost
        /// A query-side or statistics advice (warnings only, never a failure).
        case queryAdvice
        /// The plan builds an automatic index (`SEARCH t USING AUTOMATIC [PARTIAL] COVERING INDEX (…)`): SQLite
        /// reads the whole of `t` into a temporary index on every execution (https://sqlite.org/optoverview.html#autoindex).
        case automaticIndex
        /// The baseline measured a table the statement touches on another sample (`--sample-rows`, or the table
        /// crossed the sampling threshold): its times are of other rows and cannot be compared.
        case baselineOtherSample
        /// A write got slower than the baseline by what the baseline's own advice predicted, its indexes now in
        /// place (a warning: the report that recommended them accepted that cost).
        case slowerAsAdvised
        /// The baseline was measured with another SQLite library (`method.sqliteVersion`): another version plans
        /// and runs statements otherwise (https://sqlite.org/queryplanner-ng.html#howtofix), so no time compares
        /// like for like. Named `baseline-other-sqlite`.
        case baselineOtherSqlite
    }

    public var kind: Kind
    /// `S3`: the statement's position in the workload.
    public var statement: String
    public var statementID: String
    /// True for a failure (exit code 1), false for a warning.
    public var isFailure: Bool
    /// One line for the CI log.
    public var message: String
}

/// Decides which statements of an analysis fail a CI check.
public enum CheckEvaluator {
    /// `29% of workload time`, `at least 28% of workload time`, `at most 30% of workload time`, or `share of
    /// workload time not known`: a statement's share as `check` prints it, rounded so that a bound holds as printed.
    static func shareWords(_ share: BoundedFigure) -> String {
        let percent = share.value * 100
        switch share.bound {
        case .exact: return "\(String(format: "%.0f", percent))% of workload time"
        case .atLeast: return "at least \(Figures.whole(percent, .down))% of workload time"
        case .atMost: return "at most \(Figures.whole(percent, .up))% of workload time"
        case .notKnown: return "share of workload time not known (\(Figures.stoppedAtTimeout))"
        }
    }

    /// The failures and warnings for `result` (the plans and times of a `check` run), compared with `baseline`
    /// (an earlier JSON report) when given. Only hot statements (``CheckThresholds/minimumShare`` or
    /// ``CheckThresholds/minimumCount``) fail, for a plan, for a slowdown, or because they could not be
    /// timed (past the statement timeout, or no longer preparing); a baseline that shares no statement with
    /// `result` fails once. A statement that timed out counts as taking the timeout per execution; one that
    /// does not prepare counts with the baseline's time when the baseline has it, else by its share of the
    /// workload's executions.
    public static func evaluate(_ result: AnalysisResult, baseline: AnalysisResult?, thresholds: CheckThresholds) -> [CheckProblem] {
        let usable = result.statements.filter { $0.error == nil }
        // A baseline measured with the other cost source compares nothing: fail once, compare no times.
        let cost = result.method.costSource ?? .wallClock
        let baselineCost = baseline.map { $0.method.costSource ?? .wallClock }
        // So does one measured with another SQLite: its plans and times are another library's (hostile round 7, F9).
        let version = sqliteVersion(of: result)
        let baselineVersion = baseline.map(sqliteVersion(of:))
        let sameCost = baselineCost == nil || baselineCost == cost
        let sameSQLite = baselineVersion == nil || baselineVersion == version
        let comparable = sameCost && sameSQLite
        // Statement by statement, only figures measured like for like: a table sampled in one run and whole (or
        // sampled otherwise) in the other gives times of other rows.
        let comparison = BaselineComparison(result: result, baseline: comparable ? baseline : nil)
        let baselineByID = comparison.statements
        // What is known of the time of statements that could not be timed: at least the timeout per execution
        // for one that timed out, else the baseline's time, if it has one (measured on the same rows).
        let untimed: [String: Double] = Dictionary(result.statements.compactMap { statement in
            guard statement.error != nil else { return nil }
            if statement.timedOut { return (statement.id, Double(statement.count) * result.method.statementTimeoutSeconds) }
            return comparison.comparable(statement).map { (statement.id, $0.weightedSecondsBefore) }
        }, uniquingKeysWith: { first, _ in first })
        // A plan's row count is the snapshot's: on a sampled table, the sample's. A table is small, and its
        // scan no problem, by the store's rows, and the line gives them.
        let sampled = Dictionary(result.store.sampledTables.map { ($0.table.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        // A statement on a sampled table was timed on 1 row in k: for the share that makes it hot, its time is
        // taken × k (the largest step of its tables), as a scan's grows with the rows, so that it is not weighed
        // at a k-th against statements timed on whole tables (hostile round 8, F10: a scan of a 2,000,000-row
        // table sampled 1 in 8 passed at 1.8 % of the workload; it is 12 % of the store's).
        func step(_ statement: StatementReport) -> Int {
            statement.tables.compactMap { sampled[$0.sqlFolded]?.step }.max() ?? 1
        }
        func storeSeconds(_ statement: StatementReport) -> Double { statement.weightedSecondsBefore * Double(step(statement)) }
        // The workload's time includes them: a quick statement is not hot because the slow one could not be timed.
        let total = usable.reduce(0) { $0 + storeSeconds($1) } + untimed.values.reduce(0, +)
        // Said only where it moved a share: when the statements were not all timed on one step.
        let mixedSteps = Set(usable.map(step)).count > 1
        func storeRows(_ finding: PlanFinding) -> PlanFinding {
            guard let table = finding.table, let sample = sampled[table.sqlFolded] else { return finding }
            var finding = finding
            finding.tableRows = sample.rows
            return finding
        }
        func rows(_ finding: PlanFinding) -> String {
            if let table = finding.table, let sample = sampled[table.sqlFolded] {
                return "\(Figures.count(sample.rows)) rows in the store, measured on 1 row in \(sample.step)"
            }
            return "\(Figures.count(finding.tableRows ?? 0)) rows"
        }
        // A table, or a subquery or view SQLite materialized (the plan names its alias; it has no rows in the store).
        func automaticIndexTarget(_ finding: PlanFinding) -> String {
            if let table = finding.table { return table }
            return finding.alias.map { "the materialized subquery \($0)" } ?? "a materialized subquery"
        }
        // What is known of a statement's share of that total: a time that timed out is at least the timeout, so
        // a share is a lower bound when only its own time is one, an upper bound when another's is, and not
        // known when both are (``BoundedFigure/share(_:besides:)``; hostile round 5, F10).
        func timeBound(_ statement: StatementReport) -> FigureBound {
            statement.error == nil ? FigureBound(statement.timingBefore) : statement.timedOut && untimed[statement.id] != nil ? .atLeast : .exact
        }
        func shareBound(_ statement: StatementReport) -> FigureBound {
            let others = result.statements.contains { $0.id != statement.id && timeBound($0) == .atLeast }
            return FigureBound.of(rising: timeBound(statement), falling: others ? .atLeast : .exact)
        }
        var problems: [CheckProblem] = []
        // The statements set aside as the workload was read are executions of the workload too.
        let setAside = result.workload.setAside ?? []
        let executions = result.statements.saturatingSum { max(0, $0.count) }.addingSaturating(setAside.saturatingSum { max(0, $0.count) })
        for (offset, statement) in result.statements.enumerated() where statement.error == nil {
            let label = "S\(offset + 1)"
            let share = total > 0 ? storeSeconds(statement) / total : 0
            let hot = thresholds.isHot(share: share, count: statement.count)
                && storeSeconds(statement) >= thresholds.minimumSeconds
            // The text whose plan is judged: the value set planned (the one with the most full scans and sorts).
            let sql = excerpt(statement.timedExecutions?.first?.sql ?? statement.sql, limit: 100)
            // With --source, where the app issues it: the line to change.
            let weight = "×\(Figures.count(statement.count)), \(shareWords(BoundedFigure(share, shareBound(statement))))"
                + (step(statement) > 1 && mixedSteps ? " with its time on 1 row in \(step(statement)) taken × \(step(statement))" : "")
                + (statement.sourceLocations.map { "; issued at " + $0.joined(separator: ", ") } ?? "")
            // A trigger's scan is judged by how often the write runs, not by its time: the time shows the trigger's
            // work only for the values timed and the rows they change on the snapshot. A write that changed no row
            // there (the app updates a row it inserted just before) ran no trigger at all, and a WHEN that holds
            // for a value set not timed ran none either (hostile round 5, F2 and F4: 50 UPDATEs of new rows beside a
            // 200,000-row trigger scan, and the one 'done' among 60 sets, passed). A WHEN false for every value the
            // app uses still fails: the gate does not pass a scan it cannot rule out. A write timed changing no row
            // showed none of that work, so neither its time nor its share of the executions says what it costs
            // (hostile round 8, F22: 40 no-op UPDATEs among 960 lookups, each a 200,000-row trigger scan in the
            // app): its programs' problems fail whatever its share. Every problem the time rule fails counts,
            // automatic indexes and filtered walks of an index too (F16).
            let executionShare = executions > 0 ? Double(statement.count) / Double(executions) : 0
            let changedNoRow = statement.timingBefore?.rowsPerExecution == 0 && statement.count > 0
            let hotByCount = thresholds.isHot(share: executionShare, count: statement.count) || changedNoRow
            if statement.kind.isWrite, hot || hotByCount, let plan = statement.planBefore,
               plan.steps.contains(where: { $0.detail == QueryPlanner.unplannedProgramsStep }) {
                problems.append(CheckProblem(kind: .statementFailed, statement: label, statementID: statement.id, isFailure: true,
                                             message: "\(label) cannot be checked: it sets off more than \(Figures.count(WriteProgram.maximumParts)) trigger and foreign-key programs, and those past them were not planned (×\(Figures.count(statement.count)), \(String(format: "%.0f", executionShare * 100))% of the workload's executions): \(sql)"))
            }
            if statement.kind.isWrite, !hot, hotByCount, let plan = statement.planBefore {
                for (found, part) in Self.programFindings(plan, lookups: statement.kind == .update || statement.kind == .delete) {
                    let finding = storeRows(found)
                    guard finding.isProblem, finding.kind != .tempBTree else { continue }
                    let (place, work) = switch part {
                    case .trigger: ("a trigger", "the trigger's work")
                    case .foreignKeyAction: ("a foreign key's action", "the action's work")
                    case .foreignKeyLookup: ("a foreign key's lookup of the rows that refer to the changed ones", "the lookup's work")
                    }
                    let why = statement.timingBefore?.rowsPerExecution == 0
                        ? "it changed no row on the snapshot, so its time does not show \(work)"
                        : "its time shows \(work) only for the values timed"
                    let what = switch finding.kind {
                    case .automaticIndex: "builds an automatic index on \(automaticIndexTarget(finding))\(finding.constraints.map { " (\($0))" } ?? "")"
                    case .fullIndexScan: "full scan of \(finding.table ?? "?") through every entry of \(finding.index ?? "an index")"
                    default: "full table scan of \(finding.table ?? "?")"
                    }
                    problems.append(CheckProblem(kind: finding.kind == .automaticIndex ? .automaticIndex : .fullTableScan, statement: label,
                                                 statementID: statement.id, isFailure: true,
                                                 message: "\(label) \(what) in \(place) (\(finding.table == nil ? "" : rows(finding) + "; ")×\(Figures.count(statement.count)), \(String(format: "%.0f", executionShare * 100))% of the workload's executions; \(why)): \(sql)"))
                }
            }
            if hot, let plan = statement.planBefore, let steps = statement.timingBefore?.vmStepsPerExecution,
               steps >= Self.repeatedScanSteps {
                for index in Self.repeatedSmallScans(plan) {
                    let finding = storeRows(plan.findings[index])
                    problems.append(CheckProblem(kind: .fullTableScan, statement: label, statementID: statement.id, isFailure: true,
                                                 message: "\(label) full table scan of \(finding.table ?? "?") once for each row of an outer loop (\(rows(finding)) a scan, \(Figures.count(Int(steps))) VM steps an execution; \(weight)): \(sql)"))
                }
            }
            // A walk of an index in its order is no problem when it stops at a LIMIT; with an OFFSET it first
            // passes over every row before it (`LIMIT 10 OFFSET 290000`: 870,091 VM steps for 10 rows; hostile
            // round 8, F19). It fails when the counters show that work.
            if hot, let plan = statement.planBefore, let steps = statement.timingBefore?.vmStepsPerExecution,
               steps >= Self.repeatedScanSteps, SQLTokenList(statement.sql).hasOffset {
                for finding in plan.findings.map(storeRows) where finding.kind == .fullIndexScan && !finding.isProblem {
                    let rowsOut = statement.timingBefore.map { Figures.count(Int($0.rowsPerExecution.rounded())) } ?? "?"
                    problems.append(CheckProblem(kind: .fullTableScan, statement: label, statementID: statement.id, isFailure: true,
                                                 message: "\(label) full scan of \(finding.table ?? "?") through the entries of \(finding.index ?? "an index") before its OFFSET (\(rows(finding)); \(Figures.count(Int(steps))) VM steps an execution for \(rowsOut) rows; a page that starts after the last key seen, WHERE key > ? instead of OFFSET, reads only its rows; \(weight)): \(sql)"))
                }
            }
            if hot, let plan = statement.planBefore {
                for finding in plan.findings.map(storeRows) where finding.isProblem {
                    switch finding.kind {
                    case .fullTableScan:
                        problems.append(CheckProblem(kind: .fullTableScan, statement: label, statementID: statement.id, isFailure: true,
                                                     message: "\(label) full table scan of \(finding.table ?? "?") (\(rows(finding)); \(weight)): \(sql)"))
                    case .fullIndexScan:
                        problems.append(CheckProblem(kind: .fullTableScan, statement: label, statementID: statement.id, isFailure: true,
                                                     message: "\(label) full scan of \(finding.table ?? "?") through every entry of \(finding.index ?? "an index"), its rows filtered one by one (\(rows(finding)); \(weight)): \(sql)"))
                    case .automaticIndex:
                        problems.append(CheckProblem(kind: .automaticIndex, statement: label, statementID: statement.id, isFailure: true,
                                                     message: "\(label) builds an automatic index on \(automaticIndexTarget(finding))\(finding.constraints.map { " (\($0))" } ?? ""), reading \(finding.table == nil ? "all its rows" : "the whole table") on every execution (\(finding.table == nil ? "" : rows(finding) + "; ")\(weight)): \(sql)"))
                    case .tempBTree:
                        problems.append(CheckProblem(kind: .tempBTreeSort, statement: label, statementID: statement.id, isFailure: true,
                                                     message: "\(label) sorts in a temp B-tree for \(finding.purpose ?? "ORDER BY") (\(weight)): \(sql)"))
                    default:
                        continue
                    }
                }
            }
            let differences = comparison.sampleDifferences(for: statement)
            if hot, baselineByID[statement.id] != nil, !differences.isEmpty {
                problems.append(CheckProblem(kind: .baselineOtherSample, statement: label, statementID: statement.id, isFailure: true,
                                             message: "\(label) cannot be compared with the baseline: \(differences.map(\.text).joined(separator: "; ")), so the two times are of other rows; run both with the same --sample-rows (or write a new baseline with check --output) (\(weight)): \(sql)"))
            }
            // A baseline time that is a lower bound (stopped at its timeout) cannot show that the statement got slower.
            if hot, let now = statement.timingBefore, let before = comparison.comparable(statement)?.timingBefore,
               before.isLowerBound != true, isSlower(now, than: before, thresholds) {
                if let predicted = comparison.prediction(for: statement) {
                    // The baseline is the report of an analysis whose indexes now exist: a write they slow is
                    // judged against the time that report measured for it with them in place.
                    let advised = "\(Figures.counted(predicted.indexes.count, "index", plural: "indexes")) of the baseline's advice in place (\(predicted.indexes.joined(separator: ", ")))"
                    if isSlower(now, than: predicted.timing, thresholds) {
                        problems.append(CheckProblem(kind: .slowerThanBaseline, statement: label, statementID: statement.id, isFailure: true,
                                                     message: "\(label) got slower than the baseline, and than its advice predicted with \(advised): \(Figures.timing(before)) → \(Figures.timing(now)), predicted \(Figures.timing(predicted.timing)) (\(weight)): \(sql)"))
                    } else {
                        problems.append(CheckProblem(kind: .slowerAsAdvised, statement: label, statementID: statement.id, isFailure: false,
                                                     message: "\(label) got slower than the baseline as its advice predicted, with \(advised): \(Figures.timing(before)) → \(Figures.timing(now)), predicted \(Figures.timing(predicted.timing)) (\(weight)): \(sql)"))
                    }
                } else {
                    problems.append(CheckProblem(kind: .slowerThanBaseline, statement: label, statementID: statement.id, isFailure: true,
                                                 message: "\(label) got slower than the baseline: \(Figures.timing(before)) → \(Figures.timing(now)) (\(weight)): \(sql)"))
                }
            }
        }
        // A statement that cannot be timed is not a pass: a hot one fails, with the reason.
        for (offset, statement) in result.statements.enumerated() {
            guard let error = statement.error else { continue }
            let label = "S\(offset + 1)"
            let timedOut = statement.timedOut
            let known = untimed[statement.id]
            let share = known.map { total > 0 ? $0 / total : 0 }
                ?? (executions > 0 ? Double(statement.count) / Double(executions) : 0)
            let hot = thresholds.isHot(share: share, count: statement.count)
            guard hot else { continue }
            let sql = excerpt(statement.sql, limit: 100)
            let weight = known == nil
                ? "×\(Figures.count(statement.count)), \(String(format: "%.0f", share * 100))% of the workload's executions"
                : "×\(Figures.count(statement.count)), \(shareWords(BoundedFigure(share, shareBound(statement))))"
            let was = comparison.comparable(statement)?.timingBefore.map { "; \(Figures.timing($0)) in the baseline" } ?? ""
            if timedOut {
                problems.append(CheckProblem(kind: .statementTimedOut, statement: label, statementID: statement.id, isFailure: true,
                                             message: "\(label) timed out: an execution ran past --statement-timeout (\(Figures.duration(result.method.statementTimeoutSeconds)))\(was) (\(weight)): \(sql)"))
            } else {
                problems.append(CheckProblem(kind: .statementFailed, statement: label, statementID: statement.id, isFailure: true,
                                             message: "\(label) cannot be checked: \(excerpt(error, limit: 160))\(was) (\(weight)): \(sql)"))
            }
        }
        // A statement set aside unread (too long) or refused by SQLite is not a pass either: a hot one, by its share
        // of the executions, fails (hostile round 7, F2: a hot 21 MB statement was dropped and the check passed).
        for statement in setAside {
            let share = executions > 0 ? Double(statement.count) / Double(executions) : 0
            guard thresholds.isHot(share: share, count: statement.count) else { continue }
            problems.append(CheckProblem(kind: .statementFailed, statement: statement.location, statementID: statement.id, isFailure: true,
                                         message: "\(statement.location) cannot be checked: \(statement.reason) (×\(Figures.count(statement.count)), \(String(format: "%.0f", share * 100))% of the workload's executions): \(excerpt(statement.excerpt, limit: 100))"))
        }
        // A `--source` fetch site that could not be translated is a statement the app runs and the gate never
        // planned: hot by its frequency among the executions, as one set aside while reading is (hostile round
        // 8, F14: half of an app's @Query sites checked, "0 failures").
        let untranslated = (result.sourceSites ?? []).filter { $0.untranslatedReason != nil }
        let allExecutions = executions.addingSaturating(untranslated.saturatingSum { max(0, $0.frequency) })
        for site in untranslated {
            let share = allExecutions > 0 ? Double(site.frequency) / Double(allExecutions) : 0
            guard thresholds.isHot(share: share, count: site.frequency) else { continue }
            problems.append(CheckProblem(kind: .statementFailed, statement: site.location, statementID: "", isFailure: true,
                                         message: "\(site.location) cannot be checked: the fetch (\(site.form.displayName)) was not translated: \(site.untranslatedReason ?? "") (×\(Figures.count(site.frequency)), \(String(format: "%.0f", share * 100))% of the workload's executions)"))
        }
        // A baseline measured otherwise (another --cost, another SQLite) compares nothing: one failure for each.
        if let baselineCost, !sameCost {
            problems.append(CheckProblem(kind: .baselineOtherCost, statement: "—", statementID: "", isFailure: true,
                                         message: "the baseline was measured with --cost \(baselineCost.rawValue) and this check with --cost \(cost.rawValue): their times cannot be compared; run both with the same --cost (or write a new baseline with check --output)"))
        }
        if let baselineVersion, !sameSQLite {
            problems.append(CheckProblem(kind: .baselineOtherSqlite, statement: "—", statementID: "", isFailure: true,
                                         message: "the baseline was measured with SQLite \(SQLText.oneLine(baselineVersion, limit: 40)) and this check with SQLite \(version): their plans and times cannot be compared (another SQLite plans and runs statements otherwise); run both with the same SQLite (or write a new baseline with check --output)"))
        }
        // A baseline from another store or workload would compare nothing and pass: say so, and fail.
        if comparable, let baseline, !usable.contains(where: { baselineByID[$0.id] != nil }) {
            let what = baseline.statements.isEmpty ? "the baseline has no statement (a report of a run without a workload?)"
                : "none of the baseline's \(Figures.counted(baseline.statements.count, "statement")) is in this workload (a report of another store or workload?)"
            problems.append(CheckProblem(kind: .baselineUnmatched, statement: "—", statementID: "", isFailure: true,
                                         message: what + ": nothing was compared; write a new baseline with check --output"))
        }
        for advice in result.queryAdvice {
            let label = result.statements.firstIndex { $0.id == advice.statementID }.map { "S\($0 + 1)" } ?? "—"
            problems.append(CheckProblem(kind: .queryAdvice, statement: label, statementID: advice.statementID, isFailure: false,
                                         message: "\(label) \(advice.kind.rawValue): \(SQLText.oneLine(advice.advice, limit: .max))"))
        }
        // One line per scan: a cascade's delete reads the child rows its parent's lookup read just before,
        // with the same plan row, the same table and the same words.
        var said: Set<String> = []
        return problems.filter { said.insert($0.message).inserted }
    }

    /// The SQLite library `result` was planned and timed with: the method's, else (a report written before the
    /// method kept it) the tool's, which is the same library.
    private static func sqliteVersion(of result: AnalysisResult) -> String {
        result.method.sqliteVersion ?? result.tool.sqliteVersion
    }

    /// True when `now` is slower than `before` beyond ``CheckThresholds/slowdownFactor`` with the runs'
    /// interquartile ranges apart.
    private static func isSlower(_ now: Timing, than before: Timing, _ thresholds: CheckThresholds) -> Bool {
        now.medianSeconds > before.medianSeconds * thresholds.slowdownFactor && now.p25Seconds > before.p75Seconds
    }

    /// Said after a shortened excerpt, so that a cut is never read as the text's end.
    public static let shortenedMark = "… (shortened)"

    /// `text` on one line (white space folded) for a check line; when longer than `limit` characters, cut
    /// at the last space outside a quoted string or identifier before the limit — never inside a
    /// number, a word or a literal (a cut `LIMIT 2…` read as `LIMIT 2`) — and followed by
    /// ``shortenedMark``. Text with no such space before the limit is kept whole.
    /// A long select list before `FROM` (a Core Data fetch names every column) is shown as `…` first, so that
    /// what tells statements apart, their FROM and WHERE, is kept: a new user's five check lines all ended in
    /// the same column list.
    package static func excerpt(_ text: String, limit: Int) -> String {
        var flat = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if flat.count > limit, flat.prefix(7).uppercased() == "SELECT ", let from = flat.range(of: " FROM ", options: .caseInsensitive),
           flat.distance(from: flat.startIndex, to: from.lowerBound) > 24 {
            flat = String(flat.prefix { $0 != " " }) + " …" + flat[from.lowerBound...]
        }
        let folded = Array(flat)
        guard folded.count > limit else { return String(folded) }
        var closing: Character?
        var cut: Int?
        for (offset, character) in folded.enumerated() {
            if offset > limit { break }
            if let close = closing {
                if character == close { closing = nil }
            } else if character == "'" || character == "\"" || character == "`" {
                closing = character
            } else if character == "[" {
                closing = "]"
            } else if character == " " {
                cut = offset
            }
        }
        guard let cut, cut > 0 else { return String(folded) }
        return String(folded[..<cut]) + " " + shortenedMark
    }

    /// VM steps an execution from which a small table's repeated scan (``repeatedSmallScans(_:)``) is a problem:
    /// a hundred scans' worth of a table at ``PlanFinding/smallTableRows``.
    static let repeatedScanSteps = Double(100 * PlanFinding.smallTableRows)

    /// The positions of `plan`'s full scans of a table too small to be a problem once (under
    /// ``PlanFinding/smallTableRows`` rows) that run once for each row of an outer loop: under a correlated
    /// subquery, or a later loop of a join than the first at their level (eqp.html: loops are listed outer
    /// first). Once is cheap; 20,001 times a 999-row scan was 70 M VM steps (hostile round 8, F25).
    static func repeatedSmallScans(_ plan: QueryPlan) -> [Int] {
        let byID = Dictionary(plan.steps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        func isLoop(_ detail: String) -> Bool { detail.hasPrefix("SCAN ") || detail.hasPrefix("SEARCH ") }
        return plan.findings.indices.filter { index in
            let finding = plan.findings[index], step = plan.steps[index]
            guard finding.kind == .fullTableScan, let rows = finding.tableRows, rows < PlanFinding.smallTableRows else { return false }
            let earlierSibling = plan.steps[..<index].contains { $0.parent == step.parent && isLoop($0.detail) }
            var parent = byID[step.parent], depth = 0
            while let at = parent, depth < 64 {
                if at.detail.hasPrefix("CORRELATED ") { return true }
                parent = byID[at.parent]
                depth += 1
            }
            return earlierSibling
        }
    }

    /// Where a write's plan step runs only for the rows the write changes: in a trigger program, in a foreign
    /// key's action (`ON DELETE CASCADE`), or in the lookup SQLite makes of the rows that refer to a changed or
    /// deleted parent row (a top-level scan of another table than the write's own: foreignkeys.html#fk_indexes).
    enum ProgramPart: Equatable {
        case trigger, foreignKeyAction, foreignKeyLookup
    }

    /// The findings of `plan` that run once per changed row: under a `TRIGGER` or `FOREIGN KEY` step, or a
    /// top-level step on another table than the first step's (the table the write changes; hostile round 8,
    /// F1: `DELETE FROM author WHERE status = ?` plans `SCAN book`, the lookup of the books of each author
    /// deleted, which a write timed changing no row never runs).
    /// `lookups`: the write is an UPDATE or DELETE (an INSERT's own top-level steps are its SELECT's).
    static func programFindings(_ plan: QueryPlan, lookups: Bool = true) -> [(finding: PlanFinding, part: ProgramPart)] {
        let parents = Dictionary(plan.steps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        func program(_ step: QueryPlan.Step) -> QueryPlan.Step? {
            var current = parents[step.parent]
            var depth = 0
            while let at = current, depth < 64 {
                if QueryPlanner.isProgramStep(at.detail) { return at }
                current = parents[at.parent]
                depth += 1
            }
            return nil
        }
        let written = zip(plan.steps, plan.findings).first { $0.0.parent == 0 }?.1.table?.sqlFolded
        return zip(plan.steps, plan.findings).compactMap { step, finding in
            guard !QueryPlanner.isProgramStep(step.detail) else { return nil }
            if let part = program(step) { return (finding, part.detail.hasPrefix("TRIGGER ") ? .trigger : .foreignKeyAction) }
            guard lookups, step.parent == 0, let table = finding.table?.sqlFolded, let written, table != written else { return nil }
            return (finding, .foreignKeyLookup)
        }
    }
}
