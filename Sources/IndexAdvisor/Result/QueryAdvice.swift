/// Advice about a statement that no plain index fixes as written: what to change in the statement (or in
/// the store's statistics), with the statement's measured time as it is and, where the change can be run
/// here, the measured time with it.
/// (Its words and JSON form are in Render/QueryAdviceText.swift.)
public struct QueryAdvice: Sendable {
    public enum Kind: String, Sendable, Codable {
        /// ORDER BY under a collation no index can carry (Core Data's `NSCollate…`, or NOCASE on a BINARY index).
        case collationSort = "collation-sort"
        /// `LIKE 'abc%'` under SQLite's case-insensitive LIKE, which a BINARY index cannot serve.
        case caseInsensitiveLike = "case-insensitive-like"
        /// A substring or case-insensitive search (`LIKE '%x%'`, `NSCoreDataStringSearch`, `instr`) no B-tree serves.
        case substringSearch = "substring-search"
        /// `OR` across different columns: SQLite needs an index on each to avoid a scan.
        case orAcrossColumns = "or-across-columns"
        /// A correlated or list subquery that scans its table for each outer row.
        case subquery
        /// ANALYZE statistics would change the plan (better or worse).
        case statistics
        /// An index whose key mixes directions (costlier to keep) where one direction might do.
        case mixedSortDirections = "mixed-sort-directions"
    }

    public var kind: Kind
    /// The statement's fingerprint id.
    public var statementID: String
    /// What was found, with the data ``advice`` and ``caveat`` put in words.
    public var finding: QueryAdviceFinding
    /// The statement as it is, in the final state (recommended indexes built).
    public var timing: Timing?
    /// The changed statement (or the commands to run), when there is one to show.
    public var rewrite: String?
    /// The measured time with the change.
    public var rewriteTiming: Timing?
    /// The plan with the change, when it differs.
    public var rewritePlan: QueryPlan?
}
