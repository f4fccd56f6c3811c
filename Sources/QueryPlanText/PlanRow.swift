/// What one row of `EXPLAIN QUERY PLAN` does (https://sqlite.org/eqp.html): the library's `PlanFinding.Kind`
/// and IndexAdvisorTesting's `PlannedStatement.Row.Kind`. The raw values are the JSON report's.
public enum PlanRowKind: String, Sendable, Codable, Hashable {
    /// `SCAN t`: every row of the table is read.
    case fullTableScan = "full-table-scan"
    /// `SCAN t USING [COVERING] INDEX i`: every entry of an index is read, in index order.
    case fullIndexScan = "full-index-scan"
    /// `SEARCH t USING INDEX i (…)`: an index lookup.
    case indexSearch = "index-search"
    /// `SEARCH t USING COVERING INDEX i (…)`: a lookup that never reads the table.
    case coveringIndexSearch = "covering-index-search"
    /// `SEARCH t USING INTEGER PRIMARY KEY (rowid=?)`: a lookup by rowid.
    case rowidLookup = "rowid-lookup"
    /// `SEARCH t USING PRIMARY KEY (…)` on a WITHOUT ROWID table.
    case primaryKeyLookup = "primary-key-lookup"
    /// `… USING AUTOMATIC [PARTIAL] COVERING INDEX (…)`: SQLite builds a temporary index for each run.
    case automaticIndex = "automatic-index"
    /// `USE TEMP B-TREE FOR ORDER BY | GROUP BY | DISTINCT | … PART OF ORDER BY`: rows are sorted in a temp B-tree.
    case tempBTree = "temp-b-tree"
    /// `MULTI-INDEX OR`.
    case multiIndexOr = "multi-index-or"
    /// A correlated or list subquery.
    case subquery
    /// Anything else (`SCAN CONSTANT ROW`, a CTE, a virtual table, a co-routine).
    case other
}

/// What one row of `EXPLAIN QUERY PLAN` says, read from its `detail` text (https://sqlite.org/eqp.html).
///
/// Shared by the IndexAdvisor library (its `PlanFinding`) and the IndexAdvisorTesting product, so that both
/// read a plan row the same way.
package struct PlanRow: Sendable, Equatable {
    package var kind: PlanRowKind
    /// The table, resolved from the name the row prints through the `names` given to ``PlanRowReader``.
    package var table: String?
    /// The name the row prints (an alias such as `t0`, or the table).
    package var alias: String?
    /// The index used, for index searches and scans.
    package var index: String?
    /// The parenthesised constraint list, e.g. `ZFOLDERID=? AND ZUPDATEDAT>?`.
    package var constraints: String?
    /// For a temp B-tree: what it is for (`ORDER BY`, `GROUP BY`, `DISTINCT`, `RIGHT PART OF ORDER BY`…).
    package var purpose: String?
}
