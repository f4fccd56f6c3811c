// MARK: Stage 3, before the unused picks are dropped: a pick the planner passed over only for the order

extension AnalysisRun {
    /// Builds each pick in `unused` (folded names: no final plan uses them) again, after every other index,
    /// and keeps it, listed last, when a statement's plan then uses it and it saves at least the selection's
    /// minimum net of its writes (``decisionMinimumBenefit``, in the selection's terms, ``decision(_:)``).
    /// Among indexes the planner rates equal it takes the one created last (the order of `sqlite_schema`),
    /// so a pick built before another that serves the same statement can lose to it only for that order: a
    /// team store's partial `membership(team_id) WHERE role = 'admin'`, chosen for a count of admins, was
    /// passed over for the plain `membership(team_id)` picked after it, and dropped, while built after it the
    /// count reads only the admins' entries. The others are left in place, unused, for the caller to drop.
    /// - Returns: the names (folded) of the picks kept.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when an index cannot be dropped.
    mutating func keepUnusedPicksBuiltLast(_ unused: Set<String>) throws -> Set<String> {
        let measurer = finalStageMeasurer
        var kept = Set<String>()
        for pick in picks where unused.contains(pick.name.sqlFolded) && pick.neededBy == nil {
            let candidate = pick.measured.candidate
            // The table's statements as they are without it: its writes no longer maintain it.
            try measurer.drop(pick.name)
            _ = reprofile(table: candidate.table, index: "")
            guard let changes = try rebuild(pick, measurer: measurer) else { continue }
            if changes.contains(where: \.isUser), savesMinimum(changes) {
                var moved = pick
                moved.score = CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite)
                moved.builtBeside = Set(picks.map(\.name.sqlFolded)).subtracting([pick.name.sqlFolded])
                picks.removeAll { $0.name == pick.name }
                picks.append(moved)
                kept.insert(pick.name.sqlFolded)
            }
        }
        return kept
    }
}
