// MARK: Stage 2, after the greedy rounds: a pick revisited once later picks took some of its statements

extension AnalysisRun {
    /// Revisits each pick that later picks took statements from: the greedy choice weighed it on every
    /// statement it served then, and one that served a statement another pick now serves better may no longer
    /// be the best index for the ones left (a held-out ticket store: `(queue_id, state, created)` won the
    /// queue pages because it also served a count by queue, which `(queue_id, created)` took next; for the
    /// pages alone another form may do less work). Each measured candidate of its table that serves every
    /// statement it still serves, with the other picks in place (the what-if planner), is compared with it on
    /// those statements and the table's writes, by the figures already measured (``work(of:on:)``); one
    /// that does less work by more than ``TieBreak/workTolerance`` replaces it: the pick is dropped, the
    /// statements fall back, and the other is built as a pick (``buildPick(_:name:measurer:minimumBenefit:)``),
    /// or, when it is not worth its build after all, the pick is built again as it was.
    /// - Parameters:
    ///   - pool: every candidate measured so far (the first measurement), among which the replacements are.
    ///   - measured: the candidates still in play; loses a replacement.
    /// - Throws: ``StoreError`` when the snapshot cannot be put back.
    mutating func revisePicks(pool: [MeasuredCandidate], measured: inout [MeasuredCandidate], measurer: CandidateMeasurer,
                              whatIf: WhatIfPlanner, names: inout Set<String>) throws {
        // A replacement is built last and listed last: among indexes the planner rates equal it takes the one
        // created last, so the migration creates them in the order they were built and measured.
        var offset = 0
        var visits = picks.count
        while offset < picks.count, visits > 0 {
            visits -= 1
            guard !isOverBudget, let left = statementsLeft(to: picks[offset]),
                  let replacement = replacement(for: picks[offset], serving: left, pool: pool, whatIf: whatIf) else {
                offset += 1
                continue
            }
            // As its earlier rejection names it (the name is chosen among the indexes that exist then).
            let replacementSQL = rejection(replacement.candidate, score: nil, reason: .servedByEarlierPicks).sql
            let old = picks.remove(at: offset)
            try measurer.drop(old.name)
            _ = reprofile(table: old.measured.candidate.table, index: old.name)
            let name = indexName(for: replacement.candidate, taken: names)
            names.insert(name.sqlFolded)
            let count = picks.count
            _ = try buildPick(replacement, name: name, measurer: measurer, minimumBenefit: decisionMinimumBenefit)
            guard picks.count > count else {
                // Not worth its build after all: the pick goes back as it was chosen (built last, so listed last).
                _ = try measurer.measure(old.measured.candidate, name: old.name, users: [], writes: [], profiles: profiles, keep: true, positions: [])
                _ = reprofile(table: old.measured.candidate.table, index: old.name)
                picks.append(old)
                continue
            }
            let taken = Set(old.measured.users).subtracting(left)
            let takers = picks.map(\.name).filter { pick in
                pick != name && taken.contains { profiles[$0].currentPlan?.indexesUsed.contains { $0.sqlFolded == pick.sqlFolded } == true }
            }
            rejected.removeAll { $0.sql == replacementSQL }
            rejected.append(rejection(old.measured.candidate, score: old.score, reason: .revisedForStatementsLeft(replacement: name, takenBy: takers)))
            measured.removeAll { $0.candidate.key == replacement.candidate.key }
        }
    }

    /// The measured candidate that serves every statement in `serving` with the other picks in place and does
    /// less work than `pick` on them and the table's writes, by more than ``TieBreak/workTolerance`` (the least
    /// such); nil when none does.
    private func replacement(for pick: IndexSelection.Pick, serving: Set<Int>, pool: [MeasuredCandidate], whatIf: WhatIfPlanner) -> MeasuredCandidate? {
        guard let mine = work(ofPick: pick, on: serving) else { return nil }
        let chosen = picks.filter { $0.name != pick.name }.map(\.measured.candidate)
        let better = revisionCandidates(for: pick, pool: pool).compactMap { other -> (MeasuredCandidate, Double)? in
            guard let theirs = work(of: other, on: serving), theirs < mine * (1 - TieBreak.workTolerance) else { return nil }
            let use = whatIfUse(of: other.candidate, chosen: chosen, whatIf: whatIf)
            guard Set(use.users).isSuperset(of: serving) else { return nil }
            var kept = other
            kept.users = use.users
            kept.termsUsed = use.terms
            kept.whatIfPlans = use.plans
            return (kept, theirs)
        }
        return better.min { $0.1 < $1.1 }?.0
    }

    /// What `pick` costs, as the selection sees timings (``decision(_:)``), frequency-weighted, in seconds: the
    /// statements at `serving` as they are now (they use it), plus what building it added to each write on its
    /// table that does not use it (its score's write effects); nil when a figure is missing.
    func work(ofPick pick: IndexSelection.Pick, on serving: Set<Int>) -> Double? {
        var total = 0.0
        for position in serving {
            guard let timing = profiles[position].current else { return nil }
            total += decision(timing).medianSeconds * profiles[position].weight
        }
        for effect in pick.score.effects {
            guard let position = profiles.firstIndex(where: { $0.statement.fingerprint.id == effect.statementID }),
                  profiles[position].isWrite, !serving.contains(position) else { continue }
            total += (decision(effect.after).medianSeconds - decision(effect.before).medianSeconds) * profiles[position].weight
        }
        return total
    }

    /// What `candidate` costs, as the selection sees timings (``decision(_:)``), frequency-weighted, in seconds:
    /// the statements at `serving` with it in place, plus what it added to each write on its table (its time
    /// with the candidate less its time just before); nil when a figure is missing.
    func work(of candidate: MeasuredCandidate, on serving: Set<Int>) -> Double? {
        var total = 0.0
        for position in serving {
            guard let timing = candidate.after[position] else { return nil }
            total += decision(timing).medianSeconds * profiles[position].weight
        }
        for position in candidate.writes where !serving.contains(position) {
            guard let after = candidate.after[position], let before = candidate.writesBefore[position] ?? profiles[position].current else { return nil }
            total += (decision(after).medianSeconds - decision(before).medianSeconds) * profiles[position].weight
        }
        return total
    }

    /// The statements (profile positions) `pick` still serves when later picks took some of those it was chosen
    /// for; nil when it serves them all, none of them, or was kept as part of a join's set.
    private func statementsLeft(to pick: IndexSelection.Pick) -> Set<Int>? {
        guard pick.neededBy == nil else { return nil }
        let name = pick.name.sqlFolded
        let serving = Set(profiles.indices.filter { position in
            profiles[position].currentPlan?.indexesUsed.contains { $0.sqlFolded == name } == true
        })
        let chosenFor = Set(pick.measured.users)
        guard !serving.isEmpty, serving.isSubset(of: chosenFor), serving != chosenFor else { return nil }
        return serving
    }

    /// The measured candidates of `pick`'s table that could take its place: a model can declare them (where
    /// that matters), they are no pick and no left prefix of one, and the size budget holds with them instead.
    private func revisionCandidates(for pick: IndexSelection.Pick, pool: [MeasuredCandidate]) -> [MeasuredCandidate] {
        let chosen = picks.map(\.measured.candidate)
        let keys = Set(chosen.map(\.key))
        let table = pick.measured.candidate.table.sqlFolded
        let usedBytes = picks.reduce(Int64(0)) { $0 + storeBytes($1.measured.bytes, table: $1.measured.candidate.table) }
            - storeBytes(pick.measured.bytes, table: pick.measured.candidate.table)
        return pool.filter { other in
            other.candidate.table.sqlFolded == table && !keys.contains(other.candidate.key) && isModelDeclarable(other.candidate)
                && !chosen.contains { other.candidate.isRedundant(beside: $0) }
                && options.maxIndexBytes.map { usedBytes + storeBytes(other.bytes, table: other.candidate.table) <= $0 } ?? true
        }
    }
}
