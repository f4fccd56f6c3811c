/// What a query advice found, with the data its sentences name (``QueryAdvice/finding``); the words are
/// the renderers' (``QueryAdvice/advice``, ``QueryAdvice/caveat``).
public enum QueryAdviceFinding: Sendable, Equatable {
    /// `ORDER BY column COLLATE collation`, which no index can carry; measured sorted with a binary
    /// comparator and an index on the column.
    case collationSort(column: String, collation: String)
    /// `column LIKE 'pattern'` with a plain `prefix` before its only wildcard.
    case caseInsensitiveLike(column: String, pattern: String, prefix: String)
    /// A substring search on `table` that no B-tree index serves.
    case substringSearch(table: String, search: SubstringSearch)
    /// An OR across `columns` of `table` that scans it.
    case orAcrossColumns(table: String, columns: [String])
    /// A correlated or IN subquery that scans its table for each outer row.
    case subquery
    /// ANALYZE statistics change the statement's plan.
    case statistics(StatisticsChange)
    /// A recommended index on `table` whose `columns` (`name` or `name DESC`) mix directions.
    case mixedSortDirections(table: String, columns: [String])
    /// An advice read back from a JSON report: its words and caveat.
    case other(advice: String, caveat: String?)
}

/// How a substring search shows in a statement.
public enum SubstringSearch: Sendable, Equatable {
    /// A LIKE or GLOB (`op`) on `column` whose pattern starts with a wildcard.
    case leadingWildcard(column: String, op: String)
    /// Search functions applied to a column (`instr`, Core Data's `NSCoreDataStringSearch`).
    case functions([String])
}

/// What ANALYZE statistics do to one statement and to the workload.
public struct StatisticsChange: Sendable, Equatable {
    /// The plan's rows that matter without statistics and with them (``StatisticsCheck/summary(_:)``).
    public var planWithout: String
    public var planWith: String
    /// The statement's median time without and with them, in seconds.
    public var secondsWithout: Double
    public var secondsWith: Double
    /// True when the statement is faster with them (weighted by its frequency).
    public var isFaster: Bool
    /// Across the workload: the net saving in seconds, the statements faster (`S3`), and those slower.
    public var workloadNetSeconds: Double
    public var fasterStatements: [String]
    public var slowerStatements: [StatementSlowdown]
    /// True on a Core Data or SwiftData store (ANALYZE comes with `NSSQLiteAnalyzeOption` there).
    public var isCoreData: Bool
}
