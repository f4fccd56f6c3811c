/// Reads the ``WriteProgram`` of each write on one connection, once per statement text: what a write sets
/// off depends on the schema's triggers and foreign keys, not on its indexes or bound values, so a what-if
/// clone plans each candidate's configuration with the programs read once.
package final class WriteProgramReader {
    private let connection: SQLiteConnection
    /// The connection's triggers, by folded name.
    let triggers: [String: TriggerProgram]
    /// The foreign keys the connection enforces (`PRAGMA foreign_keys`), with an action or not; empty when it
    /// enforces none.
    let foreignKeys: [ForeignKey]
    private let tables: [String: Table]
    private let schema: Schema?
    /// Reads the writes of each statement, built when a foreign key's action is first to be followed.
    private var extractor: ShapeExtractor?
    private var programs: [String: WriteProgram] = [:]

    package init(connection: SQLiteConnection, schema: Schema?) {
        self.connection = connection
        self.schema = schema
        triggers = TriggerPrograms.read(from: connection)
        let enforced = (try? connection.query("PRAGMA foreign_keys"))?.first?.first?.integerValue == 1
        foreignKeys = enforced ? schema.map { ForeignKeys.all(in: $0, connection: connection) } ?? [] : []
        tables = Dictionary((schema?.tables ?? []).map { ($0.name.sqlFolded, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// What `sql` sets off, read on the first call for that text.
    package func program(of sql: String) -> WriteProgram {
        if let known = programs[sql] { return known }
        let withActions = foreignKeys.filter(\.hasAction)
        let program = WriteProgram.of(sql, connection: connection, triggers: triggers, foreignKeys: withActions,
                                      parentTables: tables, writes: { [self] in writes(of: $0) })
        programs[sql] = program
        return program
    }

    /// The accesses of `sql` that write, as SQLite's parser reads them (``ShapeExtractor``). An `INSERT OR
    /// REPLACE` (or `REPLACE`) deletes the rows whose keys its new row takes, which sets off their keys' `ON
    /// DELETE` actions as a delete does (lang_conflict.html).
    private func writes(of sql: String) -> [TableAccess]? {
        if extractor == nil, let schema { extractor = try? ShapeExtractor(schema: schema) }
        guard let shape = try? extractor?.shape(of: sql) else { return nil }
        let replaces = SQLTokenList(sql).replacesRows
        return shape.tables.filter(\.isWritten).map { access in
            var access = access
            if access.isInserted && replaces { access.isDeleted = true }
            return access
        }
    }
}

extension SQLTokenList {
    /// True for `REPLACE INTO …` and `INSERT OR REPLACE INTO …`.
    var replacesRows: Bool {
        isWord(0, "REPLACE") || (isWord(0, "INSERT") && isWord(1, "OR") && isWord(2, "REPLACE"))
    }
}
