import QueryPlanText

/// An index that would serve a statement's access to one table, in the columns' order SQLite's planner can
/// use (https://sqlite.org/optoverview.html): the columns compared by equality (`=`, `IN`, `IS`, `IS
/// NULL`), then the ORDER BY columns when the ORDER BY is on this table (all descending becomes all
/// ascending: SQLite reads an index backwards), or else one column compared by range (`<`, `<=`, `>`, `>=`:
/// after the equalities an index serves one range).
///
/// The advisor's basic candidate for the access, named as it names indexes on a plain table
/// (`idx_<table>_<columns>`). Equality columns keep the statement's order (the advisor puts the most
/// selective first, measured on the data); nothing here is measured: `indexadvisor analyze` builds and
/// times candidates on a copy of the store.
public struct IndexSuggestion: Sendable, Hashable {
    public var table: String
    /// The key columns, in order.
    public var columns: [OrderedColumn]
    /// `idx_<table>_<columns>`, letters, digits and underscores, different from the table's index names.
    public var name: String
    /// Why the columns are in this order, for the failure message.
    public var reason: String
    /// An index of the table whose leading columns are exactly these: the planner had it and did not use it.
    public var existingIndex: String?
    /// The Core Data or SwiftData entity the table stores (from `Z_PRIMARYKEY`), if it is an entity table.
    public var entity: String?
    /// True when the index delivers the statement's ORDER BY (so it removes a temp B-tree for it).
    var servesSort: Bool

    /// `CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at");`
    public var sql: String {
        "CREATE INDEX IF NOT EXISTS \(quote(name)) ON \(quote(table)) ("
            + columns.map { quote($0.name) + ($0.isDescending ? " DESC" : "") }.joined(separator: ", ") + ");"
    }

    /// One suggestion per table that `violations` read, deduplicated; none for an index not used.
    static func suggestions(for violations: [PlanViolation], in statement: PlannedStatement) -> [IndexSuggestion] {
        var result: [IndexSuggestion] = []
        for violation in violations {
            let shape: TableShape?
            switch violation.kind {
            case .fullTableScan, .fullIndexScan, .automaticIndex:
                let row = violation.row.map { statement.rows[$0] }
                let alias = PlanRowReader.folded(row?.alias ?? violation.table ?? "")
                shape = statement.shapes.first { PlanRowReader.folded($0.alias) == alias }
                    ?? violation.table.flatMap(statement.shape(of:))
                    ?? row.flatMap { row in row.constraints.flatMap { Self.shape(table: row.table, constraints: $0) } }
            case .tempBTree:
                shape = statement.shapes.first { !$0.sortColumns.isEmpty }
            case .indexNotUsed:
                continue
            }
            guard let shape, var suggestion = Self.suggestion(for: shape) else { continue }
            let taken = Set(statement.indexes.map { PlanRowReader.folded($0.name) })
            var name = suggestion.name
            var suffix = 2
            while taken.contains(PlanRowReader.folded(name)) { name = suggestion.name + "_\(suffix)"; suffix += 1 }
            suggestion.name = name
            let key = suggestion.columns.map { PlanRowReader.folded($0.name) }
            suggestion.existingIndex = statement.indexes.first { index in
                PlanRowReader.folded(index.table) == PlanRowReader.folded(shape.table) && index.columns.count >= key.count
                    && index.columns.prefix(key.count).map { $0.map(PlanRowReader.folded) } == key
            }?.name
            suggestion.entity = statement.entities[PlanRowReader.folded(shape.table)]
            if !result.contains(where: { $0.table == suggestion.table && $0.columns == suggestion.columns }) {
                result.append(suggestion)
            }
        }
        return result
    }

    /// The suggestion for one table's shape; nil when it compares no column an index can serve and sorts by none.
    static func suggestion(for shape: TableShape) -> IndexSuggestion? {
        func isRowid(_ name: String) -> Bool { PlanRowReader.folded(name) == "rowid" }
        var columns: [OrderedColumn] = []
        for name in shape.equalityColumns where !isRowid(name) && !columns.contains(where: { PlanRowReader.folded($0.name) == PlanRowReader.folded(name) }) {
            columns.append(OrderedColumn(name: name))
        }
        var reasons = columns.isEmpty ? [] : ["the equality columns first"]
        var servesSort = false
        var sort = shape.sortColumns
        // Index entries end with the rowid: a trailing rowid term is served already.
        while let last = sort.last, isRowid(last.name), sort.count > 1 { sort.removeLast() }
        let equalities = Set(columns.map { PlanRowReader.folded($0.name) })
        if !sort.isEmpty, !sort.contains(where: { isRowid($0.name) }) {
            let remaining = sort.filter { !equalities.contains(PlanRowReader.folded($0.name)) }
            let flip = remaining.allSatisfy(\.isDescending)
            columns += remaining.map { OrderedColumn(name: $0.name, isDescending: flip ? false : $0.isDescending) }
            servesSort = true
            reasons.append("then the ORDER BY columns" + (flip && !remaining.isEmpty ? ", ascending: SQLite reads an index backwards for DESC" : ""))
        } else if let range = shape.rangeColumns.first(where: { !isRowid($0) && !equalities.contains(PlanRowReader.folded($0)) }) {
            columns.append(OrderedColumn(name: range))
            reasons.append("then the range column: after its equalities an index serves one range")
        }
        guard !columns.isEmpty else { return nil }
        let words = ([shape.table] + columns.map(\.name)).flatMap { part in
            part.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
        }
        return IndexSuggestion(table: shape.table, columns: columns, name: String(("idx_" + words.joined(separator: "_")).prefix(120)),
                               reason: reasons.joined(separator: ", ") + "; https://sqlite.org/optoverview.html", servesSort: servesSort)
    }

    /// The shape a search prints: `c=? AND d>?` (an automatic index's, when the mirror could not read it).
    static func shape(table: String?, constraints: String) -> TableShape? {
        guard let table else { return nil }
        var shape = TableShape(table: table)
        for term in constraints.components(separatedBy: " AND ") {
            for op in [">=", "<=", "=", ">", "<"] {
                guard term.hasSuffix(op + "?") else { continue }
                let column = String(term.dropLast(op.count + 1))
                if op == "=" { shape.equalityColumns.append(column) } else if !shape.rangeColumns.contains(column) { shape.rangeColumns.append(column) }
                break
            }
        }
        return shape.isFiltered ? shape : nil
    }

    /// Why no index is suggested for `violations`.
    static func unservedReason(_ violations: [PlanViolation], in statement: PlannedStatement) -> String {
        if statement.shapes.isEmpty, let note = statement.shapeNote { return " (\(note))" }
        if violations.contains(where: { $0.kind == .tempBTree }), !statement.shapes.contains(where: { !$0.sortColumns.isEmpty }) {
            return " (the ORDER BY, GROUP BY or DISTINCT is not on one table's columns, or sorts an expression: no index gives that order)"
        }
        return " (the statement compares no column of the table with =, IN, IS, <, <=, > or >=: a filter on an expression, a LIKE '%…' or a function needs a rewrite or an index on the expression)"
    }
}
