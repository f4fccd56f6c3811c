/// Why a proposed or measured candidate was not recommended: the decision and the figures it was made on.
/// The words are the renderers' (``text``); the JSON report carries both, as `reason` (the words every
/// format prints) and `kind` (a stable name, ``kind``).
public enum RejectionReason: Sendable, Equatable {
    /// `--max-indexes`: the picks reached this many new indexes.
    case indexLimit(Int)
    /// `--max-indexes-per-table`: its table has this many picks.
    case tableIndexLimit(Int)
    /// `--max-index-bytes`: the picks reached this many bytes.
    case indexBytesLimit(Int64)
    /// It makes these statements measurably slower and saves no read time.
    case makesStatementsSlower([StatementSlowdown], byCounters: Bool)
    /// A form no model can declare (partial, expression, covering, Core Data bookkeeping), and a form a model
    /// can declare measured as well.
    case undeclarableWithEqualForm
    /// No statement got measurably faster with it.
    case noMeasuredGain(byCounters: Bool)
    /// Its write cost, and the statements it makes slower, outweigh the read time it saves; `churn`, a key
    /// column most writes to its table change.
    case costOutweighsSaving(slower: [StatementSlowdown], churn: ColumnChurn?, byCounters: Bool)
    /// It saves `savedSeconds` per workload, under the `minimumSeconds` worth a schema change.
    case belowMinimumBenefit(savedSeconds: Double, minimumSeconds: Double, byCounters: Bool)
    /// The time budget (`--time-budget`, in seconds) ran out during the selection.
    case timeBudgetSpentInSelection(seconds: Int)
    /// A form no model can declare, on a Core Data or SwiftData store; with the statements it makes slower.
    case undeclarable(slower: [StatementSlowdown], byCounters: Bool)
    /// The picks made before it serve its statements as well or better.
    case servedByEarlierPicks
    /// Not measured: the time budget (`--time-budget`, in seconds) was spent on candidates for heavier statements.
    case timeBudgetSpentBeforeMeasuring(seconds: Int)
    /// Not measured: more candidates than `--max-candidates` allows (the limit).
    case candidateLimit(Int)
    /// Not built: every statement it serves gets the same what-if plan as with the candidate on `table` and
    /// `columns` (display names), which has fewer columns or a leading column as selective or more.
    case samePlanAsCandidate(table: String, columns: [String], keptHasFewerColumns: Bool)
    /// Not measured: an all-equality index led by `column`, which has `distinctValues` values, and the values
    /// the workload looks up match `share` (0 to 1) of the rows on average; `lookedUp`, when the values were
    /// counted one by one, the least and most of them and the heaviest (issue 42: "each match about 59 %"
    /// was the mean of values matching 82 % and 14 %).
    case poorLeadingColumn(column: String, distinctValues: Int, share: Double, lookedUp: LookedUpShares? = nil)
    /// `CREATE INDEX` failed on the snapshot, with SQLite's message.
    case buildFailed(error: String)
    /// A pick that no final plan uses once the `others` (index names) exist.
    case unusedOnceOthersExist(others: [String])
    /// A left prefix of the recommended index `wider` (name), which serves the same lookups.
    case leftPrefixOfPick(wider: String)
    /// `Z_ENT` followed by the key of a pick that reads as many pages without it.
    case entityColumnSavesNoPages
    /// Built beside the `picks` (names; none: the existing indexes), it did not save measurably more than
    /// `minimumSeconds` per workload.
    case notWorthBuilt(picks: [String], minimumSeconds: Double)
    /// Built with the other `members` (`table(columns)`) of a join's set for `statement` (`S3`), the set did
    /// not save measurably more than `minimumSeconds` per workload.
    case joinSetNotWorthBuilt(members: [String], statement: String, minimumSeconds: Double)
    /// The planner no longer uses it once the `picks` (names) exist.
    case plannerNoLongerUses(picks: [String])
    /// Chosen on SQLite's work counters, but built and timed it costs more than it saves by the wall clock
    /// beyond the runs' spread: its reads save at most `readsSavedAtMost` and its writes add at least
    /// `writesAddedAtLeast`, in seconds per workload (``ClockCheck``).
    case costsMoreByTheClock(readsSavedAtMost: Double, writesAddedAtLeast: Double)
    /// Decided on SQLite's work counters, which showed these statements doing measurably less work with it, the
    /// wall clock timed them slower beyond the runs' spread, and that veto decided (issue 39, F6).
    case slowerByTheClock([StatementSlowdown])
    /// Recommended with the rest of the advice, which measured slower than the store as it is once in place, by
    /// the wall clock (the workload's `beforeSeconds` → `afterSeconds`, as the headline sums them), timed again
    /// back to back: every pick was given up (issue 39, F3). `byCounters`: the picks were chosen on SQLite's work
    /// counters, which showed the set doing less work.
    case setSlowerByTheClock(beforeSeconds: Double, afterSeconds: Double, byCounters: Bool)
    /// Chosen on SQLite's work counters, which priced the statements it serves at most `countedSpeedup`
    /// times cheaper (under their 2× resolution), its reads saving `readsSaved` and its writes adding
    /// `writesAdded` (seconds per workload, as the counters price them): read at the resolution's worst, less
    /// than `minimumSeconds` (``ClockCheck/isInsideResolution(_:weight:countsWrite:minimumBenefit:)``).
    case marginalByCounters(countedSpeedup: Double, readsSaved: Double, writesAdded: Double, minimumSeconds: Double)
    /// Picked first, but the later picks `takenBy` (names) took some of its statements, and for the ones left
    /// `replacement` (a name) measured better with every other pick in place: it took this one's place.
    case revisedForStatementsLeft(replacement: String, takenBy: [String])
    /// A reason read back from a JSON report (or set in words by a caller of the library): its words, and its
    /// ``kind`` when the report has one.
    case other(String, kind: String? = nil)

    /// A stable, machine-readable name for the reason, for the JSON report's `kind`; nil for a reason given
    /// only in words.
    public var kind: String? {
        switch self {
        case .indexLimit: return "index-limit"
        case .tableIndexLimit: return "table-index-limit"
        case .indexBytesLimit: return "index-bytes-limit"
        case .makesStatementsSlower: return "makes-statements-slower"
        case .undeclarableWithEqualForm: return "undeclarable-with-equal-form"
        case .noMeasuredGain: return "no-measured-gain"
        case .costOutweighsSaving: return "cost-outweighs-saving"
        case .belowMinimumBenefit: return "below-minimum-benefit"
        case .timeBudgetSpentInSelection: return "time-budget-in-selection"
        case .undeclarable: return "undeclarable"
        case .servedByEarlierPicks: return "served-by-earlier-picks"
        case .timeBudgetSpentBeforeMeasuring: return "time-budget-before-measuring"
        case .candidateLimit: return "candidate-limit"
        case .samePlanAsCandidate: return "same-plan-as-candidate"
        case .poorLeadingColumn: return "poor-leading-column"
        case .buildFailed: return "build-failed"
        case .unusedOnceOthersExist: return "unused-once-others-exist"
        case .costsMoreByTheClock: return "costs-more-by-the-clock"
        case .slowerByTheClock: return "slower-by-the-clock"
        case .setSlowerByTheClock: return "set-slower-by-the-clock"
        case .marginalByCounters: return "marginal-by-counters"
        case .leftPrefixOfPick: return "left-prefix-of-pick"
        case .entityColumnSavesNoPages: return "entity-column-saves-no-pages"
        case .notWorthBuilt: return "not-worth-built"
        case .joinSetNotWorthBuilt: return "join-set-not-worth-built"
        case .plannerNoLongerUses: return "planner-no-longer-uses"
        case .revisedForStatementsLeft: return "revised-for-statements-left"
        case .other(_, let kind): return kind
        }
    }

    /// True for a reason that names the time budget (`--time-budget`): the candidate was not measured, or not
    /// chosen, because the budget ran out.
    var isTimeBudget: Bool {
        switch self {
        case .timeBudgetSpentInSelection, .timeBudgetSpentBeforeMeasuring: return true
        case .other(let text, _): return text.contains("--time-budget")
        default: return false
        }
    }

    /// True for a reason the wall clock gave against SQLite's work counters, when the choices are decided on
    /// the counters (`decidesOnCounters`): the clock's best case lost, or its medians did beyond the spread.
    func isClockVerdict(decidesOnCounters: Bool) -> Bool {
        guard decidesOnCounters else { return false }
        switch self {
        case .costsMoreByTheClock, .slowerByTheClock, .setSlowerByTheClock: return true
        case .costOutweighsSaving(_, _, let byCounters), .makesStatementsSlower(_, let byCounters): return !byCounters
        default: return false
        }
    }

    /// The same reason with every name in it (index, table, column names, and the words of a reason given in
    /// words) passed through `rename`: for renaming an index throughout a result.
    func renamingNames(_ rename: (String) -> String) -> RejectionReason {
        switch self {
        case .makesStatementsSlower(let slower, let byCounters):
            return .makesStatementsSlower(slower.map { $0.renaming(rename) }, byCounters: byCounters)
        case .costOutweighsSaving(let slower, let churn, let byCounters):
            return .costOutweighsSaving(slower: slower.map { $0.renaming(rename) }, churn: churn?.renaming(rename), byCounters: byCounters)
        case .undeclarable(let slower, let byCounters):
            return .undeclarable(slower: slower.map { $0.renaming(rename) }, byCounters: byCounters)
        case .samePlanAsCandidate(let table, let columns, let fewer):
            return .samePlanAsCandidate(table: rename(table), columns: columns.map(rename), keptHasFewerColumns: fewer)
        case .poorLeadingColumn(let column, let distinct, let share, let lookedUp):
            return .poorLeadingColumn(column: rename(column), distinctValues: distinct, share: share, lookedUp: lookedUp)
        case .buildFailed(let error):
            return .buildFailed(error: rename(error))
        case .unusedOnceOthersExist(let others):
            return .unusedOnceOthersExist(others: others.map(rename))
        case .leftPrefixOfPick(let wider):
            return .leftPrefixOfPick(wider: rename(wider))
        case .notWorthBuilt(let picks, let minimum):
            return .notWorthBuilt(picks: picks.map(rename), minimumSeconds: minimum)
        case .joinSetNotWorthBuilt(let members, let statement, let minimum):
            return .joinSetNotWorthBuilt(members: members.map(rename), statement: statement, minimumSeconds: minimum)
        case .plannerNoLongerUses(let picks):
            return .plannerNoLongerUses(picks: picks.map(rename))
        case .revisedForStatementsLeft(let replacement, let takenBy):
            return .revisedForStatementsLeft(replacement: rename(replacement), takenBy: takenBy.map(rename))
        case .slowerByTheClock(let slower):
            return .slowerByTheClock(slower.map { $0.renaming(rename) })
        case .other(let text, let kind):
            return .other(rename(text), kind: kind)
        case .indexLimit, .tableIndexLimit, .indexBytesLimit, .undeclarableWithEqualForm, .noMeasuredGain,
             .belowMinimumBenefit, .timeBudgetSpentInSelection, .servedByEarlierPicks, .timeBudgetSpentBeforeMeasuring,
             .candidateLimit, .costsMoreByTheClock, .marginalByCounters, .entityColumnSavesNoPages, .setSlowerByTheClock:
            return self
        }
    }
}

/// A statement a candidate makes measurably slower: its label in the report (`S3`) and its median time
/// without and with the candidate, in seconds.
public struct StatementSlowdown: Sendable, Equatable {
    public var statement: String
    public var beforeSeconds: Double
    public var afterSeconds: Double

    func renaming(_ rename: (String) -> String) -> StatementSlowdown {
        StatementSlowdown(statement: rename(statement), beforeSeconds: beforeSeconds, afterSeconds: afterSeconds)
    }
}

/// A key column that most writes to its table change (`UPDATE … SET` it): `share` (0 to 1) of the writes to
/// `table`, weighted by frequency.
public struct ColumnChurn: Sendable, Equatable {
    public var column: String
    public var share: Double
    public var table: String
    /// The index's partial predicate, when it is partial: a write moves its entry only for a row it holds.
    public var partialPredicate: String? = nil

    func renaming(_ rename: (String) -> String) -> ColumnChurn {
        ColumnChurn(column: rename(column), share: share, table: rename(table), partialPredicate: partialPredicate.map(rename))
    }
}

/// The shares of a column's rows that the values a workload looks up in it match, one value at a time
/// (``RejectionReason/poorLeadingColumn(column:distinctValues:share:lookedUp:)``).
public struct LookedUpShares: Sendable, Equatable {
    /// The share (0 to 1) the least matching value matches, and the most matching one.
    public var least: Double
    public var most: Double
    /// The value that matches ``most``, and how many distinct values were looked up.
    public var heaviest: SQLValue
    public var values: Int

    public init(least: Double, most: Double, heaviest: SQLValue, values: Int) {
        self.least = least
        self.most = most
        self.heaviest = heaviest
        self.values = values
    }
}

