import Testing
@testable import IndexAdvisor

/// A clock that contradicts the counters is measured again before it decides (issue 38: a pick the counters
/// favoured was lost when the machine got busy between the baseline and the move's timing).
@Suite("Selector: a contradicting clock is measured again")
struct SelectorRemeasureTests {
    /// A table whose costs are the model's, except the first timing of the read under an index: its clock is
    /// `busyFactor` times slower (load at that moment). Measured again, it is the model's, unless `staysBusy`.
    final class BusyOracle: CostOracle {
        let table: TableOracle
        let index: IndexCandidate
        let staysBusy: Bool
        private(set) var remeasured: [(Int, IndexConfiguration)] = []
        var statements: [CostStatement] { table.statements }

        init(model: SelectorModel, index: IndexCandidate, staysBusy: Bool) {
            table = model.oracle
            self.index = index
            self.staysBusy = staysBusy
        }

        func plan(of s: Int, under configuration: IndexConfiguration) throws -> PlanSignature { try table.plan(of: s, under: configuration) }

        func cost(of s: Int, under configuration: IndexConfiguration) throws -> MeasuredCost {
            var cost = try table.cost(of: s, under: configuration)
            if configuration.contains(index) { cost.timing = busy(cost.timing) }
            return cost
        }

        func remeasure(_ s: Int, under configuration: IndexConfiguration) throws -> MeasuredCost {
            remeasured.append((s, configuration))
            var cost = try table.cost(of: s, under: configuration)
            if staysBusy, configuration.contains(index) { cost.timing = busy(cost.timing) }
            return cost
        }

        /// The clock 30 times slower, its counters as they were.
        func busy(_ timing: Timing) -> Timing {
            var slow = timing
            for path in [\Timing.medianSeconds, \.p25Seconds, \.p75Seconds, \.minSeconds, \.maxSeconds] { slow[keyPath: path] *= 30 }
            return slow
        }
    }

    let a = Ix.c("t", "a")

    /// A read of 2 ms that the index makes 0.1 ms, on the clock and on the counters alike.
    var model: SelectorModel {
        var model = SelectorModel()
        model.statement(weight: 100, tables: ["t"], base: 0.002, options: [.init(needs: [Ix.ref(a)], seconds: 0.0001)])
        model.counted = { _, _, clock in clock }
        return model
    }

    var policy: SelectionPolicy {
        var policy = SelectionPolicy()
        policy.decidesOnCounters = true
        return policy
    }

    @Test("a move the counters favour and a busy clock contradicts once is timed again and taken")
    func contradictionThatPasses() throws {
        let oracle = BusyOracle(model: model, index: a, staysBusy: false)
        let selector = try Selector(oracle: oracle, policy: policy, pool: [a])
        #expect(try selector.run().added == [a])
        // Both sides of the read were timed again, the move's side first: when the move was priced, when it
        // was confirmed, when round 2 priced taking it out again, and when the set was checked against the store.
        #expect(oracle.remeasured.map(\.0) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(oracle.remeasured.map { $0.1.contains(a) } == [true, false, true, false, false, true, true, false])
        #expect(abs((selector.trace.rounds.first?.taken?.net ?? 0) - 0.19) < 1e-6)
    }

    @Test("a clock that still says slower when measured again decides, and the move is not taken")
    func contradictionThatHolds() throws {
        let oracle = BusyOracle(model: model, index: a, staysBusy: true)
        let selector = try Selector(oracle: oracle, policy: policy, pool: [a])
        #expect(try selector.run().isStore)
        #expect(!oracle.remeasured.isEmpty)
    }
}
