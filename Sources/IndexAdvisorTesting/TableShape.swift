/// How a statement reads one table (one name in its FROM clause), as SQLite's planner sees it: the columns it
/// compares by equality and by range, and the ORDER BY it could take from an index.
///
/// Read by preparing the statement against a mirror of the schema, virtual tables with the same names and
/// columns, whose `xBestIndex` SQLite hands the usable WHERE and ON terms of each table and the ORDER BY terms
/// (https://sqlite.org/vtab.html#the_xbestindex_method), as SQLite's own `.expert` does. Covered: `=`, `IN`,
/// `IS`, `IS NULL` (equality), `<`, `<=`, `>`, `>=` (range), the other operators SQLite offers (`LIKE`,
/// `GLOB`, `MATCH`, `!=`, `IS NOT`, `IS NOT NULL`), and an ORDER BY (or a GROUP BY SQLite offers as one) when
/// all its terms are columns of this table. Not covered: terms on an expression (`lower(name) = ?`), which
/// SQLite does not offer a virtual table, and which parameter is compared with which column.
public struct TableShape: Sendable, Hashable, CustomStringConvertible {
    /// The table's name in the schema.
    public var table: String
    /// The name a plan row prints for it: the alias (`t0`), or the table's name.
    public var alias: String
    /// Columns compared with `=`, `IN`, `IS` or `IS NULL`, in the order SQLite offered them; `rowid` for the
    /// rowid (https://sqlite.org/optoverview.html#where_clause_analysis).
    public var equalityColumns: [String]
    /// Columns compared with `<`, `<=`, `>` or `>=`.
    public var rangeColumns: [String]
    /// Other comparisons SQLite offered, as `column OPERATOR`: `title LIKE`, `state !=`, `body MATCH`.
    public var otherConstraints: [String]
    /// The ORDER BY terms, when SQLite offered them to this table (all of them are its columns).
    public var sortColumns: [OrderedColumn]

    public init(table: String, alias: String? = nil, equalityColumns: [String] = [], rangeColumns: [String] = [],
                otherConstraints: [String] = [], sortColumns: [OrderedColumn] = []) {
        self.table = table
        self.alias = alias ?? table
        self.equalityColumns = equalityColumns
        self.rangeColumns = rangeColumns
        self.otherConstraints = otherConstraints
        self.sortColumns = sortColumns
    }

    /// True when a WHERE or ON term compares a column of this table (LIMIT and OFFSET, which SQLite 3.38+
    /// also offers a virtual table, are not terms).
    public var isFiltered: Bool { !equalityColumns.isEmpty || !rangeColumns.isEmpty || !otherConstraints.isEmpty }

    /// `note: equality folder_id, is_archived; range none; sort updated_at DESC`.
    public var description: String {
        func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }
        var text = (alias == table ? table : "\(table) AS \(alias)") + ": equality " + list(equalityColumns)
            + "; range " + list(rangeColumns)
            + "; sort " + list(sortColumns.map { $0.name + ($0.isDescending ? " DESC" : "") })
        if !otherConstraints.isEmpty { text += "; other " + list(otherConstraints) }
        return text
    }
}

/// A column and its direction: an ORDER BY term (``TableShape/sortColumns``) or an index's key column
/// (``IndexSuggestion/columns``).
public struct OrderedColumn: Sendable, Hashable {
    public var name: String
    public var isDescending: Bool

    public init(name: String, isDescending: Bool = false) {
        self.name = name
        self.isDescending = isDescending
    }
}
