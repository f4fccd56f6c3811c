import Foundation

/// The picks' figures: each measured with the picks before it in the migration's order and no other new
/// index, as every report says (render --check holds it).
extension AnalysisRun {
    /// Builds `chosen`'s candidates one by one in its order and times, with the full timer, every statement
    /// each one changes the plan of and every write on its table; ``picks`` get those figures, and each
    /// profile's current timing and plan are those of the whole set.
    ///
    /// A join's set that the selector took as one move (`sets`, from its trace) and that sits together in the
    /// order is built as one step: its members alone leave the plan in between, which can be far slower than
    /// either end (a held-out CRM store: a partial index on `account(tier)` alone took a join from 2.1 ms to
    /// 1.48 s, and the compound built next was credited with saving 44 s of a workload whose reads took
    /// 8.5 s; the report failed its own `render --check`). The step's change to a statement goes to the last
    /// member its plan uses, a write's to the last member on its table: each member is still measured only
    /// with the picks above it.
    /// - Throws: ``StoreError`` when the snapshot cannot be changed.
    mutating func attributePicks(_ chosen: IndexConfiguration, indexes: SnapshotIndexes, oracle: SnapshotOracle, sets: [[IndexCandidate]] = []) throws {
        var costs: [Int: (timing: Timing, plan: QueryPlan?)] = [:]
        for (s, profile) in profiles.enumerated() where profile.isUsable {
            if let timing = profile.timingBefore { costs[s] = (timing, profile.planBefore) }
        }
        var configuration = IndexConfiguration.store
        picks = []
        for unit in Self.attributionUnits(chosen.added, sets: sets) {
            let next = unit.reduce(configuration) { $0.adding($1) }
            let changes = try changes(from: configuration, to: next, candidates: unit, oracle: oracle, costs: &costs)
            for (offset, candidate) in unit.enumerated() {
                let table = candidate.table.sqlFolded
                let owned: [TimingChange] = changes.filter { entry in
                    let owner = entry.change.isUser
                        ? unit.lastIndex { entry.usesAfter.contains(.candidate($0.key)) }
                        : unit.lastIndex { profiles[entry.change.position].writtenTables.contains($0.table.sqlFolded) }
                    return owner == offset
                }.map(\.change)
                let writes = profiles.indices.filter { profiles[$0].isUsable && profiles[$0].writtenTables.contains(table) }
                var measured = MeasuredCandidate(candidate: candidate, users: owned.filter(\.isUser).map(\.position), writes: writes,
                                                 buildSeconds: indexes.buildSeconds[candidate.key] ?? 0, bytes: indexes.bytes[candidate.key] ?? 0,
                                                 after: Dictionary(uniqueKeysWithValues: owned.map { ($0.position, $0.after) }))
                for change in owned where !change.isUser { measured.writesBefore[change.position] = change.before }
                if let table = schema.table(named: candidate.table), let lead = candidate.columns.first?.name {
                    measured.leadMatchedFraction = statistics.statistics(table: table, columns: [lead])?.matchedFraction
                }
                picks.append(IndexSelection.Pick(measured: measured, score: CandidateScore(changes: owned, profiles: profiles, countsWrite: countsWrite),
                                                 name: indexes.name(of: candidate)))
            }
            configuration = next
        }
        for (s, cost) in costs {
            profiles[s].current = cost.timing
            profiles[s].currentPlan = cost.plan
        }
    }

    /// `added` (in migration order) cut into the steps attribution builds: each of `sets` whose members all
    /// sit together in `added` is one step, every other candidate one of its own.
    static func attributionUnits(_ added: [IndexCandidate], sets: [[IndexCandidate]]) -> [[IndexCandidate]] {
        var units: [[IndexCandidate]] = []
        var offset = 0
        let keys: [Set<String>] = sets.map { Set($0.map(\.key)) }.filter { $0.count > 1 }
        while offset < added.count {
            var length = 1
            for set in keys where offset + set.count <= added.count {
                let here = Set(added[offset..<(offset + set.count)].map(\.key))
                if here == set { length = set.count; break }
            }
            units.append(Array(added[offset..<(offset + length)]))
            offset += length
        }
        return units
    }

    /// The statements `candidates` change going from `configuration` to `next`: those whose plan changes, and
    /// the writes on their tables, each timed under `next`; `costs` moves on to `next`. Each comes with the
    /// indexes its plan uses under `next`.
    func changes(from configuration: IndexConfiguration, to next: IndexConfiguration, candidates: [IndexCandidate],
                 oracle: SnapshotOracle, costs: inout [Int: (timing: Timing, plan: QueryPlan?)]) throws -> [(change: TimingChange, usesAfter: Set<IndexRef>)] {
        let tables = Set(candidates.map(\.table.sqlFolded))
        var changes: [(change: TimingChange, usesAfter: Set<IndexRef>)] = []
        for (s, profile) in profiles.enumerated() where profile.isUsable && !oracle.statements[s].tables.isDisjoint(with: tables) {
            guard let before = costs[s] else { continue }
            let planChanged = (try? oracle.plan(of: s, under: next)) != (try? oracle.plan(of: s, under: configuration))
            guard planChanged || !profile.writtenTables.isDisjoint(with: tables) else { continue }
            let after: MeasuredCost
            do { after = try oracle.cost(of: s, under: next) } catch is UnmeasurableStatement { continue }
            let isUser = planChanged && candidates.contains { after.plan.uses.contains(.candidate($0.key)) }
            changes.append((TimingChange(position: s, before: before.timing, after: after.timing, planBefore: before.plan,
                                         planAfter: after.queryPlan, isUser: isUser), Set(after.plan.uses)))
            costs[s] = (after.timing, after.queryPlan ?? before.plan)
        }
        return changes
    }

    /// The alternatives (forms no model can declare), each measured on top of the picks as the second search
    /// added it.
    func attributeAlternatives(on chosen: IndexConfiguration, indexes: SnapshotIndexes, oracle: SnapshotOracle) throws -> [AlternativeSelection.Choice] {
        guard !alternativeCandidates.isEmpty else { return [] }
        var costs: [Int: (timing: Timing, plan: QueryPlan?)] = [:]
        for (s, profile) in profiles.enumerated() where profile.isUsable {
            if let timing = profile.current { costs[s] = (timing, profile.currentPlan) }
        }
        var configuration = chosen
        var choices: [AlternativeSelection.Choice] = []
        for candidate in alternativeCandidates {
            let next = configuration.adding(candidate)
            let changes = try changes(from: configuration, to: next, candidates: [candidate], oracle: oracle, costs: &costs).map(\.change)
            let writes = profiles.indices.filter { profiles[$0].isUsable && profiles[$0].writtenTables.contains(candidate.table.sqlFolded) }
            let measured = MeasuredCandidate(candidate: candidate, users: changes.filter(\.isUser).map(\.position), writes: writes,
                                             buildSeconds: indexes.buildSeconds[candidate.key] ?? 0, bytes: indexes.bytes[candidate.key] ?? 0,
                                             after: Dictionary(uniqueKeysWithValues: changes.map { ($0.position, $0.after) }))
            choices.append(AlternativeSelection.Choice(measured: measured, score: CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite)))
            configuration = next
        }
        return choices
    }
}

extension AnalysisRun {
    /// The picks a set move built together (a join's lookups, an OR's branches): the one whose build changed
    /// the statement's plan carries the saving, the others say they are kept for it.
    mutating func markSetMembers(from trace: SelectionTrace) {
        for price in trace.rounds.compactMap(\.taken) {
            guard case .addSet(let members) = price.move,
                  let statement = price.changed.max(by: { a, b in
                      oracleWeight(a.key) * (a.value.before.timing.medianSeconds - a.value.after.timing.medianSeconds)
                          < oracleWeight(b.key) * (b.value.before.timing.medianSeconds - b.value.after.timing.medianSeconds)
                  })?.key else { continue }
            let offsets = members.compactMap { member in picks.firstIndex { $0.measured.candidate.key == member.key } }
            // The carrier is the member whose own figures show the set's saving on that statement (each member is
            // measured with the ones before it, so the saving falls to the one that completes the plan); the
            // others, alone at a loss or no gain, get the note that says why they are kept (a breaking helper's
            // report had the first member, alone making the statement slower, as the carrier, and failed its
            // own `render --check`: recommended at a loss with no note).
            let id = profiles[statement].statement.fingerprint.id
            func saving(_ offset: Int) -> Double {
                picks[offset].score.effects.first { $0.statementID == id }.map { $0.before.medianSeconds - $0.after.medianSeconds } ?? -.infinity
            }
            guard offsets.count == members.count, let carrier = offsets.max(by: { saving($0) < saving($1) }) else { continue }
            for offset in offsets where offset != carrier {
                picks[offset].neededBy = JoinSets.Need(index: picks[carrier].name, statement: "S\(statement + 1)",
                                                       changedPlanAlone: picks[offset].measured.users.contains(statement))
            }
        }
    }

    private func oracleWeight(_ position: Int) -> Double { profiles[position].weight }
}
