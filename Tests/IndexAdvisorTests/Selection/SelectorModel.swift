@testable import IndexAdvisor

/// A workload as a table of costs, for the selector's tests: each statement costs `base` seconds unless a
/// plan option whose indexes are all present is cheaper (the planner takes the cheapest), plus, for a write,
/// the upkeep of each index present that it pays for. ``oracle`` turns it into a ``TableOracle``.
struct SelectorModel {
    struct Option {
        var needs: Set<IndexRef>
        var seconds: Double
    }

    var statements: [CostStatement] = []
    var base: [Double] = []
    var options: [[Option]] = []
    var upkeep: [[IndexRef: Double]] = []
    /// Extra seconds a statement costs under some configurations, on top of the model (a plan the what-if
    /// planner does not foresee, an upkeep that only shows with several indexes).
    var extra: (Int, IndexConfiguration) -> Double = { _, _ in 0 }
    /// When set, each timing's counters are priced at this function's seconds while its clock is the model's.
    var counted: ((Int, IndexConfiguration, Double) -> Double)?

    /// Adds a statement; returns its position.
    @discardableResult
    mutating func statement(weight: Double, tables: [String], writes: [String] = [], base seconds: Double,
                            options: [Option] = [], upkeep: [IndexRef: Double] = [:]) -> Int {
        statements.append(CostStatement(weight: weight, isWrite: !writes.isEmpty, tables: Set(tables.map(\.sqlFolded)),
                                        writtenTables: Set(writes.map(\.sqlFolded))))
        base.append(seconds)
        self.options.append(options)
        self.upkeep.append(upkeep)
        return statements.count - 1
    }

    static func present(_ configuration: IndexConfiguration, store: [String]) -> Set<IndexRef> {
        Set(configuration.added.map { IndexRef.candidate($0.key) } + store.filter { !configuration.isDropped($0) }.map { IndexRef.store($0.sqlFolded) })
    }

    /// The store's own indexes, by name.
    var storeIndexes: [String] = []

    func plan(_ s: Int, _ configuration: IndexConfiguration) -> (PlanSignature, Double) {
        let present = Self.present(configuration, store: storeIndexes)
        let available = options[s].enumerated().filter { $0.element.needs.isSubset(of: present) && $0.element.seconds < base[s] }
        guard let best = available.min(by: { $0.element.seconds < $1.element.seconds }) else {
            return (PlanSignature(steps: ["SCAN base"], uses: []), base[s])
        }
        return (PlanSignature(steps: ["option \(best.offset)"], uses: best.element.needs), best.element.seconds)
    }

    func seconds(_ s: Int, _ configuration: IndexConfiguration) -> Double {
        let present = Self.present(configuration, store: storeIndexes)
        return plan(s, configuration).1 + upkeep[s].filter { present.contains($0.key) }.reduce(0) { $0 + $1.value } + extra(s, configuration)
    }

    var oracle: TableOracle {
        TableOracle(statements: statements, plan: { plan($0, $1).0 }, cost: { s, configuration in
            let clock = seconds(s, configuration)
            return SelectorModel.timing(clock: clock, counted: counted?(s, configuration, clock))
        })
    }

    /// A timing of `clock` seconds whose runs lie within ±0.5 %, with counters priced at `counted` seconds
    /// (``CounterCost``: 50 ns a VM step) when given.
    static func timing(clock: Double, counted: Double? = nil) -> Timing {
        var timing = Timing.from(samples: [clock * 0.995, clock, clock * 1.005], executionsPerRun: 1, rows: 1, failures: 0)
        if let counted {
            timing.vmStepsPerExecution = counted * 1e9 / CounterCost.nanosecondsPerStep
            timing.pageLookupsPerExecution = 0
            timing.uncachedPagesPerExecution = 0
        }
        return timing
    }
}

/// Candidates and references, tersely.
enum Ix {
    static func c(_ table: String, _ columns: String..., where predicate: String? = nil, desc: Set<String> = []) -> IndexCandidate {
        IndexCandidate(table: table, columns: columns.map { IndexColumn(name: $0, isDescending: desc.contains($0)) }, partialPredicate: predicate)
    }

    static func ref(_ candidate: IndexCandidate) -> IndexRef { .candidate(candidate.key) }
    static func store(_ name: String) -> IndexRef { .store(name.sqlFolded) }
    static func member(_ name: String, on table: String) -> Member { .store(name: name.sqlFolded, table: table.sqlFolded) }

    /// A policy deciding on the clock (the model's timings carry no counters unless a test gives them).
    static var policy: SelectionPolicy {
        var policy = SelectionPolicy()
        policy.decidesOnCounters = false
        return policy
    }
}
