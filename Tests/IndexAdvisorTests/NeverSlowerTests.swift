import Testing
@testable import IndexAdvisor

/// Issue 39, hostile round 7, F3 and F6: the advice is never recommended under a headline that calls it slower,
/// and every choice the wall clock made against SQLite's work counters says so.
@Suite("Never recommended under a slower headline; the clock's choices named")
struct NeverSlowerTests {
    /// A timing with its quartiles and extremes given, and SQLite's counters priced at `counted` seconds.
    static func timing(_ median: Double, p25: Double? = nil, p75: Double? = nil, counted: Double? = nil) -> Timing {
        var timing = Timing(medianSeconds: median, p25Seconds: p25 ?? median * 0.99, p75Seconds: p75 ?? median * 1.01,
                            minSeconds: (p25 ?? median * 0.99) * 0.98, maxSeconds: (p75 ?? median * 1.01) * 1.02, runs: 7,
                            executionsPerRun: 20, rowsPerExecution: 1, failures: 0)
        if let counted {
            timing.vmStepsPerExecution = counted * 1e9 / CounterCost.nanosecondsPerStep
            timing.pageLookupsPerExecution = 0
            timing.uncachedPagesPerExecution = 0
        }
        return timing
    }

    static var counters: SelectionPolicy {
        var policy = SelectionPolicy()
        policy.decidesOnCounters = true
        return policy
    }

    /// A delete whose cascade scan the index removes (×300: 0.8 ms → 15 µs) and an append to the indexed
    /// table (×40,000: 2.5 µs → 11 µs). The append's timing as the store is was taken on a busy machine: its
    /// p75 is 16 µs, so the clock's best case for the set calls the index's upkeep a saving.
    static var busyFinalState: [Int: AnalysisRun.FinalTiming] {
        [0: .init(weight: 300, isWrite: true, before: timing(0.0008), after: timing(0.000015)),
         1: .init(weight: 40_000, isWrite: true, before: timing(0.0000025, p25: 0.0000023, p75: 0.000016), after: timing(0.000011)),
         2: .init(weight: 900, isWrite: false, before: timing(0.00004), after: timing(0.00004))]
    }

    @Test("figures that call the set slower, with the clock's best case calling it a gain: still a loss")
    func headlineSlowerIsALoss() {
        let figures = AnalysisRun.FinalFigures(Self.busyFinalState.values)
        // 300 × 0.8 ms + 40,000 × 2.5 µs + 900 × 40 µs = 0.376 s; after: 4.5 ms + 0.44 s + 36 ms = 0.4805 s.
        #expect(abs(figures.beforeSeconds - 0.376) < 1e-9)
        #expect(abs(figures.afterSeconds - 0.4805) < 1e-9)
        #expect(!figures.clock.isLoss)
        #expect(Figures.callsSlower(figures.beforeSeconds, figures.afterSeconds))
        #expect(figures.loses(under: Self.counters))
        #expect(!Figures.callsSlower(0.376, 0.39))
    }

    @Test("a final state whose figures lose is timed again; still losing, every pick is given up on the second figures")
    func stillLosingGivesUp() throws {
        var asked: [Int] = []
        let verdict = try AnalysisRun.judgeFinalState(Self.busyFinalState, policy: Self.counters) { position in
            asked.append(position)
            // Back to back, the append is 2.6 µs → 10.5 µs: the upkeep is real.
            return position == 1 ? (Self.timing(0.0000026), Self.timing(0.0000105)) : (Self.timing(0.00079), Self.timing(0.000016))
        }
        // Only the statements the advice changed are timed again, in order.
        #expect(asked == [0, 1])
        guard case .givesUp(let before, let after) = verdict else {
            Issue.record("expected the picks given up, got \(verdict)")
            return
        }
        #expect(abs(before - (300 * 0.00079 + 40_000 * 0.0000026 + 900 * 0.00004)) < 1e-9)
        #expect(abs(after - (300 * 0.000016 + 40_000 * 0.0000105 + 900 * 0.00004)) < 1e-9)
    }

    @Test("timed again and no longer losing, the set stands on the second timings; past the budget the first decide")
    func timedAgainStands() throws {
        let verdict = try AnalysisRun.judgeFinalState(Self.busyFinalState, policy: Self.counters) { position in
            position == 1 ? (Self.timing(0.0000031), Self.timing(0.0000036)) : (Self.timing(0.00081), Self.timing(0.000014))
        }
        guard case .standsTimedAgain(let timed) = verdict else {
            Issue.record("expected the set to stand, got \(verdict)")
            return
        }
        #expect(timed.keys.sorted() == [0, 1])
        #expect(timed[1]?.after.medianSeconds == 0.0000036)
        guard case .givesUp = try AnalysisRun.judgeFinalState(Self.busyFinalState, policy: Self.counters, timeAgain: nil) else {
            Issue.record("expected the picks given up without a second timing")
            return
        }
        // Figures that do not lose are not timed again.
        var paying = Self.busyFinalState
        paying[1]?.after = Self.timing(0.0000026)
        guard case .stands = try AnalysisRun.judgeFinalState(paying, policy: Self.counters, timeAgain: { _ in
            Issue.record("timed again")
            return nil
        }) else {
            Issue.record("expected the set to stand")
            return
        }
    }

    @Test("the picks given up and the clock's vetoes are clock verdicts that name the clock, for the warning")
    func reasonsNameTheClock() {
        let set = RejectionReason.setSlowerByTheClock(beforeSeconds: 0.376, afterSeconds: 0.4805, byCounters: true)
        #expect(set.isClockVerdict(decidesOnCounters: true))
        #expect(set.kind == "set-slower-by-the-clock")
        #expect(set.text == "given up with the whole advice: once in place, the workload measured 376.0 ms → 480.5 ms by the wall clock (1.3× slower), timed again back to back, although SQLite's work counters, on which it was chosen, showed less work: the clock decided; the store is advised as it is")
        let veto = RejectionReason.slowerByTheClock([StatementSlowdown(statement: "S2", beforeSeconds: 0.00043, afterSeconds: 0.0077)])
        #expect(veto.isClockVerdict(decidesOnCounters: true))
        #expect(!veto.isClockVerdict(decidesOnCounters: false))
        #expect(veto.kind == "slower-by-the-clock")
        #expect(veto.text.hasPrefix("built and timed, it makes statements slower by the wall clock, beyond the runs' spread: S2 18× slower"))
        #expect(veto.text.contains("the clock decided"))
        #expect(!veto.text.contains("no statement got measurably faster"))
    }

    // F6: "no statement got measurably faster by SQLite's work counters (under 5 %)" beside an UPDATE the
    // counters put at 20,051 → 59 VM steps: the clock's veto inside isImprovement, reported as theirs.
    @Test("a write the counters make 99 % cheaper and the clock slower: the move's verdict is the clock's")
    func vetoInsideImprovementIsTheClocks() throws {
        let c = Ix.c("audit", "ref")
        var model = SelectorModel()
        // ×500 a rename whose trigger scans audit: 0.6 ms by the clock; with the index, 9 ms (the machine was busy).
        model.statement(weight: 500, tables: ["doc", "audit"], writes: ["doc"], base: 0.0006, options: [.init(needs: [Ix.ref(c)], seconds: 0.00001)])
        model.extra = { s, configuration in s == 0 && configuration.contains(c) ? 0.009 : 0 }
        // The counters: 1.0 ms → 3 µs.
        model.counted = { s, configuration, _ in configuration.contains(c) ? 0.000003 : 0.001 }
        let selector = try Selector(oracle: model.oracle, policy: Self.counters, pool: [c])
        #expect(try selector.run().isStore)
        let verdict = selector.trace.lastVerdict(building: c)?.1
        #expect(verdict == .slowerByTheClock([0]))
        // Where the counters alone would not have paid for the move either, their own verdict stands.
        model.counted = { s, configuration, _ in configuration.contains(c) ? 0.00099 * 0.94 : 0.00099 }
        model.statement(weight: 100_000, tables: ["audit"], writes: ["audit"], base: 0.000002, upkeep: [Ix.ref(c): 0.000001])
        let counted = model.counted!
        model.counted = { s, configuration, clock in s == 1 ? clock : counted(s, configuration, clock) }
        let other = try Selector(oracle: model.oracle, policy: Self.counters, pool: [c])
        #expect(try other.run().isStore)
        if case .slowerByTheClock? = other.trace.lastVerdict(building: c)?.1 { Issue.record("the counters' own verdict was the clock's") }
    }

    @Test("render --check: recommended under a headline calling the set slower is a finding; the same report not slower is not")
    func checkerFlagsSlowerHeadline() {
        let checker = ReportChecker()
        let result = ReportFixture.result(hostile: false).chargingFinalState()
        #expect(checker.checkSlowerHeadline(result).isEmpty)
        var slower = result
        slower.totals.writeSecondsAfter += 2 * result.totals.totalSecondsBefore
        let findings = checker.checkSlowerHeadline(slower)
        #expect(findings.map(\.kind) == [.slowerHeadlineRecommended])
        #expect(findings.first?.message.contains("slower) with the advice, but it recommends \(result.recommendations[0].name)") == true)
        #expect(checker.check(slower).contains { $0.kind == .slowerHeadlineRecommended })
        var nothing = slower
        nothing.recommendations = []
        #expect(checker.checkSlowerHeadline(nothing).isEmpty)
    }

    @Test("a counters' figure against its charge's words: printed signed; printed as the words' own, a finding")
    func counterSigns() throws {
        let checker = ReportChecker()
        var result = ReportFixture.result(hostile: false).chargingFinalState()
        let write = result.statements[1].id
        // Adds 640 ms of writes by the clock; the counters: −410 ms (the index takes a trigger's scan away).
        result.finalCharges!.recommendations[0].writes = [ChargedStatement(statementID: write, chargedSeconds: 0.64, lowestSeconds: 0.45,
                                                                           highestSeconds: 0.8, counterSeconds: -0.41)]
        let text = result.chargeText(for: result.recommendations[0])
        #expect(text.hasSuffix("adds 640.0 ms of writes (spread 450.0 ms–800.0 ms; SQLite's counters: −410.0 ms, the other way)"))
        let markdown = MarkdownReport.render(result)
        #expect(checker.checkCounterSigns(result, markdown: markdown).isEmpty)
        let unsigned = markdown.replacingOccurrences(of: "SQLite's counters: −410.0 ms, the other way", with: "SQLite's counters: 410.0 ms")
        #expect(unsigned != markdown)
        let findings = checker.checkCounterSigns(result, markdown: unsigned)
        #expect(findings.map(\.kind) == [.countersAgainstCharge])
        #expect(findings.first?.message.hasSuffix("prints SQLite's counters as adding write time, but they give −410.0 ms") == true)
        // Counters that agree with the words read as the words: no finding.
        #expect(ReportChecker.printedCounterSign(in: "1. `x`: saves 1.0 s of reads, adds 3.37 ms of writes (spread 3.31 ms–3.45 ms; SQLite's counters: 2.18 ms).") == 1)
        #expect(ReportChecker.printedCounterSign(in: "2. Drop `y`: saves 2.0 µs of writes (spread …; SQLite's counters: 1.9 µs).") == -1)
        #expect(ReportChecker.printedCounterSign(in: "3. `z`: saves 1.0 s of reads, adds no measurable write time.") == nil)
    }
}
