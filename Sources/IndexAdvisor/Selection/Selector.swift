/// The one selector (DESIGN-selection.md): a deterministic local search that starts from a configuration
/// (the store as it is) and, round after round, prices every move (``Move``: add a candidate, add a pair that
/// only pays together, replace an index by a wider or reordered one, remove an earlier pick or a store index)
/// on the statements whose plan it changes and the writes whose upkeep it changes, and takes the move that
/// saves the most, net of writes, while one saves at least ``SelectionPolicy/minimumGain(workloadSeconds:)``.
/// A move is taken only once it is measured with its indexes in place (its upkeep is estimated while it is
/// priced). The set it ends with is never slower than the one it started from, by its own measurements.
package final class Selector {
    let oracle: CostOracle
    /// Where a move is measured before it is taken, and the invariant checked: the run's full timings (by
    /// default the same oracle).
    let confirming: CostOracle
    let policy: SelectionPolicy
    /// The candidates that may enter the set, most promising first (the order breaks the last ties).
    let pool: [IndexCandidate]
    /// The store's indexes that may be dropped (none backs a UNIQUE constraint or is owned by a model).
    let removableStore: [Member]
    /// Candidates that may not be taken out (the recommended set, when alternatives are chosen on top of it).
    let fixed: Set<String>
    /// The indexes some statement's plan uses as the search starts.
    var usedAtStart = Set<IndexRef>()
    /// An index's size in bytes, when known (ties, and ``SelectionPolicy/maxIndexBytes``).
    let bytes: (Member) -> Int64?
    /// The share of rows an equality on a candidate's leading column matches (lower: more selective), when known.
    let leadShare: (IndexCandidate) -> Double?
    /// Asked before each round: true stops the search where it is (a time budget).
    let shouldStop: () -> Bool
    /// Called at the start of each round with the number of moves taken so far.
    var progress: (Int) -> Void = { _ in }

    package private(set) var state: IndexConfiguration
    /// Each statement's measured cost, and its plan from the planner alone, under ``state``.
    package private(set) var current: [Int: MeasuredCost] = [:]
    var whatIf: [Int: PlanSignature] = [:]
    let start: IndexConfiguration
    var startCosts: [Int: MeasuredCost] = [:]
    /// The workload's cost as the search started (the store as it is), in seconds.
    package private(set) var startWorkloadSeconds = 0.0
    var upkeepCache: [String: Double] = [:]
    package private(set) var trace = SelectionTrace()
    /// True when ``shouldStop`` ended the search early.
    package private(set) var stopped = false

    /// What `s` costs under `configuration`; nil when the oracle cannot measure it there (any other error stops the search).
    func measured(_ s: Int, _ configuration: IndexConfiguration, by source: CostOracle? = nil) throws -> MeasuredCost? {
        do { return try (source ?? oracle).cost(of: s, under: configuration) } catch is UnmeasurableStatement { return nil }
    }

    /// - Parameters:
    ///   - start: where the search starts (the store as it is; for alternatives, the recommended set).
    /// - Throws: what the oracle throws when the starting configuration cannot be measured.
    package init(oracle: CostOracle, policy: SelectionPolicy, pool: [IndexCandidate], removableStore: [Member] = [],
                 fixed: Set<String> = [], start: IndexConfiguration = .store, bytes: @escaping (Member) -> Int64? = { _ in nil },
                 shouldStop: @escaping () -> Bool = { false }, confirming: CostOracle? = nil,
                 leadShare: @escaping (IndexCandidate) -> Double? = { _ in nil }) throws {
        self.oracle = oracle
        self.confirming = confirming ?? oracle
        self.policy = policy
        self.pool = pool
        self.removableStore = removableStore
        self.fixed = fixed
        self.bytes = bytes
        self.shouldStop = shouldStop
        self.leadShare = leadShare
        self.start = start
        state = start
        for s in oracle.statements.indices where oracle.statements[s].weight > 0 {
            guard let plan = try? oracle.plan(of: s, under: start), let cost = try measured(s, start) else { continue }
            whatIf[s] = plan
            current[s] = cost
            usedAtStart.formUnion(plan.uses)
        }
        startCosts = current
        startWorkloadSeconds = workloadSeconds
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
            if shouldStop() { stopped = true; break }
            progress(trace.rounds.compactMap(\.taken).count)
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
        for candidate in ranked(acceptable, minimum: minimum) {
            let confirmed = try confirm(candidate)
            let index = round.priced.firstIndex { $0.0.move == candidate.move }!
            let clock = SelectionTrace.ClockFigures(confirmed.changed.mapValues { ($0.before.timing, $0.after.timing) }, statements: oracle.statements)
            if policy.clockOverrules(clock) {
                round.priced[index] = (confirmed, .costsMoreByTheClock(readsSavedAtMost: clock.readsSavedAtMost, writesAddedAtLeast: clock.writesAddedAtLeast))
                continue
            }
            if clears(confirmed, minimum: minimum), candidate.move.takesOut != nil || !confirmed.faster.isEmpty,
               storeRemovalVerdict(confirmed, minimum: minimum) == nil {
                round.priced[index] = (confirmed, .taken)
                for other in round.priced.indices where round.priced[other].1 == .taken && other != index {
                    round.priced[other].1 = .outranked
                }
                round.taken = confirmed
                try take(candidate)
                trace.rounds.append(round)
                return true
            }
            if let veto = clockVeto(confirmed, minimum: minimum) {
                round.priced[index] = (confirmed, veto)
                continue
            }
            round.priced[index] = (confirmed, confirmed.net >= minimum ? .insideResolution(gain: confirmed.gain, loss: confirmed.loss, minimum: minimum)
                                                                       : .notConfirmed(net: confirmed.net, minimum: minimum))
        }
        trace.rounds.append(round)
        return false
    }

    /// The verdict on a priced move before it is measured in place: ``MoveVerdict/taken`` when it may be.
    ///
    /// Taking out one of the store's indexes is held to more: no statement may be measurably slower for it (the
    /// configuration without it must dominate the one with it: the store's indexes were made for statements a
    /// workload may not show, so a read is not traded for writes), and it must save the minimum of the workload
    /// as the user has it (``startWorkloadSeconds``): the upkeep it saves does not grow because earlier moves
    /// made the reads cheap. One no statement's plan used as the store was must save
    /// ``SelectionPolicy/unusedIndexRemovalShare`` of it.
    func judge(_ price: MovePrice, minimum: Double) -> MoveVerdict {
        if let limit = limitPassed(by: price.target) { return .limit(limit) }
        if let verdict = storeRemovalVerdict(price, minimum: minimum) { return verdict }
        if price.changed.isEmpty, price.move.takesOut == nil { return .unused }
        let passes = price.net >= minimum && (!price.faster.isEmpty || price.move.takesOut != nil) && clears(price, minimum: minimum)
        if !passes, let veto = clockVeto(price, minimum: minimum) { return veto }
        if price.faster.isEmpty, price.move.takesOut == nil, price.net >= minimum { return .belowMinimum(net: 0, minimum: minimum) }
        if price.net >= minimum, !price.faster.isEmpty || price.move.takesOut != nil {
            return clears(price, minimum: minimum) ? .taken : .insideResolution(gain: price.gain, loss: price.loss, minimum: minimum)
        }
        if !price.slower.isEmpty, price.net < minimum { return .slower(price.slower) }
        if price.planSaving > 0, price.net < 0 { return .costOutweighsSaving(net: price.net) }
        return .belowMinimum(net: price.net, minimum: minimum)
    }

    /// ``MoveVerdict/slowerByTheClock(_:)`` for a move the clock vetoed: a statement the counters call cheaper is
    /// slower by the clock, and with the counters' saving on it the move would have saved `minimum`; nil otherwise
    /// (then the counters' own verdict stands).
    func clockVeto(_ price: MovePrice, minimum: Double) -> MoveVerdict? {
        guard !price.slowerByTheClock.isEmpty, price.net + price.vetoedSaving >= minimum else { return nil }
        return .slowerByTheClock(price.slowerByTheClock)
    }

    /// Why a move that takes out a store index may not be taken (see ``judge(_:minimum:)``); nil when it may, or
    /// when the move is of another kind.
    func storeRemovalVerdict(_ price: MovePrice, minimum: Double) -> MoveVerdict? {
        guard case .remove(let member) = price.move, case .store = member else { return nil }
        if !price.slower.isEmpty { return .slower(price.slower) }
        var storeMinimum = max(minimum, policy.minimumGain(workloadSeconds: startWorkloadSeconds))
        if !usedAtStart.contains(member.ref) { storeMinimum = max(storeMinimum, startWorkloadSeconds * policy.unusedIndexRemovalShare) }
        return price.net < storeMinimum ? .belowMinimum(net: price.net, minimum: storeMinimum) : nil
    }

    /// True when `price` clears `minimum` as the policy can tell it (``SelectionPolicy/clears(gain:loss:speedup:minimum:)``).
    func clears(_ price: MovePrice, minimum: Double) -> Bool {
        policy.clears(gain: price.gain, loss: price.loss, speedup: price.speedup, minimum: minimum)
    }

    /// The moves best first: by net saving; a move whose saving falls short of the best one's by less than a
    /// move must clear (the minimum, read at the counters' resolution when they decide), or by less than
    /// ``SelectionPolicy/tieShare`` of the work its statements still do, is tied with it: the difference between
    /// them would not be taken as a move of its own. The tie goes to the move whose plans keep fewer temp B-tree
    /// sorts and full scans (a sort grows with the data), then the one that leaves fewer indexes, leads with the
    /// more selective column (it serves other values as well as the ones timed), adds fewer bytes, fewer key
    /// columns, then the pool's order; a later round can still replace the choice once the difference is
    /// worth a move.
    func ranked(_ prices: [MovePrice], minimum: Double) -> [MovePrice] {
        let sorted = prices.sorted { $0.net > $1.net }
        guard let best = sorted.first else { return [] }
        let resolution = policy.decidesOnCounters ? policy.countersResolution : 1
        let isTied = { (price: MovePrice) in
            let difference = best.net - price.net
            return difference < minimum * resolution || difference <= self.policy.tieShare * max(self.workLeft(best), self.workLeft(price))
        }
        let tied = sorted.filter(isTied).sorted { a, b in
            let pa = problemsLeft(a), pb = problemsLeft(b)
            if pa != pb { return pa < pb }
            let ia = a.move.builds.count - (a.move.takesOut == nil ? 0 : 1), ib = b.move.builds.count - (b.move.takesOut == nil ? 0 : 1)
            if ia != ib { return ia < ib }
            let la = lead(a.move), lb = lead(b.move)
            if la != lb { return la < lb }
            let ba = bytesAdded(a.move), bb = bytesAdded(b.move)
            if ba != bb { return ba < bb }
            let ca = a.move.builds.reduce(0) { $0 + $1.columns.count }, cb = b.move.builds.reduce(0) { $0 + $1.columns.count }
            if ca != cb { return ca < cb }
            return order(a.move) < order(b.move)
        }
        return tied + sorted.filter { !isTied($0) }
    }

    /// Temp B-tree sorts and full scans in the plans of the statements a move changes, after it.
    func problemsLeft(_ price: MovePrice) -> Int {
        price.changed.values.reduce(0) { sum, change in
            sum + change.after.plan.problems
        }
    }

    /// The frequency-weighted seconds the statements a move changes still take after it, with the upkeep it adds.
    func workLeft(_ price: MovePrice) -> Double {
        price.changed.reduce(0) { $0 + oracle.statements[$1.key].weight * policy.seconds($1.value.after.timing) } + max(0, price.upkeepAdded)
    }

    /// The largest leading-column share among the candidates a move builds (1 when unknown).
    func lead(_ move: Move) -> Double {
        move.builds.map { leadShare($0) ?? 1 }.max() ?? 1
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

    /// Moves to the priced configuration: the statements it measured take their costs there, the others keep theirs.
    func take(_ price: MovePrice) throws {
        state = price.target
        for s in Set(price.changed.keys).union(price.upkeep.keys) {
            if let cost = try measured(s, state) { current[s] = cost }
            whatIf[s] = try? oracle.plan(of: s, under: state)
        }
    }

    /// The invariant: the set chosen is never slower than the starting one by this run's measurements, as the
    /// policy reads them nor by the wall clock beyond the runs' spread (``SelectionTrace/ClockFigures``: the
    /// figures the report prints). Every statement is measured under both (a read both again, back to back,
    /// where the clock contradicts the counters: ``remeasures(_:from:to:before:after:)``); when the chosen
    /// set does not save, the search gives it up.
    func keepNoSlowerThanStart() throws {
        guard state != start else { return }
        var saved = 0.0
        var timings: [Int: (Timing, Timing)] = [:]
        for s in oracle.statements.indices where startCosts[s] != nil {
            guard var before = try measured(s, start, by: confirming), var after = try measured(s, state, by: confirming) else { continue }
            if remeasures(s, from: start, to: state, before: before, after: after) {
                after = try confirming.remeasure(s, under: state)
                before = try confirming.remeasure(s, under: start)
            }
            saved += oracle.statements[s].weight * policy.saving(before: before.timing, after: after.timing)
            timings[s] = (before.timing, after.timing)
        }
        if saved <= 0 || policy.clockOverrules(SelectionTrace.ClockFigures(timings, statements: oracle.statements)) {
            state = start
            current = startCosts
            trace.gaveUpSlowerSet = true
        }
    }
}
