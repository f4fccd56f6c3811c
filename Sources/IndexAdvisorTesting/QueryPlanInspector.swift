import Foundation
import QueryPlanText

/// Plans statements on one connection with `EXPLAIN QUERY PLAN` (https://sqlite.org/eqp.html) and reads
/// each plan: the tables and indexes its rows name, the rows of each table it scans, and the shape of each
/// table it reads (``TableShape``).
///
/// On the app's connection (`sqlite3 *`: GRDB's `Database.sqliteConnection`, SQLite.swift's
/// `Connection.handle`, your own) it only runs `EXPLAIN QUERY PLAN`, schema pragmas and `SELECT count(*)`,
/// and registers nothing. On a store file it opens its own read-only connection. Not thread-safe: use it
/// where the connection may be used, and not while another thread uses it.
public final class QueryPlanInspector {
    private let connection: PlanningConnection
    private var schema: SchemaSnapshot?
    private var mirror: ShapeMirror?
    private var mirrorError: QueryPlanError?

    /// An inspector for the app's connection, which it borrows (never closes).
    public init(connection: OpaquePointer) {
        self.connection = PlanningConnection(borrowing: connection)
    }

    /// An inspector on the store at `url`, opened read-only (`SQLITE_OPEN_READONLY`) and closed with the
    /// inspector. For a Core Data or SwiftData store, the store your test's stack has saved: app functions
    /// and collations Core Data's SQL names get stand-ins on this connection (a plan depends only on their names).
    /// - Throws: ``QueryPlanError/storeNotOpened(code:message:path:)``.
    public init(storeAt url: URL) throws(QueryPlanError) {
        connection = try PlanningConnection(readOnlyStoreAt: url)
    }

    /// The plan of `sql` with `bindings` bound to its parameters in order (unbound ones are NULL).
    /// - Throws: ``QueryPlanError/statementFailed(code:message:sql:)`` when SQLite does not prepare it (or
    ///   a schema query fails).
    public func plan(_ sql: String, bindings: [SQLiteValue] = []) throws(QueryPlanError) -> PlannedStatement {
        let schema = try currentSchema()
        let planRows = try connection.query("EXPLAIN QUERY PLAN " + sql, bindings: bindings)
        var shapes: [TableShape] = []
        var shapeNote: String?
        do {
            shapes = try currentMirror(schema).shapes(of: sql)
        } catch {
            shapeNote = "the shape was not read: \(error.shapeReason)"
        }
        // Plan rows name a table by its alias: the mirror's plan ties each alias to its table; a name no alias
        // explains is a table's own (a row the statement does not name, such as a foreign key's child table).
        var names = Dictionary(schema.tables.map { (PlanRowReader.folded($0.name), $0.name) }, uniquingKeysWith: { first, _ in first })
        for shape in shapes { names[PlanRowReader.folded(shape.alias)] = shape.table }
        let details = planRows.compactMap { row -> (Int, Int, String)? in
            guard row.count >= 4, let detail = row[3].textValue else { return nil }
            return (Int(row[0].integerValue ?? 0), Int(row[1].integerValue ?? 0), detail)
        }
        let indexNames = details.contains { $0.2.contains(" INDEX ") } ? schema.indexes.map(\.name) : []
        var counted: [String: Int] = [:]
        var rows: [PlannedStatement.Row] = []
        // A SEARCH with no constraint is a min/max loop: a walk of the table or index unless its program ends at
        // the first row (`max(id)`, `max(x)` over an index on x with no other filter), each b-tree on its own.
        var stopsAtFirstRow: [Int: Bool] = [:]
        let walks = details.indices.filter { PlanRowReader.isMinMaxWalk(details[$0].2) }
        if !walks.isEmpty {
            let program = try connection.query("EXPLAIN " + sql, bindings: bindings).compactMap { row -> PlanRowReader.Instruction? in
                guard row.count > 3, let opcode = row[1].textValue else { return nil }
                return .init(opcode, Int(row[3].integerValue ?? 0), p1: Int(row[2].integerValue ?? 0))
            }
            var roots: [String: Int] = [:]
            for row in try connection.query("SELECT name, rootpage FROM sqlite_schema WHERE type IN ('table', 'index')") {
                if let name = row[0].textValue, let root = row[1].integerValue { roots[PlanRowReader.folded(name)] = Int(root) }
            }
            let walked = walks.map { PlanRowReader.row(for: details[$0].2, names: names, indexNames: indexNames) }
            let stops = PlanRowReader.stopsAtFirstRow(walked.map { $0.index ?? $0.table }, program: program, rootPages: roots)
            for (walk, stops) in zip(walks, stops) { stopsAtFirstRow[walk] = stops }
        }
        for (position, (id, parent, detail)) in details.enumerated() {
            var read = PlanRowReader.row(for: detail, names: names, indexNames: indexNames)
            if stopsAtFirstRow[position] == true { read.kind = PlanRowReader.oneRowKind(of: detail) }
            var row = PlannedStatement.Row(id: id, parent: parent, detail: detail, kind: read.kind, table: read.table,
                                           alias: read.alias, index: read.index, constraints: read.constraints, purpose: read.purpose)
            if let table = row.table, [.fullTableScan, .fullIndexScan, .automaticIndex].contains(row.kind) {
                if counted[table] == nil { counted[table] = try connection.rowCount(of: table) }
                row.tableRows = counted[table]
            }
            if row.kind == .fullIndexScan, let table = row.table, let index = row.index {
                let alias = PlanRowReader.folded(read.alias ?? table)
                let shape = shapes.first { PlanRowReader.folded($0.alias) == alias }
                    ?? shapes.first { PlanRowReader.folded($0.table) == PlanRowReader.folded(table) }
                let isPartial = schema.indexes.contains { PlanRowReader.folded($0.name) == PlanRowReader.folded(index) && $0.isPartial }
                row.testsEveryEntry = (shape?.isFiltered ?? false) && !isPartial
            }
            rows.append(row)
        }
        let tables = Set(rows.compactMap(\.table).map(PlanRowReader.folded) + shapes.map { PlanRowReader.folded($0.table) })
        return PlannedStatement(sql: sql, bindings: bindings, rows: rows, shapes: shapes, shapeNote: shapeNote,
                                indexes: schema.indexes.filter { tables.contains(PlanRowReader.folded($0.table)) },
                                entities: schema.entities)
    }

    private func currentSchema() throws(QueryPlanError) -> SchemaSnapshot {
        if let schema, try SchemaSnapshot.version(of: connection) == schema.version { return schema }
        let fresh = try SchemaSnapshot(reading: connection)
        schema = fresh
        mirror = nil
        mirrorError = nil
        return fresh
    }

    private func currentMirror(_ schema: SchemaSnapshot) throws(QueryPlanError) -> ShapeMirror {
        if let mirror { return mirror }
        if let mirrorError { throw mirrorError }
        do {
            let built = try ShapeMirror(schema: schema)
            mirror = built
            return built
        } catch {
            mirrorError = error
            throw error
        }
    }
}

extension QueryPlanError {
    /// The reason alone, for a note: SQLite's message.
    var shapeReason: String {
        switch self {
        case .statementFailed(_, let message, _), .storeNotOpened(_, let message, _): return message
        default: return description
        }
    }
}
