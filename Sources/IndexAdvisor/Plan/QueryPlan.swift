import QueryPlanText

/// The output of `EXPLAIN QUERY PLAN` (https://sqlite.org/eqp.html): rows with `id`, `parent` and the
/// `detail` text, and the findings read from them.
public struct QueryPlan: Sendable, Codable, Equatable {
    /// One row of the plan.
    public struct Step: Sendable, Codable, Equatable {
        public var id: Int
        public var parent: Int
        public var detail: String
    }

    public var steps: [Step]
    public var findings: [PlanFinding]

    public init(steps: [Step], findings: [PlanFinding]) {
        self.steps = steps
        self.findings = findings
    }

    /// The plan drawn as a tree, as the sqlite3 shell prints it:
    /// ```
    /// QUERY PLAN
    /// |--SCAN t0
    /// `--USE TEMP B-TREE FOR ORDER BY
    /// ```
    ///
    /// Each step is drawn once, so a plan read from an edited report whose steps form a cycle (a step its
    /// own parent, a repeated id) still draws instead of recursing without end.
    public var tree: String {
        PlanTree.draw(steps.map { ($0.id, $0.parent, $0.detail) })
    }

    /// True when any finding is a problem (a full scan of a table that is not tiny, a temp B-tree, an
    /// automatic index).
    public var hasProblem: Bool { findings.contains(where: \.isProblem) }

    /// The names of the indexes the plan uses (automatic indexes excluded).
    public var indexesUsed: [String] { findings.compactMap(\.index) }
}

/// What one row of a query plan means for indexing.
public struct PlanFinding: Sendable, Codable, Equatable, Hashable {
    /// What the row does (`QueryPlanText`'s `PlanRowKind`, which IndexAdvisorTesting shares).
    public typealias Kind = PlanRowKind

    public var kind: Kind
    /// The table, resolved from the alias the plan names.
    public var table: String?
    /// The name the plan row uses (an alias such as `t0`, or the table).
    public var alias: String?
    /// The index used, for index searches and scans.
    public var index: String?
    /// The parenthesised constraint list, e.g. `ZFOLDERID=? AND ZUPDATEDAT>?`.
    public var constraints: String?
    /// For a temp B-tree: what it is for (`ORDER BY`, `GROUP BY`, `DISTINCT`, `RIGHT PART OF ORDER BY`…).
    public var purpose: String?
    /// The plan row's text.
    public var detail: String
    /// Rows in `table`, when the planner knew them.
    public var tableRows: Int?

    /// Tables below this many rows are scanned faster than any index could help.
    public static let smallTableRows = 1_000

    /// Set on a full index scan (`SCAN t USING [COVERING] INDEX i`, no constraint in parentheses) when the
    /// statement filters `t`: a WHERE or ON term on its columns, an expression filter or a string search
    /// (`NSCoreDataStringSearch`, `instr`). The index is then read whole, in its order, and each row is
    /// tested one by one: a full scan that avoids only a sort (https://sqlite.org/eqp.html: "SCAN … USING
    /// INDEX" visits every entry; https://sqlite.org/optoverview.html#order_by_optimizations). Nil when not
    /// known (plans the advisor works with, reports written before it was kept) or when nothing filters it
    /// (`ORDER BY x LIMIT 20` reads 20 entries).
    public var filtersWholeIndex: Bool? = nil

    /// True for a full scan of a table of at least `smallTableRows` rows: `SCAN t`, or a full index scan of
    /// a table the statement filters (``filtersWholeIndex``). What `check` fails and the totals count.
    public var isFullScan: Bool {
        (kind == .fullTableScan || (kind == .fullIndexScan && filtersWholeIndex == true)) && (tableRows ?? Int.max) >= Self.smallTableRows
    }

    /// True for a temp B-tree, an automatic index, and a full scan (``isFullScan``).
    public var isProblem: Bool {
        kind == .fullTableScan || kind == .fullIndexScan ? isFullScan : kind.isProblem
    }
}

extension PlanRowKind {
    /// Findings the advisor tries to remove: full table scans, temp B-tree sorts, automatic indexes.
    public var isProblem: Bool { self == .fullTableScan || self == .tempBTree || self == .automaticIndex }
}
