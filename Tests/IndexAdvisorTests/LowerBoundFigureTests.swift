import Foundation
import Testing
@testable import IndexAdvisor

/// A figure derived from a time stopped at `--statement-timeout` (a lower bound) carries its bound through
/// the arithmetic and into every format: "at least", "at most" or "not known", never a bare number, a
/// spread, or "within the noise" (hostile round 5, F10).
@Suite("Lower bounds carried into derived figures")
struct LowerBoundFigureTests {
    @Test("a difference, a sum, a scale and a share of bounded figures are bounded the way the arithmetic turns them")
    func arithmetic() {
        let stopped = BoundedFigure(2.4, .atLeast), measured = BoundedFigure(0.003)
        #expect((stopped - measured).bound == .atLeast)  // a saving against a stopped time before
        #expect((measured - stopped).bound == .atMost)  // a saving against a stopped time after
        #expect((stopped - stopped).bound == .notKnown)  // two stopped times: a loss of 0 or of seconds alike
        #expect((stopped + stopped).bound == .atLeast)
        #expect((stopped * -3).bound == .atMost)
        #expect(abs((stopped * -3).value + 7.2) < 1e-12)
        #expect(FigureBound.sum([.exact, .atLeast, .exact]) == .atLeast)
        #expect(FigureBound.sum([.atLeast, .atMost]) == .notKnown)
        // 0.6 s stopped beside 1.4 s measured: at least 30 %; beside 1.4 s stopped too: not known.
        #expect(BoundedFigure.share(BoundedFigure(0.6, .atLeast), besides: BoundedFigure(1.4)) == BoundedFigure(0.3, .atLeast))
        #expect(BoundedFigure.share(BoundedFigure(0.6), besides: BoundedFigure(1.4, .atLeast)).bound == .atMost)
        #expect(BoundedFigure.share(BoundedFigure(0.6, .atLeast), besides: BoundedFigure(1.4, .atLeast)).bound == .notKnown)
        #expect(FigureBound.atMost.stored == .atMost && FigureBound.exact.stored == nil)
    }

    @Test("each bound has its words, rounded so that the bound holds as printed")
    func words() {
        #expect(Figures.duration(BoundedFigure(12.5, .atLeast)) == "at least 12.50 s")
        #expect(Figures.duration(BoundedFigure(12.5, .notKnown)) == "not known")
        #expect(Figures.measured(BoundedFigure(0.0421, .atMost)) == "at most 42.1 ms")
        #expect(Figures.measured(BoundedFigure(0, .atLeast)) == "not known (stopped at --statement-timeout)")
        #expect(Figures.measured(BoundedFigure(0)) == "none measurable")
        #expect(Figures.signedDuration(BoundedFigure(-0.7342, .atMost)) == "down by at least 734.2 ms")
        #expect(Figures.signedDuration(BoundedFigure(0.019, .atLeast)) == "up by at least 19.0 ms")
        #expect(Figures.signedDuration(BoundedFigure(-0.7342, .atLeast)) == "at least −734.2 ms")
        #expect(Figures.signedDuration(BoundedFigure(-0.7342)) == "−734.2 ms")
        // 3 of 7 is 42.857 %: "≥ 42 %" and "≤ 43 %", never "≥ 43 %".
        #expect(Figures.percent(BoundedFigure(3.0 / 7, .atLeast)) == "≥ 42 %")
        #expect(Figures.percent(BoundedFigure(3.0 / 7, .atMost)) == "≤ 43 %")
        #expect(Figures.percent(BoundedFigure(0.0437, .atLeast)) == "≥ 4.3 %")
        #expect(Figures.percent(BoundedFigure(3.0 / 7, .notKnown)) == "not known")
        #expect(Figures.share(BoundedFigure(3.0 / 7, .notKnown), of: "the time") == "share of the time not known")
        #expect(Figures.readWriteEffect(reads: BoundedFigure(7.25, .atLeast), writes: BoundedFigure(-0.31, .atMost))
                == "saves at least 7.25 s of reads, saves at least 310.0 ms of writes")
        #expect(Figures.readWriteEffect(reads: BoundedFigure(-0.0042, .atLeast), writes: BoundedFigure(0, .notKnown))
                == "makes reads at most 4.20 ms slower, write cost not known")
        #expect(Figures.readWriteEffect(reads: BoundedFigure(0, .notKnown), writes: BoundedFigure(0))
                == "read saving not known, adds no measurable write time")
    }

    @Test("two timings one of which is a lower bound: at least faster or slower, or not known, never within the noise")
    func timingChange() {
        let stopped = Timing.stopped(atSeconds: 0.08, isWrite: false)
        let quick = Timing.from(samples: [0.0021, 0.0022, 0.0023], executionsPerRun: 4, rows: 1, failures: 0)
        let slow = Timing.from(samples: [0.043, 0.044, 0.045], executionsPerRun: 4, rows: 1, failures: 0)
        #expect(Figures.change(stopped, stopped, significant: false) == "not known: stopped at --statement-timeout before and after")
        #expect(Figures.change(stopped, quick, significant: true) == "at least 36× faster")
        #expect(Figures.change(quick, stopped, significant: true) == "at least 36× slower")
        #expect(Figures.change(slow, stopped, significant: true) == "at least 1.8× slower")
        // Measured above the timeout before, stopped after: faster or slower, the bound does not say.
        let slower = Timing.from(samples: [0.11, 0.12, 0.13], executionsPerRun: 1, rows: 1, failures: 0)
        #expect(Figures.change(slower, stopped, significant: true) == "not known: the time after was stopped at --statement-timeout")
        let effect = StatementEffect(statementID: "x", count: 9, before: stopped, after: stopped, isSignificant: false)
        #expect(Figures.change(of: effect) == "not known: stopped at --statement-timeout before and after")
        #expect(effect.weightedSaving == BoundedFigure(0, .notKnown))
        #expect(Figures.change(quick, slow, significant: true) == "20× slower")
    }

    @Test("a candidate scored against stopped times keeps their bounds: at least when stopped before, not known when stopped on both sides")
    func candidateScore() {
        let workload = WorkloadLoader.parse("""
            -- freq: 40
            SELECT count(*) FROM visit WHERE nurse = 3;
            -- freq: 25
            SELECT count(*) FROM visit a, ward b WHERE a.bed * b.id = 77;
            -- freq: 12
            UPDATE visit SET note = 'seen' WHERE id = 5;
            """, file: "w.sql", format: .sql)
        let profiles = workload.statements.map(StatementProfile.init)
        let stopped = Timing.stopped(atSeconds: 0.03, isWrite: false)
        let quick = Timing.from(samples: [0.0004, 0.0004, 0.0004], executionsPerRun: 10, rows: 1, failures: 0)
        let write = Timing.from(samples: [0.0011, 0.0011, 0.0011], executionsPerRun: 10, rows: 1, failures: 0)
        let stoppedWrite = Timing.stopped(atSeconds: 0.03, isWrite: true)
        let served = TimingChange(position: 0, before: stopped, after: quick, planBefore: nil, planAfter: nil, isUser: true)
        let crossJoin = TimingChange(position: 1, before: stopped, after: stopped, planBefore: nil, planAfter: nil, isUser: true)
        let upkeep = TimingChange(position: 2, before: write, after: stoppedWrite, planBefore: nil, planAfter: nil, isUser: false)
        let alone = CandidateScore(changes: [served], profiles: profiles)
        #expect(alone.readBound == .atLeast)
        #expect(abs(alone.readSecondsSaved - 40 * (0.03 - 0.0004)) < 1e-12)
        #expect(CandidateScore(changes: [served, crossJoin], profiles: profiles).readBound == .notKnown)
        let slowedWrite = CandidateScore(changes: [upkeep], profiles: profiles)
        #expect(slowedWrite.writeBound == .atLeast)
        #expect(slowedWrite.readBound == .exact)
    }

    // The shapes the hostile round found it on, with other tables: a write past the timeout as the store is that
    // an index makes quick, and a read past it before and after that no index can help.
    @Test("a report of a write stopped before and a read stopped before and after prints no bare figure derived from them")
    func report() throws {
        let store = try FixtureStore("""
            CREATE TABLE ward (id INTEGER PRIMARY KEY, label TEXT, floor INTEGER);
            CREATE TABLE visit (id INTEGER PRIMARY KEY, ward_id INTEGER, nurse INTEGER, bed INTEGER, note TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) INSERT INTO ward SELECT i, 'w' || i, i % 12 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 90000) INSERT INTO visit SELECT i, i % 1200, i % 211, i % 37, 'n' FROM n;
            """)
        var options = quickOptions()
        options.statementTimeout = 0.02
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("""
            -- freq: 30
            UPDATE ward SET label = label || '+' WHERE floor = 4 AND EXISTS (SELECT 1 FROM visit v WHERE v.ward_id = ward.id AND v.nurse = 9);
            -- freq: 60
            SELECT count(*) FROM visit a, ward b WHERE a.bed + b.id = 900 AND a.note = 'n';
            """, file: "w.sql", format: .sql), options: options)
        let (update, join) = (result.statements[0], result.statements[1])
        #expect(update.timingBefore?.isLowerBound == true)
        #expect(update.timingAfter?.isLowerBound != true)
        #expect(join.timingBefore?.isLowerBound == true && join.timingAfter?.isLowerBound == true)
        let markdown = checkedRender(result, .markdown)
        let lines = markdown.split(separator: "\n").map(String.init)
        // The write's change: a lower bound on the saving, with no spread ending at the bound.
        let writes = try #require(lines.first { $0.hasPrefix("- Writes: ") })
        #expect(writes.contains("(down by at least "), "\(writes)")
        #expect(writes.contains("spread not known: a time in it was stopped at --statement-timeout"), "\(writes)")
        #expect(!writes.contains("spread −"), "\(writes)")
        let pick = try #require(result.recommendations.first { result.charge(of: $0)?.writes.contains { $0.statementID == update.id } == true })
        let summary = try #require(lines.first { $0.hasPrefix("\(pick.rank). ") })
        #expect(summary.contains("saves at least "), "\(summary)")
        #expect(!summary.contains("(spread ") || summary.contains("spread not known"), "\(summary)")
        // Shares of a total made of two lower bounds: not known, for each.
        #expect(lines.contains { $0.hasPrefix("| S1 | update | 30 | not known | over 20.0 ms |") }, "\(markdown)")
        #expect(lines.contains { $0.hasPrefix("| S2 | select | 60 | not known | over 20.0 ms | over 20.0 ms |") }, "\(markdown)")
        #expect(markdown.contains("### S2 · select ×60 · share of the time not known"))
        // Two stopped times are not "within the noise", wherever the join's change is printed.
        #expect(!lines.contains { $0.hasPrefix("| S2 ") && $0.contains("within the noise") }, "\(markdown)")
        // Every candidate measured against the stopped join says so in its cells and its chart title.
        let html = checkedRender(result, .html)
        for candidate in result.rejectedCandidates where !candidate.boundedReadSaving.bound.isExact {
            let cell = Figures.measured(candidate.boundedReadSaving)
            #expect(cell.hasPrefix("at ") || cell.hasPrefix("not known"), "\(cell)")
            #expect(markdown.contains("| \(MarkdownReport.inline(candidate.displayName)) | \(cell) |"), "\(candidate.displayName): \(markdown)")
            #expect(html.contains(HTMLText.escape(Figures.readWriteEffect(reads: candidate.boundedReadSaving, writes: candidate.boundedWriteCost))))
        }
        // The JSON keeps the bounds, and a report read back prints the same.
        let json = JSONReport.render(result)
        let read = try JSONReport.decode(Data(json.utf8))
        #expect(read.rejectedCandidates.map(\.readSecondsSavedBound) == result.rejectedCandidates.map(\.readSecondsSavedBound))
        #expect(read.recommendations.map(\.readSecondsSavedBound) == result.recommendations.map(\.readSecondsSavedBound))
        #expect(MarkdownReport.render(read) == markdown)
        // `check`'s words for the same statements: a share between two lower bounds is not known.
        let problems = CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds())
        let joinScan = try #require(problems.first { $0.statement == "S2" })
        #expect(joinScan.message.contains("×60, share of workload time not known (stopped at --statement-timeout)"), "\(joinScan.message)")
    }

    @Test("check: beside a statement that timed out, another's share of the workload's time is at most its figure")
    func checkShares() {
        var result = ReportFixture.result(hostile: false)
        result.method.statementTimeoutSeconds = 0.5
        // The write gets the read's plan, a full scan and a sort, so that it has problems to print.
        result.statements[1].planBefore = result.statements[0].planBefore
        result.statements[0].error = "interrupted: ran past --statement-timeout"
        result.statements[0].timingBefore = nil
        result.statements[0].count = 3
        result.statements[1].weightedSecondsBefore = 0.5
        let problems = CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds())
        let timedOut = problems.first { $0.statement == "S1" && $0.kind == .statementTimedOut }
        // 3 × 0.5 s of 2.0 s: at least 75 % (rounded down), the other at most 25 %.
        #expect(timedOut?.message.contains("×3, at least 75% of workload time") == true, "\(problems.map(\.message))")
        let write = problems.filter { $0.statement == "S2" }
        #expect(!write.isEmpty)
        for problem in write {
            #expect(problem.message.contains("at most 25% of workload time"), "\(problem.message)")
        }
    }
}
