/// A ``CostOracle`` given as a table, for tests of the selector alone: each statement's plan and cost are
/// functions of the configuration, so the selector runs in microseconds, and every cost it asks for is counted.
package final class TableOracle: CostOracle {
    package let statements: [CostStatement]
    private let planOf: (Int, IndexConfiguration) -> PlanSignature
    private let costOf: (Int, IndexConfiguration) -> Timing
    /// Every (statement, configuration) whose cost was asked for, in order.
    package private(set) var costsAsked: [(Int, IndexConfiguration)] = []

    /// - Parameters:
    ///   - plan: the plan of a statement under a configuration (its `uses` say which indexes serve it).
    ///   - cost: its timing there.
    package init(statements: [CostStatement], plan: @escaping (Int, IndexConfiguration) -> PlanSignature,
                 cost: @escaping (Int, IndexConfiguration) -> Timing) {
        self.statements = statements
        self.planOf = plan
        self.costOf = cost
    }

    package func plan(of statement: Int, under configuration: IndexConfiguration) throws -> PlanSignature {
        planOf(statement, configuration)
    }

    package func cost(of statement: Int, under configuration: IndexConfiguration) throws -> MeasuredCost {
        costsAsked.append((statement, configuration))
        return MeasuredCost(timing: costOf(statement, configuration), plan: planOf(statement, configuration))
    }
}
