import Foundation

/// A candidate built for real on the snapshot (by ``SnapshotIndexes``), with what it did to the statements it
/// serves and to the writes on its table.
struct MeasuredCandidate {
    var candidate: IndexCandidate
    /// Profiles (by position) whose what-if plan uses the candidate.
    var users: [Int]
    /// WHERE terms the users' what-if plans resolve through the candidate (`a=? AND b>?` counts 2): how
    /// well the index fits the statements, in SQLite's own terms.
    var termsUsed = 0
    /// The share of rows an equality on the leading key column matches, on average
    /// (``ColumnStatistics/matchedFraction``): lower is more selective.
    var leadMatchedFraction: Double?
    /// Profiles (by position) of writes to the candidate's table.
    var writes: [Int]
    /// Wall time of CREATE INDEX, in seconds.
    var buildSeconds: Double
    var bytes: Int64
    /// Timings with the candidate present, by profile position.
    var after: [Int: Timing]
    /// Writes timed just before the candidate was built, so that their comparison is not skewed by what
    /// the machine did in between.
    var writesBefore: [Int: Timing] = [:]
    /// Profiles whose timing failed with the candidate present, with the reason.
    var failures: [Int: String] = [:]
    /// For each user (profile position), the what-if plan its timing in `after` was taken with, as
    /// ``EquivalentCandidates/signature(of:index:)`` writes it: while it stays the same, so does the work.
    var whatIfPlans: [Int: String] = [:]
}
