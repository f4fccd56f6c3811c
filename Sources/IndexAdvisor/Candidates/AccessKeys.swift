/// One statement's access to one table with its key columns worked out: what each kind of candidate
/// ``CandidateGenerator`` proposes for it is built from.
struct AccessKeys {
    let table: Table
    let access: TableAccess
    /// True on a Core Data or SwiftData entity table (`Z_ENT` and `Z_OPT` are bookkeeping there).
    let isEntityTable: Bool
    /// The rowid alias's folded name, if the table has one.
    let rowid: String?
    /// The equality constraints, one per column, in the statement's order, and the share of rows each matches.
    var equalities: [ColumnConstraint] = []
    var matched: [Double] = []
    /// For each equality, the least and most matching of the values looked up, when counted one by one.
    var lookedUp: [LookedUpShares?] = []
    /// The equality columns as key columns, most selective first, and their folded names.
    var equalityColumns: [IndexColumn] = []
    var equalityNames: Set<String> = []
    var sortColumns: [IndexColumn] = []
    /// For an all-descending sort, its columns in the statement's own direction (``sortColumns`` has them ascending).
    var descendingSort: [IndexColumn] = []
    var range: IndexColumn?

    init(table: Table, access: TableAccess, isEntityTable: Bool) {
        self.table = table
        self.access = access
        self.isEntityTable = isEntityTable
        self.rowid = table.rowidAlias?.name.sqlFolded
    }

    /// What follows the equality columns in the main candidate: the sort columns, else the range column.
    var tail: [IndexColumn] { sortColumns.isEmpty ? (range.map { [$0] } ?? []) : sortColumns }

    /// Equality columns (folded) compared only with another table's column: a join's, usable only when this
    /// table is the join's inner loop.
    var joinColumns: Set<String> {
        let equal = access.constraints.filter(\.op.isEquality)
        let joined = Set(equal.filter(\.isJoin).map { $0.column.sqlFolded })
        return joined.subtracting(equal.filter { !$0.isJoin }.map { $0.column.sqlFolded })
    }

    func isIndexable(_ column: String) -> Bool {
        !column.isEmpty && column.sqlFolded != "rowid" && column.sqlFolded != rowid && table.column(named: column) != nil
    }

    /// False for Core Data's `Z_ENT` and `Z_OPT` on an entity table.
    func isModelColumn(_ column: String) -> Bool {
        !isEntityTable || !["z_ent", "z_opt"].contains(column.sqlFolded)
    }

    /// The key column for `constraint`, named as the table spells it.
    func key(_ constraint: ColumnConstraint, collation: String? = nil) -> IndexColumn {
        IndexColumn(name: table.column(named: constraint.column)?.name ?? constraint.column,
                    collation: collation ?? constraint.collation)
    }
}
