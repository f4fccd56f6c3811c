import Testing
@testable import IndexAdvisor

@Suite("Selector: adding indexes, ties and limits")
struct SelectorAddTests {
    let a = Ix.c("t", "a"), ab = Ix.c("t", "a", "b"), b = Ix.c("t", "b"), u = Ix.c("u", "x")

    @Test("a scanning read gets the index that serves it")
    func singleAdd() throws {
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a])
        #expect(try selector.run().added == [a])
        #expect(selector.trace.rounds.first?.taken?.move == .add(a))
        // 100 × (10 ms − 0.1 ms) saved, measured.
        #expect(abs((selector.trace.rounds.first?.taken?.net ?? 0) - 0.99) < 1e-9)
    }

    @Test("nothing is built when no move saves the minimum")
    func belowMinimum() throws {
        var model = SelectorModel()
        model.statement(weight: 1, tables: ["t"], base: 0.0006, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a])
        #expect(try selector.run().isStore)
        guard case .belowMinimum(let net, let minimum)? = selector.trace.lastVerdict(building: a)?.1 else {
            Issue.record("expected below-minimum, got \(String(describing: selector.trace.lastVerdict(building: a)?.1))")
            return
        }
        #expect(abs(net - 0.0005) < 1e-12 && minimum == 0.001)
    }

    @Test("inserts whose upkeep outweighs the read's saving leave the store as it is")
    func upkeepOutweighs() throws {
        var model = SelectorModel()
        model.statement(weight: 10, tables: ["t"], base: 0.002, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        model.statement(weight: 5_000, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.ref(a): 0.00001])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a])
        #expect(try selector.run().isStore)
        guard case .costOutweighsSaving(let net)? = selector.trace.lastVerdict(building: a)?.1 else {
            Issue.record("expected cost-outweighs-saving, got \(String(describing: selector.trace.lastVerdict(building: a)?.1))")
            return
        }
        #expect(abs(net - (0.019 - 0.05)) < 1e-9)
    }

    @Test("two reads on two tables each get their own index, the bigger saving first")
    func twoTables() throws {
        var model = SelectorModel()
        model.statement(weight: 10, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        model.statement(weight: 100, tables: ["u"], base: 0.010, options: [.init(needs: [Ix.ref(u)], seconds: 0.0001)])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a, u])
        #expect(Set(try selector.run().added) == [a, u])
        #expect(selector.trace.rounds.compactMap(\.taken).map(\.move) == [.add(u), .add(a)])
    }

    @Test("one compound index that serves two statements wins over two narrow ones when writes pay for each")
    func oneForTwo() throws {
        var model = SelectorModel()
        model.statement(weight: 50, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0002), .init(needs: [Ix.ref(ab)], seconds: 0.0002)])
        model.statement(weight: 50, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(b)], seconds: 0.0001), .init(needs: [Ix.ref(ab)], seconds: 0.0003)])
        model.statement(weight: 1_000, tables: ["t"], writes: ["t"], base: 0.00002,
                        upkeep: [Ix.ref(a): 0.00005, Ix.ref(b): 0.00005, Ix.ref(ab): 0.00006])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a, b, ab])
        #expect(try selector.run().added == [ab])
    }

    @Test("within the tie band the smaller index wins: a partial index over the full one")
    func tieFewerBytes() throws {
        let full = Ix.c("t", "b", "a"), partial = Ix.c("t", "a", where: "b = 1")
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(full)], seconds: 0.0002),
                                                                        .init(needs: [Ix.ref(partial)], seconds: 0.000205)])
        let bytes: [String: Int64] = [full.key: 2_000_000, partial.key: 12_000]
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [full, partial], bytes: { member in
            if case .candidate(let c) = member { return bytes[c.key] }
            return nil
        })
        #expect(try selector.run().added == [partial])
    }

    @Test("with sizes unknown, the tie goes to fewer key columns, then to the pool's order")
    func tieColumnsThenOrder() throws {
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(ab)], seconds: 0.0002), .init(needs: [Ix.ref(a)], seconds: 0.0002)])
        #expect(try Selector(oracle: model.oracle, policy: Ix.policy, pool: [ab, a]).run().added == [a])
        let other = Ix.c("t", "c")
        var equal = SelectorModel()
        equal.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(other)], seconds: 0.0002), .init(needs: [Ix.ref(a)], seconds: 0.0002)])
        #expect(try Selector(oracle: equal.oracle, policy: Ix.policy, pool: [other, a]).run().added == [other])
    }

    @Test("a saving beyond the tie band wins even with more bytes")
    func notATie() throws {
        let full = Ix.c("t", "b", "a"), partial = Ix.c("t", "a", where: "b = 1")
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(full)], seconds: 0.0002),
                                                                        .init(needs: [Ix.ref(partial)], seconds: 0.002)])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [full, partial], bytes: { member in
            if case .candidate(let c) = member { return c.key == full.key ? 2_000_000 : 12_000 }
            return nil
        })
        #expect(try selector.run().added == [full])
    }

    @Test("a descending key that serves a newest-first sort beats the ascending one scanned backwards")
    func descendingKey() throws {
        let ascending = Ix.c("rec", "venue", "at"), descending = Ix.c("rec", "venue", "at", desc: ["at"])
        var model = SelectorModel()
        model.statement(weight: 200, tables: ["rec"], base: 0.050, options: [.init(needs: [Ix.ref(ascending)], seconds: 0.000095),
                                                                          .init(needs: [Ix.ref(descending)], seconds: 0.000063)])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [ascending, descending])
        #expect(try selector.run().added == [descending])
    }

    @Test("at most maxNewIndexes, and the next candidate is told so")
    func totalLimit() throws {
        var model = SelectorModel()
        let pool = (0..<3).map { Ix.c("t\($0)", "a") }
        for (k, candidate) in pool.enumerated() {
            model.statement(weight: Double(10 * (k + 1)), tables: ["t\(k)"], base: 0.010, options: [.init(needs: [Ix.ref(candidate)], seconds: 0.0001)])
        }
        var policy = Ix.policy
        policy.maxNewIndexes = 2
        let selector = try Selector(oracle: model.oracle, policy: policy, pool: pool)
        #expect(Set(try selector.run().added) == [pool[1], pool[2]])
        #expect(selector.trace.lastVerdict(building: pool[0])?.1 == .limit("2 new indexes"))
    }

    @Test("at most maxIndexesPerTable on one table")
    func perTableLimit() throws {
        var model = SelectorModel()
        let pool = [a, b, Ix.c("t", "c")]
        for (k, candidate) in pool.enumerated() {
            model.statement(weight: Double(10 * (k + 1)), tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(candidate)], seconds: 0.0001)])
        }
        var policy = Ix.policy
        policy.maxIndexesPerTable = 1
        #expect(try Selector(oracle: model.oracle, policy: policy, pool: pool).run().added == [pool[2]])
    }

    @Test("the new indexes' bytes stay within maxIndexBytes")
    func bytesLimit() throws {
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        model.statement(weight: 10, tables: ["u"], base: 0.010, options: [.init(needs: [Ix.ref(u)], seconds: 0.0001)])
        var policy = Ix.policy
        policy.maxIndexBytes = 1_000
        let selector = try Selector(oracle: model.oracle, policy: policy, pool: [a, u], bytes: { member in
            if case .candidate(let c) = member { return c.key == a.key ? 900 : 500 }
            return nil
        })
        #expect(try selector.run().added == [a])
        #expect(selector.trace.lastVerdict(building: u)?.1 == .limit("1000 bytes of new indexes"))
    }

    @Test("the minimum is relative to what is left: a small saving counts once the big scans are gone")
    func minimumFollowsTheWorkload() throws {
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 1.0, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        // Saves 0.2 s: under 0.5 % of the first round's 100 s, over 0.5 % of what is left after `a`.
        model.statement(weight: 100, tables: ["u"], base: 0.0021, options: [.init(needs: [Ix.ref(u)], seconds: 0.0001)])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a, u])
        #expect(try selector.run().added == [a, u])
        #expect(selector.trace.rounds.count == 3)
    }

    @Test("a candidate no plan would use is not built: its move is priced from the planner alone")
    func unusedIsNotMeasured() throws {
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        let oracle = model.oracle
        let selector = try Selector(oracle: oracle, policy: Ix.policy, pool: [b, a])
        try selector.run()
        #expect(!oracle.costsAsked.contains { $0.1.contains(b) })
        #expect(selector.trace.lastVerdict(building: b)?.1 == .unused)
    }
}
