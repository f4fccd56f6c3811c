/// The one selector (DESIGN-selection.md): a deterministic local search that starts from a configuration
/// (the store as it is) and, round after round, prices every move (``Move``: add a candidate, add a pair that
/// only pays together, replace an index by a wider or reordered one, remove an earlier pick or a store index)
/// on the statements whose plan it changes and the writes whose upkeep it changes, and takes the move that
/// saves the most, net of writes, while one saves at least ``SelectionPolicy/minimumGain(workloadSeconds:)``.
/// A move is taken only once it is measured with its indexes in place (its upkeep is estimated while it is
/// priced). The set it ends with is never slower than the one it started from, by its own measurements.
package final class Selector {
    let oracle: CostOracle
    let policy: SelectionPolicy
    /// The candidates that may enter the set, most promising first (the order breaks the last ties).
    let pool: [IndexCandidate]
    /// The store's indexes that may be dropped (none backs a UNIQUE constraint or is owned by a model).
    let removableStore: [Member]
    /// Candidates that may not be taken out (the recommended set, when alternatives are chosen on top of it).
    let fixed: Set<String>
    /// An index's size in bytes, when known (ties, and ``SelectionPolicy/maxIndexBytes``).
    let bytes: (Member) -> Int64?

    package private(set) var state: IndexConfiguration
    /// Each statement's measured cost, and its plan from the planner alone, under ``state``.
    package private(set) var current: [Int: MeasuredCost] = [:]
    var whatIf: [Int: PlanSignature] = [:]
    let start: IndexConfiguration
    var startCosts: [Int: MeasuredCost] = [:]
    var upkeepCache: [String: Double] = [:]
    package private(set) var trace = SelectionTrace()

    /// - Parameters:
    ///   - start: where the search starts (the store as it is; for alternatives, the recommended set).
    /// - Throws: what the oracle throws when the starting configuration cannot be measured.
    package init(oracle: CostOracle, policy: SelectionPolicy, pool: [IndexCandidate], removableStore: [Member] = [],
                 fixed: Set<String> = [], start: IndexConfiguration = .store, bytes: @escaping (Member) -> Int64? = { _ in nil }) throws {
        self.oracle = oracle
        self.policy = policy
        self.pool = pool
        self.removableStore = removableStore
        self.fixed = fixed
        self.bytes = bytes
        self.start = start
        state = start
        for s in oracle.statements.indices {
            guard let plan = try? oracle.plan(of: s, under: start), let cost = try? oracle.cost(of: s, under: start) else { continue }
            whatIf[s] = plan
            current[s] = cost
        }
        startCosts = current
    }

    /// The workload's cost under ``state`` as the policy sees it, in seconds (Σ weight × seconds).
    package var workloadSeconds: Double {
        current.reduce(0) { $0 + oracle.statements[$1.key].weight * policy.seconds($1.value.timing) }
    }

    /// Runs rounds until no move saves the minimum; returns the configuration it ends with.
    /// - Throws: what the oracle throws when a configuration cannot be built.
    @discardableResult
    package func run() throws -> IndexConfiguration {
        let limit = 4 * pool.count + 2 * removableStore.count + 8
        for _ in 0..<limit {
            guard try round() else { break }
        }
        try keepNoSlowerThanStart()
        return state
    }

    /// One round: price every move, take the best that holds once measured. False when none was taken.
    func round() throws -> Bool {
        let minimum = policy.minimumGain(workloadSeconds: workloadSeconds)
        var round = SelectionTrace.Round(state: state, minimum: minimum)
        var acceptable: [MovePrice] = []
        for move in moves() {
            let price = try self.price(move)
            let verdict = judge(price, minimum: minimum)
            round.priced.append((price, verdict))
            if verdict == .taken { acceptable.append(price) }
        }
        for candidate in ranked(acceptable) {
            let confirmed = try confirm(candidate)
            let index = round.priced.firstIndex { $0.0.move == candidate.move }!
            if confirmed.net >= minimum, !(candidate.move.takesOut == nil && confirmed.faster.isEmpty) {
                round.priced[index] = (confirmed, .taken)
                for other in round.priced.indices where round.priced[other].1 == .taken && other != index {
                    round.priced[other].1 = .outranked
                }
                round.taken = confirmed
                take(confirmed)
                trace.rounds.append(round)
                return true
            }
            round.priced[index] = (confirmed, .notConfirmed(net: confirmed.net, minimum: minimum))
        }
        trace.rounds.append(round)
        return false
    }

    /// The verdict on a priced move before it is measured in place: ``MoveVerdict/taken`` when it may be.
    func judge(_ price: MovePrice, minimum: Double) -> MoveVerdict {
        if let limit = limitPassed(by: price.target) { return .limit(limit) }
        if price.changed.isEmpty, price.move.takesOut == nil { return .unused }
        if price.net >= minimum, !price.faster.isEmpty || price.move.takesOut != nil { return .taken }
        if !price.slower.isEmpty, price.net < minimum { return .slower(price.slower) }
        if price.planSaving > 0, price.net < 0 { return .costOutweighsSaving(net: price.net) }
        return .belowMinimum(net: price.net, minimum: minimum)
    }

    /// The moves best first: by net saving; a move within ``SelectionPolicy/tieShare`` of the best one, as a
    /// share of the work its changed statements still do after it, is tied with it, and the tie goes to the
    /// move that leaves fewer indexes, then adds fewer bytes, then fewer key columns, then the pool's order.
    func ranked(_ prices: [MovePrice]) -> [MovePrice] {
        let sorted = prices.sorted { $0.net > $1.net }
        guard let best = sorted.first else { return [] }
        let isTied = { (price: MovePrice) in best.net - price.net <= self.policy.tieShare * max(self.workLeft(best), self.workLeft(price)) }
        let tied = sorted.filter(isTied).sorted { a, b in
            let ia = a.move.builds.count - (a.move.takesOut == nil ? 0 : 1), ib = b.move.builds.count - (b.move.takesOut == nil ? 0 : 1)
            if ia != ib { return ia < ib }
            let ba = bytesAdded(a.move), bb = bytesAdded(b.move)
            if ba != bb { return ba < bb }
            let ca = a.move.builds.reduce(0) { $0 + $1.columns.count }, cb = b.move.builds.reduce(0) { $0 + $1.columns.count }
            if ca != cb { return ca < cb }
            return order(a.move) < order(b.move)
        }
        return tied + sorted.filter { !isTied($0) }
    }

    /// The frequency-weighted seconds the statements a move changes still take after it, with the upkeep it adds.
    func workLeft(_ price: MovePrice) -> Double {
        price.changed.reduce(0) { $0 + oracle.statements[$1.key].weight * policy.seconds($1.value.after.timing) } + max(0, price.upkeepAdded)
    }

    func bytesAdded(_ move: Move) -> Int64 {
        move.builds.reduce(Int64(0)) { $0 + (bytes(.candidate($1)) ?? 0) } - (move.takesOut.flatMap(bytes) ?? 0)
    }

    func order(_ move: Move) -> Int {
        move.builds.compactMap { built in pool.firstIndex { $0.key == built.key } }.min() ?? -1
    }

    /// The limit of the policy `configuration` passes, in words; nil when none.
    func limitPassed(by configuration: IndexConfiguration) -> String? {
        if configuration.added.count > policy.maxNewIndexes { return "\(policy.maxNewIndexes) new indexes" }
        let perTable = Dictionary(grouping: configuration.added, by: { $0.table.sqlFolded })
        if perTable.values.contains(where: { $0.count > policy.maxIndexesPerTable }) { return "\(policy.maxIndexesPerTable) new indexes on a table" }
        if let most = policy.maxIndexBytes,
           configuration.added.reduce(Int64(0), { $0 + (bytes(.candidate($1)) ?? 0) }) > most { return "\(most) bytes of new indexes" }
        return nil
    }

    /// Moves to the priced configuration: the statements it changed and the writes it touched take their
    /// measured costs, the others keep theirs.
    func take(_ price: MovePrice) {
        state = price.target
        for (s, change) in price.changed { current[s] = change.after }
        for s in price.changed.keys { whatIf[s] = try? oracle.plan(of: s, under: state) }
    }

    /// The invariant: the set chosen is never slower than the starting one by this run's measurements. Every
    /// statement is measured under both; when the chosen set does not save, the search gives it up.
    func keepNoSlowerThanStart() throws {
        guard state != start else { return }
        var saved = 0.0
        for s in oracle.statements.indices {
            guard let before = startCosts[s], let after = try? oracle.cost(of: s, under: state) else { continue }
            saved += oracle.statements[s].weight * policy.saving(before: before.timing, after: after.timing)
        }
        if saved <= 0 {
            state = start
            current = startCosts
            trace.gaveUpSlowerSet = true
        }
    }
}
