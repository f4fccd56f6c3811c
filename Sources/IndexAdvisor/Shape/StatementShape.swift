/// A comparison SQLite's planner can hand to an index, as `xBestIndex` reports it
/// (https://sqlite.org/vtab.html#xbestindex, the `SQLITE_INDEX_CONSTRAINT_*` operators).
public enum ConstraintOperator: String, Sendable, Codable, Hashable {
    case equal = "="
    case `in` = "IN"
    case `is` = "IS"
    case isNull = "IS NULL"
    case greaterThan = ">"
    case greaterOrEqual = ">="
    case lessThan = "<"
    case lessOrEqual = "<="
    case notEqual = "!="
    case isNot = "IS NOT"
    case isNotNull = "IS NOT NULL"
    case like = "LIKE"
    case glob = "GLOB"
    case regexp = "REGEXP"
    case match = "MATCH"
    case limit = "LIMIT"
    case offset = "OFFSET"
    case function = "FUNCTION"

    /// Operators an index can use as an equality on a leading column: `=`, `IN`, `IS`, `IS NULL`
    /// (https://sqlite.org/optoverview.html#where_clause_analysis).
    public var isEquality: Bool {
        switch self {
        case .equal, .in, .is, .isNull: return true
        default: return false
        }
    }

    /// Operators an index can use as a range on the column after the equalities: `<`, `<=`, `>`, `>=`.
    public var isRange: Bool {
        switch self {
        case .greaterThan, .greaterOrEqual, .lessThan, .lessOrEqual: return true
        default: return false
        }
    }

    init(sqliteOperator op: Int32) {
        switch op {
        case 2: self = .equal
        case 4: self = .greaterThan
        case 8: self = .lessOrEqual
        case 16: self = .lessThan
        case 32: self = .greaterOrEqual
        case 64: self = .match
        case 65: self = .like
        case 66: self = .glob
        case 67: self = .regexp
        case 68: self = .notEqual
        case 69: self = .isNot
        case 70: self = .isNotNull
        case 71: self = .isNull
        case 72: self = .is
        case 73: self = .limit
        case 74: self = .offset
        default: self = .function
        }
    }
}

/// A constraint of a statement on one column of one table.
public struct ColumnConstraint: Sendable, Codable, Hashable {
    /// The column name, or `rowid`.
    public var column: String
    public var op: ConstraintOperator
    /// The collation the comparison uses (`BINARY`, `NOCASE`, or an app-defined one).
    public var collation: String
    /// The 1-based parameter whose value the comparison receives, when it is a parameter.
    public var parameter: Int?
    /// True when the value comes from another table's column (a join).
    public var isJoin: Bool

    public init(column: String, op: ConstraintOperator, collation: String = "BINARY", parameter: Int? = nil, isJoin: Bool = false) {
        self.column = column
        self.op = op
        self.collation = collation
        self.parameter = parameter
        self.isJoin = isJoin
    }
}

/// One `ORDER BY` term on a column.
public struct SortTerm: Sendable, Codable, Hashable {
    public var column: String
    public var isDescending: Bool
    /// The collation the sort uses.
    public var collation: String

    public init(column: String, isDescending: Bool, collation: String = "BINARY") {
        self.column = column
        self.isDescending = isDescending
        self.collation = collation
    }

    /// True when the collation is one an index can carry in any connection: SQLite's built-in
    /// `BINARY`, `NOCASE` and `RTRIM` (https://sqlite.org/datatype3.html#collation). App-registered
    /// collations such as Core Data's `NSCollateFinderlike` exist only on the app's own connection.
    public var hasIndexableCollation: Bool { BuiltInCollation.contains(collation) }
}

/// SQLite's built-in collating sequences.
public enum BuiltInCollation {
    public static let names: Set<String> = ["BINARY", "NOCASE", "RTRIM"]
    public static func contains(_ name: String) -> Bool { names.contains(name.uppercased()) }
}

/// What one statement does to one table.
public struct TableAccess: Sendable, Codable {
    public var table: String
    /// Every constraint SQLite offered for this table in any candidate plan.
    public var constraints: [ColumnConstraint]
    /// The `ORDER BY` terms, when every term is a column of this table (SQLite only offers it then).
    public var orderBy: [SortTerm]
    /// Columns the statement reads from this table (from the authorizer's `SQLITE_READ`).
    public var readColumns: [String]
    /// Columns an `INSERT` fills or an `UPDATE` changes.
    public var writtenColumns: [String]
    public var isInserted: Bool
    public var isUpdated: Bool
    public var isDeleted: Bool
    /// SQL functions applied to a column of this table in the statement (e.g. `NSCoreDataStringSearch`).
    public var columnFunctions: [String]
    /// The branches of an OR across columns of this table (`path = ? OR cached_path = ?`: `[["path"],
    /// ["cached_path"]]`), each branch's columns that no term outside the OR constrains; nil without such an
    /// OR. SQLite avoids a full scan only with an index for every branch, led by that branch's columns
    /// (a MULTI-INDEX OR, eqp.html; optoverview.html#or_optimizations).
    public var orBranches: [[String]]? = nil

    /// The columns constrained only inside an OR's branches (``orBranches``).
    public var orOnlyColumns: Set<String> { Set((orBranches ?? []).joined().map(\.sqlFolded)) }

    /// The access without the terms inside an OR's branches: the terms every row must match.
    public var withoutOrBranches: TableAccess {
        guard orBranches != nil else { return self }
        var access = self
        let only = orOnlyColumns
        access.constraints.removeAll { only.contains($0.column.sqlFolded) }
        access.orBranches = nil
        return access
    }

    /// The access as one branch of its OR plans it: that branch's terms alone, no ORDER BY (a MULTI-INDEX
    /// OR gathers the branches' rowids, then sorts).
    public func orBranch(_ branch: [String]) -> TableAccess {
        let columns = Set(branch.map(\.sqlFolded))
        var access = self
        access.constraints = constraints.filter { columns.contains($0.column.sqlFolded) }
        access.orderBy = []
        access.orBranches = nil
        return access
    }

    /// For an upsert (`INSERT … ON CONFLICT … DO UPDATE SET …`): the columns its DO UPDATE sets, which are
    /// the ones it changes in a row that exists (``writtenColumns`` has the inserted ones too). Nil for
    /// other statements, whose UPDATE changes every column in ``writtenColumns``.
    public var upsertUpdatedColumns: [String]? = nil

    /// The columns the statement changes in rows that exist: an UPDATE's, or an upsert's DO UPDATE's.
    public var updatedColumns: [String] { isUpdated ? (upsertUpdatedColumns ?? writtenColumns) : [] }

    /// True when a constraint other than LIMIT or OFFSET (which SQLite 3.38+ also offers a virtual table)
    /// filters this table's rows.
    public var filtersRows: Bool { constraints.contains { $0.op != .limit && $0.op != .offset } }

    public init(table: String, constraints: [ColumnConstraint] = [], orderBy: [SortTerm] = [], readColumns: [String] = [],
                writtenColumns: [String] = [], isInserted: Bool = false, isUpdated: Bool = false, isDeleted: Bool = false,
                columnFunctions: [String] = []) {
        self.table = table
        self.constraints = constraints
        self.orderBy = orderBy
        self.readColumns = readColumns
        self.writtenColumns = writtenColumns
        self.isInserted = isInserted
        self.isUpdated = isUpdated
        self.isDeleted = isDeleted
        self.columnFunctions = columnFunctions
    }

    /// True when the statement writes rows of this table.
    public var isWritten: Bool { isInserted || isUpdated || isDeleted }
}

/// Which column a parameter's value is compared with or written to.
public struct ParameterTarget: Sendable, Codable, Hashable {
    /// 1-based parameter index.
    public var parameter: Int
    public var table: String
    public var column: String
    /// The comparison, or nil when the value is written (INSERT values, UPDATE … SET).
    public var op: ConstraintOperator?
}

/// A sort that no index can serve, and why.
public struct UnindexableSort: Sendable, Codable, Hashable {
    public var table: String?
    public var column: String
    public var collation: String
    public var reason: String
}

/// The shape of a statement as SQLite's own parser and planner see it.
public struct StatementShape: Sendable, Codable {
    public var tables: [TableAccess]
    public var parameters: [ParameterTarget]
    /// `ORDER BY` terms under a collation no index can carry.
    public var unindexableSorts: [UnindexableSort]
    /// App-defined functions and collations that were given stand-ins so the statement could prepare.
    public var standIns: [String]
    /// What was set aside so that the statement prepares against the mirror tables (`RETURNING`,
    /// `ON CONFLICT`, a list longer than SQLite's parameter limit): see `MirrorText`. Its plan and times
    /// are the whole statement's.
    public var setAside: [String] = []

    public init(tables: [TableAccess] = [], parameters: [ParameterTarget] = [], unindexableSorts: [UnindexableSort] = [],
                standIns: [String] = []) {
        self.tables = tables
        self.parameters = parameters
        self.unindexableSorts = unindexableSorts
        self.standIns = standIns
    }

    /// The access to `table`, if the statement touches it.
    public func access(to table: String) -> TableAccess? {
        tables.first { $0.table.sqlFolded == table.sqlFolded }
    }
}
