/// What the selector knows of one workload statement: how often it runs and what it touches.
package struct CostStatement: Sendable, Equatable {
    /// Executions in the workload.
    package var weight: Double
    package var isWrite: Bool
    /// Tables it reads or writes, and those it writes (folded names).
    package var tables: Set<String>
    package var writtenTables: Set<String>

    package init(weight: Double, isWrite: Bool, tables: Set<String>, writtenTables: Set<String> = []) {
        self.weight = weight
        self.isWrite = isWrite
        self.tables = tables
        self.writtenTables = writtenTables
    }
}

/// A statement's query plan as the selector compares plans: its `EXPLAIN QUERY PLAN` steps with every index
/// named by what it is (a candidate by its key, a store index by its name), so that the same plan under two
/// configurations, or with an index built under another name, is the same signature (https://sqlite.org/eqp.html).
package struct PlanSignature: Hashable, Sendable, CustomStringConvertible {
    package var steps: [String]
    /// The indexes the plan uses: ``IndexRef``s.
    package var uses: Set<IndexRef>

    package init(steps: [String], uses: Set<IndexRef>) {
        self.steps = steps
        self.uses = uses
    }

    package var description: String { steps.joined(separator: "; ") }

    /// True when a step reads a whole table (`SCAN t` with no index, https://sqlite.org/eqp.html) or builds
    /// an automatic index: a plan an index could change.
    /// Steps that read more than a search would: temp B-tree sorts, automatic indexes, and scans, of a table
    /// or of a whole index (`SCAN t USING INDEX i` reads every entry, eqp.html).
    package var problems: Int {
        steps.filter { $0.contains("USE TEMP B-TREE") || $0.contains("AUTOMATIC") || $0.hasPrefix("SCAN ") }.count
    }

    package var scans: Bool {
        steps.contains { ($0.hasPrefix("SCAN ") && !$0.contains(" USING ")) || $0.contains("AUTOMATIC") }
    }
}

/// An index a plan can use: a candidate (by ``IndexCandidate/key``) or one of the store's (folded name).
package enum IndexRef: Hashable, Sendable {
    case candidate(String)
    case store(String)
}

/// What one statement costs under one configuration, as measured: its timing (wall clock with SQLite's
/// work counters, or counters alone) and the plan it ran with.
package struct MeasuredCost: Sendable, Equatable {
    package var timing: Timing
    package var plan: PlanSignature
    /// The plan as the report prints it, when the oracle read one (the snapshot's).
    package var queryPlan: QueryPlan?

    package init(timing: Timing, plan: PlanSignature, queryPlan: QueryPlan? = nil) {
        self.timing = timing
        self.plan = plan
        self.queryPlan = queryPlan
    }
}

/// Prices statements under index configurations. The selector asks it two things: the plan a statement
/// would get (hypothetically, without building anything), and what the statement costs (measured, on
/// indexes really built). ``SnapshotOracle`` answers on the private snapshot; ``TableOracle`` from a table,
/// for tests of the selector alone.
package protocol CostOracle: AnyObject {
    /// The workload's statements, by position.
    var statements: [CostStatement] { get }
    /// The plan statement `statement` would have under `configuration`, from the planner alone (what-if).
    /// - Throws: when the statement cannot be planned; the selector then leaves it out of a move's price.
    func plan(of statement: Int, under configuration: IndexConfiguration) throws -> PlanSignature
    /// What statement `statement` costs under `configuration`, measured with its indexes built.
    /// - Throws: when the configuration cannot be built (the analysis stops) or the statement not timed.
    func cost(of statement: Int, under configuration: IndexConfiguration) throws -> MeasuredCost
    /// `statement` measured again under `configuration`, whatever is remembered (and not remembered in its place):
    /// asked when the clock and the counters disagree on a change, so that both sides are timed close together.
    /// - Throws: as ``cost(of:under:)``.
    func remeasure(_ statement: Int, under configuration: IndexConfiguration) throws -> MeasuredCost
}

extension CostOracle {
    /// An oracle whose costs are given (``TableOracle``) has nothing to measure again.
    package func remeasure(_ statement: Int, under configuration: IndexConfiguration) throws -> MeasuredCost {
        try cost(of: statement, under: configuration)
    }
}

/// Thrown by an oracle when a statement cannot be measured under a configuration (a candidate that does not
/// build, a run that times out): the selector leaves the statement out of that move's price. Any other error
/// an oracle throws stops the selection.
package struct UnmeasurableStatement: Error, Sendable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}
