import Testing
@testable import IndexAdvisor

/// The policy's one noise rule and its ties, on counters-priced timings (``SelectorModel/timing(clock:counted:)``).
@Suite("Selector: deciding on SQLite's counters")
struct SelectorPolicyTests {
    var counters: SelectionPolicy {
        var policy = SelectionPolicy()
        policy.decidesOnCounters = true
        return policy
    }

    /// A model whose counters are priced as the clock, except where `counted` says otherwise.
    func model(counted: ((Int, IndexConfiguration, Double) -> Double)? = nil) -> SelectorModel {
        var model = SelectorModel()
        model.counted = counted ?? { _, _, clock in clock }
        return model
    }

    @Test("a pick the counters price under 2× cheaper, with upkeep, whose saving halved less its upkeep doubled is under the minimum, is not taken")
    func insideResolution() throws {
        let a = Ix.c("t", "a")
        var m = model()
        // 30 % cheaper by the counters (not 2×), saves 3 ms; upkeep 0.6 ms: 1.5 − 1.2 < 1 ms.
        m.statement(weight: 10, tables: ["t"], base: 0.001, options: [.init(needs: [Ix.ref(a)], seconds: 0.0007)])
        m.statement(weight: 100, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.ref(a): 0.000006])
        let selector = try Selector(oracle: m.oracle, policy: counters, pool: [a])
        #expect(try selector.run().isStore)
        guard case .insideResolution? = selector.trace.lastVerdict(building: a)?.1 else {
            Issue.record("\(String(describing: selector.trace.lastVerdict(building: a)?.1))")
            return
        }
    }

    @Test("the same pick with no upkeep, or 2× cheaper, is taken")
    func outsideResolution() throws {
        let a = Ix.c("t", "a")
        var noUpkeep = model()
        noUpkeep.statement(weight: 10, tables: ["t"], base: 0.001, options: [.init(needs: [Ix.ref(a)], seconds: 0.0007)])
        #expect(try Selector(oracle: noUpkeep.oracle, policy: counters, pool: [a]).run().added == [a])
        var twice = model()
        twice.statement(weight: 10, tables: ["t"], base: 0.001, options: [.init(needs: [Ix.ref(a)], seconds: 0.0004)])
        twice.statement(weight: 100, tables: ["t"], writes: ["t"], base: 0.00002, upkeep: [Ix.ref(a): 0.000006])
        #expect(try Selector(oracle: twice.oracle, policy: counters, pool: [a]).run().added == [a])
    }

    @Test("VM steps alone over the same pages and plan are no saving: a key that also holds the entity column is not taken over the one without it")
    func stepsAloneAreNoSaving() throws {
        let plain = Ix.c("t", "period", "day"), entity = Ix.c("t", "Z_ENT", "period", "day")
        // The clock cannot tell the two keys apart; the counters price the entity column's key 27 % cheaper, with
        // the same pages (the model's timings carry none).
        var m = model(counted: { s, configuration, clock in
            s == 0 && configuration.contains(entity) && !configuration.contains(plain) ? 0.00022 : clock
        })
        m.statement(weight: 60, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(entity)], seconds: 0.0003), .init(needs: [Ix.ref(plain)], seconds: 0.0003)])
        let selector = try Selector(oracle: m.oracle, policy: counters, pool: [entity, plain])
        #expect(try selector.run().added == [plain])
    }

    @Test("a key whose plan loses its temp B-tree sort counts as faster on the counters even under 2× cheaper")
    func simplerPlanCounts() throws {
        let lookup = Ix.c("t", "a"), sorted = Ix.c("t", "a", "b")
        var m = model()
        m.statement(weight: 100, tables: ["t"], base: 0.010, options: [.init(needs: [Ix.ref(lookup)], seconds: 0.0004), .init(needs: [Ix.ref(sorted)], seconds: 0.0003)])
        // The model's plans name their option; give the lookup's plan a sort step.
        let planned = TableOracle(statements: m.statements, plan: { s, configuration in
            var plan = m.plan(s, configuration).0
            if plan.uses == [Ix.ref(lookup)] { plan.steps.append("USE TEMP B-TREE FOR ORDER BY") }
            return plan
        }, cost: { s, configuration in SelectorModel.timing(clock: m.seconds(s, configuration), counted: m.seconds(s, configuration)) })
        let selector = try Selector(oracle: planned, policy: counters, pool: [lookup, sorted], start: IndexConfiguration(added: [lookup]))
        let end = try selector.run()
        #expect(end.contains(sorted))
    }

    @Test("among tied moves the more selective leading column goes first")
    func selectiveLeadFirst() throws {
        let slugFirst = Ix.c("n", "slug", "folder"), folderFirst = Ix.c("n", "folder", "slug")
        var m = model()
        m.statement(weight: 100, tables: ["n"], base: 0.010, options: [.init(needs: [Ix.ref(folderFirst)], seconds: 0.0001), .init(needs: [Ix.ref(slugFirst)], seconds: 0.0001)])
        let shares = [slugFirst.key: 0.0001, folderFirst.key: 0.05]
        let selector = try Selector(oracle: m.oracle, policy: counters, pool: [folderFirst, slugFirst], leadShare: { shares[$0.key] })
        #expect(try selector.run().added == [slugFirst])
    }

    @Test("a partial index that a frequent update does not touch wins over the full one it must rewrite")
    func partialSkipsUpdates() throws {
        let full = Ix.c("doc", "needs_upload", "modified"), partial = Ix.c("doc", "modified", where: "needs_upload = 1")
        var m = model()
        m.statement(weight: 100, tables: ["doc"], base: 0.010, options: [.init(needs: [Ix.ref(full)], seconds: 0.0001), .init(needs: [Ix.ref(partial)], seconds: 0.0001)])
        m.statement(weight: 2_000, tables: ["doc"], writes: ["doc"], base: 0.00002, upkeep: [Ix.ref(full): 0.000008, Ix.ref(partial): 0.000001])
        let selector = try Selector(oracle: m.oracle, policy: counters, pool: [full, partial])
        #expect(try selector.run().added == [partial])
    }
}
