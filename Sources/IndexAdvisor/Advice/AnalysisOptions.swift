import Foundation

/// Settings of an analysis. Defaults suit a store of up to a few million rows on a laptop.
public struct AnalysisOptions: Sendable, Equatable {
    /// Where statement costs come from: wall-clock time (the default) or SQLite's deterministic work
    /// counters (``CostSource/sqliteCounters``), which repeat exactly on a busy machine.
    public var costSource = CostSource.wallClock
    /// With wall-clock timing, make the choices (which candidate wins, whether a pick saves enough, how
    /// many drawn values to time) on SQLite's work counters of the same runs, while every figure a report
    /// prints stays wall-clock: the same input then gives the same advice on a busy machine. False decides
    /// on the wall-clock medians and their spreads.
    public var decideOnCounters = true
    /// Runs per timed statement; reports give their median and interquartile range.
    public var repeats = 7
    /// Sets of bound values drawn per statement when the workload gave none.
    public var bindingSamples = 12
    /// A timing run repeats a fast statement until it has taken at least this long, in seconds.
    public var minimumRunSeconds = 0.002
    /// One execution of a measured statement longer than this is interrupted, in seconds.
    public var statementTimeout: Double = 10
    /// How long to retry a store that another process keeps changing or locking, in seconds.
    public var busyTimeout: Double = 5
    /// At most this many new indexes per table. Each must still save the selection's minimum net of the
    /// writes it adds (measured), so the cap only bounds a schema change's size: at 4, a new user's task
    /// entity with five hot fetch shapes lost the one for flagged tasks (S12: 71–95 ms with the advice,
    /// 0.2–0.5 ms with the index, by hand), blocked while a weaker pick stood.
    public var maxIndexesPerTable = 6
    /// At most this many new indexes in all.
    public var maxNewIndexes = 12
    /// New indexes together take at most this many bytes (nil: no limit).
    public var maxIndexBytes: Int64?
    /// An index is recommended only when it saves at least this share of the workload's measured time
    /// (frequency-weighted, net of write cost), and at least 1 ms: a schema change is not free.
    public var minimumBenefitShare = 0.005
    /// The smallest frequency-weighted saving worth a schema change whatever the workload's size, in seconds
    /// per workload: below it, an index cannot save what its migration costs to ship.
    public static let minimumBenefitFloorSeconds = 0.001
    /// At most this many candidates are built and measured (the most promising, by what-if and weight).
    public var maxCandidatesMeasured = 24
    /// Once the analysis has run this long, in seconds, no more candidates are built or picked: the final
    /// timings, the review and the report follow. Candidates are measured heaviest statement first, so the
    /// time goes where the workload spends it; the report lists what was left out. Nil: no bound.
    public var timeBudgetSeconds: Double? = 600
    /// Tables of more than twice this many rows are measured on a deterministic 1-in-k sample of about
    /// this many rows (nil: never sample).
    public var sampleRows: Int? = 250_000
    /// Seed for drawing bound values.
    public var seed: UInt64 = 1
    /// Uniqueness rules to check against the data (declared in the app's model, or asked for).
    public var uniqueRules: [UniqueRule] = []
    /// Entities (names as in `Z_PRIMARYKEY`) that the app's model declares through Core Data: an
    /// `NSManagedObject` subclass or an `.xcdatamodeld` entity, as `--model` or `--source` read them. A
    /// fetch index can have descending elements (`NSFetchIndexElementDescription.isAscending`) and a
    /// partial-index predicate (`NSFetchIndexDescription.partialIndexPredicate`), so on these entities'
    /// tables those forms compete in the recommended set; elsewhere (a SwiftData `@Model`, or no model
    /// read) only what `#Index` declares does, and the other forms are alternatives.
    public var coreDataEntities: Set<String> = []
    /// Where the private snapshot directory is created (default: the system temporary directory).
    public var temporaryDirectory: URL?
    /// Free bytes to assume in the snapshot's folder instead of asking the file system (tests set it to
    /// reach the free-space check without filling a disk).
    package var assumedFreeBytes: Int64?
    /// Pages the snapshot may grow by (`PRAGMA max_page_count`, https://sqlite.org/pragma.html#pragma_max_page_count)
    /// before SQLite answers `SQLITE_FULL`, as on a nearly full disk: tests reach a full folder mid-run with it.
    package var snapshotGrowthPages: Int?
    /// False: the cost oracle remembers no cost and no plan (``SnapshotOracle/memoises``), so every question the
    /// selector asks is measured afresh. The benchmark compares that serial, unmemoised run's advice with the
    /// memoised one's (issue 40): the memo may save work, never change what is recommended.
    package var memoisesCosts = true

    public init() {}
}

/// Progress of an analysis, reported to an optional observer.
public struct AnalysisProgress: Sendable {
    /// The pipeline stage, e.g. "snapshot", "baseline", "candidates", "selection".
    public var stage: String
    /// Items done and total in the stage, when it has items.
    public var done: Int
    public var total: Int
    /// Seconds since the analysis started.
    public var elapsedSeconds: Double
}
