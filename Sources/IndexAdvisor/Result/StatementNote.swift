/// What else to know about a statement (``StatementReport/notes``): why it is slow as written, how it was
/// measured, or why no index was recommended for it; the fact and its data, without the words, which are
/// the renderers' (``text``). In the JSON report each note is its words, as before.
public enum StatementNote: Sendable, Equatable {
    /// SQLite's parser could not give its shape (the error): it is timed but gets no candidates.
    case shapeUnreadable(error: String)
    /// Its shape was read without these parts (`RETURNING`, `ON CONFLICT`, `an IN list`, …); `tooManyParameters`
    /// when that is because the statement had more parameters than SQLite allows once its literals were.
    case shapeReadWithout(parts: [String], tooManyParameters: Bool)
    /// An ORDER BY under a collation no index can carry, with the shape's reason.
    case collationSort(column: String, collation: String, reason: String)
    /// Filtered with Core Data's string search `function` on `table`.
    case coreDataStringSearch(table: String, function: String, cost: StatementCost?)
    /// Filtered through `function(…)` (`instr`, `lower`, `upper`) on a column of `table`.
    case functionOnColumn(table: String, function: String, cost: StatementCost?)
    /// A LIKE or GLOB (`op`) on `column` whose bound `pattern` starts with a wildcard.
    case leadingWildcard(column: String, op: String, pattern: String, cost: StatementCost?)
    /// Timed with stand-ins for these functions or collations, which only the app's connection registers.
    case standIns([String])
    /// Flagged, and no index recommended for it: why.
    case noRecommendation(NoRecommendationReason)
    /// A note read back from a JSON report, in its words.
    case other(String)

    /// The same note with every name in it passed through `rename`: for renaming an index throughout a result.
    func renamingNames(_ rename: (String) -> String) -> StatementNote {
        switch self {
        case .shapeUnreadable(let error): return .shapeUnreadable(error: rename(error))
        case .shapeReadWithout(let parts, let tooMany): return .shapeReadWithout(parts: parts.map(rename), tooManyParameters: tooMany)
        case .collationSort(let column, let collation, let reason):
            return .collationSort(column: rename(column), collation: rename(collation), reason: rename(reason))
        case .coreDataStringSearch(let table, let function, let cost):
            return .coreDataStringSearch(table: rename(table), function: rename(function), cost: cost)
        case .functionOnColumn(let table, let function, let cost):
            return .functionOnColumn(table: rename(table), function: rename(function), cost: cost)
        case .leadingWildcard(let column, let op, let pattern, let cost):
            return .leadingWildcard(column: rename(column), op: op, pattern: rename(pattern), cost: cost)
        case .standIns(let names): return .standIns(names.map(rename))
        case .noRecommendation(let reason): return .noRecommendation(reason.renamingNames(rename))
        case .other(let text): return .other(rename(text))
        }
    }
}

/// What a statement costs as the store is: its median time per execution, in seconds, and how many times
/// the workload runs it.
public struct StatementCost: Sendable, Equatable {
    public var secondsPerExecution: Double
    public var count: Int
}

/// Why a flagged statement got no index.
public enum NoRecommendationReason: Sendable, Equatable {
    /// `check` times the store as it is and proposes nothing.
    case notAnalysed
    /// No index a model can declare helps it, but the alternative `number` (A1 is 1) on `table`, `columns`,
    /// `partialPredicate` does; with its time before and after when both were measured.
    case alternativeHelps(number: Int, table: String, columns: [String], partialPredicate: String?, beforeSeconds: Double?, afterSeconds: Double?)
    /// `unmeasured` candidates its plan would use were left unmeasured by `--max-candidates` (`maxCandidates`),
    /// and by `--time-budget` (in seconds) when it ran out.
    case candidatesUnmeasured(unmeasured: Int, maxCandidates: Int, timeBudgetSeconds: Int?)
    /// Its shape could not be read, so no candidate could be proposed.
    case shapeUnreadable
    /// It reads one table of only `rows` rows.
    case smallTable(table: String, rows: Int)
    /// ANALYZE statistics let SQLite use the existing indexes well.
    case statisticsSuffice
    /// What makes it slow is in the statement itself (an unindexable sort, a function on a column).
    case slowAsWritten
    /// It filters and sorts on nothing an index can serve.
    case nothingToIndex
    /// An index on each of its filter and sort columns exists already.
    case existingIndexesCover
    /// It searches virtual `tables` (FTS5's MATCH, an R-Tree's ranges), which their module answers itself
    /// and no index can serve (vtab.html), or reads their `shadow` tables, which the module keeps for itself;
    /// `othersCovered`: it has terms on ordinary tables too, each with an index already.
    case virtualTableSearch(tables: [String], shadow: [String] = [], othersCovered: Bool = false)
    /// None of its terms (operators) can use an index.
    case unindexableTerms([String])
    /// No candidate was used by the planner or made it measurably faster.
    case noCandidateHelped
    /// A candidate (`table`, `columns`, `partialPredicate`) made it measurably faster, from `beforeSeconds` to
    /// `afterSeconds` per execution, but was rejected for `reason` (its words).
    case rejectedCandidateHelps(table: String, columns: [String], partialPredicate: String?, beforeSeconds: Double, afterSeconds: Double, reason: String)

    func renamingNames(_ rename: (String) -> String) -> NoRecommendationReason {
        switch self {
        case .alternativeHelps(let number, let table, let columns, let predicate, let before, let after):
            return .alternativeHelps(number: number, table: rename(table), columns: columns.map(rename),
                                     partialPredicate: predicate.map(rename), beforeSeconds: before, afterSeconds: after)
        case .smallTable(let table, let rows): return .smallTable(table: rename(table), rows: rows)
        case .rejectedCandidateHelps(let table, let columns, let predicate, let before, let after, let reason):
            return .rejectedCandidateHelps(table: rename(table), columns: columns.map(rename), partialPredicate: predicate.map(rename),
                                           beforeSeconds: before, afterSeconds: after, reason: rename(reason))
        case .virtualTableSearch(let tables, let shadow, let others):
            return .virtualTableSearch(tables: tables.map(rename), shadow: shadow.map(rename), othersCovered: others)
        default: return self
        }
    }
}
