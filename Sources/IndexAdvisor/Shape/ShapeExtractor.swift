import CSQLite
import Foundation

/// Finds statement shapes with SQLite's own parser and planner, as SQLite's expert extension does.
///
/// An in-memory "shape database" holds, for each table of the store, a virtual table with the same name
/// and columns (see ``ShapeModule``) and copies of the store's views. Preparing a statement there makes
/// SQLite offer each virtual table every usable constraint (column, operator, collation) and the ORDER BY
/// terms; the authorizer reports each column read and each write. The statement is then run once with
/// every parameter bound to a marker value, and the markers that reach `xFilter` and `xUpdate` say which
/// column each parameter is compared with or written to. Nothing here parses SQL by hand except finding
/// `COLLATE` names in the top-level ORDER BY, because SQLite only offers an ORDER BY to a virtual table
/// when its collations match the columns' (https://sqlite.org/vtab.html#order_by_and_orderbyconsumed).
package final class ShapeExtractor {
    private let connection: SQLiteConnection
    private let recorder: ShapeRecorder
    /// For each table (folded name), the collation of each column (folded name) an index keeps under a
    /// collation that is not SQLite's own: a write compares under it to place the row in the index.
    private let indexedCollations: [String: [String: String]]

    /// Builds the shape database for `schema`.
    /// - Throws: ``SQLiteError`` if a mirror table cannot be created.
    package init(schema: Schema) throws {
        connection = try SQLiteConnection.inMemory()
        connection.installStandIns()
        var indexedCollations: [String: [String: String]] = [:]
        for index in schema.indexes {
            for column in index.columns where !BuiltInCollation.contains(column.collation) {
                if let name = column.name { indexedCollations[index.table.sqlFolded, default: [:]][name.sqlFolded] = column.collation }
            }
        }
        self.indexedCollations = indexedCollations
        let recorder = ShapeRecorder()
        self.recorder = recorder
        let aux = Unmanaged.passRetained(recorder).toOpaque()
        let rc = sqlite3_create_module_v2(connection.handle, ShapeModule.name, ShapeModule.shared, aux) { aux in
            if let aux { Unmanaged<ShapeRecorder>.fromOpaque(aux).release() }
        }
        try connection.check(rc)
        for table in schema.tables {
            // Generated columns are mirrored too: statements filter and sort on them like any column. So are a
            // virtual table's hidden columns: FTS5's column named after the table, which `… WHERE note_fts
            // MATCH ?` names, and its `rank` (fts5.html#full_text_query_syntax); without them such a
            // statement failed here with "no such column" and got no shape.
            let columns = table.columns.filter { !$0.isHidden || $0.isGenerated || table.isVirtual }
            guard !columns.isEmpty else { continue }
            // A generated or hidden column is HIDDEN in the mirror, so that an INSERT without a column list
            // counts the same columns as on the store; statements still name it, and SQLite offers its constraints.
            let declaration = "CREATE TABLE x(" + columns.map { column in
                SQLIdentifier.quote(column.name) + (column.isHidden ? " HIDDEN" : "")
                    + (column.collation.uppercased() == "BINARY" ? "" : " COLLATE " + SQLIdentifier.quote(column.collation))
            }.joined(separator: ", ") + ")"
            recorder.tables.append(.init(name: table.name, columns: columns.map(\.name), declaration: declaration))
            // A name that does not survive as text (invalid UTF-8 that decodes like another) is left out;
            // statements on it then get no shape, not a failed run.
            if (try? connection.execute("CREATE VIRTUAL TABLE \(SQLIdentifier.quote(table.name)) USING \(ShapeModule.name)(\(recorder.tables.count - 1))")) == nil {
                recorder.tables.removeLast()
            }
        }
        for view in schema.views {
            // A view that does not compile here (it uses something only the app has) is left out.
            try? connection.executeDefinition(view.sql)
        }
        sqlite3_set_authorizer(connection.handle, { aux, action, first, second, _, _ in
            guard let aux else { return SQLITE_OK }
            let recorder = Unmanaged<ShapeRecorder>.fromOpaque(aux).takeUnretainedValue()
            recorder.authorize(action: action, first: first.map { String(cString: $0) }, second: second.map { String(cString: $0) })
            return SQLITE_OK
        }, Unmanaged.passUnretained(recorder).toOpaque())
    }

    /// The shape of `sql`.
    /// - Throws: ``SQLiteError`` when SQLite cannot prepare the statement against the store's tables.
    /// The most parameters a statement may have here (SQLite's `SQLITE_LIMIT_VARIABLE_NUMBER`); lowering it
    /// lets a test reach the limit with a small statement.
    package var parameterLimit: Int {
        get { Int(sqlite3_limit(connection.handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }
        set { sqlite3_limit(connection.handle, SQLITE_LIMIT_VARIABLE_NUMBER, Int32(clamping: newValue)) }
    }

    package func shape(of statementSQL: String) throws -> StatementShape {
        let mirror = MirrorText(statementSQL, parameterLimit: parameterLimit)
        let sql = mirror.sql
        let observations = try observe(sql, run: true)
        var shape = StatementShape()
        shape.parameters = recorder.parameterTargets.sorted { $0.parameter < $1.parameter }
        for (index, observation) in observations.sorted(by: { $0.key < $1.key }) where observation.touched {
            var access = access(table: index, observation: observation)
            // xFindFunction hands over the name lower-cased; use the statement's own spelling.
            access.columnFunctions = access.columnFunctions.map { Self.spelling(of: $0, in: sql) }
            shape.tables.append(access)
        }
        applyOrderByCollations(sql: sql, to: &shape)
        Self.restore(mirror, in: &shape)
        Self.markJoinEqualities(in: &shape)
        let upper = sql.uppercased()
        var standIns = Set(connection.standInFunctions.union(connection.standInCollations).filter { upper.contains($0.uppercased()) })
        // A column's declared collation serves every comparison and sort on it, and a write places the row in
        // an index under it, without the statement naming it: `WHERE title = ?` on `title TEXT COLLATE
        // localized` compares with the stand-in as much as `ORDER BY title COLLATE localized` does.
        let standInCollations = Dictionary(connection.standInCollations.map { ($0.sqlFolded, $0) }, uniquingKeysWith: { a, _ in a })
        for access in shape.tables {
            let indexed = indexedCollations[access.table.sqlFolded] ?? [:]
            let used = access.constraints.map(\.collation) + access.orderBy.map(\.collation) + access.writtenColumns.compactMap { indexed[$0.sqlFolded] }
                + (access.isDeleted ? Array(indexed.values) : [])
            for collation in used where !BuiltInCollation.contains(collation) {
                standIns.insert(standInCollations[collation.sqlFolded] ?? collation)
            }
        }
        shape.standIns = standIns.sorted()
        return shape
    }

    /// In a statement on two or more tables, an equality whose value is no parameter is a join's (the workload's
    /// text has its literals replaced by parameters): the marker run only shows the join value for the tables
    /// it drove as the inner loop, so `p.authorId = u.id` looked like a filter on `post` when the run started
    /// there, and the candidates for `post` as the join's outer loop were never made.
    static func markJoinEqualities(in shape: inout StatementShape) {
        guard Set(shape.tables.map { $0.table.sqlFolded }).count >= 2 else { return }
        for table in shape.tables.indices {
            for constraint in shape.tables[table].constraints.indices {
                let current = shape.tables[table].constraints[constraint]
                if current.parameter == nil, current.op == .equal || current.op == .is, !current.column.isEmpty {
                    shape.tables[table].constraints[constraint].isJoin = true
                }
            }
        }
    }

    /// Puts back in `shape` what ``MirrorText`` set aside: the original parameter numbers of a compacted
    /// text (each parameter cut gets the column of the one it repeats), and an UPSERT's updated columns.
    static func restore(_ mirror: MirrorText, in shape: inout StatementShape) {
        if let original = mirror.originalParameter {
            let renumber = { (parameter: Int) -> Int in parameter - 1 < original.count ? original[parameter - 1] : parameter }
            shape.parameters = shape.parameters.map { target in
                var target = target
                target.parameter = renumber(target.parameter)
                return target
            }
            for table in shape.tables.indices {
                for constraint in shape.tables[table].constraints.indices {
                    shape.tables[table].constraints[constraint].parameter = shape.tables[table].constraints[constraint].parameter.map(renumber)
                }
            }
            let targets = Dictionary(shape.parameters.map { ($0.parameter, $0) }, uniquingKeysWith: { first, _ in first })
            for (parameter, like) in mirror.repeats {
                guard let like, var target = targets[like] else { continue }
                target.parameter = parameter
                shape.parameters.append(target)
            }
            shape.parameters.sort { $0.parameter < $1.parameter }
        }
        if let updates = mirror.upsertUpdates, let inserted = shape.tables.firstIndex(where: \.isInserted) {
            shape.tables[inserted].isUpdated = !updates.isEmpty
            shape.tables[inserted].upsertUpdatedColumns = updates
            for column in updates where !shape.tables[inserted].writtenColumns.contains(where: { $0.sqlFolded == column.sqlFolded }) {
                shape.tables[inserted].writtenColumns.append(column)
            }
        }
        shape.setAside = mirror.adjustments
    }

    /// Prepares (and, when `run`, executes with marker values) `sql`, returning the per-table observations.
    private func observe(_ sql: String, run: Bool) throws -> [Int: ShapeRecorder.Observation] {
        recorder.reset()
        recorder.authorizing = true
        let statement: SQLiteStatement
        do {
            statement = try connection.prepareResolvingStandIns(sql)
        } catch {
            recorder.authorizing = false
            throw error
        }
        recorder.authorizing = false
        if run {
            if statement.parameterCount > 0 {
                for parameter in 1...statement.parameterCount {
                    try statement.bind(.integer(ShapeRecorder.sentinelBase + Int64(parameter)), at: Int32(parameter))
                }
            }
            // Errors while running (a type mismatch on a marker value) only end the run early, and so does
            // a deadline: marker values are huge, so a `LIMIT ?` or a recursive CTE could run for ever.
            connection.statementDeadline = DispatchTime.now().uptimeNanoseconds + 250_000_000
            defer { connection.statementDeadline = nil }
            var steps = 0
            while steps < 64, (try? statement.step()) == true { steps += 1 }
            statement.reset()
        }
        return recorder.observations
    }

    private func access(table index: Int, observation: ShapeRecorder.Observation) -> TableAccess {
        let mirrored = recorder.tables[index]
        let constraints = observation.constraints.map { recorded -> ColumnConstraint in
            let isLimit = recorded.op == .limit || recorded.op == .offset
            let parameter = observation.parameterOf[recorded]
            return ColumnConstraint(
                column: isLimit ? "" : recorder.columnName(table: index, column: recorded.column),
                op: recorded.op, collation: recorded.collation, parameter: parameter,
                isJoin: parameter == nil && observation.joined.contains(recorded))
        }
        // Not unique keys: Swift compares strings by canonical equivalence, so two columns SQLite keeps
        // apart ("é" composed and decomposed) are one key here.
        let collations = Dictionary(zip(mirrored.columns.map { $0.sqlFolded }, mirrored.columns.map { name in
            Self.declaredCollation(of: name, in: mirrored.declaration)
        }), uniquingKeysWith: { first, _ in first })
        let orderBy = observation.orderBy.map { term -> SortTerm in
            let column = recorder.columnName(table: index, column: term.column)
            return SortTerm(column: column, isDescending: term.descending, collation: collations[column.sqlFolded] ?? "BINARY")
        }
        var written = observation.written.sorted().map { mirrored.columns[$0] }
        for name in observation.writtenByName where !written.contains(where: { $0.sqlFolded == name.sqlFolded }) {
            written.append(name)
        }
        if observation.inserted, written.isEmpty { written = mirrored.columns }
        var access = TableAccess(table: mirrored.name, constraints: constraints, orderBy: orderBy, readColumns: observation.read,
                                 writtenColumns: written, isInserted: observation.inserted, isUpdated: observation.updated,
                                 isDeleted: observation.deleted, columnFunctions: observation.functions)
        // One extra call alone is a subquery on the same table, planned on its own; an OR has two branches or more.
        if observation.orBranches.count >= 2 {
            access.orBranches = observation.orBranches.map { $0.map { recorder.columnName(table: index, column: $0) } }
        }
        return access
    }

    /// Gives each ORDER BY term the collation written in the statement, finding the terms' columns with
    /// a second prepare without those `COLLATE` clauses when SQLite withheld the ORDER BY the first time.
    private func applyOrderByCollations(sql: String, to shape: inout StatementShape) {
        let tokens = SQLTokenList(sql)
        let terms = tokens.topLevelOrderByTerms()
        let explicit = terms.map { tokens.collation(in: $0) }
        guard explicit.contains(where: { $0 != nil }) else { return }
        var tableIndex = shape.tables.firstIndex { $0.orderBy.count == terms.count }
        if tableIndex == nil, let observations = try? observe(tokens.removingOrderByCollations(), run: false),
           let (index, observation) = observations.first(where: { $0.value.orderBy.count == terms.count }) {
            let name = recorder.tables[index].name
            let orderBy = observation.orderBy.map {
                SortTerm(column: recorder.columnName(table: index, column: $0.column), isDescending: $0.descending)
            }
            if let existing = shape.tables.firstIndex(where: { $0.table == name }) {
                shape.tables[existing].orderBy = orderBy
                tableIndex = existing
            }
        }
        guard let tableIndex else { return }
        for (offset, collation) in explicit.enumerated() where offset < shape.tables[tableIndex].orderBy.count {
            guard let collation else { continue }
            shape.tables[tableIndex].orderBy[offset].collation = collation
            let term = shape.tables[tableIndex].orderBy[offset]
            if !term.hasIndexableCollation {
                shape.unindexableSorts.append(UnindexableSort(
                    table: shape.tables[tableIndex].table, column: term.column, collation: collation,
                    reason: "the sort uses the collation \(collation), which the app registers on its own connection; no index can carry it, so SQLite sorts every matching row in a temp B-tree"))
            }
        }
    }

    /// `name` as the statement spells it (SQL names are case-insensitive).
    static func spelling(of name: String, in sql: String) -> String {
        guard let range = sql.range(of: name, options: .caseInsensitive) else { return name }
        return String(sql[range])
    }

    private static func declaredCollation(of column: String, in declaration: String) -> String {
        let quoted = SQLIdentifier.quote(column)
        guard let range = declaration.range(of: quoted + " COLLATE ") ?? declaration.range(of: quoted + " HIDDEN COLLATE ") else { return "BINARY" }
        let rest = declaration[range.upperBound...]
        let end = rest.firstIndex(where: { $0 == "," || $0 == ")" }) ?? rest.endIndex
        return SQLTokenList.unquote(String(rest[..<end]))
    }
}
