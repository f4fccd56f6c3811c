import Foundation

/// Why each candidate the selector did not keep was left out, read from its trace.
extension AnalysisRun {
    /// Rejects every candidate of `pool` that is neither a pick nor an alternative, with the reason the last
    /// move that would have built it got (``SelectionTrace/lastVerdict(building:)``).
    /// - Parameters:
    ///   - users: the statements (profile positions) each candidate's plan used from the planner alone.
    ///   - decided: the keys of candidates already rejected (picks the final figures gave up).
    mutating func rejectUnchosen(_ pool: [IndexCandidate], chosen: IndexConfiguration, trace: SelectionTrace, failures: [String: String],
                                 users: [String: [Int]] = [:], decided: Set<String> = []) {
        let kept = Set(picks.map(\.measured.candidate.key) + alternatives.map(\.measured.candidate.key))
        for candidate in pool where !kept.contains(candidate.key) && !decided.contains(candidate.key) {
            if let failure = failures[candidate.key] {
                rejected.append(rejection(candidate, score: nil, reason: .buildFailed(error: failure)))
                continue
            }
            guard let (price, verdict) = trace.lastVerdict(building: candidate) else {
                let seconds = Int(options.timeBudgetSeconds ?? 0)
                rejected.append(rejection(candidate, score: nil, reason: budgetSpent && trace.rounds.isEmpty ? .timeBudgetSpentBeforeMeasuring(seconds: seconds) : budgetSpent
                    ? .timeBudgetSpentInSelection(seconds: Int(options.timeBudgetSeconds ?? 0)) : .servedByEarlierPicks))
                continue
            }
            rejected.append(rejection(candidate, score: score(of: price), reason: reason(for: candidate, price: price, verdict: verdict, trace: trace,
                                                                                    users: users[candidate.key] ?? [])))
        }
    }

    /// The price of a move as the report's figures give it: reads saved and writes added, in wall-clock seconds.
    func score(of price: MovePrice) -> CandidateScore {
        let changes = price.changed.sorted { $0.key < $1.key }.map { s, change in
            TimingChange(position: s, before: change.before.timing, after: change.after.timing, planBefore: change.before.queryPlan,
                         planAfter: change.after.queryPlan, isUser: change.before.plan != change.after.plan)
        }
        var score = CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite)
        score.writeSecondsAdded += max(0, price.upkeepAdded)
        return score
    }

    func slowdowns(_ positions: [Int], in price: MovePrice) -> [StatementSlowdown] {
        positions.compactMap { s in
            price.changed[s].map { StatementSlowdown(statement: "S\(s + 1)", beforeSeconds: $0.before.timing.medianSeconds, afterSeconds: $0.after.timing.medianSeconds) }
        }
    }

    /// The rejection for `candidate` whose last priced move got `verdict`.
    func reason(for candidate: IndexCandidate, price: MovePrice, verdict: MoveVerdict, trace: SelectionTrace, users: [Int] = []) -> RejectionReason {
        let byCounters = decidesOnCounters
        if let removal = trace.removal(of: .candidate(candidate)) {
            if case .replace(_, let replacement) = removal.move {
                let name = picks.first { $0.measured.candidate.key == replacement.key }?.name ?? replacement.keyWithoutPredicate
                return .revisedForStatementsLeft(replacement: name, takenBy: picks.map(\.name).filter { $0 != name })
            }
            return .unusedOnceOthersExist(others: picks.map(\.name))
        }
        if !isModelDeclarable(candidate) { return .undeclarable(slower: slowdowns(price.slower, in: price), byCounters: byCounters) }
        switch verdict {
        case .unused:
            // The picks the statements it would serve use now; else the picks on its table.
            let used = Set(users.flatMap { profiles[$0].currentPlan?.indexesUsed ?? [] }.map(\.sqlFolded))
            let serving = picks.map(\.name).filter { used.contains($0.sqlFolded) }
            let onTable = picks.filter { $0.measured.candidate.table.sqlFolded == candidate.table.sqlFolded }.map(\.name)
            let named = serving.isEmpty ? onTable : serving
            return named.isEmpty ? .noMeasuredGain(byCounters: byCounters) : .plannerNoLongerUses(picks: named)
        case .belowMinimum(let net, let minimum):
            return price.faster.isEmpty ? .noMeasuredGain(byCounters: byCounters) : .belowMinimumBenefit(savedSeconds: net, minimumSeconds: minimum, byCounters: byCounters)
        case .costOutweighsSaving:
            return .costOutweighsSaving(slower: slowdowns(price.slower, in: price), churn: churns(for: candidate).first, byCounters: byCounters)
        case .slower(let positions):
            return .makesStatementsSlower(slowdowns(positions, in: price), byCounters: byCounters)
        case .limit:
            if picks.count >= options.maxNewIndexes { return .indexLimit(options.maxNewIndexes) }
            if let limit = options.maxIndexBytes, picks.filter({ $0.measured.candidate.table.sqlFolded == candidate.table.sqlFolded }).count < options.maxIndexesPerTable {
                return .indexBytesLimit(limit)
            }
            return .tableIndexLimit(options.maxIndexesPerTable)
        case .insideResolution(let gain, let loss, let minimum):
            return .marginalByCounters(countedSpeedup: price.speedup, readsSaved: gain, writesAdded: loss, minimumSeconds: minimum)
        case .costsMoreByTheClock(let reads, let writes):
            return .costsMoreByTheClock(readsSavedAtMost: reads, writesAddedAtLeast: writes)
        case .slowerByTheClock(let positions):
            return .slowerByTheClock(slowdowns(positions, in: price))
        case .notConfirmed(_, let minimum):
            return .notWorthBuilt(picks: picks.map(\.name), minimumSeconds: minimum)
        case .taken, .outranked:
            return budgetSpent ? .timeBudgetSpentInSelection(seconds: Int(options.timeBudgetSeconds ?? 0)) : .servedByEarlierPicks
        }
    }
}
