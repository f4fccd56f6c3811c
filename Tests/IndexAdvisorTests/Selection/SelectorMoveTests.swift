import Testing
@testable import IndexAdvisor

@Suite("Selector: join pairs, replacements and removals")
struct SelectorMoveTests {
    let email = Ix.c("customer", "email"), customerKey = Ix.c("purchase", "customer_id")

    /// A join that keeps its driving scan until both the lookup and the join column are indexed.
    func joinModel() -> SelectorModel {
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["customer", "purchase"], base: 0.020,
                        options: [.init(needs: [Ix.ref(email), Ix.ref(customerKey)], seconds: 0.0001)])
        return model
    }

    @Test("a join that only pays with both indexes gets both, as one move")
    func pairTaken() throws {
        let selector = try Selector(oracle: joinModel().oracle, policy: Ix.policy, pool: [email, customerKey])
        #expect(Set(try selector.run().added) == [email, customerKey])
        #expect(selector.trace.rounds.first?.taken?.move == .addSet([email, customerKey]))
        #expect(selector.trace.lastVerdict(building: email).map { $0.1 } == .taken)
    }

    @Test("when one index alone already helps the join, the set is still offered for the better plan only both give")
    func setBeyondOne() throws {
        var model = joinModel()
        model.options[0].append(.init(needs: [Ix.ref(customerKey)], seconds: 0.001))
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [email, customerKey])
        #expect(selector.moves().contains(.addSet([email, customerKey])))
        try selector.run()
        #expect(selector.trace.rounds.first?.taken?.move == .addSet([email, customerKey]))
        #expect(Set(selector.state.added) == [email, customerKey])
    }

    @Test("no set is offered when one index alone gives the plan the set would")
    func noSetWhenOneGivesIt() throws {
        var model = joinModel()
        model.options[0] = [.init(needs: [Ix.ref(customerKey)], seconds: 0.0001)]
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [email, customerKey])
        #expect(!selector.moves().contains { if case .addSet = $0 { return true } else { return false } })
        #expect(try selector.run().added == [customerKey])
    }

    @Test("an earlier pick is replaced by a wider index that serves its statement and another one")
    func replacePick() throws {
        let a = Ix.c("t", "a"), ab = Ix.c("t", "a", "b")
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0002), .init(needs: [Ix.ref(ab)], seconds: 0.0002)])
        model.statement(weight: 30, tables: ["t"], base: 0.0030, options: [.init(needs: [Ix.ref(ab)], seconds: 0.0001)])
        model.statement(weight: 2_000, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.ref(a): 0.000004, Ix.ref(ab): 0.000005])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a, ab], start: .store)
        // The first statement alone: (a) is the better pick when (ab) has not been priced for the second.
        let first = try selector.run()
        #expect(first.added == [ab])
        #expect(!first.contains(a))
    }

    @Test("a pick another pick made unnecessary is taken out for the upkeep it saves")
    func removeUnusedPick() throws {
        let a = Ix.c("t", "a"), ab = Ix.c("t", "a", "b")
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0002), .init(needs: [Ix.ref(ab)], seconds: 0.00015)])
        model.statement(weight: 2_000, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.ref(a): 0.000004, Ix.ref(ab): 0.000005])
        let start = IndexConfiguration(added: [a, ab])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [], start: start)
        // Started with both (as an earlier stage left them); taking out (a) saves 2,000 × 4 µs.
        #expect(selector.members().isEmpty)
        let picks = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a, ab])
        try picks.run()
        #expect(picks.state.added == [ab])
    }

    @Test("a store index no statement uses and every insert pays for is dropped")
    func dropUnusedStoreIndex() throws {
        var model = SelectorModel()
        model.storeIndexes = ["t_flag"]
        model.statement(weight: 10, tables: ["t"], base: 0.0001)
        model.statement(weight: 5_000, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.store("t_flag"): 0.000006])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [], removableStore: [Ix.member("t_flag", on: "t")])
        #expect(try selector.run().dropped == ["t_flag"])
        #expect(selector.trace.removal(of: Ix.member("t_flag", on: "t")) != nil)
    }

    @Test("a store index a read needs is kept when its upkeep is less than what the read would lose")
    func keepUsedStoreIndex() throws {
        var model = SelectorModel()
        model.storeIndexes = ["t_a"]
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.store("t_a")], seconds: 0.0001)])
        model.statement(weight: 100, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.store("t_a"): 0.000005])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [], removableStore: [Ix.member("t_a", on: "t")])
        #expect(try selector.run().isStore)
    }

    @Test("a store index the planner misuses (reads are faster without it) is dropped")
    func dropMisusedStoreIndex() throws {
        var model = SelectorModel()
        model.storeIndexes = ["t_flag"]
        // With the flag index the planner reads half the table through it: slower than its scan.
        model.statement(weight: 100, tables: ["t"], base: 0.004, options: [.init(needs: [Ix.store("t_flag")], seconds: 0.003)])
        model.extra = { s, configuration in s == 0 && !configuration.isDropped("t_flag") ? 0.003 : 0 }
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [], removableStore: [Ix.member("t_flag", on: "t")])
        #expect(try selector.run().dropped == ["t_flag"])
    }

    @Test("a misordered store compound is replaced by the right order, which only pays with it gone")
    func replaceMisorderedStoreIndex() throws {
        let right = Ix.c("m", "conversation", "sent")
        var model = SelectorModel()
        model.storeIndexes = ["m_sent_conversation"]
        model.statement(weight: 500, tables: ["m"], base: 0.020, options: [.init(needs: [Ix.store("m_sent_conversation")], seconds: 0.004),
                                                                        .init(needs: [Ix.ref(right)], seconds: 0.0002)])
        model.statement(weight: 3_000, tables: ["m"], writes: ["m"], base: 0.00002,
                        upkeep: [Ix.store("m_sent_conversation"): 0.000006, Ix.ref(right): 0.000006])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [right],
                                    removableStore: [Ix.member("m_sent_conversation", on: "m")])
        let end = try selector.run()
        #expect(end.added == [right])
        #expect(end.dropped == ["m_sent_conversation"])
        #expect(selector.trace.rounds.first?.taken?.move == .replace(Ix.member("m_sent_conversation", on: "m"), by: right))
    }

    @Test("an index not offered as removable (a UNIQUE constraint, Core Data's own) is never dropped")
    func notRemovable() throws {
        var model = SelectorModel()
        model.storeIndexes = ["t_unique"]
        model.statement(weight: 5_000, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.store("t_unique"): 0.00001])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [])
        #expect(try selector.run().isStore)
        #expect(selector.moves().isEmpty)
    }

    @Test("a replacement is offered only when the new index serves every statement the old one serves")
    func replacementMustServeAll() throws {
        let a = Ix.c("t", "a"), ab = Ix.c("t", "a", "b"), c = Ix.c("t", "c")
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0002), .init(needs: [Ix.ref(ab)], seconds: 0.0002)])
        model.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(a)], seconds: 0.0002), .init(needs: [Ix.ref(c)], seconds: 0.0001)])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [ab, c], start: IndexConfiguration(added: [a]))
        let moves = selector.moves()
        #expect(!moves.contains(.replace(.candidate(a), by: c)))
        #expect(!moves.contains(.replace(.candidate(a), by: ab)))
        // (a) is fixed here (it is the starting set); with it as a pick both replacements are priced.
        let picks = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [a, ab, c])
        try picks.run()
        #expect(Set(picks.state.added).isSubset(of: [a, ab, c]))
    }

    @Test("a write whose plan an index changes (UPDATE … WHERE on it) is measured, not charged an estimate")
    func writeWithPlan() throws {
        let key = Ix.c("t", "remote")
        var model = SelectorModel()
        model.statement(weight: 300, tables: ["t"], writes: ["t"], base: 0.003, options: [.init(needs: [Ix.ref(key)], seconds: 0.00003)],
                        upkeep: [Ix.ref(key): 0.000002])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [key])
        #expect(try selector.run().added == [key])
        let taken = try #require(selector.trace.rounds.first?.taken)
        #expect(taken.changed[0] != nil)
        #expect(taken.upkeep.isEmpty)
        #expect(!taken.estimated)
    }

    @Test("removing a store index that only pays with a later pick happens once that pick is in")
    func dropAfterPick() throws {
        let right = Ix.c("m", "conversation", "sent")
        var model = SelectorModel()
        model.storeIndexes = ["m_conversation"]
        model.statement(weight: 500, tables: ["m"], base: 0.020, options: [.init(needs: [Ix.store("m_conversation")], seconds: 0.001),
                                                                        .init(needs: [Ix.ref(right)], seconds: 0.0002)])
        model.statement(weight: 3_000, tables: ["m"], writes: ["m"], base: 0.00002,
                        upkeep: [Ix.store("m_conversation"): 0.000006, Ix.ref(right): 0.000007])
        let selector = try Selector(oracle: model.oracle, policy: Ix.policy, pool: [right], removableStore: [Ix.member("m_conversation", on: "m")])
        let end = try selector.run()
        #expect(end.added == [right])
        #expect(end.dropped == ["m_conversation"])
    }
}
