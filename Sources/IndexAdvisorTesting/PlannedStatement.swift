import QueryPlanText

/// One statement's query plan on a connection (`EXPLAIN QUERY PLAN`, https://sqlite.org/eqp.html), with the
/// shape of each table it reads and what the helper needs to judge the plan and suggest an index.
///
/// Made by ``QueryPlanInspector/plan(_:bindings:)``; ``check(_:)`` judges it against ``PlanRequirements``.
public struct PlannedStatement: Sendable {
    /// One row of the plan.
    public struct Row: Sendable, Hashable {
        /// What a plan row does, read from its text (eqp.html): `.fullTableScan`, `.tempBTree`, `.automaticIndex`…
        public typealias Kind = PlanRowKind

        public var id: Int
        public var parent: Int
        /// The row's text, as SQLite prints it.
        public var detail: String
        public var kind: Kind
        /// The table, when the row reads one (resolved from the alias the row prints).
        public var table: String?
        /// The name the row prints for its table: an alias (`t0`) or the table's name.
        public var alias: String?
        /// The index a search or scan uses.
        public var index: String?
        /// A search's constraints as SQLite prints them: `folder_id=? AND updated_at>?`.
        public var constraints: String?
        /// What a temp B-tree is for: `ORDER BY`, `GROUP BY`, `DISTINCT`, `RIGHT PART OF ORDER BY`.
        public var purpose: String?
        /// The rows in ``table`` (`SELECT count(*)`), counted for full scans and automatic indexes.
        public var tableRows: Int?
        /// For a full index scan: true when the statement filters its table (so each entry is tested, a full
        /// scan that only avoids a sort) and the index is not partial; false otherwise.
        public var testsEveryEntry: Bool = false
    }

    /// The statement, as given.
    public var sql: String
    /// The values bound to its parameters when it was planned.
    public var bindings: [SQLiteValue]
    /// The plan's rows, in SQLite's order.
    public var rows: [Row]
    /// How the statement reads each table, one per name in its FROM clauses (see ``TableShape``); empty when
    /// the shape could not be read (``shapeNote`` says why).
    public var shapes: [TableShape]
    /// Why ``shapes`` is empty, when it is.
    public var shapeNote: String?
    /// The indexes of the tables the plan reads (name, table, key columns, partial or not).
    var indexes: [SchemaSnapshot.Index]
    /// Core Data entity names by folded table name.
    var entities: [String: String]

    /// The plan drawn as the sqlite3 shell draws it (`QUERY PLAN`, `|--SCAN note`, `` `--USE TEMP B-TREE FOR ORDER BY ``).
    public var tree: String {
        PlanTree.draw(rows.map { ($0.id, $0.parent, $0.detail) })
    }

    /// The names of the indexes the plan uses (automatic indexes excluded).
    public var indexesUsed: [String] { rows.compactMap(\.index) }

    /// The shape of `table` (its first appearance), if the statement reads it.
    public func shape(of table: String) -> TableShape? {
        let key = PlanRowReader.folded(table)
        return shapes.first { PlanRowReader.folded($0.table) == key }
    }
}
