import Testing
@testable import IndexAdvisor

/// The fixed rules that settle choices inside the noise, one by one (``TieBreak``).
@Suite("Tie-break rules")
struct TieBreakTests {
    func measured(_ columns: [String], predicate: String? = nil, steps: Double, terms: Int = 1, bytes: Int64 = 4096) -> MeasuredCandidate {
        let timing = Timing.from(samples: [steps * 50e-9], executionsPerRun: 1, rows: 1, failures: 0, counters: WorkCounters(vmSteps: steps, pageLookups: 4), source: .sqliteCounters)
        return MeasuredCandidate(candidate: IndexCandidate(table: "t", columns: columns.map { IndexColumn(name: $0) }, partialPredicate: predicate),
                                 users: [0], termsUsed: terms, writes: [], buildSeconds: 0.01, bytes: bytes, after: [0: timing])
    }
    let weight: (Int) -> Double = { _ in 10 }

    @Test("of equal work, an index without a predicate goes first, whatever the rest says")
    func withoutPredicate() {
        let plain = measured(["a", "b"], steps: 500, terms: 1, bytes: 90_000)
        let partial = measured(["a"], predicate: "\"b\" = 1", steps: 480, terms: 2, bytes: 4_096)
        #expect(TieBreak.lessWork(plain, partial, weights: weight) == nil)
        #expect(TieBreak.prefers(plain, partial, weights: weight))
        #expect(!TieBreak.prefers(partial, plain, weights: weight))
        // Far less work: the partial index goes first (on a plain store every form competes, issue 15).
        let lean = measured(["a"], predicate: "\"b\" = 1", steps: 100, bytes: 4_096)
        #expect(TieBreak.prefers(lean, plain, weights: weight))
    }

    /// `columns` serving statement 0 (400 steps, 3 pages, ×10), timed with write 1 (×200) at `writeSteps`
    /// steps and `writePages` pages, against its current 22 steps and 3 pages.
    func withWrite(_ columns: [String], predicate: String? = nil, writeSteps: Double, writePages: Double) -> MeasuredCandidate {
        var candidate = measured(columns, predicate: predicate, steps: 400)
        candidate.writes = [1]
        candidate.after[1] = Timing.from(samples: [1e-6], executionsPerRun: 1, rows: 1, failures: 0,
                                         counters: WorkCounters(vmSteps: writeSteps, pageLookups: writePages, isWrite: true), source: .sqliteCounters)
        return candidate
    }
    let currentWrite = Timing.from(samples: [1e-6], executionsPerRun: 1, rows: 1, failures: 0,
                                   counters: WorkCounters(vmSteps: 22, pageLookups: 3, isWrite: true), source: .sqliteCounters)

    @Test("the work counts the table's writes: a partial index that a frequent update skips beats the full index it must move (sync-flag)")
    func lessWorkCountsWrites() {
        // The shape of the generalization suite's sync-flag pair: `SET needs_upload = 0` moves the full
        // index's entry (34 steps, 10 pages) and skips the partial one (24 steps, 3 pages).
        let full = withWrite(["needs_upload", "modified"], writeSteps: 34, writePages: 10)
        let partial = withWrite(["modified"], predicate: "\"needs_upload\" = 1", writeSteps: 24, writePages: 3)
        let weights: (Int) -> Double = { $0 == 0 ? 10 : 200 }
        let current: (Int) -> Timing? = { $0 == 1 ? self.currentWrite : nil }
        // Reads alone: equal, so the full index would go first.
        #expect(TieBreak.lessWork(full, partial, weights: weights) == nil)
        #expect(TieBreak.prefers(full, partial, weights: weights))
        // With the write: 200 × (24·50 + 3·900) ns = 0.78 ms against 200 × (34·50 + 10·900) ns = 2.14 ms, reads equal.
        #expect(TieBreak.lessWork(partial, full, weights: weights, current: current) == true)
        #expect(TieBreak.prefers(partial, full, weights: weights, current: current))
        #expect(!TieBreak.prefers(full, partial, weights: weights, current: current))
    }

    /// task-updates' shape: a count by project and status (×30), 2,000 updates of the status, 3,000 of other
    /// columns. `(project_id)` reads 150 rows for the count and no update moves it; `(project_id, status)`
    /// answers the count from the index and every status update moves its entry.
    @Test("writes count what each candidate adds to them, not their own cost, which would dilute the difference (task-updates)")
    func writeShareNotDiluted() throws {
        func counters(_ steps: Double, _ pages: Double, write: Bool = false) -> Timing {
            let work = WorkCounters(vmSteps: steps, pageLookups: pages, isWrite: write)
            return Timing.from(samples: [CounterCost.seconds(work)], executionsPerRun: 1, rows: 1, failures: 0, counters: work, source: .sqliteCounters)
        }
        let statusNow = counters(40, 8, write: true), otherNow = counters(40, 8, write: true)
        func candidate(_ columns: [String], count: Timing, statusUpdate: Timing) -> MeasuredCandidate {
            MeasuredCandidate(candidate: IndexCandidate(table: "task", columns: columns.map { IndexColumn(name: $0) }),
                              users: [0], termsUsed: columns.count, writes: [1, 2], buildSeconds: 0.01, bytes: 4096 * Int64(columns.count),
                              after: [0: count, 1: statusUpdate, 2: otherNow])
        }
        let narrow = candidate(["project_id"], count: counters(1_200, 150), statusUpdate: statusNow)
        let wide = candidate(["project_id", "status"], count: counters(20, 3), statusUpdate: counters(50, 12, write: true))
        let weights: (Int) -> Double = { [30, 2_000, 3_000][$0] }
        let current: (Int) -> Timing? = { [nil, statusNow, otherNow][$0] }
        // narrow: 30 × (1,200·50 + 150·250) ns = 2.925 ms, nothing added to the writes;
        // wide: 30 × (20·50 + 3·250) ns = 0.0525 ms, plus 2,000 × (10·50 + 4·900) ns = 8.2 ms added to the status updates.
        let narrowWork = try #require(TieBreak.work(narrow, writes: [1, 2], current: current, weights: weights) as Double?)
        let wideWork = try #require(TieBreak.work(wide, writes: [1, 2], current: current, weights: weights) as Double?)
        #expect(abs(narrowWork - 2.925e-3) < 1e-9)
        #expect(abs(wideWork - (0.0525e-3 + 8.2e-3)) < 1e-9)
        #expect(TieBreak.lessWork(narrow, wide, weights: weights, current: current) == true)
        #expect(TieBreak.prefers(narrow, wide, weights: weights, current: current))
        // Two orders of the same columns: 2 and 3 page lookups more on the status updates, over 10 % apart as
        // additions but 1.8 ms beside the updates' 46 ms: a tie (``TieBreak/wholeTolerance``), which the later
        // rules settle (the notes benchmark's (slug, folder) and (folder, slug)).
        let folderFirst = candidate(["project_id", "status"], count: counters(20, 3), statusUpdate: counters(40, 10, write: true))
        let statusFirst = candidate(["status", "project_id"], count: counters(20, 3), statusUpdate: counters(40, 11, write: true))
        #expect(TieBreak.lessWork(folderFirst, statusFirst, weights: weights, current: current) == nil)
        // Counted whole, the 5,000 updates' own 46 ms went to both, and the two were within 10 %: the wider
        // one, resolving more terms, won.
        let base = (2_000 + 3_000) * CounterCost.seconds(statusNow.counters!)
        #expect(abs((wideWork + base) - (narrowWork + base)) <= TieBreak.workTolerance * (wideWork + base))
    }

    @Test("a write counts what the candidate added to it, so candidates timed against other states compare")
    func writeCostOnTheSameBase() throws {
        // Timed before another pick made the write dearer: 30 steps then, 22 + 8 = 30 now.
        var early = withWrite(["a"], writeSteps: 30, writePages: 3)
        early.writesBefore[1] = Timing.from(samples: [1e-6], executionsPerRun: 1, rows: 1, failures: 0,
                                            counters: WorkCounters(vmSteps: 14, pageLookups: 3, isWrite: true), source: .sqliteCounters)
        let late = withWrite(["b"], writeSteps: 30, writePages: 3)
        let current: (Int) -> Timing? = { $0 == 1 ? self.currentWrite : nil }
        let weights: (Int) -> Double = { _ in 1_000 }
        let earlyWork = try #require(TieBreak.work(early, writes: [1], current: current, weights: weights) as Double?)
        let lateWork = try #require(TieBreak.work(late, writes: [1], current: current, weights: weights) as Double?)
        // early: 30 − 14 = 16 steps added; late: 30 − 22 = 8 steps added, 8 fewer.
        #expect(abs(earlyWork - lateWork - 8 * 50e-9 * 1_000) < 1e-12)
    }

    @Test("less VM work wins when the counts are more than 10 % apart, even against more resolved terms")
    func lessWork() {
        let narrow = measured(["period", "day"], steps: 1_000, terms: 2)
        let wide = measured(["ent", "period", "day"], steps: 1_050, terms: 3)
        // Within 10 %: the counts tie, so the term count decides (the wider one resolves 3).
        #expect(TieBreak.lessWork(narrow, wide, weights: weight) == nil)
        #expect(TieBreak.prefers(wide, narrow, weights: weight))
        let wasteful = measured(["ent", "period", "day"], steps: 1_500, terms: 3)
        #expect(TieBreak.lessWork(narrow, wasteful, weights: weight) == true)
        #expect(TieBreak.prefers(narrow, wasteful, weights: weight))
    }

    @Test("inside the noise, an index goes before the same index after Z_ENT (the model can declare it), even with more VM steps and fewer terms")
    func withoutEntityColumn() {
        let plain = measured(["ZPERIOD", "ZDAY"], steps: 9_373, terms: 2)
        let entityFirst = measured(["Z_ENT", "ZPERIOD", "ZDAY"], steps: 8_037, terms: 3)
        #expect(TieBreak.withoutEntityColumn(plain, entityFirst) == true)
        #expect(TieBreak.prefers(plain, entityFirst, weights: weight))
        #expect(!TieBreak.prefers(entityFirst, plain, weights: weight))
        // Not the same key after Z_ENT: the rule does not apply, and the work decides.
        let other = measured(["ZDAY"], steps: 20_000)
        #expect(TieBreak.withoutEntityColumn(other, entityFirst) == nil)
        #expect(TieBreak.prefers(entityFirst, other, weights: weight))
    }

    @Test("Z_ENT leads a pick only when it saves page reads over the same key without it")
    func entityColumnSavesPages() {
        func with(_ columns: [String], steps: Double, pages: Double) -> MeasuredCandidate {
            var candidate = measured(columns, steps: steps)
            candidate.after[0] = Timing.from(samples: [steps * 50e-9 + pages * 250e-9], executionsPerRun: 1, rows: 1, failures: 0,
                                             counters: WorkCounters(vmSteps: steps, pageLookups: pages), source: .sqliteCounters)
            return candidate
        }
        // The same rows either way (the key's values occur only on one entity's rows): Z_ENT only saves checks.
        let plain = with(["ZPERIOD", "ZDAY"], steps: 9_373, pages: 1_984)
        let entityLed = with(["Z_ENT", "ZPERIOD", "ZDAY"], steps: 8_037, pages: 2_161)
        #expect(TieBreak.entityColumnSavesNoPages(plain: plain, entityLed: entityLed))
        // A count that the Z_ENT form answers from the index alone reads far fewer pages: it stays.
        let countPlain = with(["ZOWNER", "ZDONE"], steps: 4_000, pages: 900)
        let countEntityLed = with(["Z_ENT", "ZOWNER", "ZDONE"], steps: 2_000, pages: 40)
        #expect(!TieBreak.entityColumnSavesNoPages(plain: countPlain, entityLed: countEntityLed))
        // Not the same key: never.
        #expect(!TieBreak.entityColumnSavesNoPages(plain: with(["ZDAY"], steps: 10, pages: 1), entityLed: entityLed))
    }

    @Test("with equal work and terms, the more selective leading column goes first: (slug, folder) before (folder, slug)")
    func moreSelectiveLead() {
        var slugFirst = measured(["slug", "folder"], steps: 30, terms: 2)
        var folderFirst = measured(["folder", "slug"], steps: 31, terms: 2)
        slugFirst.leadMatchedFraction = 0.00001
        folderFirst.leadMatchedFraction = 0.005
        #expect(TieBreak.prefers(slugFirst, folderFirst, weights: weight))
        #expect(!TieBreak.prefers(folderFirst, slugFirst, weights: weight))
        folderFirst.leadMatchedFraction = nil  // unknown: the next rules decide (the key text here)
        #expect(TieBreak.moreSelectiveLead(slugFirst, folderFirst) == nil)
    }

    @Test("with equal work and terms: fewer columns, then fewer bytes, then the key, so the order is total")
    func fewerColumnsThenBytes() {
        let two = measured(["a", "b"], steps: 100, terms: 1, bytes: 8_192)
        let one = measured(["a"], steps: 100, terms: 1, bytes: 8_192)
        #expect(TieBreak.prefers(one, two, weights: weight))
        let small = measured(["a"], predicate: "\"a\" IS NOT NULL", steps: 100, bytes: 4_096)
        let large = measured(["c"], predicate: "\"c\" IS NOT NULL", steps: 100, bytes: 40_960)
        #expect(TieBreak.prefers(small, large, weights: weight))
        let x = measured(["x"], steps: 100), y = measured(["y"], steps: 100)
        #expect(TieBreak.prefers(x, y, weights: weight) != TieBreak.prefers(y, x, weights: weight))
    }

    @Test("work is compared only between candidates that serve the same statements")
    func sameUsersOnly() {
        let a = measured(["a"], steps: 100)
        var b = measured(["b"], steps: 1_000)
        b.users = [0, 1]
        #expect(TieBreak.lessWork(a, b, weights: weight) == nil)
    }
}
