// MARK: Writes to rows the app creates first: timed on existing rows' keys, and said so

extension AnalysisRun {
    /// An UPDATE's or DELETE's observed value sets whose WHERE keys (its table's rowid, PRIMARY KEY or UNIQUE
    /// columns, compared by equality) match no row on the snapshot get an existing row's keys
    /// (``BindingSampler/existingKeys(for:targets:conditions:table:tries:)``, drawn among the rows that meet
    /// the statement's other comparisons, `status = 'open'`, whose values stay the app's), the first of a
    /// few that the write changes on the snapshot (run inside a savepoint rolled back: a row a trigger
    /// refuses, `RAISE(ABORT)`, whose new values clash with a UNIQUE key, or that its other conditions leave
    /// out is passed over; when none is changed, or the table has no row, the app's own values stay).
    /// - Returns: where each value set's keys came from, for the notes and warnings once the value sets
    ///   timed are known (``addExistingRowNotes(to:)``); nil when every value set's keys match a row, or the
    ///   statement has no such keys.
    func keepToExistingRows(_ profile: StatementProfile, samples: inout [[SQLValue]], sampler: inout BindingSampler) -> ExistingRowKeys? {
        guard profile.statement.kind == .update || profile.statement.kind == .delete, let shape = profile.shape,
              let written = shape.tables.first(where: \.isWritten)?.table, let table = schema.table(named: written) else { return nil }
        let keyColumns = Set(["rowid", "oid", "_rowid_"] + (table.rowidAlias.map { [$0.name.sqlFolded] } ?? [])
            + table.columns.filter { $0.primaryKeyPosition > 0 }.map(\.name.sqlFolded)
            + table.indexes.filter(\.isUnique).flatMap { $0.columnNames.map(\.sqlFolded) })
        let keys = shape.parameters.filter { target in
            guard let op = target.op, op == .equal || op == .is else { return false }
            return target.table.sqlFolded == written.sqlFolded && keyColumns.contains(target.column.sqlFolded)
        }
        guard !keys.isEmpty else { return nil }
        let keyParameters = Set(keys.map(\.parameter))
        let conditions = shape.parameters.filter {
            $0.op != nil && $0.table.sqlFolded == written.sqlFolded && !keyParameters.contains($0.parameter)
        }
        var sources: [ExistingRowKeys.Source] = []
        for index in samples.indices {
            guard let candidates = sampler.existingKeys(for: samples[index], targets: keys, conditions: conditions, table: written) else {
                sources.append(.own)
                continue
            }
            if let candidate = candidates.first(where: { (changedRows(profile, $0) ?? 0) > 0 }) {
                samples[index] = candidate
                sources.append(.existingRow)
            } else {
                sources.append(.ownMatchingNoRow)
            }
        }
        guard sources.contains(where: { $0 != .own }) else { return nil }
        let empty = (try? snapshot.connection.query("SELECT 1 FROM \(SQLIdentifier.quote(written)) LIMIT 1"))?.isEmpty ?? false
        return ExistingRowKeys(table: written, columns: Set(keys.map(\.column)).sorted(), otherColumns: Set(conditions.map(\.column)).sorted(),
                               tableIsEmpty: empty, sources: sources)
    }

    /// The rows `profile`'s statement with `values` changes on the snapshot (SQLite's `changes()`, the
    /// statement's own, not its triggers'); nil when it fails. Run inside a savepoint that is rolled back.
    private func changedRows(_ profile: StatementProfile, _ values: [SQLValue]) -> Int? {
        guard let execution = LiteralExecutions.executions(for: profile.statement, samples: [values]).first else { return nil }
        let connection = snapshot.connection
        guard (try? connection.execute("SAVEPOINT indexadvisor_probe")) != nil else { return nil }
        // The statement is finalized (the closure's) before the savepoint is rolled back.
        let changed: Int? = {
            guard let statement = try? connection.prepareResolvingStandIns(execution.sql), (try? statement.bind(execution.values)) != nil else { return nil }
            do {
                while try statement.step() {}
                return connection.changes
            } catch {
                return nil
            }
        }()
        try? connection.execute("ROLLBACK TO indexadvisor_probe; RELEASE indexadvisor_probe")
        return changed
    }

    /// The statement's notes on the value sets it was timed with (``ExistingRowKeys/notes``), counted once
    /// the timing has kept as many as fit its time: those timed, not those chosen.
    func addExistingRowNotes(to profile: StatementProfile) {
        guard let timing = profile.timingBefore else { return }
        if let noOp = changedNoRow(profile, timing: timing) { profile.markChangingNoRow(noOp) }
        guard let keys = profile.existingRowKeys else { return }
        profile.notes += keys.notes.map(StatementNote.other)
    }

    /// For an UPDATE or DELETE whose WHERE compares no key (so ``keepToExistingRows(_:samples:sampler:)`` looked at
    /// none) and whose every value set timed changed no row on the snapshot (SQLite's `changes()`, counted by the
    /// timer: ``Timing/rowsPerExecution`` 0): the app's own values, each changing no row, so that the note and
    /// the warning say its figure times a no-op. Hostile round 8, F1: `DELETE FROM author WHERE status =
    /// 'archived'` on a snapshot with no archived author was timed at 7 µs beside a 300,000-row lookup of the
    /// books of each author it deletes, with no word of it. Nil otherwise.
    func changedNoRow(_ profile: StatementProfile, timing: Timing) -> ExistingRowKeys? {
        guard profile.existingRowKeys == nil, profile.statement.kind == .update || profile.statement.kind == .delete,
              timing.rowsPerExecution == 0, timing.isLowerBound != true, !profile.samples.isEmpty,
              let shape = profile.shape, let written = shape.tables.first(where: \.isWritten)?.table else { return nil }
        let compared = shape.parameters.filter { $0.op != nil && $0.table.sqlFolded == written.sqlFolded }.map(\.column)
        let empty = (try? snapshot.connection.query("SELECT 1 FROM \(SQLIdentifier.quote(written)) LIMIT 1"))?.isEmpty ?? false
        return ExistingRowKeys(table: written, columns: [], otherColumns: Set(compared).sorted(), tableIsEmpty: empty,
                               sources: Array(repeating: .ownMatchingNoRow, count: profile.samples.count))
    }

    /// A warning for each write timed, in some of its value sets, on the app's own keys that match no row
    /// (``ExistingRowKeys/noOpProblem(weights:)``): its figure times a write that changes nothing, and the
    /// note beside it is easily missed; the warnings are in every format and on stderr.
    mutating func warnOfWritesChangingNoRow() {
        for (position, profile) in profiles.enumerated() where profile.error == nil && profile.timingBefore != nil {
            guard let problem = profile.existingRowKeys?.noOpProblem(weights: profile.sampleWeights) else { continue }
            warnings.append(.statementFailed(statement: "S\(position + 1)", sql: SQLText.oneLine(profile.statement.text, limit: 80), problem: problem))
        }
    }
}
