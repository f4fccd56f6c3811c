// MARK: Stage 3, before the final timings: each pick's figures measured with exactly the picks listed above it

extension AnalysisRun {
    /// The first pick whose figures were not measured with exactly the picks listed above it in place; nil
    /// when every pick's were. A pick measured beside an index that is no pick any more (revised, or dropped
    /// as unused) is credited only with what it saved over that index: a habit store's `(ZISSKIPPED, ZDATE)`
    /// showed 853 → 537 µs for its fetch, measured over a `(ZDATE)` pick that was later dropped, while the
    /// fetch went 76 ms → 537 µs, and its saving was missing from every figure but the workload's total.
    func firstStalePick() -> Int? {
        var above = Set<String>()
        for (offset, pick) in picks.enumerated() {
            if pick.builtBeside != above { return offset }
            above.insert(pick.name.sqlFolded)
        }
        return nil
    }

    /// Measures the picks from ``firstStalePick()`` on again, in their order: drops them, re-times what they
    /// served without them, then builds each again with the ones above it in place and takes its figures
    /// from that build (``reprofile(table:index:)``), so the figures of the list add up to the workload's
    /// saving, as the report says. A pick that, measured so, no longer saves at least the selection's
    /// minimum (``decisionMinimumBenefit``) is dropped and rejected as not worth building; a member of a
    /// join's set is kept, as the set was chosen whole, and so is a pick in `keeping` (folded names: picks
    /// measured again only because the migration's order moved them, ``picksInMigrationOrder``).
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when an index cannot be dropped.
    mutating func remeasureStalePicks(keeping: Set<String> = []) throws {
        guard let first = firstStalePick() else { return }
        report("re-measuring picks", 0, picks.count - first)
        let measurer = finalStageMeasurer
        let stale = Array(picks[first...])
        picks.removeSubrange(first...)
        for pick in stale.reversed() { try measurer.drop(pick.name) }
        var tables: [String: String] = [:]
        for pick in stale { tables[pick.measured.candidate.table.sqlFolded] = pick.measured.candidate.table }
        for table in tables.keys.sorted() { _ = reprofile(table: tables[table]!, index: "") }
        let leads = Set(stale.compactMap { $0.neededBy?.index.sqlFolded })
        for pick in stale {
            report("re-measuring picks", picks.count - first, stale.count)
            let candidate = pick.measured.candidate
            guard let changes = try rebuild(pick, measurer: measurer) else { continue }
            let inSet = pick.neededBy != nil || leads.contains(pick.name.sqlFolded) || keeping.contains(pick.name.sqlFolded)
            guard inSet || savesMinimum(changes) else {
                try measurer.drop(pick.name)
                putBack(changes)
                let score = CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite)
                rejected.append(rejection(candidate, score: score, reason: .notWorthBuilt(picks: picks.map(\.name), minimumSeconds: decisionMinimumBenefit)))
                continue
            }
            var again = pick
            again.score = CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite)
            again.builtBeside = Set(picks.map(\.name.sqlFolded))
            picks.append(again)
        }
    }

    /// The measurer stage 3 builds picks again with: it times nothing itself (the statements are re-profiled
    /// with the full timer, ``reprofile(table:index:)``).
    var finalStageMeasurer: CandidateMeasurer {
        CandidateMeasurer(snapshot: snapshot, timer: screeningTimer, storeHasStatistics: schema.hasStatistics, timesWritesBefore: false,
                          storeIndexNames: storeIndexNames)
    }

    /// Builds `pick`'s index again under its name with what is in place now, and re-profiles its table:
    /// the statements' timing changes, or nil (with a warning) when the index cannot be built.
    /// - Throws: ``StoreError`` when the snapshot cannot be put back.
    mutating func rebuild(_ pick: IndexSelection.Pick, measurer: CandidateMeasurer) throws -> [TimingChange]? {
        do {
            _ = try measurer.measure(pick.measured.candidate, name: pick.name, users: [], writes: [], profiles: profiles, keep: true, positions: [])
        } catch let error as StoreError {
            throw error
        } catch {
            warnings.append(.indexNotBuilt(name: pick.name, error: "\(error)"))
            return nil
        }
        return reprofile(table: pick.measured.candidate.table, index: pick.name)
    }

    /// True when `changes` save measurably, and at least the selection's minimum net of their writes, in the
    /// selection's terms (``decidedScore(_:)``, ``decisionMinimumBenefit``).
    func savesMinimum(_ changes: [TimingChange]) -> Bool {
        let decided = decidedScore(changes)
        return decided.hasSignificantGain && decided.netSeconds >= decisionMinimumBenefit
    }
}
