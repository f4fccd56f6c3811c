/// Reviews the store's own indexes in the final state (recommendations built): redundant ones (a left
/// prefix of another index, a recommended one included, or a duplicate), ones no statement of the
/// workload used, and misused ones (statements that use them are faster without them). Each is measured by dropping it on the snapshot, timing the table's writes and the reads
/// that used it, and putting it back (``ChangeComparison``, hidden and put back: rebuilt, it would come back packed, issue 39, F2).
///
/// Indexes that enforce a constraint, and the ones Core Data creates for relationships and entity
/// hierarchies (`<TABLE>_<COLUMN>_INDEX`), are never proposed for dropping. An index only unused in this
/// workload is listed with its cost, not as a plain DROP: a workload is a sample.
struct ExistingIndexReview {
    let schema: Schema
    let snapshot: StoreSnapshot
    let timer: StatementTimer
    /// How a verdict sees a timing (``Timing/decisionView`` to decide on SQLite's counters); the figures
    /// kept are the timings as measured.
    var decide: (Timing) -> Timing = { $0 }

    /// - Parameters:
    ///   - removed: the store's indexes (folded names) the selector took out; the snapshot is without them, and
    ///     each gets its drop, measured by putting it back (``judgeRemoved(_:_:profiles:)``).
    ///   - named: the indexes (folded names) that `INDEXED BY` names in the store's views and triggers and in
    ///     every statement of the workload, set-aside ones too (``AnalysisRun/indexesNamedByIndexedBy()``).
    func review(profiles: [StatementProfile], recommendations: [IndexCandidate], names: [String],
                sizes: [String: Int64], removed: Set<String> = [], named: Set<String>) -> [ExistingIndexFinding] {
        let used = usedIndexNames(profiles: profiles)
        var findings: [ExistingIndexFinding] = []
        for table in schema.tables {
            let others: [KeyHolder] =
                table.indexes.filter { $0.partialPredicate == nil }.map { KeyHolder(name: $0.name, columns: $0.columns, isUnique: $0.isUnique) }
                + zip(recommendations, names).filter { $0.0.table.sqlFolded == table.name.sqlFolded && $0.0.partialPredicate == nil }
                    .map { KeyHolder(name: $0.1, columns: $0.0.columns, isUnique: false) }
            for index in table.indexes {
                let context = IndexContext(table: table, caveat: Self.caveat(for: index, schema: schema, connection: snapshot.connection, named: named),
                                           wider: wider(than: index, among: others), isUsed: used.contains(index.name.sqlFolded))
                if removed.contains(index.name.sqlFolded) {
                    findings.append(judgeRemoved(index, context, profiles: profiles))
                } else if let finding = judge(index, context, profiles: profiles, recommendations: recommendations, names: names, sizes: sizes) {
                    findings.append(finding)
                }
            }
        }
        nameEndOfChain(in: &findings)
        keepPrefixesOfDroppedIndexes(in: &findings, removed: removed)
        return findings
    }

    /// An index, or a recommended one, that another index's key could lead: its name, key and uniqueness.
    private struct KeyHolder {
        let name: String
        let columns: [IndexColumn]
        let isUnique: Bool
    }

    /// What the review knows of one index before measuring it: its table, why it may not be dropped,
    /// the wider index its key leads, and whether a plan used it.
    private struct IndexContext {
        let table: Table
        let caveat: DropCaveat?
        let wider: KeyHolder?
        let isUsed: Bool
    }

    /// The index whose key `index`'s key leads (shorter, or the same key under a later name, or the same
    /// key made UNIQUE), never a plain index for a UNIQUE one; nil for a partial index.
    private func wider(than index: Index, among others: [KeyHolder]) -> KeyHolder? {
        guard index.partialPredicate == nil else { return nil }
        return others.first { other in
            other.name != index.name && IndexCandidate.leads(index.columns, other.columns)
                && (index.columns.count < other.columns.count || index.name > other.name || other.isUnique)
                && !(index.isUnique && !other.isUnique)
        }
    }

    /// One index's finding, or nil when there is nothing to say: replaced by a recommendation, misused,
    /// redundant (a wider index serves it) or unused in the workload, each measured by leaving it out.
    private func judge(_ index: Index, _ context: IndexContext, profiles: [StatementProfile], recommendations: [IndexCandidate],
                       names: [String], sizes: [String: Int64]) -> ExistingIndexFinding? {
        let table = context.table
        if context.wider == nil, context.isUsed, context.caveat == nil, index.origin == .createIndex,
           let replacement = replacement(of: index, profiles: profiles, names: names) {
            var finding = ExistingIndexFinding(kind: .replaced, index: index.name, table: table.name, columns: index.columnNames,
                                               supersededBy: replacement, bytes: sizes[index.name], dropSQL: nil, caveats: [])
            let verdict = measureDrop(of: index, table: table, profiles: profiles, into: &finding)
            if verdict.readsSlowerWithout {
                finding.caveats = [.readsSlowerWithout]
            } else {
                finding.dropSQL = "DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))"
            }
            return finding
        }
        if context.wider == nil, context.isUsed {
            guard context.caveat == nil else { return nil }
            return misuse(of: index, table: table, profiles: profiles, recommendations: recommendations, sizes: sizes)
        }
        guard context.wider != nil || (!context.isUsed && index.origin == .createIndex) else { return nil }
        var finding = ExistingIndexFinding(
            kind: context.wider != nil ? .redundant : .unusedInWorkload, index: index.name, table: table.name,
            columns: index.columnNames, supersededBy: context.wider?.name, bytes: sizes[index.name], dropSQL: nil,
            caveats: context.caveat.map { [$0] } ?? (context.wider == nil ? [.workloadIsSample] : []))
        guard context.caveat == nil else { return finding }
        let verdict = measureDrop(of: index, table: table, profiles: profiles, into: &finding)
        if finding.kind == .redundant, !verdict.readsSlowerWithout {
            finding.dropSQL = "DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))"
        } else if finding.kind == .redundant {
            finding.caveats = [.readsSlowerWithout]
        }
        return finding
    }

    /// A store index the selector took out: the search priced its removal on every statement whose plan it
    /// changes and every write on its table, and found it saves more than it costs, so the drop is advised
    /// whatever kind it is. The kind says why: a wider index serves its key (redundant), the statements that used
    /// it are faster without it (misused), another index (a recommendation or the store's own) took over its
    /// statements (replaced), it costs its writes more than it saves its reads (costly), or nothing used it.
    private func judgeRemoved(_ index: Index, _ context: IndexContext, profiles: [StatementProfile]) -> ExistingIndexFinding {
        let folded = index.name.sqlFolded
        let usedBefore = profiles.contains { $0.planBefore?.indexesUsed.contains { $0.sqlFolded == folded } == true }
        let replacement = context.wider == nil && usedBefore ? successor(of: index, profiles: profiles) : nil
        var finding = ExistingIndexFinding(kind: .unusedInWorkload, index: index.name, table: context.table.name, columns: index.columnNames,
                                           supersededBy: context.wider?.name ?? replacement, bytes: nil,
                                           dropSQL: "DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))")
        let verdict = measureRemoved(index, table: context.table, profiles: profiles, into: &finding)
        let misused = verdict.readsFasterWithout && !verdict.readsSlowerWithout
        finding.kind = context.wider != nil ? .redundant : !usedBefore ? .unusedInWorkload : misused ? .misused
            : replacement != nil ? .replaced : .costly
        if finding.kind != .redundant, finding.kind != .replaced { finding.supersededBy = nil }
        return finding
    }

    /// The index that serves the statements that used `index` (as the store was) now that it is gone: the one
    /// the first of them uses, when every one of them uses some index; nil otherwise.
    private func successor(of index: Index, profiles: [StatementProfile]) -> String? {
        let folded = index.name.sqlFolded
        var successor: String?
        for profile in profiles where profile.planBefore?.indexesUsed.contains(where: { $0.sqlFolded == folded }) == true {
            guard let taken = profile.planAfter?.indexesUsed.first(where: { $0.sqlFolded != folded }) else { return nil }
            successor = successor ?? taken
        }
        return successor
    }

    /// Times the removed `index`'s readers (the statements whose plan used it as the store was) and its table's
    /// writes with it put back and without it, once for all of them, and leaves it out again; its size is read
    /// while it is back (dbstat).
    @discardableResult
    private func measureRemoved(_ index: Index, table: Table, profiles: [StatementProfile], into finding: inout ExistingIndexFinding) -> DropVerdict {
        var verdict = DropVerdict()
        guard index.sql != nil else { return verdict }
        let folded = index.name.sqlFolded
        let writes = profiles.indices.filter { profiles[$0].isUsable && profiles[$0].writtenTables.contains(table.name.sqlFolded) }
        let readers = profiles.indices.filter { position in
            profiles[position].isUsable && profiles[position].isRead
                && (profiles[position].planBefore?.indexesUsed ?? []).contains { $0.sqlFolded == folded }
        }
        let positions = Set(writes + readers).sorted()
        // Put back by restoring its schema row (its own pages, not a packed rebuild), the
        // other drops held again; measured without it by hiding it again (issue 39, F2).
        let held = snapshot.heldDrops
        guard (try? snapshot.holdDrops(held.filter { $0.sqlFolded != folded })) != nil else {
            finding.caveats.append(.notMeasured)
            return verdict
        }
        defer { _ = try? snapshot.holdDrops(held) }
        finding.bytes = try? snapshot.connection.scalar("SELECT sum(pgsize) FROM dbstat WHERE name = ?", [.text(index.name)])?.integerValue
        guard !positions.isEmpty else { return verdict }
        // `before` is with it (put back), `after` without it: the final state.
        let results = ChangeComparison(snapshot: snapshot, timer: timer).compare(
            hiding: [index.name],
            items: positions.map { ChangeComparison.Item(executions: profiles[$0].executions, isWrite: profiles[$0].isWrite) })
        for (offset, position) in positions.enumerated() {
            let profile = profiles[position]
            guard let (with, without) = results?[offset] else {
                finding.caveats.append(.notMeasured)
                return verdict
            }
            record(profile, with: with, without: without, isReader: readers.contains(position), into: &finding, verdict: &verdict)
        }
        return verdict
    }

    /// Counts one statement's timing with and without an index into `finding` and `verdict`, as the verdict sees
    /// timings (``decide``) and with the report's amounts (wall-clock when that is what was timed).
    private func record(_ profile: StatementProfile, with current: Timing, without: Timing, isReader: Bool,
                        into finding: inout ExistingIndexFinding, verdict: inout DropVerdict) {
        let (seenCurrent, seenWithout) = (decide(current), decide(without))
        let significant = seenCurrent.isSlower(than: seenWithout) || seenWithout.isSlower(than: seenCurrent)
        finding.effects.append(StatementEffect(statementID: profile.statement.fingerprint.id, count: profile.statement.count,
                                               before: current, after: without, isSignificant: significant))
        let delta = (current.medianSeconds - without.medianSeconds) * profile.weight
        if isReader {
            if seenWithout.isSlower(than: seenCurrent) {
                verdict.readsSlowerWithout = true
                finding.readSecondsAdded += max(0, -delta)
            }
            if seenCurrent.isSlower(than: seenWithout) {
                verdict.readsFasterWithout = true
                finding.readSecondsSaved = (finding.readSecondsSaved ?? 0) + max(0, delta)
            }
        } else if seenCurrent.isSlower(than: seenWithout) {
            // Only a write measurably faster without the index saves time; one measured slower without it
            // is the machine (an index a write does not use cannot speed it up), counted as 0 as the
            // report's footnote says (a breaking helper saw −556.6 µs "saved").
            finding.writeSecondsSaved += max(0, delta)
        }
    }

    /// A redundant index is superseded by the index that stays: when the wider one is dropped too (a
    /// prefix of a prefix), name the one at the end of the chain, so that no sentence sends the reader
    /// to an index the same report drops.
    private func nameEndOfChain(in findings: inout [ExistingIndexFinding]) {
        let dropped = Set(findings.filter { $0.dropSQL != nil }.map { $0.index.sqlFolded })
        for offset in findings.indices where findings[offset].kind == .redundant {
            var seen: Set<String> = [findings[offset].index.sqlFolded]
            while let wider = findings[offset].supersededBy, dropped.contains(wider.sqlFolded), seen.insert(wider.sqlFolded).inserted,
                  let next = findings.first(where: { $0.index.sqlFolded == wider.sqlFolded })?.supersededBy {
                findings[offset].supersededBy = next
            }
        }
    }

    /// A left prefix is redundant only while the wider index stays. When the review drops that one as
    /// misused or replaced (measured with the prefix in place, which then served its statements), the
    /// prefix is what serves them: it is not redundant (a breaking helper's `(a)` and `(a, b)` were both
    /// dropped and the report's own headline said 1.8× slower). A twin with the same key was dropped with
    /// it in that measurement and goes with it.
    /// (An index the selector took out stays out: it was priced with the others as they are.)
    private func keepPrefixesOfDroppedIndexes(in findings: inout [ExistingIndexFinding], removed: Set<String>) {
        let droppedAsOther = Set(findings.filter { $0.dropSQL != nil && $0.kind != .redundant }.map { $0.index.sqlFolded })
        findings.removeAll { finding in
            guard finding.kind == .redundant, !removed.contains(finding.index.sqlFolded), let wider = finding.supersededBy,
                  droppedAsOther.contains(wider.sqlFolded) else { return false }
            let widerColumns = schema.tables.flatMap(\.indexes).first { $0.name.sqlFolded == wider.sqlFolded }?.columns.count
            return widerColumns != finding.columns.count
        }
    }

    /// The indexes (folded names) a plan before or after uses. Of two indexes with the same key the planner
    /// names one; the other serves the same statements the moment the named one goes (a new user's duplicate
    /// `idx_events_kind2` was dropped as redundant and its twin `idx_events_kind` called unused, though the
    /// statement then used it), so both count as used.
    private func usedIndexNames(profiles: [StatementProfile]) -> Set<String> {
        var used = Set<String>()
        for profile in profiles {
            for name in (profile.planBefore?.indexesUsed ?? []) + (profile.planAfter?.indexesUsed ?? []) { used.insert(name.sqlFolded) }
        }
        for table in schema.tables {
            for index in table.indexes where used.contains(index.name.sqlFolded) {
                for twin in twins(of: index, in: table) { used.insert(twin.name.sqlFolded) }
            }
        }
        return used
    }

    /// The recommended index (one of `names`) that took over `index`'s statements, when statements used `index`
    /// before the advice and none uses it after, every one of them using a recommended index
    /// instead; nil otherwise.
    private func replacement(of index: Index, profiles: [StatementProfile], names: [String]) -> String? {
        let name = index.name.sqlFolded
        let recommended = Set(names.map(\.sqlFolded))
        let users = profiles.filter { $0.planBefore?.indexesUsed.contains { $0.sqlFolded == name } == true }
        guard !users.isEmpty, !profiles.contains(where: { $0.planAfter?.indexesUsed.contains { $0.sqlFolded == name } == true }) else { return nil }
        var replacement: String?
        for profile in users {
            guard let taken = profile.planAfter?.indexesUsed.first(where: { recommended.contains($0.sqlFolded) }) else { return nil }
            replacement = replacement ?? taken
        }
        return replacement
    }

    /// The other indexes of `table` with `index`'s key and predicate: the planner uses one in the other's place.
    private func twins(of index: Index, in table: Table) -> [Index] {
        table.indexes.filter { twin in
            twin.name != index.name && twin.partialPredicate == index.partialPredicate && twin.columns.count == index.columns.count
                && IndexCandidate.leads(twin.columns, index.columns)
        }
    }

    /// ``twins(of:in:)`` that a migration may drop with it (plain `CREATE INDEX`, not UNIQUE): measured
    /// without `index`, the planner would use one of them instead, so they go with it.
    private func droppableTwins(of index: Index, in table: Table) -> [Index] {
        twins(of: index, in: table).filter { $0.origin == .createIndex && !$0.isUnique && $0.sql != nil }
    }

    /// An index the final plans use, measured without it: a finding when a statement that uses it is
    /// measurably faster without it and none is measurably slower (the planner misuses it, typically a
    /// low-cardinality index chosen without `sqlite_stat1`). Kept when it leads with the child column of
    /// a foreign key and no recommended index leads with that column (foreignkeys.html#fk_indexes: the
    /// parent's deletes and updates search the child by it).
    private func misuse(of index: Index, table: Table, profiles: [StatementProfile], recommendations: [IndexCandidate],
                        sizes: [String: Int64]) -> ExistingIndexFinding? {
        // Only an index through which a statement does real work can be misused: at least 50 µs as the
        // verdict sees it (on the counters when it decides on them: a wall-clock median near 50 µs moves
        // with the machine's load, and the verdict with it), and over 20 VM steps per row it returns (an
        // index search that reads only the rows it returns takes a few per column). Timing every other
        // index without it would cost a drop and a rebuild for nothing.
        let names = Set(([index] + droppableTwins(of: index, in: table)).map { $0.name.sqlFolded })
        let suspect = profiles.contains { profile in
            guard profile.isUsable, profile.isRead, (profile.planAfter?.indexesUsed ?? []).contains(where: { names.contains($0.sqlFolded) }),
                  let timing = profile.timingAfter, let steps = timing.vmStepsPerExecution, decide(timing).medianSeconds >= 50e-6 else { return false }
            return steps / max(1, timing.rowsPerExecution) > 20
        }
        guard suspect else { return nil }
        var finding = ExistingIndexFinding(kind: .misused, index: index.name, table: table.name, columns: index.columnNames,
                                           supersededBy: nil, bytes: sizes[index.name], dropSQL: nil)
        let verdict = measureDrop(of: index, table: table, profiles: profiles, into: &finding, writesToo: false)
        guard verdict.readsFasterWithout, !verdict.readsSlowerWithout, finding.caveats.isEmpty else { return nil }
        if let lead = index.columns.first?.name?.sqlFolded, ForeignKeys.isChildColumn(lead, of: table, connection: snapshot.connection),
           !recommendations.contains(where: { $0.table.sqlFolded == table.name.sqlFolded && $0.columns.first?.name?.sqlFolded == lead }) {
            finding.caveats = [.servesForeignKey]
            return finding
        }
        _ = measureDrop(of: index, table: table, profiles: profiles, into: &finding, readersToo: false)
        finding.dropSQL = "DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))"
        return finding
    }

    /// What leaving an index out did to the statements that use it, as the verdict sees it (``decide``).
    struct DropVerdict {
        var readsSlowerWithout = false
        var readsFasterWithout = false
    }

    /// Times the writes to the index's table and the reads that used it with and without the index: the
    /// index is dropped for real and rebuilt from its own definition afterwards, once for all of them (see
    /// ``ChangeComparison/compare(apply:revert:items:)``).
    @discardableResult
    private func measureDrop(of index: Index, table: Table, profiles: [StatementProfile], into finding: inout ExistingIndexFinding,
                             writesToo: Bool = true, readersToo: Bool = true) -> DropVerdict {
        var verdict = DropVerdict()
        let writes = !writesToo ? [] : profiles.indices.filter { profiles[$0].isUsable && profiles[$0].writtenTables.contains(table.name.sqlFolded) }
        // Its twins go with it (``droppableTwins(of:in:)``), or the planner would use one in its place.
        let dropped = [index] + droppableTwins(of: index, in: table)
        let names = Set(dropped.map { $0.name.sqlFolded })
        let readers = !readersToo ? [] : profiles.indices.filter { position in
            profiles[position].isUsable && (profiles[position].planAfter?.indexesUsed ?? []).contains { names.contains($0.sqlFolded) }
        }
        guard !(writes.isEmpty && readers.isEmpty), index.sql != nil else { return verdict }
        // One drop and one rebuild for all of them (issue 18), each statement timed before, without and after.
        let positions = Set(writes + readers).sorted()
        let results = ChangeComparison(snapshot: snapshot, timer: timer).compare(
            hiding: dropped.map(\.name),
            items: positions.map { ChangeComparison.Item(executions: profiles[$0].executions, isWrite: profiles[$0].isWrite) })
        for (offset, position) in positions.enumerated() {
            guard let (current, without) = results?[offset] else {
                finding.caveats.append(.notMeasured)
                return verdict
            }
            record(profiles[position], with: current, without: without, isReader: readers.contains(position), into: &finding, verdict: &verdict)
        }
        return verdict
    }
}
