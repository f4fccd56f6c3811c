internal import CSQLite
import QueryPlanText

/// An in-memory database holding a mirror of a schema (``MirrorModule``), and the shapes statements have
/// there (``TableShape``).
final class ShapeMirror {
    private let connection: PlanningConnection
    private let recorder = MirrorRecorder()
    /// Mirror tables by position: the table's name and its columns' names.
    private var tables: [(name: String, columns: [String])] = []

    /// Builds the mirror of `schema`'s tables (`main` and `temp`) and copies its views.
    /// - Throws: ``QueryPlanError`` when the in-memory database cannot be opened or the module registered.
    init(schema: SchemaSnapshot) throws(QueryPlanError) {
        connection = try PlanningConnection.inMemory()
        let aux = Unmanaged.passRetained(recorder).toOpaque()
        let rc = sqlite3_create_module_v2(connection.handle, MirrorModule.name, MirrorModule.shared, aux) { aux in
            if let aux { Unmanaged<MirrorRecorder>.fromOpaque(aux).release() }
        }
        guard rc == SQLITE_OK else {
            Unmanaged<MirrorRecorder>.fromOpaque(aux).release()
            throw .statementFailed(code: rc, message: String(cString: sqlite3_errmsg(connection.handle)), sql: "sqlite3_create_module_v2")
        }
        for table in schema.tables where !table.columns.isEmpty {
            // A generated column, or a virtual table's hidden one, is HIDDEN here too, so that an INSERT
            // without a column list counts the same columns; statements can still name it.
            let declaration = "CREATE TABLE x(" + table.columns.map { quote($0.name) + ($0.hidden != 0 ? " HIDDEN" : "") }
                .joined(separator: ", ") + ")"
            recorder.declarations.append(declaration)
            tables.append((table.name, table.columns.map(\.name)))
            let schemaName = table.isTemporary ? "temp." : ""
            // A table the mirror cannot hold gets no shape; its statements are still planned.
            if (try? connection.execute("CREATE VIRTUAL TABLE \(schemaName)\(quote(table.name)) USING \(MirrorModule.name)(\(tables.count - 1))")) == nil {
                recorder.declarations.removeLast()
                tables.removeLast()
            }
        }
        for view in schema.viewDefinitions {
            try? connection.execute(view)
        }
    }

    /// The shape of each table `sql` reads, one per name in its FROM clauses, in plan order.
    /// - Throws: ``QueryPlanError/statementFailed(code:message:sql:)`` when the statement does not prepare
    ///   against the mirror (a `RETURNING` or an UPSERT, which virtual tables refuse; a table in an attached
    ///   database; `INDEXED BY`).
    func shapes(of sql: String) throws(QueryPlanError) -> [TableShape] {
        recorder.calls = []
        let rows = try connection.query("EXPLAIN QUERY PLAN " + sql)
        let scans = rows.compactMap { row -> (alias: String, call: MirrorRecorder.Call)? in
            guard row.count >= 4, let detail = row[3].textValue, let (alias, number) = Self.virtualTableScan(detail),
                  number < recorder.calls.count else { return nil }
            return (alias, recorder.calls[number])
        }
        let appearances = Dictionary(scans.map { ($0.call.table, 1) }, uniquingKeysWith: +)
        var shapes: [TableShape] = []
        for (alias, call) in scans {
            let (table, columns) = tables[call.table]
            func columnName(_ number: Int32) -> String {
                number >= 0 && Int(number) < columns.count ? columns[Int(number)] : "rowid"
            }
            var shape = TableShape(table: table, alias: alias)
            for constraint in call.constraints {
                let name = columnName(constraint.column)
                switch constraint.op {
                case Int32(SQLITE_INDEX_CONSTRAINT_EQ), Int32(SQLITE_INDEX_CONSTRAINT_IS), Int32(SQLITE_INDEX_CONSTRAINT_ISNULL):
                    if !shape.equalityColumns.contains(name) { shape.equalityColumns.append(name) }
                case Int32(SQLITE_INDEX_CONSTRAINT_GT), Int32(SQLITE_INDEX_CONSTRAINT_GE), Int32(SQLITE_INDEX_CONSTRAINT_LT), Int32(SQLITE_INDEX_CONSTRAINT_LE):
                    if !shape.rangeColumns.contains(name) { shape.rangeColumns.append(name) }
                case Int32(SQLITE_INDEX_CONSTRAINT_LIMIT), Int32(SQLITE_INDEX_CONSTRAINT_OFFSET):
                    continue
                default:
                    let term = name + " " + Self.operatorName(constraint.op)
                    if !shape.otherConstraints.contains(term) { shape.otherConstraints.append(term) }
                }
            }
            // The ORDER BY is offered in the calls where this table could deliver it; take it from any call
            // for the same table when the chosen one lacks it and the table appears once in the statement.
            var orderBy = call.orderBy
            if orderBy.isEmpty, appearances[call.table] == 1 {
                orderBy = recorder.calls.first { $0.table == call.table && !$0.orderBy.isEmpty }?.orderBy ?? []
            }
            shape.sortColumns = orderBy.map { OrderedColumn(name: columnName($0.column), isDescending: $0.isDescending) }
            shapes.append(shape)
        }
        return shapes
    }

    /// The name and the `idxNum` of a mirror plan row: `SCAN n VIRTUAL TABLE INDEX 3:` (SQLite 3.36 and
    /// later) or `SCAN TABLE note AS n VIRTUAL TABLE INDEX 3:` (earlier).
    static func virtualTableScan(_ detail: String) -> (String, Int)? {
        guard detail.hasPrefix("SCAN "), let marker = detail.range(of: " VIRTUAL TABLE INDEX ", options: .backwards) else { return nil }
        let number = detail[marker.upperBound...].prefix { $0.isNumber }
        guard let call = Int(number) else { return nil }
        var name = detail[detail.index(detail.startIndex, offsetBy: 5)..<marker.lowerBound]
        if sqlite3_libversion_number() < 3_036_000, name.hasPrefix("TABLE ") {
            name = name.dropFirst(6)
            if let alias = name.range(of: " AS ", options: .backwards) { name = name[alias.upperBound...] }
        }
        return (String(name), call)
    }

    private static func operatorName(_ op: Int32) -> String {
        switch op {
        case Int32(SQLITE_INDEX_CONSTRAINT_MATCH): return "MATCH"
        case Int32(SQLITE_INDEX_CONSTRAINT_LIKE): return "LIKE"
        case Int32(SQLITE_INDEX_CONSTRAINT_GLOB): return "GLOB"
        case Int32(SQLITE_INDEX_CONSTRAINT_REGEXP): return "REGEXP"
        case Int32(SQLITE_INDEX_CONSTRAINT_NE): return "!="
        case Int32(SQLITE_INDEX_CONSTRAINT_ISNOT): return "IS NOT"
        case Int32(SQLITE_INDEX_CONSTRAINT_ISNOTNULL): return "IS NOT NULL"
        default: return "(function)"
        }
    }
}
