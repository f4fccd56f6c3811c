import Foundation

/// One foreign key a table declares, as `PRAGMA foreign_key_list` gives it (https://sqlite.org/pragma.html#pragma_foreign_key_list).
struct ForeignKey: Sendable, Equatable {
    /// The table that declares it.
    var child: String
    /// Its columns in the child table, in key order.
    var columns: [String]
    /// The table it refers to.
    var parent: String
    /// The parent's key columns, in key order; empty when the clause names none (the parent's primary key).
    var parentColumns: [String]
    /// `ON DELETE` and `ON UPDATE` actions: `NO ACTION`, `RESTRICT`, `CASCADE`, `SET NULL`, `SET DEFAULT`.
    var onDelete: String
    var onUpdate: String

    /// True when a delete or key change in the parent changes child rows (`CASCADE`, `SET NULL`, `SET DEFAULT`):
    /// an action the app declares only because its connections enforce foreign keys.
    var hasAction: Bool {
        [onDelete, onUpdate].contains { ["CASCADE", "SET NULL", "SET DEFAULT"].contains($0.uppercased()) }
    }
}

/// The foreign keys a store declares, and what enforcing them makes a write do (foreignkeys.html).
enum ForeignKeys {
    /// True when `column` is the child column of a foreign key declared on `table`: many rows may share
    /// one value (a list's items, a history), and the parent's deletes search the child by it
    /// (foreignkeys.html#fk_indexes).
    static func isChildColumn(_ column: String, of table: Table, connection: SQLiteConnection) -> Bool {
        let rows = (try? connection.query("SELECT \"from\" FROM pragma_foreign_key_list(?)", [.text(table.name)])) ?? []
        return rows.contains { $0.first?.textValue?.sqlFolded == column.sqlFolded }
    }

    /// Every foreign key the tables of `schema` declare, table by table in schema order.
    static func all(in schema: Schema, connection: SQLiteConnection) -> [ForeignKey] {
        schema.tables.filter { !$0.isVirtual }.flatMap { table -> [ForeignKey] in
            let rows = (try? connection.query("SELECT id, seq, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
                                              [.text(table.name)])) ?? []
            let byID = Dictionary(grouping: rows) { $0[0].integerValue ?? 0 }
            return byID.keys.sorted().compactMap { id -> ForeignKey? in
                let parts = byID[id]!
                guard let parent = parts.first?[2].textValue else { return nil }
                let columns = parts.compactMap { $0[3].textValue }
                let parentColumns = parts.compactMap { $0[4].textValue }
                return ForeignKey(child: table.name, columns: columns, parent: parent,
                                  parentColumns: parentColumns.count == columns.count ? parentColumns : [],
                                  onDelete: parts[0][6].textValue ?? "NO ACTION", onUpdate: parts[0][5].textValue ?? "NO ACTION")
            }
        }
    }

    /// True when the app's connections enforce foreign keys, so the analysis must too: the workload's last
    /// `PRAGMA foreign_keys = …` says so (Room, GRDB and most apps turn it on when they open a connection), or,
    /// with no such pragma, a foreign key declares a `CASCADE`, `SET NULL` or `SET DEFAULT` action, which only
    /// enforcement carries out. SQLite's own default is off (foreignkeys.html#fk_enable).
    static func areEnforced(by workload: Workload, declared: [ForeignKey]) -> Bool {
        guard !declared.isEmpty else { return false }
        return workloadSetting(workload) ?? declared.contains(where: \.hasAction)
    }

    /// What the workload's last `PRAGMA foreign_keys = …` (or the boolean pragma `pragma`) sets, or nil when it
    /// has none.
    /// For `foreign_keys`, a recording's header says what the app's connections had set before any statement
    /// was recorded (``Workload/recordedForeignKeys``).
    static func workloadSetting(_ workload: Workload, pragma: String = "foreign_keys") -> Bool? {
        workload.statements.filter { $0.kind == .pragma }.compactMap { pragmaSetting($0.sql, pragma: pragma) }.last
            ?? (pragma == "foreign_keys" ? workload.recordedForeignKeys : nil)
    }

    /// The value `PRAGMA [schema.]foreign_keys = v` (or `(v)`; or of the boolean pragma `pragma`, a word) sets,
    /// or nil for any other statement.
    static func pragmaSetting(_ sql: String, pragma: String = "foreign_keys") -> Bool? {
        let pattern = #"(?i)^\s*PRAGMA\s+(?:"?\w+"?\s*\.\s*)?"?"# + NSRegularExpression.escapedPattern(for: pragma)
            + #""?\s*(?:=\s*|\(\s*)['"]?(\w+)['"]?\s*\)?\s*;?\s*$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: sql, range: NSRange(sql.startIndex..., in: sql)),
              let range = Range(match.range(at: 1), in: sql) else { return nil }
        switch sql[range].lowercased() {
        case "on", "1", "true", "yes": return true
        case "off", "0", "false", "no": return false
        default: return nil
        }
    }

    /// What enforcing `foreignKeys` adds to a write on `access`'s table: deleting a parent row, or changing
    /// its key, looks up the child rows that refer to it by the child's key columns (and carries out the
    /// key's action on them), one lookup per foreign key, which is a full scan of the child table without
    /// an index that leads with those columns (foreignkeys.html#fk_indexes). Each lookup is an access to the
    /// child table with an equality on each key column (its value comes from the parent row, as in a join).
    static func childAccesses(of access: TableAccess, parentTable: Table?, foreignKeys: [ForeignKey]) -> [TableAccess] {
        affectedKeys(by: access, parentTable: parentTable, foreignKeys: foreignKeys).map { key in
            TableAccess(table: key.child, constraints: key.columns.map { ColumnConstraint(column: $0, op: .equal, isJoin: true) },
                        readColumns: key.columns)
        }
    }

    /// The actions (`CASCADE`, `SET NULL`, `SET DEFAULT`) of the keys a delete or key change on `access`'s
    /// table sets off on the child rows: a delete the `ON DELETE` action of every key referring to the
    /// table, a key change the `ON UPDATE` action of those referring to a changed column.
    /// `RESTRICT` and `NO ACTION` only look the child rows up
    /// (``childAccesses(of:parentTable:foreignKeys:)``), which the write's own plan shows.
    static func actions(of access: TableAccess, parentTable: Table?, foreignKeys: [ForeignKey]) -> [ForeignKeyAction] {
        affectedKeys(by: access, parentTable: parentTable, foreignKeys: foreignKeys).compactMap { key in
            let action = ForeignKeyAction(key: key, onDelete: access.isDeleted)
            return ["CASCADE", "SET NULL", "SET DEFAULT"].contains(action.action) ? action : nil
        }
    }

    /// The keys whose child rows a delete of, or key change in, `access`'s table looks up.
    private static func affectedKeys(by access: TableAccess, parentTable: Table?, foreignKeys: [ForeignKey]) -> [ForeignKey] {
        guard access.isDeleted || access.isUpdated else { return [] }
        let primaryKey = (parentTable?.columns ?? []).filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
        return foreignKeys.filter { key in
            guard key.parent.sqlFolded == access.table.sqlFolded else { return false }
            if access.isDeleted { return true }
            let referenced = Set((key.parentColumns.isEmpty ? primaryKey : key.parentColumns).map(\.sqlFolded))
            // `rowid`, `oid` and `_rowid_` are the INTEGER PRIMARY KEY column when the table has one: `SET rowid = ?`
            // changes the key `SET id = ?` does (hostile round 8, F4).
            let rowidKey = referenced.isEmpty || parentTable?.rowidAlias.map { referenced.contains($0.name.sqlFolded) } == true
            return access.writtenColumns.contains { column in
                referenced.contains(column.sqlFolded) || (rowidKey && ["rowid", "oid", "_rowid_"].contains(column.sqlFolded))
            }
        }
    }
}
