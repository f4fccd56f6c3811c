import QueryPlanText

/// What a statement's query plan must and must not do, judged on its `EXPLAIN QUERY PLAN` rows
/// (https://sqlite.org/eqp.html).
///
/// An automatic index (`… USING AUTOMATIC [PARTIAL] COVERING INDEX (…)`) always fails: SQLite builds it
/// from a full scan on every run of the statement, because no index serves the lookup
/// (https://sqlite.org/optoverview.html#automatic_query_time_indexes).
public struct PlanRequirements: Sendable, Hashable {
    /// A full scan fails when its table holds more rows than this (counted with `SELECT count(*)` when the
    /// statement is planned). A full scan is `SCAN t`, and `SCAN t USING [COVERING] INDEX i` when the statement
    /// filters `t` (every entry is read and tested: a full scan that only avoids a sort) and `i` is not
    /// partial. Default 999: tables of 1,000 rows or more, as `indexadvisor check` counts full scans (a
    /// smaller table is scanned about as fast as an index is searched).
    public var maximumFullScanRows: Int
    /// Whether `USE TEMP B-TREE FOR ORDER BY | GROUP BY | DISTINCT` passes. Default false: the rows are
    /// sorted on every run, where an index in that order would deliver them sorted.
    public var allowsTempBTree: Bool
    /// An index the plan must use (`SEARCH t USING [COVERING] INDEX name (…)` or `SCAN t USING … INDEX
    /// name`), by name, compared as SQLite compares names (ASCII case ignored). Default none.
    public var requiredIndex: String?

    public init(maximumFullScanRows: Int = 999, allowsTempBTree: Bool = false, requiredIndex: String? = nil) {
        self.maximumFullScanRows = max(0, maximumFullScanRows)
        self.allowsTempBTree = allowsTempBTree
        self.requiredIndex = requiredIndex
    }

    /// The default requirements: no full scan of a table over 999 rows, no temp B-tree, no automatic index.
    public static let `default` = PlanRequirements()

    /// The default requirements, and the plan must use the index `name`.
    public static func usingIndex(_ name: String) -> PlanRequirements {
        PlanRequirements(requiredIndex: name)
    }
}

/// One way a plan fails its ``PlanRequirements``.
public struct PlanViolation: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// `SCAN t` of a table over ``PlanRequirements/maximumFullScanRows`` rows.
        case fullTableScan = "full table scan"
        /// `SCAN t USING [COVERING] INDEX i` testing every entry, of a table over the limit.
        case fullIndexScan = "full index scan"
        /// `USE TEMP B-TREE FOR …`.
        case tempBTree = "temp B-tree"
        /// `… USING AUTOMATIC [PARTIAL] COVERING INDEX (…)`.
        case automaticIndex = "automatic index"
        /// The plan does not use ``PlanRequirements/requiredIndex``.
        case indexNotUsed = "index not used"
    }

    public var kind: Kind
    /// The table the row reads (none for a temp B-tree, whose row names no table).
    public var table: String?
    /// The rows in ``table`` when the plan was made.
    public var tableRows: Int?
    /// The index scanned (``Kind/fullIndexScan``) or required (``Kind/indexNotUsed``).
    public var index: String?
    /// The plan row, as SQLite prints it; for ``Kind/indexNotUsed``, the indexes the plan uses instead.
    public var detail: String
    /// ``PlanRequirements/maximumFullScanRows`` for a full scan.
    var rowLimit: Int?
    /// The position of the plan row in ``PlannedStatement/rows``.
    var row: Int?

    /// One phrase: `full table scan of note (5,000 rows, over the 999 allowed)`, `temp B-tree for ORDER BY`.
    public var description: String {
        let rows = tableRows.map { " (" + Self.grouped($0) + " rows" + (rowLimit.map { ", over the \(Self.grouped($0)) allowed" } ?? "") + ")" } ?? ""
        switch kind {
        case .fullTableScan:
            return "full table scan of \(table ?? "?")\(rows)"
        case .fullIndexScan:
            return "full scan of index \(index ?? "?") on \(table ?? "?"), testing every entry\(rows)"
        case .tempBTree:
            return "temp B-tree for " + (detail.hasPrefix("USE TEMP B-TREE FOR ") ? String(detail.dropFirst("USE TEMP B-TREE FOR ".count)) : detail)
        case .automaticIndex:
            return "automatic index on \(table ?? "?"), built on every run" + (tableRows.map { " from all " + Self.grouped($0) + " rows" } ?? "")
        case .indexNotUsed:
            return "does not use the index \(index ?? "?") (\(detail))"
        }
    }

    /// `5000` as `5,000`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}

extension PlannedStatement {
    /// The ways this plan fails `requirements`, in plan order (an index not used last).
    public func violations(of requirements: PlanRequirements) -> [PlanViolation] {
        var violations: [PlanViolation] = []
        for (position, row) in rows.enumerated() {
            let overLimit = (row.tableRows ?? Int.max) > requirements.maximumFullScanRows
            switch row.kind {
            case .fullTableScan where overLimit:
                violations.append(PlanViolation(kind: .fullTableScan, table: row.table, tableRows: row.tableRows, detail: row.detail,
                                                rowLimit: requirements.maximumFullScanRows, row: position))
            case .fullIndexScan where overLimit && row.testsEveryEntry:
                violations.append(PlanViolation(kind: .fullIndexScan, table: row.table, tableRows: row.tableRows, index: row.index,
                                                detail: row.detail, rowLimit: requirements.maximumFullScanRows, row: position))
            case .tempBTree where !requirements.allowsTempBTree:
                violations.append(PlanViolation(kind: .tempBTree, detail: row.detail, row: position))
            case .automaticIndex:
                violations.append(PlanViolation(kind: .automaticIndex, table: row.table, tableRows: row.tableRows, detail: row.detail, row: position))
            default:
                continue
            }
        }
        if let required = requirements.requiredIndex,
           !indexesUsed.contains(where: { PlanRowReader.folded($0) == PlanRowReader.folded(required) }) {
            let used = indexesUsed.isEmpty ? "it uses no index" : "it uses " + indexesUsed.joined(separator: ", ")
            violations.append(PlanViolation(kind: .indexNotUsed, index: required, detail: used))
        }
        return violations
    }

    /// The plan judged against `requirements`: its violations, the indexes that would remove them, and the
    /// failure message.
    public func check(_ requirements: PlanRequirements = .default) -> PlanCheck {
        let violations = violations(of: requirements)
        return PlanCheck(statement: self, requirements: requirements, violations: violations,
                         suggestions: IndexSuggestion.suggestions(for: violations, in: self))
    }
}
