/// Where an UPDATE's or DELETE's WHERE keys (its table's rowid, PRIMARY KEY or UNIQUE columns, compared by
/// equality) came from in each value set it is timed with, when the workload's own keys match no row of the
/// snapshot for some of them (rows the app creates before it changes them). Kept beside the value sets and
/// reordered and trimmed with them (``StatementProfile/moveSampleFirst(_:)``,
/// ``StatementProfile/trimSamples(to:)``), so that the counts are of the value sets timed, not of those chosen
/// before the timing kept as many as fit its time (hostile round 7, F8: "values in 20 of the 32 value sets
/// timed" of a write timed with 3).
struct ExistingRowKeys: Equatable {
    /// One value set's keys.
    enum Source: Equatable {
        /// The app's own, which match a row of the snapshot.
        case own
        /// An existing row's, one the write changes, in place of the app's, which match no row.
        case existingRow
        /// The app's own, which match no row, and no existing row stood in (the table is empty, or no row
        /// tried meets the write's other conditions or lets the write run): the execution changes no row.
        case ownMatchingNoRow
    }

    /// The table written, as the schema names it.
    var table: String
    /// The key columns compared, sorted.
    var columns: [String]
    /// The columns of the write's other comparisons of `table` (`status = 'open'` beside the key), sorted.
    var otherColumns: [String]
    /// True when `table` has no row on the snapshot.
    var tableIsEmpty: Bool
    /// Each value set's keys, in the order of the value sets.
    var sources: [Source]

    /// The value sets timed with an existing row's keys.
    var onExistingRows: Int { sources.filter { $0 == .existingRow }.count }
    /// The value sets timed with the app's own keys that match no row.
    var matchingNoRow: Int { sources.filter { $0 == .ownMatchingNoRow }.count }

    /// The same, with the value set at `index` moved first (as the value sets are).
    func movingFirst(_ index: Int) -> ExistingRowKeys {
        guard index > 0, index < sources.count else { return self }
        var moved = self
        moved.sources.insert(moved.sources.remove(at: index), at: 0)
        return moved
    }

    /// The same, for the first `count` value sets only (as the value sets are trimmed).
    func prefix(_ count: Int) -> ExistingRowKeys {
        var kept = self
        kept.sources = Array(sources.prefix(count))
        return kept
    }

    /// `values` when `count` is every value set timed, else `values in 2 of the 3 value sets timed`.
    private func share(_ count: Int) -> String {
        count == sources.count ? "values" : "values in \(count) of the \(sources.count) value sets timed"
    }

    /// `match no row of t on the snapshot` and why no existing row stood in: the table has none, none meets
    /// the write's other conditions, or the write fails on every one tried.
    var matchNoRowAndWhy: String {
        if tableIsEmpty { return "match no row of \(table) on the snapshot, which has none" }
        // No key was put in their place (``AnalysisRun/changedNoRow(_:timing:)``): the values as the app ran them.
        if columns.isEmpty { return "meet no row of \(table) on the snapshot" }
        let tried = "match no row of \(table) on the snapshot, and no existing row tried is one the write changes"
        return otherColumns.isEmpty ? "\(tried) (the write fails on them)"
            : "\(tried) (none meets its other conditions on \(otherColumns.joined(separator: ", ")), or the write fails on it)"
    }

    /// The statement's notes on the value sets timed: one for those on an existing row's keys, one for those
    /// on the app's own that change no row; none when every value set timed has keys that match a row.
    var notes: [String] {
        // A write with no key in its WHERE (``AnalysisRun/changedNoRow(_:timing:)``) names the columns it compares.
        let keys = (columns.isEmpty ? otherColumns : columns).joined(separator: ", ")
        var notes: [String] = []
        if onExistingRows > 0 {
            notes.append("The workload's \(keys) \(share(onExistingRows)) match no row of \(table) on the snapshot (rows the app creates before it changes them): those are timed on an existing row's \(keys) instead, a row the write changes, so that the write and its triggers do their work.")
        }
        if matchingNoRow > 0 {
            let work = columns.isEmpty ? "the write, its triggers and its foreign keys' lookups" : "the write and its triggers"
            notes.append("The workload's \(keys.isEmpty ? "" : keys + " ")\(share(matchingNoRow)) \(matchNoRowAndWhy): those are timed as the app ran them, changing no row, so the work of \(work) is not in its time.")
        }
        return notes
    }

    /// The warning's problem when some value sets timed change no row (nil when none does), with the share
    /// of the timed executions' weight they carry (`weights`, one per value set; nil: one each).
    func noOpProblem(weights: [Double]?) -> String? {
        let count = matchingNoRow
        guard count > 0 else { return nil }
        let weights = weights ?? Array(repeating: 1, count: sources.count)
        let total = weights.reduce(0, +)
        let noOp = zip(sources, weights).filter { $0.0 == .ownMatchingNoRow }.reduce(0) { $0 + $1.1 }
        let sets = count < sources.count ? "\(count) of the \(sources.count) value sets timed" : count == 1 ? "the one value set timed" : "all \(count) value sets timed"
        let share = count == sources.count || total <= 0 ? "" : String(format: " (%.0f%% of its figure's weight)", noOp / total * 100)
        let keys = columns.isEmpty ? (otherColumns.isEmpty ? "values" : "values of " + otherColumns.joined(separator: ", ")) : columns.joined(separator: ", ")
        let work = columns.isEmpty ? "its triggers' and its foreign keys' work" : "its triggers' work"
        return "was timed on the app's own \(keys) in \(sets)\(share), which \(matchNoRowAndWhy): those executions change no row, so its figure times a no-op, not the app's write (nor \(work)); time it on a store that holds the rows it changes"
    }
}
