import Foundation
import IndexAdvisor

/// The best set of index changes the benchmark can find for a pair, from a space it builds itself
/// (``IndependentCandidates``, `.expert`'s proposals, and the removal of each existing index that backs no
/// UNIQUE constraint), so that the optimum is not searched among the advisor's own candidates.
///
/// Method, in four steps:
/// 1. **Plans.** On a ``PlanClone`` (the schema and statistics, no rows) each statement is planned with
///    every candidate on its tables, then again with the index its plan used left out, and so on (at most
///    ``Settings/exploreNodes`` plans per statement): the indexes a statement can use, and the plans it can get.
/// 2. **Costs.** Each plan is realized on a ``WorkCopy`` (the store's indexes and only the candidates the plan
///    uses) and the statement is measured there with values drawn from the pair's distributions under a seed
///    of the search's own (the advisor's values are never used); an execution past ``Settings/executionCap``
///    is stopped and priced at the cap. A write's cost is its plan's cost plus,
///    for each other candidate on its table, the upkeep measured by building that index alone.
/// 3. **Search.** Statements that share no table are independent, so each group of tables is searched apart:
///    every subset of up to ``Settings/depth`` changes among its ``Settings/width`` most useful elements,
///    depth first, pruned where even the best plan each statement could still get cannot beat the sets
///    found (a branch and bound on the measured plan costs). A set that adds an index no plan uses is never
///    kept (the same set without it does the same reads with fewer writes).
/// 4. **Finalists.** The best sets, which the scorer measures for real beside every other configuration.
package final class OptimumSearch {
    package struct Settings: Sendable {
        /// Most changes in one group of tables.
        package var depth = 5
        /// Most elements searched in one group of tables, by their gain alone (join elements kept too).
        package var width = 24
        /// Value sets each statement is measured with.
        package var valueSets = 4
        /// Plans explored per statement.
        package var exploreNodes = 64
        package var measure: CostMeasure = .wallClock(runs: 3)
        /// Most seconds one execution may run (``ExecutionTimer/cap``): a plan stopped there is priced at the
        /// cap, a lower bound, which is enough to rank it below every plan that finishes well inside it.
        package var executionCap: Double? = 2
        package var limits = IndependentCandidates.Limits()
        /// Sets kept as finalists.
        package var finalists = 3

        package init() {}
    }

    /// What the search found and how much it looked at.
    package struct Outcome: Sendable {
        /// The best sets, best first (each a set of creates with the benchmark's own names, and drops).
        package var finalists: [ChangeSet]
        /// The model's cost of each finalist, and of no change (seconds or steps, Σ count × cost).
        package var modelCosts: [Double]
        package var noChangeCost: Double
        package var candidates: Int
        package var elements: Int
        package var groups: Int
        package var configurationsPriced: Int
        /// Plans the clone predicted that the store, with the same indexes, did not choose.
        package var planMismatches: Int
        package var plansMeasured: Int
        /// Statements (their text) at least one plan of which was stopped at ``Settings/executionCap``.
        package var capped: [String]
        package var notes: [String]
    }

    struct Statement {
        var source: PairStatement
        var tables: Set<String>
        var writtenTables: Set<String>
        var valueSets: [[SQLValue]]
        var isWrite: Bool { source.isWrite }
        var weight: Double { Double(source.count) }
    }

    /// An element of the search: build a candidate, or drop a store index.
    struct Element: Hashable {
        var name: String
        var table: String
        var isDrop: Bool
    }

    let pair: BenchPair
    let settings: Settings
    let indexes: StoreIndexes
    let clone: PlanClone
    let work: WorkCopy
    let timer: ExecutionTimer
    var statements: [Statement] = []
    /// Candidate name → `CREATE INDEX`, and its table.
    var candidates: [String: String] = [:]
    var candidateTable: [String: String] = [:]
    var candidateOrder: [String] = []
    /// Per statement: the indexes (candidates and removable store indexes) its explored plans used.
    var relevant: [Set<String>] = []
    /// Per statement: plan → (its cost, the creates and drops it needs).
    var measured: [[PlanLines: (cost: Double, creates: Set<String>, drops: Set<String>)]] = []
    /// Per write and candidate: the upkeep the candidate adds (≥ 0 where measured; 0 where the write then plans otherwise).
    var upkeep: [Int: [String: Double]] = [:]
    /// Per statement: plan by the relevant part of a configuration.
    var planMemo: [[String: PlanLines]] = []
    /// Per statement: the plans explored, with the candidates present and store indexes left out that gave each.
    var explored: [[(creates: Set<String>, drops: Set<String>, plan: PlanLines)]] = []
    var priced = 0
    var mismatches = 0
    var notes: [String] = []

    /// - Parameters:
    ///   - expert: `.expert`'s `CREATE INDEX` statements for the pair (they join the candidates).
    ///   - directory: where the work copy goes.
    /// - Throws: ``SQLiteError`` when the store cannot be read or copied.
    package init(pair: BenchPair, expert: [String], settings: Settings, directory: URL) throws {
        self.pair = pair
        self.settings = settings
        let store = try SQLiteConnection(path: pair.store.path, mode: .readOnly)
        StandIns.install(on: store, for: pair.statements)
        indexes = try StoreIndexes(connection: store)
        clone = try PlanClone(store: store, indexes: indexes, statements: pair.statements)
        work = try WorkCopy(store: pair.store, at: directory.appendingPathComponent("search-\(pair.name).sqlite"), indexes: indexes,
                            statements: pair.statements)
        timer = ExecutionTimer(connection: work.connection, measure: settings.measure, cap: settings.executionCap)
        let drawer = ValueDrawer(connection: store, seed: pair.seed &+ 1_000_003, sequenceOffset: 20_000_000)
        var accesses: [TableAccess] = []
        for source in pair.statements {
            let found = StatementColumns.accesses(of: source.sql, schema: indexes.columns)
            accesses += found
            let sets = source.parameterCount == 0 ? [[]] : try (0..<settings.valueSets).map { _ in try drawer.values(for: source) }
            statements.append(Statement(source: source, tables: Set(found.map(\.table)),
                                        writtenTables: Set(found.filter(\.isWrite).map(\.table)), valueSets: sets))
        }
        var keys = Set<String>()
        for create in IndependentCandidates.generate(for: accesses, limits: settings.limits) + expert {
            guard let name = ChangeSet.name(create), let table = ChangeSet.table(create).flatMap(indexes.table(named:)),
                  keys.insert(ChangeSet.key(create)).inserted, candidates[name] == nil else { continue }
            candidates[name] = create
            candidateTable[name] = table
            candidateOrder.append(name)
        }
    }

    deinit { work.remove() }

    /// Runs the four steps.
    /// - Throws: ``SQLiteError`` when the work copy cannot be changed.
    package func run() throws -> Outcome {
        try surveyStatistics()
        try explore()
        try measureUpkeep()
        let noChange = try cost(of: [], statements: Array(statements.indices))
        let groups = tableGroups()
        var perGroup: [[(Set<Element>, Double)]] = []
        var elementsSearched = 0
        var groupBases: [Double] = []
        for group in groups {
            let members = statements.indices.filter { !statements[$0].tables.isDisjoint(with: group) }
            groupBases.append(try cost(of: [], statements: members))
            let elements = try rankedElements(in: group, statements: members)
            elementsSearched += elements.count
            perGroup.append(try search(elements, statements: members))
        }
        let finalists = combine(perGroup, groupBases: groupBases, base: noChange)
        return Outcome(finalists: finalists.map { changeSet(of: $0.0) }, modelCosts: finalists.map(\.1), noChangeCost: noChange,
                       candidates: candidates.count, elements: elementsSearched, groups: groups.count, configurationsPriced: priced,
                       planMismatches: mismatches, plansMeasured: measured.reduce(0) { $0 + $1.count }, capped: timer.capped.sorted(), notes: notes)
    }

    // MARK: Step 1: plans

    /// On a store that keeps `sqlite_stat1`, every candidate is built once for its statistics rows, so that
    /// the clone plans with them as the store would (without statistics, the planner reads none).
    func surveyStatistics() throws {
        for name in candidateOrder {
            if indexes.hasStatistics {
                try work.set(creates: [name: candidates[name]!], order: [name], drops: [])
                let rows = try work.statistics(of: name)
                clone.register(name: name, sql: candidates[name]!, stat1: rows.stat1, stat4: rows.stat4)
            } else {
                clone.register(name: name, sql: candidates[name]!)
            }
        }
        try work.set(creates: [:], order: [], drops: [])
    }

    var removable: Set<String> { Set(indexes.indexes.filter(\.isRemovable).map(\.name)) }

    /// Explores each statement's plans by leaving out, one at a time, each index a plan used.
    func explore() throws {
        let storeNames = clone.storeIndexNames
        explored = Array(repeating: [], count: statements.count)
        for (position, statement) in statements.enumerated() {
            let own = Set(candidateOrder.filter { statement.tables.contains(candidateTable[$0]!) })
            let ownRemovable = Set(indexes.indexes.filter { $0.isRemovable && statement.tables.contains($0.table) }.map(\.name))
            var seen = Set<Set<String>>()
            var queue: [Set<String>] = [[]]
            var used = Set<String>()
            var memo: [String: PlanLines] = [:]
            var plans: [(Set<String>, PlanLines)] = []
            while !queue.isEmpty, seen.count < settings.exploreNodes {
                let left = queue.removeFirst()
                guard seen.insert(left).inserted else { continue }
                let present = storeNames.union(own).subtracting(left)
                try clone.set(present, order: buildOrder(present))
                let plan: PlanLines
                do { plan = try clone.plan(statement.source.sql, values: statement.valueSets[0]) } catch {
                    notes.append("\(pair.name): a statement does not plan on the clone (\(error)); the search leaves it out: \(statement.source.sql.prefix(80))")
                    break
                }
                plans.append((present, plan))
                let choices = plan.indexes.filter { own.contains($0) || ownRemovable.contains($0) }
                used.formUnion(choices)
                for choice in choices { queue.append(left.union([choice])) }
            }
            relevant.append(used)
            for (present, plan) in plans {
                let creates = present.intersection(used).intersection(own), drops = storeNames.subtracting(present).intersection(used)
                memo[memoKey(creates.union(drops.map { "-" + $0 }))] = plan
                explored[position].append((creates, drops, plan))
            }
            planMemo.append(memo)
            measured.append([:])
        }
        try clone.set(storeNames, order: [])
        // Every explored plan measured: what each index could save, and the bound's options.
        for (position, plans) in explored.enumerated() {
            for (_, drops, plan) in plans { _ = try planCost(position, plan: plan, drops: drops) }
        }
    }

    func buildOrder(_ names: Set<String>) -> [String] {
        let creates = names.compactMap { candidates[$0] }
        return ChangeSet(creates: creates).buildOrder.compactMap { ChangeSet.name($0) }
    }

    func memoKey(_ names: Set<String>) -> String { names.sorted().joined(separator: "\u{1}") }

    // MARK: Step 2: costs

    /// Each write's upkeep of each candidate on its tables: the write measured with the candidate alone
    /// built, less without it; 0 when the candidate changes the write's plan (its effect is then the plan's).
    func measureUpkeep() throws {
        let writes = statements.indices.filter { statements[$0].isWrite }
        guard !writes.isEmpty else { return }
        var base: [Int: Double] = [:]
        try work.set(creates: [:], order: [], drops: [])
        timer.reset()
        var basePlans: [Int: PlanLines] = [:]
        for w in writes {
            base[w] = try average(w)
            basePlans[w] = try PlanLines.read(statements[w].source.sql, values: statements[w].valueSets[0], on: work.connection)
        }
        let useful = Set(relevant.flatMap { $0 }).intersection(Set(candidateOrder))
        for name in candidateOrder where useful.contains(name) {
            let table = candidateTable[name]!
            let affected = writes.filter { statements[$0].writtenTables.contains(table) }
            guard !affected.isEmpty else { continue }
            try work.set(creates: [name: candidates[name]!], order: [name], drops: [])
            timer.reset()
            for w in affected {
                let plan = try PlanLines.read(statements[w].source.sql, values: statements[w].valueSets[0], on: work.connection)
                upkeep[w, default: [:]][name] = plan == basePlans[w] ? max(0, try average(w) - base[w]!) : 0
            }
        }
        try work.set(creates: [:], order: [], drops: [])
        timer.reset()
    }

    /// The mean cost of statement `s` over its value sets, with what the work copy holds now.
    func average(_ s: Int) throws -> Double {
        let statement = statements[s]
        var total = 0.0
        for values in statement.valueSets {
            total += try timer.cost(statement.source.sql, values: values, isWrite: statement.isWrite)
        }
        return total / Double(statement.valueSets.count)
    }

    /// The plan of statement `s` under the configuration (elements), from the memo or the clone.
    func plan(_ s: Int, creates: Set<String>, drops: Set<String>) throws -> PlanLines? {
        let key = memoKey(creates.intersection(relevant[s]).union(drops.intersection(relevant[s]).map { "-" + $0 }))
        if let known = planMemo[s][key] { return known }
        let present = clone.storeIndexNames.subtracting(drops).union(creates)
        try clone.set(present, order: buildOrder(present))
        guard let plan = try? clone.plan(statements[s].source.sql, values: statements[s].valueSets[0]) else { return nil }
        planMemo[s][key] = plan
        return plan
    }

    /// The cost of statement `s` under its plan `plan` (measured once per plan, and per set of drops for a write).
    func planCost(_ s: Int, plan: PlanLines, drops: Set<String>) throws -> Double {
        let writeDrops = statements[s].isWrite ? drops.filter { name in statements[s].writtenTables.contains(indexes.indexes.first { $0.name == name }?.table ?? "") } : []
        let key = PlanLines(lines: plan.lines + writeDrops.sorted().map { "DROP \($0)" })
        if let known = measured[s][key] { return known.cost }
        let creates = Set(plan.indexes).intersection(Set(candidateOrder))
        let needed = drops.intersection(relevant[s]).union(writeDrops)
        var map: [String: String] = [:]
        for name in creates { map[name] = candidates[name] }
        try work.set(creates: map, order: buildOrder(creates), drops: needed)
        timer.reset()
        let real = try PlanLines.read(statements[s].source.sql, values: statements[s].valueSets[0], on: work.connection)
        if real != plan { mismatches += 1 }
        let cost = try average(s)
        measured[s][key] = (cost, creates, needed)
        return cost
    }

    /// Σ count × cost over `members` under the configuration `elements`.
    func cost(of elements: Set<Element>, statements members: [Int]) throws -> Double {
        priced += 1
        let creates = Set(elements.filter { !$0.isDrop }.map(\.name)), drops = Set(elements.filter(\.isDrop).map(\.name))
        var total = 0.0
        for s in members {
            guard let plan = try plan(s, creates: creates, drops: drops) else { continue }
            var c = try planCost(s, plan: plan, drops: drops)
            if statements[s].isWrite {
                for name in creates where !plan.indexes.contains(name) { c += upkeep[s]?[name] ?? 0 }
            }
            total += statements[s].weight * c
        }
        return total
    }

    /// True when a create of `elements` is used by no plan of `members` under it (the set without it is better).
    func addsUnusedIndex(_ elements: Set<Element>, statements members: [Int]) throws -> Bool {
        let creates = Set(elements.filter { !$0.isDrop }.map(\.name)), drops = Set(elements.filter(\.isDrop).map(\.name))
        guard !creates.isEmpty else { return false }
        var used = Set<String>()
        for s in members { if let plan = try plan(s, creates: creates, drops: drops) { used.formUnion(plan.indexes) } }
        return !creates.isSubset(of: used)
    }

    // MARK: Step 3: search

    /// Groups of tables that statements join (a statement's tables are in one group).
    func tableGroups() -> [Set<String>] {
        var groups: [Set<String>] = []
        for statement in statements where !statement.tables.isEmpty {
            let touching = groups.indices.filter { !groups[$0].isDisjoint(with: statement.tables) }
            var merged = statement.tables
            for index in touching.reversed() { merged.formUnion(groups.remove(at: index)) }
            groups.append(merged)
        }
        return groups.sorted { $0.sorted().joined() < $1.sorted().joined() }
    }

    /// The group's elements: every removable store index on its tables (a drop may pay only beside a new
    /// index), then the candidates some plan used, the most promising first (what the best measured plan
    /// using it saves over the statement as the store is, less its writes' upkeep), up to ``Settings/width`` in all.
    func rankedElements(in group: Set<String>, statements members: [Int]) throws -> [Element] {
        let used = Set(members.flatMap { relevant[$0] })
        var kept: [Element] = indexes.indexes.filter { $0.isRemovable && group.contains($0.table) }
            .map { Element(name: $0.name, table: $0.table, isDrop: true) }
        var base: [Int: Double] = [:]
        for s in members { base[s] = try plan(s, creates: [], drops: []).map { try planCost(s, plan: $0, drops: []) } }
        var potential: [String: Double] = [:]
        for name in candidateOrder where used.contains(name) && group.contains(candidateTable[name]!) {
            var value = 0.0
            for s in members {
                guard let now = base[s] else { continue }
                let best = measured[s].values.filter { $0.creates.contains(name) }.map(\.cost).min()
                if let best { value += statements[s].weight * max(0, now - best) }
                value -= statements[s].weight * (upkeep[s]?[name] ?? 0)
            }
            potential[name] = value
        }
        let ranked = potential.keys.sorted { potential[$0]! != potential[$1]! ? potential[$0]! > potential[$1]! : $0 < $1 }
        for name in ranked where kept.count < settings.width {
            kept.append(Element(name: name, table: candidateTable[name]!, isDrop: false))
        }
        return kept
    }

    /// Depth-first over the subsets of `elements` of up to ``Settings/depth``, keeping the best few.
    func search(_ elements: [Element], statements members: [Int]) throws -> [(Set<Element>, Double)] {
        var best: [(Set<Element>, Double)] = [([], try cost(of: [], statements: members))]
        let keep = settings.finalists
        func consider(_ set: Set<Element>, _ value: Double) {
            best.append((set, value))
            best.sort { $0.1 < $1.1 }
            if best.count > keep { best.removeLast() }
        }
        func visit(_ set: Set<Element>, from next: Int) throws {
            if !set.isEmpty {
                let value = try cost(of: set, statements: members)
                if try !addsUnusedIndex(set, statements: members) { consider(set, value) }
            }
            guard set.count < settings.depth, next < elements.count else { return }
            let remaining = Set(elements[next...])
            if best.count == keep, try bound(set, remaining: remaining, statements: members) >= best[keep - 1].1 { return }
            for j in next..<elements.count { try visit(set.union([elements[j]]), from: j + 1) }
        }
        try visit([], from: 0)
        return best
    }

    /// The least cost any superset of `set` within `remaining` could have: each read at the cheapest of
    /// its measured plans those elements allow, each write likewise plus the upkeep of `set`'s creates.
    func bound(_ set: Set<Element>, remaining: Set<Element>, statements members: [Int]) throws -> Double {
        let allowed = set.union(remaining)
        let creates = Set(allowed.filter { !$0.isDrop }.map(\.name)), drops = Set(allowed.filter(\.isDrop).map(\.name))
        let fixed = Set(set.filter { !$0.isDrop }.map(\.name))
        var total = 0.0
        for s in members {
            let options = measured[s].values.filter { $0.creates.isSubset(of: creates) && $0.drops.isSubset(of: drops) }.map(\.cost)
            guard var c = options.min() else { continue }
            if statements[s].isWrite { for name in fixed { c += upkeep[s]?[name] ?? 0 } }
            total += statements[s].weight * c
        }
        return total
    }

    // MARK: Step 4: finalists

    /// The best sets over all groups: each group's best together, then each with one group's next best.
    func combine(_ perGroup: [[(Set<Element>, Double)]], groupBases: [Double], base: Double) -> [(Set<Element>, Double)] {
        guard !perGroup.isEmpty else { return [([], base)] }
        // The statements outside every group (they name no table) cost the same under every set.
        let outside = base - groupBases.reduce(0, +)
        let bestEach = perGroup.map { $0[0] }
        var results: [(Set<Element>, Double)] = [(bestEach.reduce(Set()) { $0.union($1.0) }, outside + bestEach.reduce(0) { $0 + $1.1 })]
        for (g, list) in perGroup.enumerated() {
            for alternative in list.dropFirst() {
                var set = Set<Element>()
                var value = outside
                for (h, chosen) in bestEach.enumerated() {
                    let pick = h == g ? alternative : chosen
                    set.formUnion(pick.0)
                    value += pick.1
                }
                results.append((set, value))
            }
        }
        results.sort { $0.1 < $1.1 }
        var distinct: [(Set<Element>, Double)] = []
        for result in results where !distinct.contains(where: { $0.0 == result.0 }) && distinct.count < settings.finalists { distinct.append(result) }
        return distinct
    }

    func changeSet(of elements: Set<Element>) -> ChangeSet {
        let creates = elements.filter { !$0.isDrop }.map { candidates[$0.name]! }
        return ChangeSet(creates: ChangeSet(creates: creates).buildOrder, drops: elements.filter(\.isDrop).map(\.name).sorted())
    }
}
