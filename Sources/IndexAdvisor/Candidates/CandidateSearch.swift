import Foundation

/// Every candidate the generator proposed, in the order they were first proposed.
struct GeneratedCandidates {
    /// Each candidate by its key.
    var origins: [String: IndexCandidate] = [:]
    /// The keys in the order they were first proposed.
    var order: [String] = []
    /// The statement (profile position) that proposed each candidate first.
    var proposer: [String: Int] = [:]
    /// Every candidate generated for each statement, for the joint search of
    /// ``AnalysisRun/chooseJoinSets(proposed:measurer:whatIf:names:)``.
    var proposed: [Int: [IndexCandidate]] = [:]
}

/// The candidates some statement's what-if plan uses, in measuring order, with their users (profile positions).
struct WhatIfPool {
    var candidates: [(IndexCandidate, [Int])]
    /// WHERE terms the users' what-if plans resolve through each candidate, by key.
    var termsUsed: [String: Int]
    /// Each candidate's users' what-if plan signatures, by key (``EquivalentCandidates/signature(of:index:)``).
    var whatIfPlans: [String: [Int: String]]
}

/// Stage 2's first steps (https://sqlite.org/queryplanner.html): candidates from each statement's shape,
/// the what-if planner's verdict on which a statement would use, and each of those built and measured once.
extension AnalysisRun {
    /// Generates the candidates of every statement that deserves them (its table accesses, its expression
    /// filters, orders several statements share); the ones set aside go to ``rejected`` with the reason.
    mutating func generateCandidates() -> GeneratedCandidates {
        var byTable: [String: [Int]] = [:]
        for (position, profile) in profiles.enumerated() where profile.isUsable {
            for table in Set((profile.shape?.tables ?? []).map(\.table.sqlFolded)) { byTable[table, default: []].append(position) }
        }
        statementsByTable = byTable
        statistics.prefetch(candidateStatisticsRequests(), workers: Self.statisticsWorkers, open: snapshot.openReader)
        var generator = CandidateGenerator(schema: schema, statistics: statistics)
        var origins: [String: IndexCandidate] = [:]
        var order: [String] = []
        var proposer: [String: Int] = [:]
        var proposed: [Int: [IndexCandidate]] = [:]
        // A statement with a plan problem, or one whose index search leaves terms that throw rows away.
        let deserving = profiles.indices.filter { position in
            let profile = profiles[position]
            return profile.isUsable && (profile.deservesCandidates || profile.rowCheckedTerms.contains { access, terms in
                generator.discardsRows(terms, table: access.table, samples: profile.samples)
            })
        }
        for position in deserving {
            let profile = profiles[position]
            for access in profile.shape?.tables ?? [] {
                let setAsideBefore = generator.setAside.count
                let generated = generator.candidates(for: access, observed: profile.statement.observedBindings, samples: profile.samples,
                                                     inJoin: Set((profile.shape?.tables ?? []).map(\.table.sqlFolded)).count >= 2)
                proposed[position, default: []] += generated
                candidatesProposed[position, default: 0] += generated.count + generator.setAside.count - setAsideBefore
                for candidate in generated where origins[candidate.key] == nil {
                    origins[candidate.key] = candidate
                    proposer[candidate.key] = position
                    order.append(candidate.key)
                }
            }
        }
        for position in deserving {
            let expressions = generator.expressionCandidates(for: profiles[position].expressionFilters)
                + generator.expressionPartials(for: profiles[position].expressionFilters, keyed: proposed[position] ?? [],
                                               observed: profiles[position].statement.observedBindings)
            candidatesProposed[position, default: 0] += expressions.count
            for candidate in expressions where origins[candidate.key] == nil {
                origins[candidate.key] = candidate
                proposer[candidate.key] = position
                order.append(candidate.key)
            }
        }
        for candidate in generator.sharedOrderCandidates(excluding: Set(order)) {
            origins[candidate.key] = candidate
            order.append(candidate.key)
        }
        statistics = generator.statistics
        for (candidate, reason) in generator.setAside where origins[candidate.key] == nil {
            rejected.append(rejection(candidate, score: nil, reason: reason))
        }
        return GeneratedCandidates(origins: origins, order: order, proposer: proposer, proposed: proposed)
    }

    /// Asks the what-if planner about the candidates in ``CandidateOrder``'s order until the measuring budget
    /// is filled, keeps one per set of equal what-if plans, and rejects the rest with the reason.
    mutating func askWhatIf(_ generated: GeneratedCandidates, whatIf: WhatIfPlanner) -> WhatIfPool {
        // Every statement's basic candidates before any wider variant, statements taking turns by the time
        // they could save, so that the budget cannot starve the obvious index of a hot statement. The order
        // comes first, and the what-if planner is asked in that order only until the measuring budget is
        // filled with candidates some statement would use (and that plan unlike each other): asking about
        // every candidate for every statement that could use it grows with the square of the workload
        // (issue 18: 3,000 statements spent 108 s there).
        let (origins, order, proposer) = (generated.origins, generated.order, generated.proposer)
        let items = order.enumerated().map { index, key in
            let candidate = origins[key]!
            let statement = proposer[key]
            let access = statement.flatMap { profiles[$0].shape?.access(to: candidate.table) }
            return CandidateOrder.Item(index: index, proposer: statement, isBasic: CandidateOrder.isBasic(candidate, for: access))
        }
        let ordered = CandidateOrder.order(items) { position in
            // On the counters when the selection decides on them: which candidates fit in the measured budget
            // must not follow the machine's load either.
            profiles[position].weight * (profiles[position].timingBefore.map(decision)?.medianSeconds ?? 0)
        }.map { order[$0] }
        var pool: [(IndexCandidate, [Int])] = []
        var termsUsed: [String: Int] = [:]
        var whatIfPlans: [String: [Int: String]] = [:]
        var planGroups = Set<String>()
        var asked = 0
        for key in ordered {
            if planGroups.count >= options.maxCandidatesMeasured { break }
            asked += 1
            let candidate = origins[key]!
            if schema.hasStatistics, let table = schema.table(named: candidate.table) {
                whatIf.statistics[key] = statistics.statRow(table: table, columns: candidate.columns.compactMap(\.name))
            }
            let use = whatIfUse(of: candidate, chosen: [], whatIf: whatIf)
            termsUsed[key] = use.terms
            whatIfPlans[key] = use.plans
            if !use.users.isEmpty {
                pool.append((candidate, use.users))
                planGroups.insert(EquivalentCandidates.groupKey(candidate, plans: use.plans))
            }
        }
        // One build per set of equal what-if plans (issue 18): the others would measure the same work again.
        let equivalent = EquivalentCandidates.choose(pool.map(\.0), plans: pool.map { whatIfPlans[$0.0.key] ?? [:] }) { candidate in
            guard let table = schema.table(named: candidate.table), let lead = candidate.columns.first?.name else { return nil }
            return statistics.statistics(table: table, columns: [lead])?.matchedFraction
        }
        for (other, kept) in equivalent.leftOut.sorted(by: { $0.key < $1.key }) {
            rejected.append(rejection(pool[other].0, score: nil, reason: .samePlanAsCandidate(table: pool[kept].0.table, columns: pool[kept].0.columns.map(\.displayName),
                                                                                 keptHasFewerColumns: pool[kept].0.columns.count < pool[other].0.columns.count)))
        }
        pool = equivalent.kept.map { pool[$0] }
        // Past the budget, the candidates not asked about wait too: they count for the statement that proposed them.
        for key in ordered.dropFirst(asked) {
            rejected.append(rejection(origins[key]!, score: nil, reason: .candidateLimit(options.maxCandidatesMeasured)))
            if let statement = proposer[key] { unmeasuredCandidates[statement, default: 0] += 1 }
        }
        return WhatIfPool(candidates: pool, termsUsed: termsUsed, whatIfPlans: whatIfPlans)
    }

    /// The profiles whose what-if plan uses `candidate`, and how many WHERE terms those plans resolve through it.
    func whatIfUse(of candidate: IndexCandidate, chosen: [IndexCandidate], whatIf: WhatIfPlanner)
        -> (users: [Int], terms: Int, plans: [Int: String]) {
        var users: [Int] = []
        var terms = 0
        var plans: [Int: String] = [:]
        let folded = candidate.table.sqlFolded
        let table = schema.table(named: candidate.table)
        for position in statementsByTable[folded] ?? [] {
            let profile = profiles[position]
            guard let accesses = profile.shape?.tables.filter({ $0.table.sqlFolded == folded }),
                  accesses.contains(where: { PlausibleUse.could(candidate, serve: $0, table: table, hasStatistics: schema.hasStatistics) })
            else { continue }
            // Only the chosen indexes on the statement's own tables can change its plan.
            let tables = Set((profile.shape?.tables ?? []).map(\.table.sqlFolded))
            guard let (plan, names) = try? whatIf.plan(for: profile.planSQL, bindings: profile.planBindings,
                                                      with: chosen.filter { tables.contains($0.table.sqlFolded) } + [candidate]),
                  let name = names.last?.sqlFolded else { continue }
            let uses = plan.findings.filter { $0.index?.sqlFolded == name }
            if !uses.isEmpty {
                users.append(position)
                plans[position] = EquivalentCandidates.signature(of: plan, index: name)
                terms += uses.reduce(0) { $0 + ($1.constraints.map { $0.components(separatedBy: " AND ").count } ?? 0) }
            }
        }
        return (users, terms, plans)
    }
}
