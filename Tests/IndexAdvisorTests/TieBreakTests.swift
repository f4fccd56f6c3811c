import Testing
@testable import IndexAdvisor

/// The fixed rules that settle choices inside the noise, one by one (``TieBreak``).
@Suite("Tie-break rules")
struct TieBreakTests {
    func measured(_ columns: [String], predicate: String? = nil, steps: Double, terms: Int = 1, bytes: Int64 = 4096) -> MeasuredCandidate {
        let timing = Timing.from(samples: [steps * 50e-9], executionsPerRun: 1, rows: 1, failures: 0, counters: (steps, 4), source: .sqliteCounters)
        return MeasuredCandidate(candidate: IndexCandidate(table: "t", columns: columns.map { IndexColumn(name: $0) }, partialPredicate: predicate),
                                 users: [0], termsUsed: terms, writes: [], buildSeconds: 0.01, bytes: bytes, after: [0: timing])
    }
    let weight: (Int) -> Double = { _ in 10 }

    @Test("an index without a predicate goes first, whatever the rest says")
    func withoutPredicate() {
        let plain = measured(["a", "b"], steps: 500, bytes: 90_000)
        let partial = measured(["a"], predicate: "\"b\" = 1", steps: 100, bytes: 4_096)
        #expect(TieBreak.prefers(plain, partial, weights: weight))
        #expect(!TieBreak.prefers(partial, plain, weights: weight))
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
                                             counters: (steps, pages), source: .sqliteCounters)
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
