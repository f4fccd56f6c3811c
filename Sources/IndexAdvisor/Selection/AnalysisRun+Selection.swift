import Foundation

/// Stage 2 of an analysis: candidates, then the one selector over the snapshot's cost oracle.
extension AnalysisRun {
    /// Generates and screens candidates (``generateCandidates()``, ``askWhatIf(_:whatIf:)``), runs the
    /// ``Selector`` from the store as it is over a ``SnapshotOracle``, and turns its configuration into picks
    /// measured each with the picks before it (``attributePicks(_:indexes:whatIf:)``); on a Core Data or
    /// SwiftData store it runs again over the forms no model can declare, on top of the picks, for the
    /// alternatives. Every candidate not chosen is rejected with the reason its last priced move gives.
    /// - Throws: ``StoreError`` when the snapshot has too little room or cannot be changed.
    mutating func selectIndexes() throws {
        report("candidates", 0, 0)
        candidatesGenerated = true
        let generated = generateCandidates()
        let whatIf = try WhatIfPlanner(schema: schema, enforcesForeignKeys: enforcesForeignKeys, recursiveTriggers: recursiveTriggers)
        let screened = askWhatIf(generated, whatIf: whatIf)
        let pool = screened.candidates.map(\.0) + joinCandidates(generated, excluding: Set(screened.candidates.map(\.0.key)))
        try checkSpace(for: pool)
        let context = try selectionContext(pool: pool, whatIf: whatIf)
        let run = self
        let selector = try context.selector(pool: context.declarable, removableStore: context.removable, shouldStop: { run.isOverBudget })
        // The first round prices every candidate on its own (each built once): the measuring; then the selection.
        selector.progress = { [report, weak selector] taken in
            if taken == 0, selector?.trace.rounds.isEmpty ?? true { report("measuring candidates", 0, pool.count) } else { report("selection", taken, run.options.maxNewIndexes) }
        }
        let chosen = try selector.run()
        budgetSpent = selector.stopped
        if selector.stopped, selector.trace.rounds.isEmpty {
            // Stopped before a move was priced: every candidate waits, and counts for the statements it would serve.
            for (_, users) in screened.candidates { for position in users { unmeasuredCandidates[position, default: 0] += 1 } }
        }
        selectionTrace = selector.trace
        Self.writeTrace(selector.trace.lines)
        var trace = selector.trace
        if schema.coreData != nil { trace.rounds += try selectAlternatives(on: chosen, context: context) }
        var (final, givenUp) = try attributePicksThatPay(chosen, indexes: context.indexes, oracle: context.full, trace: selector.trace, policy: context.policy)
        var searched = selector.trace
        var out = Set(chosen.added.map(\.key)).subtracting(final.added.map(\.key))
        try searchAgain(from: &final, givenUp: &givenUp, out: &out, searched: &searched, context: context)
        trace.rounds += searched.rounds.dropFirst(selector.trace.rounds.count)
        selectionTrace = searched
        alternatives = try attributeAlternatives(on: final, indexes: context.indexes, oracle: context.full)
        // The store's indexes the search took out stay out: the final state is its configuration, and the
        // review of existing indexes reports each of them (measured by putting it back).
        removedStoreIndexes = final.dropped
        try context.indexes.bring(to: IndexConfiguration(dropped: final.dropped, added: picks.map(\.measured.candidate)))
        // Candidates left out stay built and hidden while the selection runs; nothing after it sees them again.
        try context.indexes.retireHiddenCandidates()
        rejected += givenUp
        rejectUnchosen(pool, chosen: final, trace: trace, failures: context.indexes.buildFailures,
                       users: Dictionary(screened.candidates.map { ($0.0.key, $0.1) }, uniquingKeysWith: { a, _ in a }),
                       decided: out)
        selectionMismatches = context.oracle.planMismatches
    }

    /// A pick given up frees its slot (--max-indexes-per-table, --max-new-indexes): the search goes on from
    /// `final`, without every candidate `out` names, until no more picks are given up, so that no rejection cites
    /// a limit the advice is under (hostile round 5, F7: "budget reached (--max-indexes-per-table 6)" beside 5
    /// picks on the table). Each search's rounds are added to `searched`.
    private mutating func searchAgain(from final: inout IndexConfiguration, givenUp: inout [RejectedCandidate], out: inout Set<String>,
                                      searched: inout SelectionTrace, context: SelectionContext) throws {
        let run = self
        while !givenUp.isEmpty, !isOverBudget {
            let excluded = out
            let again = try context.selector(pool: context.declarable.filter { !excluded.contains($0.key) }, removableStore: context.removable,
                                             start: final, shouldStop: { run.isOverBudget })
            let next = try again.run()
            Self.writeTrace(["search again, without \(out.sorted())"] + again.trace.lines)
            searched.rounds += again.trace.rounds
            guard next != final else { break }
            let (kept, more) = try attributePicksThatPay(next, indexes: context.indexes, oracle: context.full, trace: searched, policy: context.policy)
            out.formUnion(Set(next.added.map(\.key)).subtracting(kept.added.map(\.key)))
            final = kept
            givenUp += more
            if more.isEmpty { break }
        }
    }

    /// On a Core Data or SwiftData store: the forms no model can declare, searched on top of `chosen` (which stays),
    /// give the alternatives. Returns the search's rounds.
    private mutating func selectAlternatives(on chosen: IndexConfiguration, context: SelectionContext) throws -> [SelectionTrace.Round] {
        let run = self
        let alternative = try context.selector(pool: context.pool.filter { !run.isModelDeclarable($0) }, fixed: Set(chosen.added.map(\.key)),
                                               start: chosen, shouldStop: { run.isOverBudget })
        let extended = try alternative.run()
        alternativeTrace = alternative.trace
        alternativeCandidates = extended.added.filter { !chosen.contains($0) }
        return alternative.trace.rounds
    }

    /// With `INDEXADVISOR_TRACE` set, the selector's trace lines go to standard error.
    private static func writeTrace(_ lines: [String]) {
        guard ProcessInfo.processInfo.environment["INDEXADVISOR_TRACE"] != nil else { return }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// What every search of one analysis shares: the snapshot's indexes, the screening oracle and the one that
    /// confirms (the run's full timings; the same oracle when the counters decide), both seeded with the
    /// baseline's timings, the policy, and each candidate's estimated size and lead column's matched share.
    private mutating func selectionContext(pool: [IndexCandidate], whatIf: WhatIfPlanner) throws -> SelectionContext {
        let run = self
        let indexes = SnapshotIndexes(snapshot: snapshot, schema: schema, savedStatistics: savedStatistics) { candidate, taken in
            run.indexName(for: candidate, taken: run.takenNames.union(taken))
        }
        indexes.clock = timer.clock
        var room = IndexSpaceCheck(connection: snapshot.connection, schema: schema)
        indexes.builtBytesLimit = room.bytesKept(for: pool, keptAtOnce: min(options.maxNewIndexes, pool.count))
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        let memoises = options.memoisesCosts
        let oracle = SnapshotOracle(profiles: profiles, whatIf: whatIf, indexes: indexes, timer: screeningTimer, planner: planner, memoises: memoises)
        // Moves are priced on one pass when the counters decide; a move is taken, and the picks' figures
        // are, on the run's full timings, starting from the baseline the profiling stage took.
        let full = decidesOnCounters ? SnapshotOracle(profiles: profiles, whatIf: whatIf, indexes: indexes, timer: timer, planner: planner, memoises: memoises) : oracle
        for (s, profile) in profiles.enumerated() where profile.isUsable {
            guard let timing = profile.timingBefore else { continue }
            try? full.seed(s, under: .store, timing: timing, plan: profile.planBefore)
            if full !== oracle { try? oracle.seed(s, under: .store, timing: timing, plan: profile.planBefore) }
        }
        var space = IndexSpaceCheck(connection: snapshot.connection, schema: schema)
        var estimated: [String: Int64] = [:], shares: [String: Double] = [:]
        for candidate in pool {
            estimated[candidate.key] = space.estimatedBytes(of: candidate)
            if let table = schema.table(named: candidate.table), let lead = candidate.columns.first?.name {
                shares[candidate.key] = statistics.statistics(table: table, columns: [lead])?.matchedFraction
            }
        }
        namedByIndexedBy = indexesNamedByIndexedBy()
        return SelectionContext(indexes: indexes, oracle: oracle, full: full, policy: SelectionPolicy(options: options), pool: pool,
                                declarable: pool.filter(isModelDeclarable), removable: removableStoreIndexes(named: namedByIndexedBy ?? []),
                                estimatedBytes: estimated, leadShares: shares)
    }

    /// The store's indexes the selector may take out (a move like any other, DESIGN-selection.md), given the
    /// indexes `named` by `INDEXED BY` (``indexesNamedByIndexedBy()``): every index
    /// made by `CREATE INDEX` that nothing else keeps (``ExistingIndexReview/caveat(for:schema:connection:named:)``:
    /// no UNIQUE constraint or uniqueness rule, no `INDEXED BY` naming it, not one Core Data owns), and that does
    /// not lead with the child column of a foreign key: the parent's deletes and updates search the child by it
    /// (foreignkeys.html#fk_indexes), writes a workload may not show (the review still judges those).
    func removableStoreIndexes(named: Set<String>) -> [Member] {
        schema.tables.flatMap { table in
            table.indexes.filter { index in
                guard index.sql != nil,
                      ExistingIndexReview.caveat(for: index, schema: schema, connection: snapshot.connection, named: named) == nil else { return false }
                guard let lead = index.columns.first?.name else { return true }
                return !ForeignKeys.isChildColumn(lead, of: table, connection: snapshot.connection)
            }.map { Member.store(name: $0.name.sqlFolded, table: table.name.sqlFolded) }
        }
    }

    /// The indexes (folded names) that `INDEXED BY` names in the store's views and triggers and in every
    /// statement of the workload, those set aside too (one this SQLite cannot parse still runs in the app, and
    /// fails to prepare once the index it names is gone: lang_indexedby.html).
    func indexesNamedByIndexedBy() -> Set<String> {
        workload.statements.reduce(into: ExistingIndexReview.namedIndexes(in: snapshot.connection)) { names, statement in
            names.formUnion(ExistingIndexReview.indexedByNames(in: statement.text))
        }
    }

    /// Candidates for joins that no single index changes: those proposed for a statement that reads two or
    /// more tables and still scans one, which the planner alone would not use (a pair must be priced together).
    func joinCandidates(_ generated: GeneratedCandidates, excluding: Set<String>) -> [IndexCandidate] {
        var found: [IndexCandidate] = []
        var seen = excluding
        for (position, candidates) in generated.proposed.sorted(by: { $0.key < $1.key }) where JoinSets.isCandidate(profiles[position]) {
            for candidate in candidates where seen.insert(candidate.key).inserted && found.count < options.maxCandidatesMeasured / 2 {
                found.append(candidate)
            }
        }
        return found
    }
}

/// The state every search of one analysis shares (``AnalysisRun/selectIndexes()``).
struct SelectionContext {
    let indexes: SnapshotIndexes
    /// The oracle moves are priced on, and the one that confirms a move taken (the same when the counters decide).
    let oracle: SnapshotOracle
    let full: SnapshotOracle
    let policy: SelectionPolicy
    /// Every candidate screened in, those a model can declare, and the store's indexes a search may take out.
    let pool: [IndexCandidate]
    let declarable: [IndexCandidate]
    let removable: [Member]
    /// Candidates' estimated sizes in bytes, and their lead columns' matched shares, by candidate key.
    let estimatedBytes: [String: Int64]
    let leadShares: [String: Double]

    /// A ``Selector`` over this analysis's oracles and policy.
    func selector(pool: [IndexCandidate], removableStore: [Member] = [], fixed: Set<String> = [], start: IndexConfiguration = .store,
                  shouldStop: @escaping () -> Bool) throws -> Selector {
        let estimated = estimatedBytes, shares = leadShares
        return try Selector(oracle: oracle, policy: policy, pool: pool, removableStore: removableStore, fixed: fixed, start: start,
                            bytes: { member in
                                if case .candidate(let candidate) = member { return estimated[candidate.key] }
                                return nil
                            },
                            shouldStop: shouldStop, confirming: full, leadShare: { shares[$0.key] })
    }
}
