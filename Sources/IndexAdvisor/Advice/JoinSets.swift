import Foundation

/// Index sets for joins that no single index changes (issue 15).
///
/// SQLite picks a join's nested-loop order by the cost of the whole plan (https://sqlite.org/queryplanner-ng.html):
/// `user(email)` alone does not pay while the loop over `membership` is a full scan, and `membership(user_id)`
/// alone does not pay while `user` is scanned to find the e-mail, so each candidate alone leaves the plan as
/// it is and a one-at-a-time search never sees the pair. Here, as `sqlite3 .expert` does, the what-if
/// planner is given every basic candidate of such a statement at once; when the plan it chooses then uses
/// new indexes on two or more tables and has fewer full scans, that set is built for real, member by
/// member, and kept only when the join measurably gets faster by more than the set costs.
enum JoinSets {
    /// True when the statement at `position` is worth a joint search: a read over two or more tables whose
    /// current plan still scans a table that is not tiny.
    static func isCandidate(_ profile: StatementProfile) -> Bool {
        guard profile.isUsable, profile.isRead, let shape = profile.shape,
              Set(shape.tables.map(\.table.sqlFolded)).count >= 2 || hasOrAcrossColumns(shape),
              let plan = profile.currentPlan else { return false }
        return fullScans(in: plan) > 0
    }

    /// True when the statement ORs terms on different columns of a table (``TableAccess/orBranches``): like a
    /// join, no single index changes its plan, since SQLite reads every row unless each branch has an index
    /// of its own (a MULTI-INDEX OR, optoverview.html#or_optimizations).
    static func hasOrAcrossColumns(_ shape: StatementShape) -> Bool {
        shape.tables.contains { ($0.orBranches?.count ?? 0) >= 2 }
    }

    /// True when `members` are a set worth building for `shape`, beside the picks on `pickTables` (folded
    /// names) that the plan with them uses: indexes on two tables or more with those picks (a join), or, for
    /// an OR across columns, any index. The what-if planner was given the picks too, and one that already
    /// serves a side of the join or a branch of the OR leaves the rest to the members:
    /// - a new user's reviews `WHERE user_id = ? OR recipe_id = ?`: `(recipe_id, stars)` was picked for
    ///   another statement, and `(user_id)` alone completes the MULTI-INDEX OR;
    /// - a ticket store's `agent a JOIN ticket k ON k.agent_id = a.id … WHERE a.email = ?`: a pick led by
    ///   `agent_id` serves the loop over tickets, and `agent(email)` alone removes the scan of agents.
    /// Before those picks the one index alone left the plan a full scan, so no one-at-a-time search saw it.
    static func isSet(_ members: [IndexCandidate], for shape: StatementShape, pickTables: Set<String> = []) -> Bool {
        guard !members.isEmpty else { return false }
        return Set(members.map(\.table.sqlFolded)).union(pickTables).count >= 2 || hasOrAcrossColumns(shape)
    }

    /// Full scans of tables that are not tiny, in `plan`: of the table (``PlanFinding/isProblem``) or of a
    /// whole index (`SCAN l USING COVERING INDEX …`, which reads every entry as a table scan reads every row).
    static func fullScans(in plan: QueryPlan) -> Int {
        plan.findings.filter { finding in
            (finding.kind == .fullTableScan && finding.isProblem)
                || (finding.kind == .fullIndexScan && (finding.tableRows ?? Int.max) >= PlanFinding.smallTableRows)
        }.count
    }

    /// The order to build a set's members in: members on tables the current plan does not scan first, the
    /// member on the largest scanned table last, so that the build that changes the plan (and whose
    /// measurement shows the saving) is the one on the table whose scan it removes.
    static func buildOrder(_ members: [IndexCandidate], currentPlan: QueryPlan?, rows: (String) -> Int) -> [IndexCandidate] {
        let scanned = Set((currentPlan?.findings ?? []).filter { $0.kind == .fullTableScan || $0.kind == .fullIndexScan }.compactMap { $0.table?.sqlFolded })
        return members.enumerated().sorted { a, b in
            let ka = (scanned.contains(a.element.table.sqlFolded) ? 1 : 0, rows(a.element.table), a.offset)
            let kb = (scanned.contains(b.element.table.sqlFolded) ? 1 : 0, rows(b.element.table), b.offset)
            return ka < kb
        }.map(\.element)
    }
}

extension AnalysisRun {
    /// After the one-at-a-time selection: for each join that still scans a table (heaviest first), the set of
    /// its basic candidates the what-if planner uses together, built and kept when it saves measurably
    /// more than ``minimumBenefit`` net of its writes. See ``JoinSets``.
    /// - Parameters:
    ///   - proposed: each statement's candidates (profile position → candidates), as the generator made them.
    ///   - names: the index names taken so far (folded); the set's names are added.
    /// - Returns: the statements (profile positions) whose timing the kept sets changed, and those whose plan
    ///   they changed, for re-measuring the candidates left (``refreshed(_:changed:replanned:measurer:whatIf:)``).
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when a built member cannot be dropped.
    mutating func chooseJoinSets(proposed: [Int: [IndexCandidate]], measurer: CandidateMeasurer, whatIf: WhatIfPlanner,
                                 names: inout Set<String>) throws -> (changed: Set<Int>, replanned: Set<Int>) {
        var changed = Set<Int>(), replanned = Set<Int>()
        let order = profiles.indices.filter { JoinSets.isCandidate(profiles[$0]) }
            .sorted { profiles[$0].weight * (profiles[$0].current?.medianSeconds ?? 0) > profiles[$1].weight * (profiles[$1].current?.medianSeconds ?? 0) }
        var tried = Set<String>()
        for position in order {
            guard picks.count < options.maxNewIndexes, !isOverBudget else { break }
            let profile = profiles[position]
            // A pick for an earlier join may have served this one too.
            guard JoinSets.isCandidate(profile), let plan = profile.currentPlan, let shape = profile.shape else { continue }
            let tables = Set(shape.tables.map(\.table.sqlFolded))
            let chosen = picks.map(\.measured.candidate).filter { tables.contains($0.table.sqlFolded) }
            let pickedKeys = Set(chosen.map(\.key))
            var seen = Set<String>()
            // A left prefix of a pick adds writes and nothing the pick cannot serve.
            let candidates = (proposed[position] ?? []).filter { candidate in
                !pickedKeys.contains(candidate.key) && !chosen.contains(where: { candidate.isRedundant(beside: $0) })
                    && seen.insert(candidate.key).inserted && isModelDeclarable(candidate)
                    && CandidateOrder.isBasic(candidate, for: shape.access(to: candidate.table))
            }
            guard JoinSets.isSet(candidates, for: shape, pickTables: Set(chosen.map(\.table.sqlFolded))),
                  let (together, whatIfNames) = try? whatIf.plan(for: profile.planSQL, bindings: profile.planBindings, with: chosen + candidates)
            else { continue }
            let used = Set(together.indexesUsed.map(\.sqlFolded))
            let members = candidates.enumerated().filter { used.contains(whatIfNames[chosen.count + $0.offset].sqlFolded) }.map(\.element)
            let picksUsed = Set(chosen.enumerated().filter { used.contains(whatIfNames[$0.offset].sqlFolded) }.map(\.element.table.sqlFolded))
            guard JoinSets.isSet(members, for: shape, pickTables: picksUsed),
                  JoinSets.fullScans(in: together) < JoinSets.fullScans(in: plan) else { continue }
            let key = members.map(\.key).sorted().joined(separator: "|")
            guard tried.insert(key).inserted else { continue }
            let perTable = Dictionary(grouping: picks, by: { $0.measured.candidate.table.sqlFolded }).mapValues(\.count)
            let added = Dictionary(grouping: members, by: { $0.table.sqlFolded }).mapValues(\.count)
            guard picks.count + members.count <= options.maxNewIndexes,
                  added.allSatisfy({ perTable[$0.key, default: 0] + $0.value <= options.maxIndexesPerTable }) else { continue }
            report("join sets", position, profiles.count)
            let changes = try buildJoinSet(JoinSets.buildOrder(members, currentPlan: plan, rows: { schema.table(named: $0)?.rowCount ?? 0 }),
                                           for: position, measurer: measurer, names: &names)
            changed.formUnion(changes.map(\.position))
            replanned.formUnion(changes.filter { $0.planBefore?.steps != $0.planAfter?.steps }.map(\.position))
        }
        return (changed, replanned)
    }

    /// Builds `members` in order with the picks in place, re-profiling after each, and keeps them as picks
    /// when together they save measurably more than ``minimumBenefit``; else drops them and restores the
    /// statements' timings. `position` is the join they were found for. Returns the kept set's timing changes
    /// (none when it was dropped).
    private mutating func buildJoinSet(_ members: [IndexCandidate], for position: Int, measurer: CandidateMeasurer,
                                       names: inout Set<String>) throws -> [TimingChange] {
        let minimumBenefit = decisionMinimumBenefit
        var built: [(IndexSelection.Pick, [TimingChange])] = []
        func undo() throws {
            for (pick, changes) in built.reversed() {
                try measurer.drop(pick.name)
                putBack(changes)
            }
        }
        for member in members {
            let name = indexName(for: member, taken: names.union(built.map { $0.0.name.sqlFolded }))
            do {
                let kept = try measurer.measure(member, name: name, users: [], writes: [], profiles: profiles, keep: true, positions: [])
                let changes = reprofile(table: member.table, index: name)
                let beside = Set(picks.map(\.name.sqlFolded) + built.map(\.0.name.sqlFolded))
                built.append((IndexSelection.Pick(measured: kept, score: CandidateScore(changes: changes, profiles: profiles, countsWrite: countsWrite),
                                                  name: name, builtBeside: beside), changes))
            } catch let error as StoreError {
                throw error
            } catch {
                try undo()
                warnings.append(.indexNotBuilt(name: name, error: "\(error)"))
                return []
            }
        }
        // --max-index-bytes holds for a set as for a single pick: sizes are known once built (a breaking
        // helper's `--max-index-bytes 1000` kept a 4 KiB and an 896 KiB index for a join).
        if let limit = options.maxIndexBytes {
            let used = (picks.map(\.measured) + built.map(\.0.measured)).reduce(Int64(0)) { $0 + storeBytes($1.bytes, table: $1.candidate.table) }
            if used > limit {
                try undo()
                for member in members {
                    let entry = rejection(member, score: nil, reason: .indexBytesLimit(limit))
                    if !rejected.contains(where: { $0.sql == entry.sql }) { rejected.append(entry) }
                }
                return []
            }
        }
        let all = built.flatMap(\.1)
        let decided = decidedScore(all)
        let label = self.label(of: profiles[position].statement.fingerprint.id)
        let joinServed = all.contains { $0.position == position && $0.isUser }
            || (profiles[position].currentPlan?.indexesUsed ?? []).contains { used in built.contains { $0.0.name.sqlFolded == used.sqlFolded } }
        guard joinServed, decided.hasSignificantGain, decided.netSeconds >= minimumBenefit else {
            try undo()
            // A set that made reads slower says so: "did not save measurably more than 34.1 ms" beside a read
            // time saved of −51.6 s (a new user's task store) read as a contradiction.
            // Each statement once: before the set's first build, after its last.
            var slower: [StatementSlowdown] = []
            for position in Set(all.map(\.position)).sorted() {
                let changes = all.filter { $0.position == position }
                guard let before = changes.first.map({ decision($0.before) }), let after = changes.last.map({ decision($0.after) }),
                      after.isSlower(than: before) else { continue }
                slower.append(StatementSlowdown(statement: self.label(of: profiles[position].statement.fingerprint.id),
                                                beforeSeconds: before.medianSeconds, afterSeconds: after.medianSeconds))
            }
            let reason = decided.hasSignificantLoss && decided.readSecondsSaved <= 0 && !slower.isEmpty
                ? RejectionReason.makesStatementsSlower(slower, byCounters: decidesOnCounters)
                : RejectionReason.joinSetNotWorthBuilt(
                    members: members.map { "\($0.table)(\($0.columns.compactMap(\.name).joined(separator: ", ")))" }, statement: label,
                    minimumSeconds: minimumBenefit)
            for member in members {
                let entry = rejection(member, score: nil, reason: reason)
                if !rejected.contains(where: { $0.sql == entry.sql }) { rejected.append(entry) }
            }
            return []
        }
        let lead = built.last!.0.name
        for (offset, (pick, changes)) in built.enumerated() {
            var pick = pick
            if offset < built.count - 1 {
                pick.neededBy = JoinSets.Need(index: lead, statement: label,
                                              changedPlanAlone: changes.contains { $0.position == position && $0.isUser })
            }
            names.insert(pick.name.sqlFolded)
            picks.append(pick)
            let sql = pick.measured.candidate.createSQL(name: indexName(for: pick.measured.candidate, taken: []))
            rejected.removeAll { $0.sql == sql }
        }
        return all
    }
}

extension JoinSets {
    /// For an index kept as part of a join's set, built before the one whose build changed the plan.
    struct Need: Sendable {
        /// The set's last-built index, whose measurement carries the join's saving.
        var index: String
        /// The join's label ("S2").
        var statement: String
        /// True when building this index, before the last one, already changed the join's plan.
        var changedPlanAlone: Bool

        /// The note a report shows on the index (worded by the renderers).
        var note: PickNote {
            .keptForJoin(statement: statement, index: index, changedPlanAlone: changedPlanAlone)
        }
    }
}
