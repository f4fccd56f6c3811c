import Foundation
import Testing
@testable import IndexAdvisor

/// Each false sentence that a new user found in a report (issue 17) is a test here: the checker finds it in
/// the text the renderer used to print, and the renderer no longer prints it.
@Suite("Report checker: every sentence agrees with the report's data")
struct ReportCheckerTests {
    let checker = ReportChecker()

    static func plan(_ details: String...) -> QueryPlan {
        QueryPlan(steps: details.enumerated().map { .init(id: $0.offset + 2, parent: 0, detail: $0.element) }, findings: [])
    }

    /// A plan with its findings, as the planner reads them: a scan of ZNOTE, or a search through `index`.
    static func scan() -> QueryPlan {
        let detail = "SCAN t0"
        return QueryPlan(steps: [.init(id: 2, parent: 0, detail: detail)],
                         findings: [PlanFinding(kind: .fullTableScan, table: "ZNOTE", alias: "t0", index: nil, constraints: nil, purpose: nil,
                                                detail: detail, tableRows: 100_000)])
    }

    static func search(_ index: String) -> QueryPlan {
        let detail = "SEARCH t0 USING INDEX \(index) (ZFOLDERID=?)"
        return QueryPlan(steps: [.init(id: 3, parent: 0, detail: detail)],
                         findings: [PlanFinding(kind: .indexSearch, table: "ZNOTE", alias: "t0", index: index, constraints: "ZFOLDERID=?",
                                                detail: detail, tableRows: 100_000)])
    }

    /// The plain fixture with a second index, `idx_later`, that a later pick made the read's final plan use:
    /// index 1 was chosen for S1, and S1 ends up using index 2.
    static func takenOver() -> AnalysisResult {
        var result = ReportFixture.result(hostile: false)
        var later = result.recommendations[0]
        later.rank = 2
        later.name = "idx_later"
        later.sql = #"CREATE INDEX IF NOT EXISTS "idx_later" ON "ZNOTE" ("ZFOLDERID", "ZISARCHIVED")"#
        later.columns = [RecommendedColumn(name: "ZFOLDERID", isDescending: false, collation: "BINARY", keyPath: "\\.folderID"),
                         RecommendedColumn(name: "ZISARCHIVED", isDescending: false, collation: "BINARY", keyPath: "\\.isArchived")]
        later.swiftDataIndex = #"#Index<Note>([\.folderID, \.isArchived])"#
        result.recommendations.append(later)
        result.statements[0].planAfter = search("idx_later")
        result.statements[0].usesRecommendations = ["idx_later"]
        return result
    }

    @Test("the committed demo report (reports/demo.json) is true, and so is every format rendered from it")
    func committedDemo() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("reports/demo.json")
        let result = try JSONReport.decode(Data(contentsOf: url))
        #expect(checker.check(result) == [])
        #expect(!result.recommendations.isEmpty)
    }

    @Test("the report fixtures, hostile and plain, are true")
    func fixtures() {
        #expect(checker.check(ReportFixture.result()) == [])
        #expect(checker.check(ReportFixture.result(hostile: false)) == [])
    }

    // Issue 17: "Index 1's Plan after showed a plan that used index 4", and "Index 4 was justified by S10,
    // but S10 ends up using index 5".
    @Test("a statement a later pick took over: the section says so, and no list claims it unqualified")
    func takenOverStatement() throws {
        let result = Self.takenOver()
        #expect(checker.check(result) == [])
        let markdown = MarkdownReport.render(result)
        let sentence = "S1's final plan uses `idx_later` (index 2) instead of this one, a pick that took it over"
        #expect(markdown.contains(sentence))
        #expect(markdown.contains("| S1 select | 400 | 18.5 ms (IQR 18.1 ms–19.1 ms) | 27.5 µs (IQR 27.0 µs–28.3 µs) | 673× faster; its final plan uses another index (see above) |"))
        let sql = SQLReport.render(result)
        #expect(sql.contains("-- 1. chosen for S1, which a later pick took over: saves"))
        #expect(HTMLReport.render(result).contains("S1’s final plan uses") || HTMLReport.render(result).contains("S1&#39;s final plan uses") || HTMLReport.render(result).contains("S1's final plan uses"))

        // The text the renderer used to print: the final plan under index 1, no note, S1 listed as served.
        let old = markdown.replacingOccurrences(of: sentence, with: "")
            .replacingOccurrences(of: "; its final plan uses another index (see above)", with: "")
        #expect(checker.checkRecommendationPlans(result, markdown: old).map(\.kind) == [.planWithoutIndex])
        let claims = checker.checkClaims(result, markdown: old, sql: "-- 1. for S1: saves 7.13 s of reads")
        #expect(claims.map(\.kind) == [.claimNotInFinalPlan, .claimNotInFinalPlan])
        #expect(claims.first?.message == "SQL migration: index 1 (Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt) is said to be for S1, whose final plan does not use it")
    }

    // Regression (stress test under full load, `demo --notes 2000`): an INSERT whose plan does not use index 3
    // fell from 63.4 µs to 34.7 µs by the machine's load, more time than the lookup the index was chosen for
    // saved, and became the section's main statement: "the plan shown for S8 does not use it".
    @Test("a write that does not use the index is never its main statement, however far its time fell")
    func mainStatementUsesTheIndex() throws {
        var result = ReportFixture.result(hostile: false)
        let name = result.recommendations[0].name
        result.recommendations[0].effects[0].planBefore = Self.scan()
        result.recommendations[0].effects[0].planAfter = Self.search(name)
        // The write's fall, count × (before − after) = 150 × 1 s, dwarfs the read's 400 × 18.5 ms.
        result.recommendations[0].effects[1].before = ReportFixture.timing(1.0)
        let main = try #require(result.recommendations[0].mainEffect)
        #expect(main.statementID == result.statements[0].id)
        #expect(result.statements[0].kind.isRead)
        #expect(checker.checkRecommendationPlans(result, markdown: MarkdownReport.render(result)) == [])
        // Without kept plans (a report made before they were), every effect competes, as before.
        result.recommendations[0].effects[0].planAfter = nil
        result.recommendations[0].effects[0].planBefore = nil
        #expect(result.recommendations[0].mainEffect?.statementID == result.recommendations[0].effects[1].statementID)
    }

    // Regression (the same stress run): a pick decided on SQLite's counters whose wall-clock read saving was
    // inside the busy machine's noise printed "0 s" in the Markdown summary table, where HTML said "none measurable".
    @Test("a read saving inside the noise reads 'none measurable' in the Markdown table, as in HTML")
    func readSavingInsideTheNoise() throws {
        var result = ReportFixture.result(hostile: false)
        result.recommendations[0].readSecondsSaved = 0
        let markdown = MarkdownReport.render(result)
        let line = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- Saves ") })
        #expect(line.hasPrefix("- Saves no measurable read time, adds 1.19 ms of writes per workload;"))
        // Charged with the whole set in place, the figure is the statements' own change.
        var charged = result.chargingFinalState()
        charged.finalCharges!.recommendations[0].reads = []
        let chargedLine = try #require(MarkdownReport.render(charged).split(separator: "\n").first { $0.hasPrefix("- Saves ") })
        #expect(chargedLine == "- Saves no measurable read time per workload.")
        #expect(checker.check(result).filter { $0.kind == .unmeasuredAsZero } == [])
    }

    // Regression (a new user's demo run): index 3's main statement changed inside the noise, was taken over by
    // index 4, and the section showed its plan with no note, since only claimed (measurably faster) statements
    // counted as taken over. The index was chosen on the counters, which the report did not show.
    @Test("a main statement taken over inside the noise gets the takeover note, and a pick without a wall-clock saving shows its counters")
    func mainStatementTakenOverInsideTheNoise() throws {
        var result = Self.takenOver()
        let name = result.recommendations[0].name
        result.recommendations[0].effects[0].planBefore = Self.search("ZNOTE_ZFOLDERID")
        result.recommendations[0].effects[0].planAfter = Self.search(name)
        result.recommendations[0].effects[0].before = ReportFixture.timing(0.0000471, steps: 23_227)
        result.recommendations[0].effects[0].after = ReportFixture.timing(0.0000499, steps: 20_375)
        result.recommendations[0].effects[0].isSignificant = false
        result.recommendations[0].readSecondsSaved = 0
        #expect(result.takeovers(of: result.recommendations[0]).map(\.statementID) == [result.statements[0].id])
        #expect(checker.check(result) == [])
        let markdown = MarkdownReport.render(result)
        #expect(markdown.contains("S1's final plan uses `idx_later` (index 2) instead of this one, a pick that took it over"))
        #expect(result.counterEvidence(for: result.recommendations[0])
                == "Chosen on SQLite's work counters: S1 23,227 → 20,375 VM steps per execution (12 % fewer); on the wall clock the difference was inside the noise.")
        #expect(markdown.contains("Chosen on SQLite's work counters: S1 23,227 → 20,375 VM steps"))
        // In the summary line too, beside "saves no measurable read time" (a new user found it only further down).
        #expect(markdown.contains("saves no measurable read time, adds 1.19 ms of writes. Chosen on SQLite's work counters: S1 23,227 → 20,375 VM steps"))
        #expect(HTMLReport.render(result).contains("per workload. Chosen on SQLite&#39;s work counters: S1 23,227 → 20,375 VM steps"))
        // Medians 109× apart whose runs overlap are too spread to tell, not inside the noise.
        var spread = result
        spread.recommendations[0].effects[0].before = ReportFixture.timing(0.00545, steps: 23_227)
        #expect(spread.counterEvidence(for: spread.recommendations[0])
                == "Chosen on SQLite's work counters: S1 23,227 → 20,375 VM steps per execution (12 % fewer); on the wall clock the medians were 109× apart but the runs overlapped: too spread to tell.")
        // A wall-clock saving needs no such sentence.
        result.recommendations[0].readSecondsSaved = 1
        #expect(result.counterEvidence(for: result.recommendations[0]) == nil)
    }

    // Issue 17: "Without it 42.7 µs under a plan that is SCAN ZPOST: that statement takes 41.8 ms".
    @Test("a time printed beside a plan it was not measured with is found; the section shows the plans its times are of")
    func timeOfAnotherPlan() throws {
        var result = ReportFixture.result(hostile: false)
        result.statements[0].sql = "SELECT * FROM ZNOTE t0 WHERE t0.ZFOLDERID = ?"
        result.statements[0].planBefore = Self.scan()
        result.statements[0].timingBefore = ReportFixture.timing(0.0418)
        result.recommendations[0].effects[0].before = ReportFixture.timing(0.0000427)
        // An old report: no plans kept with the effect, so the section pairs the store's scan with 42.7 µs.
        let found = checker.check(result).filter { $0.kind == .timingAgainstPlan }
        #expect(found.count == 2)
        #expect(found.contains { $0.message.contains("42.7 µs beside SCAN t0, a full scan of 100,000 rows of ZNOTE that takes at least 200.0 µs") })
        #expect(found.contains { $0.message.contains("the statement's own timing puts at 41.8 ms (979× apart)") })
        // With the plan the time was measured with (an earlier pick in place), the same figure is true.
        result.recommendations[0].effects[0].planBefore = Self.search("idx_earlier")
        result.recommendations[0].effects[0].planAfter = Self.search(result.recommendations[0].name)
        result.recommendations[0].rank = 2
        #expect(checker.check(result).filter { $0.kind == .timingAgainstPlan } == [])
        let markdown = MarkdownReport.render(result)
        #expect(markdown.contains("Plan without it (index 1 built):\n```\nQUERY PLAN\n`--SEARCH t0 USING INDEX idx_earlier (ZFOLDERID=?)\n```"))
        #expect(markdown.contains("Plan with it:\n```"))
    }

    // Regression (stress test): under full load a microsecond lookup was timed 20× apart in two places; the
    // same VM-step count says it was the same work, so it is not "the time of another plan".
    @Test("the same plan timed far apart on the wall clock is not flagged when its VM steps agree; different work is")
    func samePlanSameWork() throws {
        var result = ReportFixture.result(hostile: false)
        let plan = Self.search(result.recommendations[0].name)
        result.statements[0].planAfter = plan
        result.recommendations[0].effects[0].planAfter = plan
        var final = ReportFixture.timing(0.000_060)
        final.vmStepsPerExecution = 24
        var atPick = ReportFixture.timing(0.000_002)
        atPick.vmStepsPerExecution = 24
        result.statements[0].timingAfter = final
        result.recommendations[0].effects[0].after = atPick
        #expect(checker.check(result).filter { $0.kind == .timingAgainstPlan } == [])
        atPick.vmStepsPerExecution = 2_400
        result.recommendations[0].effects[0].after = atPick
        #expect(checker.check(result).filter { $0.kind == .timingAgainstPlan }.count == 1)
    }

    @Test("the scan floor leaves out what may stop early: a LIMIT, no WHERE, small tables")
    func scanFloorScope() {
        var result = ReportFixture.result(hostile: false)
        var statement = result.statements[0]
        statement.planBefore = Self.scan()
        let quick = ReportFixture.timing(0.000_01)
        statement.sql = "SELECT * FROM ZNOTE t0 WHERE t0.ZFOLDERID = ? LIMIT 1"
        #expect(checker.scanFloorViolation(plan: Self.scan(), timing: quick, statement: statement, result: result) == nil)
        statement.sql = "SELECT count(*) FROM ZNOTE t0"
        #expect(checker.scanFloorViolation(plan: Self.scan(), timing: quick, statement: statement, result: result) == nil)
        statement.sql = "SELECT * FROM ZNOTE t0 WHERE t0.ZFOLDERID = ?"
        #expect(checker.scanFloorViolation(plan: Self.scan(), timing: quick, statement: statement, result: result) != nil)
        #expect(checker.scanFloorViolation(plan: Self.scan(), timing: ReportFixture.timing(0.000_3), statement: statement, result: result) == nil)
        // A scan that never ran (a term false whatever the row: `AND 0`, `AND ? = 1` with NULL bound) steps
        // less than once a row; one that ran steps at least once a row (a breaking helper's false alarm).
        let rows = Double(result.store.tables[0].sampledRows ?? result.store.tables[0].rows)
        #expect(checker.scanFloorViolation(plan: Self.scan(), timing: ReportFixture.timing(0.000_01, steps: 12), statement: statement, result: result) == nil)
        #expect(checker.scanFloorViolation(plan: Self.scan(), timing: ReportFixture.timing(0.000_01, steps: rows * 3), statement: statement, result: result) != nil)
        result.store.tables[0].rows = 500
        #expect(checker.scanFloorViolation(plan: Self.scan(), timing: quick, statement: statement, result: result) == nil)
    }

    // Issue 17: "S3: plan changes with statistics printed two identical plans".
    @Test("identical plans are never a change: statistics advice, and a before and after that read alike")
    func identicalPlans() {
        var result = ReportFixture.result(hostile: false)
        let same = Self.plan("SCAN t0", "USE TEMP B-TREE FOR ORDER BY")
        result.queryAdvice = [QueryAdvice(kind: .statistics, statementID: result.statements[0].id,
                                          finding: .other(advice: "With ANALYZE statistics SQLite plans it differently (without statistics SCAN t0, with them SCAN t0) and it takes 1 ms → 2 ms.", caveat: nil),
                                          timing: ReportFixture.timing(0.001), rewrite: "PRAGMA optimize;", rewriteTiming: ReportFixture.timing(0.002),
                                          rewritePlan: nil)]
        #expect(checker.check(result).map(\.kind) == [.identicalPlansAsChange])
        result.queryAdvice[0].rewritePlan = result.statements[0].planAfter
        #expect(checker.check(result).map(\.kind) == [.identicalPlansAsChange])
        // Statistics are measured with the advice applied: a plan with them that is the one before the advice
        // (ANALYZE would take the statement off the new index) is a change (a breaking helper's genuine report).
        result.queryAdvice[0].rewritePlan = result.statements[0].planBefore
        result.queryAdvice[0].finding = .other(advice: "With ANALYZE statistics SQLite plans it differently (without statistics SEARCH t0 USING INDEX i (a=?), with them SCAN t0) and it takes 1 ms → 2 ms.", caveat: nil)
        #expect(result.statements[0].planBefore?.tree != result.statements[0].planAfter?.tree)
        #expect(checker.check(result).filter { $0.kind == .identicalPlansAsChange } == [])
        // The statistics check names the rows that differ when the rows that matter read alike.
        let without = Self.plan("SCAN t0", "USE TEMP B-TREE FOR ORDER BY")
        let with = Self.plan("SCAN t0")
        let summaries = StatisticsCheck.summaries(without, with)
        #expect(summaries.without == "SCAN t0; USE TEMP B-TREE FOR ORDER BY" && summaries.with == "SCAN t0")
        // A before and after whose rows are the same text (ids differ) are one plan, in every format.
        var renumbered = same
        renumbered.steps = renumbered.steps.map { .init(id: $0.id + 10, parent: 0, detail: $0.detail) }
        result.queryAdvice = []
        result.statements[0].planBefore = same
        result.statements[0].planAfter = renumbered
        #expect(checker.check(result).filter { $0.kind == .identicalPlansAsChange } == [])
        let markdown = "Plan before:\n```\nQUERY PLAN\n`--SCAN t0\n```\nPlan after:\n```\nQUERY PLAN\n`--SCAN t0\n```\n"
        #expect(checker.checkIdenticalPlans(ReportFixture.result(hostile: false), markdown: markdown, html: "").map(\.kind) == [.identicalPlansAsChange])
        let tree = #"<div class="plan"><div class="plan-root">QUERY PLAN</div><ul class="tree"><li>SCAN t0</li></ul></div>"#
        let pair = #"<div class="plans"><figure><figcaption>Plan before</figcaption>"# + tree + "</figure><figure><figcaption>Plan after</figcaption>" + tree + "</figure></div>"
        #expect(checker.checkIdenticalPlans(ReportFixture.result(hostile: false), markdown: "", html: pair).map(\.kind) == [.identicalPlansAsChange])
        // One plan, then another figure further down the page: not a pair.
        let single = #"<div class="plans"><figure><figcaption>Plan (unchanged by the advice)</figcaption>"# + tree + "</figure></div><p>x</p><figure>" + tree + "</figure>"
        #expect(checker.checkIdenticalPlans(ReportFixture.result(hostile: false), markdown: "", html: single) == [])
    }

    // Issue 17: "LIKE against a BINARY index for a column with no index at all".
    @Test("a sentence about an index that does not exist is found; the heading no longer asserts one")
    func likeWithoutIndex() {
        var result = ReportFixture.result(hostile: false)
        result.queryAdvice = [QueryAdvice(kind: .caseInsensitiveLike, statementID: result.statements[0].id,
                                          finding: .other(advice: "ZTITLE LIKE 'ab%' ignores case, so SQLite cannot use a BINARY index on ZTITLE for the prefix.", caveat: nil),
                                          timing: ReportFixture.timing(0.01), rewrite: nil, rewriteTiming: nil, rewritePlan: nil)]
        #expect(checker.check(result) == [])
        #expect(!QueryAdvice.Kind.caseInsensitiveLike.title.contains("against"))
        let old = "### S1: case-insensitive LIKE against a BINARY index\n"
        #expect(checker.checkIndexClaims(result, markdown: old).map(\.message) == [#"S1: "LIKE against a BINARY index", but ZTITLE has no index"#])
        result.store.tables[0].indexes.append(IndexSummary(name: "ZNOTE_ZTITLE", columns: ["ZTITLE"], isUnique: false, partialPredicate: nil, bytes: nil))
        #expect(checker.checkIndexClaims(result, markdown: old) == [])
    }

    // Issue 17: "Rows never measured show 0 s".
    @Test("an unmeasured figure is never 0 s: a candidate set aside before measuring shows a dash")
    func unmeasuredZero() {
        let result = ReportFixture.result(hostile: false)
        let markdown = MarkdownReport.render(result)
        #expect(markdown.contains("| `ZNOTE(ZISARCHIVED) WHERE ZISARCHIVED = 0` | — | — | not measured: 2 distinct values |"))
        #expect(!HTMLReport.render(result).contains(">0 s<"))
        let old = "| `ZNOTE(ZISARCHIVED) WHERE ZISARCHIVED = 0` | 0 s | 0 s | not measured: 2 distinct values |\n"
        #expect(checker.checkZeros(markdown: old, html: #"<tr><td class="num">0 s</td></tr>"#).map(\.kind) == [.unmeasuredAsZero, .unmeasuredAsZero])
        // A workload without writes: its summary said "writes 0 s → 0 s".
        var readsOnly = result
        readsOnly.totals.writeSecondsBefore = 0
        readsOnly.totals.writeSecondsAfter = 0
        // (The fixture's write statement still has its times: only the totals disagree with it.)
        #expect(checker.check(readsOnly).filter { $0.kind != .totalsAgainstStatements } == [])
        #expect(MarkdownReport.render(readsOnly).contains("\n- Writes: none timed.\n"))
        #expect(checker.checkZeros(markdown: "reads 1 ms → 0.5 ms · writes 0 s → 0 s · x", html: "").map(\.kind) == [.unmeasuredAsZero])
    }

    // Issue 17: "demo.swift declares #Index([\.remoteID]) next to #Unique([\.remoteID])".
    @Test("no #Index repeats a #Unique rule's columns: the unique index serves the lookups")
    func uniqueServesIndex() {
        var result = ReportFixture.result(hostile: false)
        result.uniqueness[0].columns = ["ZFOLDERID", "ZUPDATEDAT", "ZTITLE"]
        result.uniqueness[0].swiftDataUnique = #"#Unique<Note>([\.folderID, \.updatedAt, \.title])"#
        #expect(checker.check(result) == [])
        let swift = SwiftReport.render(result)
        #expect(!swift.contains("#Index<Note>"))
        #expect(swift.contains(#"#Unique<Note>([\.folderID, \.updatedAt, \.title])"#))
        #expect(swift.contains("No #Index for Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt (ZFOLDERID, ZUPDATEDAT): the #Unique rule on ZFOLDERID, ZUPDATEDAT, ZTITLE above"))
        #expect(MarkdownReport.render(result).contains(#"SwiftData, in `@Model class Note`: no `#Index`. The proposed `#Unique<Note>([\.folderID, \.updatedAt, \.title])`"#))
        let old = "#Index<Note>([\\.remoteID])\n#Unique<Note>([\\.remoteID], [\\.folderID, \\.slug])\n"
        #expect(checker.checkDuplicates(ReportFixture.result(hostile: false), swift: old).map(\.kind) == [.duplicateIndex])
        // An existing index that already leads with the recommended columns.
        var existing = ReportFixture.result(hostile: false)
        existing.store.tables[0].indexes.append(IndexSummary(name: "ZNOTE_ZFOLDERID_ZUPDATEDAT_ZTITLE", columns: ["ZFOLDERID", "ZUPDATEDAT", "ZTITLE"],
                                                             isUnique: false, partialPredicate: nil, bytes: nil))
        #expect(checker.check(existing).map(\.kind) == [.duplicateIndex])
    }

    // Issue 17: "33.1 ms worth a schema change appears without an explanation".
    @Test("a threshold the text names is explained in the method section")
    func thresholdExplained() {
        var result = ReportFixture.result(hostile: false)
        result.rejectedCandidates[0].reason = "it saves 12.0 ms per workload, below the 33.1 ms worth a schema change"
        #expect(checker.check(result).map(\.message) == [#"the report says "worth a schema change", and its method section does not say what that threshold is"#])
        result.method.description = (result.method.description ?? "") + " " + ReportThresholds.schemaChange(share: 0.005)
        #expect(checker.check(result) == [])
        #expect(ReportThresholds.schemaChange(share: 0.005).contains("at least 0.5 % of the workload's measured time"))
        // Every phrase the checker looks for is explained by the method's own sentences.
        let method = ReportThresholds.noise + " " + ReportThresholds.schemaChange(share: 0.005)
        #expect(ReportThresholds.terms.allSatisfy { method.contains($0.explainedBy) && method.contains($0.phrase) })
    }

    // Issue 17: "Within the noise for 7.77 µs → 30 µs".
    @Test("runs that are apart are never called noise")
    func noiseAgainstRuns() {
        var result = ReportFixture.result(hostile: false)
        result.recommendations[0].effects[1] = StatementEffect(statementID: result.statements[1].id, count: 150,
                                                               before: ReportFixture.timing(0.000_030), after: ReportFixture.timing(0.000_007_77),
                                                               isSignificant: false)
        #expect(checker.check(result) == [])
        let markdown = MarkdownReport.render(result)
        #expect(markdown.contains("| 3.9× faster, not counted: its plan does not use the index |"))
        let old = markdown.replacingOccurrences(of: "3.9× faster, not counted: its plan does not use the index", with: "within the noise")
        #expect(checker.checkNoise(result, markdown: old).map(\.kind) == [.noiseAgainstRuns])
        // 7.77 µs → 30 µs whose runs overlap (a wide spread): not "within the noise" either.
        // Runs of 5, 5, 30, 50 and 50 µs: quartiles 5 and 50 µs, as a timing made from them has (render --check
        // holds a timing to its runs: ``RunFiguresCheckTests``).
        var spread = ReportFixture.timing(0.000_030)
        (spread.minSeconds, spread.p25Seconds, spread.p75Seconds, spread.maxSeconds) = (0.000_005, 0.000_005, 0.000_050, 0.000_050)
        result.recommendations[0].effects[1] = StatementEffect(statementID: result.statements[1].id, count: 150,
                                                               before: ReportFixture.timing(0.000_007_77), after: spread, isSignificant: false)
        #expect(checker.check(result).map(\.kind) == [.unexplainedThreshold])
        result.method.description = (result.method.description ?? "") + " " + ReportThresholds.noise
        #expect(checker.check(result) == [])
        let wide = MarkdownReport.render(result)
        #expect(wide.contains("| 3.9× slower by the medians, but the runs overlap: too spread to tell |"))
        let oldWide = wide.replacingOccurrences(of: "3.9× slower by the medians, but the runs overlap: too spread to tell", with: "within the noise")
        #expect(checker.checkNoise(result, markdown: oldWide).map(\.message) == [#"index 1 (Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt), S2: "within the noise" for 7.77 µs → 30.0 µs, medians 2× or more apart"#])
    }
}

/// Regression (a new user's report): the mixed-sort-directions advice carried no statement, and its heading
/// printed "### : mixed sort directions" while `render --check` passed.
@Suite("Report checker: query advice names its statement")
struct AdviceStatementCheckTests {
    @Test("query advice that names no statement of the report is a finding; one that names one is not")
    func adviceWithoutStatement() {
        var result = ReportFixture.result(hostile: false)
        let advice = QueryAdvice(kind: .mixedSortDirections, statementID: "", finding: .mixedSortDirections(table: "t", columns: ["a", "b DESC"]),
                                 timing: nil, rewrite: nil, rewriteTiming: nil, rewritePlan: nil)
        result.queryAdvice = [advice]
        #expect(ReportChecker().check(result).filter { $0.kind == .adviceWithoutStatement }.map(\.message)
                == ["query advice 1 (mixed-sort-directions) names no statement of the report (none)"])
        result.queryAdvice[0].statementID = result.statements[0].id
        #expect(ReportChecker().check(result).filter { $0.kind == .adviceWithoutStatement }.isEmpty)
    }
}

/// Regression (a breaking helper's edited reports): headline totals and a statement's weighted time that the
/// statements' own figures contradict passed `render --check`.
@Suite("Report checker: totals are the statements' sums")
struct TotalsCheckTests {
    @Test("an edited total or weighted time is a finding; the fixture as made is not")
    func totals() {
        var result = ReportFixture.result(hostile: false)
        #expect(ReportChecker().checkTotals(result).isEmpty)
        result.totals.readSecondsBefore = 1e-4
        let findings = ReportChecker().checkTotals(result)
        #expect(findings.count == 1 && findings[0].kind == .totalsAgainstStatements && findings[0].message.hasPrefix("headline reads before: 100.0 µs"))
        result = ReportFixture.result(hostile: false)
        result.statements[0].weightedSecondsBefore += 999
        #expect(ReportChecker().checkTotals(result).map(\.message).first?.hasPrefix("S1 before: weighted time") == true)
        // Regression (a breaking helper): "full table scans 6 → 0" beside a final plan that scans passed.
        result = ReportFixture.result(hostile: false)
        result.statements[0].planAfter = result.statements[0].planBefore
        #expect(ReportChecker().checkTotals(result).map(\.message).contains("headline full table scans after: 0, but the statements' plans have 1"))
        #expect(ReportChecker().checkTotals(result).map(\.message).contains("headline temp B-tree sorts after: 0, but the statements' plans have 1"))
        // Regression (a breaking helper): one index "saves 14.77 s of reads" in a 2.73 s workload passed.
        result = ReportFixture.result(hostile: false)
        result.recommendations[0].readSecondsSaved = 40.2
        #expect(ReportChecker().checkTotals(result).map(\.message)
                == ["index 1 (Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt) saves 40.20 s of reads, but the statements' reads take 7.40 s before the advice"])
        result.recommendations[0].readSecondsSaved = 7.39
        #expect(ReportChecker().checkTotals(result).isEmpty)
    }

    // Regression (a breaking helper): an index edited to claim 1.5× what its own rows add up to passed, under
    // the 2× bound above.
    @Test("an index's read saving is its users' changes summed, once its effects keep their plans")
    func savingIsItsUsersSum() {
        var result = ReportFixture.result(hostile: false)
        result.recommendations[0].effects[0].planAfter = ReportCheckerTests.search(result.recommendations[0].name)
        // S1 ×400: 18.5 ms → 27.5 µs, beyond the noise; the write beside it has no plan and is not a user.
        let sum = 400 * (0.0185 - 0.0000275)
        result.recommendations[0].readSecondsSaved = sum
        #expect(ReportChecker().checkTotals(result).isEmpty)
        result.recommendations[0].readSecondsSaved = sum * 1.5
        #expect(ReportChecker().checkTotals(result).map(\.message)
                == ["index 1 (Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt) saves \(Figures.duration(sum * 1.5)) of reads, but the statements it serves add up to \(Figures.duration(sum)) (count × before − after)"])
        // Inside 1 %: rounding, not an edit.
        result.recommendations[0].readSecondsSaved = sum * 1.005
        #expect(ReportChecker().checkTotals(result).isEmpty)
    }

    // Regression (a breaking helper's list): an edited writeSecondsAdded passed every check.
    @Test("an index's added write time is its table's writes' slowdowns summed: at least those beyond the noise, at most all")
    func writeCostIsTheWritesSum() {
        var result = ReportFixture.result(hostile: false)
        result.recommendations[0].effects[0].planAfter = ReportCheckerTests.search(result.recommendations[0].name)
        result.recommendations[0].readSecondsSaved = 400 * (0.0185 - 0.0000275)
        // The insert ×150: 3.6 µs → 11.5 µs, beyond the noise: 1.185 ms.
        let added = 150 * (0.0000115 - 0.0000036)
        result.recommendations[0].writeSecondsAdded = added
        #expect(ReportChecker().checkTotals(result).isEmpty)
        result.recommendations[0].writeSecondsAdded = added * 3
        #expect(ReportChecker().checkTotals(result).map(\.message)
                == ["index 1 (Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt) adds \(Figures.duration(added * 3)) of writes, but its table's writes add up to \(Figures.duration(added)) (count × after − before)"])
        result.recommendations[0].writeSecondsAdded = 0
        #expect(ReportChecker().checkTotals(result).count == 1)
        // Inside the noise, the insert may or may not count (the counters decide, and the report does not keep them).
        result.recommendations[0].effects[1].isSignificant = false
        #expect(ReportChecker().checkTotals(result).isEmpty)
        result.recommendations[0].writeSecondsAdded = added
        #expect(ReportChecker().checkTotals(result).isEmpty)
    }
}

/// Regression (a breaking helper's edited report): S1 claimed a recommended index its final plan does not use,
/// the Markdown said "S1's final plan uses idx_note_title", and `render --check` passed it.
@Suite("Report checker: the indexes a statement says it uses are its final plan's")
struct StatementUsesCheckTests {
    @Test("a claimed index the final plan does not use is a finding; the fixture as made is not")
    func claimedIndex() {
        var result = ReportFixture.result(hostile: false)
        #expect(ReportChecker().checkStatementUses(result).isEmpty)
        let name = result.recommendations[0].name
        #expect(result.statements[0].usesRecommendations == [name])
        result.statements[0].usesRecommendations = ["idx_other"]
        #expect(ReportChecker().checkStatementUses(result).map(\.message)
                == ["S1 says it uses idx_other of the recommended indexes, but its final plan uses \(name)"])
    }
}

/// Regression (a new user's habit store): a pick's "plan without it" searched an index that a later step
/// dropped, so its figures were what it saved over that index, not over the ones listed above it.
@Suite("Report checker: a pick's figures are measured with the ones above it")
struct MeasuredBesideCheckTests {
    @Test("an effect's plan using an index neither the store's nor a recommendation above is a finding; the fixture as made is not")
    func strangerIndex() {
        var result = ReportFixture.result(hostile: false)
        let read = result.statements[0]
        result.recommendations[0].effects[0].planBefore = read.planBefore
        result.recommendations[0].effects[0].planAfter = read.planAfter
        #expect(ReportChecker().checkMeasuredBeside(result).isEmpty)
        let search = PlanFinding(kind: .indexSearch, table: "ZNOTE", alias: "t0", index: "Z_Note_SwiftDataIndexOnBinaryupdatedAt",
                                 constraints: "ZUPDATEDAT>?", detail: "SEARCH t0 USING INDEX Z_Note_SwiftDataIndexOnBinaryupdatedAt (ZUPDATEDAT>?)",
                                 tableRows: 100_000)
        result.recommendations[0].effects[0].planBefore = QueryPlan(steps: [.init(id: 3, parent: 0, detail: search.detail)], findings: [search])
        #expect(ReportChecker().checkMeasuredBeside(result).map(\.message) == [
            "index 1 (Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt): S1's plan without it uses Z_Note_SwiftDataIndexOnBinaryupdatedAt, neither an index of the store nor a recommendation above it",
        ])
        // The store's own index is allowed.
        var own = search
        own.index = "ZNOTE_ZFOLDERID"
        result.recommendations[0].effects[0].planBefore = QueryPlan(steps: [.init(id: 3, parent: 0, detail: search.detail)], findings: [own])
        #expect(ReportChecker().checkMeasuredBeside(result).isEmpty)
    }

    // Regression (a new user): task(projectId, dueAt), listed before a partial index chosen before it and so
    // measured again without it, showed "makes reads 24.47 s slower" as a recommendation, and passed.
    @Test("a recommendation whose own figures lose time and slow a statement it serves is flagged, unless kept for a join")
    func recommendedAtALoss() {
        var result = ReportFixture.result(hostile: false)
        let name = result.recommendations[0].name
        result.recommendations[0].effects[0].planAfter = ReportCheckerTests.search(name)
        #expect(ReportChecker().checkRecommendedAtALoss(result).isEmpty)
        // S1 ×400: 18.5 ms → 37 ms, beyond the noise.
        result.recommendations[0].effects[0].after = ReportFixture.timing(0.037)
        result.recommendations[0].readSecondsSaved = 400 * (0.0185 - 0.037)
        result.recommendations[0].netSecondsSaved = result.recommendations[0].readSecondsSaved - result.recommendations[0].writeSecondsAdded
        #expect(ReportChecker().checkRecommendedAtALoss(result).map(\.message)
                == ["index 1 (\(name)) is recommended, but its figures lose \(Figures.duration(-result.recommendations[0].netSecondsSaved)) per workload and make S1 slower, and no note says why it is kept"])
        result.recommendations[0].notes = [.keptForJoin(statement: "S2", index: "idx_other", changedPlanAlone: false)]
        #expect(ReportChecker().checkRecommendedAtALoss(result).isEmpty)
        // Slower inside the noise: a pick chosen on the counters may show a small wall-clock loss.
        result.recommendations[0].notes = []
        result.recommendations[0].effects[0].isSignificant = false
        #expect(ReportChecker().checkRecommendedAtALoss(result).isEmpty)
    }
}
