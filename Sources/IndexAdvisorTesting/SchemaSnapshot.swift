import QueryPlanText

/// What the helper needs of a connection's schema: the tables with their columns (for the mirror), the views,
/// the indexes (their names, for reading plan rows; their columns and partial flag, for the suggestions) and,
/// on a Core Data or SwiftData store, the entity each table stores.
struct SchemaSnapshot {
    struct Table {
        var name: String
        var isTemporary: Bool
        /// Every column, with SQLite's `hidden` flag from `PRAGMA table_xinfo`: 0 ordinary, 1 hidden (a
        /// virtual table's), 2 or 3 generated (https://sqlite.org/pragma.html#pragma_table_xinfo).
        var columns: [(name: String, hidden: Int64)]
    }

    struct Index {
        var name: String
        var table: String
        /// Key columns in order; nil for an expression.
        var columns: [String?]
        var isPartial: Bool
    }

    var tables: [Table] = []
    var viewDefinitions: [String] = []
    var indexes: [Index] = []
    /// Entity names by ASCII-folded table name, read from Core Data's `Z_PRIMARYKEY` (root entities only:
    /// a table `ZNOTE` stores the entity `Note` and its sub-entities).
    var entities: [String: String] = [:]
    /// `PRAGMA schema_version` of `main` and `temp`: the snapshot is read again when either changes.
    var version: [Int64] = []

    /// Reads the schema of `main` and `temp` on `connection`.
    /// - Throws: ``QueryPlanError`` when SQLite refuses one of the schema queries.
    init(reading connection: PlanningConnection) throws(QueryPlanError) {
        version = try Self.version(of: connection)
        for (schema, isTemporary) in [("main", false), ("temp", true)] {
            let objects = try connection.query("SELECT type, name, sql FROM \(schema).sqlite_schema ORDER BY rowid")
            for object in objects {
                guard let type = object[0].textValue, let name = object[1].textValue else { continue }
                switch type {
                case "table":
                    // SQLite's own tables (sqlite_sequence, sqlite_stat1) cannot be mirrored and are not the app's.
                    guard !PlanRowReader.folded(name).hasPrefix("sqlite_") else { continue }
                    let columns = try connection.query("SELECT name, hidden FROM pragma_table_xinfo(?, ?)", bindings: [.text(name), .text(schema)])
                    tables.append(Table(name: name, isTemporary: isTemporary,
                                        columns: columns.compactMap { row in row[0].textValue.map { ($0, row[1].integerValue ?? 0) } }))
                    // Every index, those SQLite makes for a UNIQUE or PRIMARY KEY constraint too.
                    for index in try connection.query("SELECT name, partial FROM pragma_index_list(?, ?)", bindings: [.text(name), .text(schema)]) {
                        guard let indexName = index[0].textValue else { continue }
                        let keys = try connection.query("SELECT name FROM pragma_index_info(?, ?) ORDER BY seqno",
                                                        bindings: [.text(indexName), .text(schema)])
                        indexes.append(Index(name: indexName, table: name, columns: keys.map { $0[0].textValue },
                                             isPartial: index[1].integerValue == 1))
                    }
                case "view":
                    if let sql = object[2].textValue { viewDefinitions.append(sql) }
                default:
                    continue
                }
            }
        }
        if tables.contains(where: { PlanRowReader.folded($0.name) == "z_primarykey" }) {
            let rows = (try? connection.query("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_SUPER = 0")) ?? []
            for row in rows {
                guard let entity = row[0].textValue else { continue }
                entities[PlanRowReader.folded("Z" + entity.uppercased())] = entity
            }
        }
    }

    static func version(of connection: PlanningConnection) throws(QueryPlanError) -> [Int64] {
        try connection.query("PRAGMA main.schema_version").compactMap { $0.first?.integerValue }
            + connection.query("PRAGMA temp.schema_version").compactMap { $0.first?.integerValue }
    }

    func table(named name: String) -> Table? {
        let key = PlanRowReader.folded(name)
        return tables.first { PlanRowReader.folded($0.name) == key }
    }

    func indexes(on table: String) -> [Index] {
        let key = PlanRowReader.folded(table)
        return indexes.filter { PlanRowReader.folded($0.table) == key }
    }
}
