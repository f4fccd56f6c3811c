/// The foreign keys a table declares, read with `PRAGMA foreign_key_list` (https://sqlite.org/pragma.html#pragma_foreign_key_list).
enum ForeignKeys {
    /// True when `column` is the child column of a foreign key declared on `table`: many rows may share
    /// one value (a list's items, a history), and the parent's deletes search the child by it
    /// (foreignkeys.html#fk_indexes).
    static func isChildColumn(_ column: String, of table: Table, connection: SQLiteConnection) -> Bool {
        let rows = (try? connection.query("SELECT \"from\" FROM pragma_foreign_key_list(?)", [.text(table.name)])) ?? []
        return rows.contains { $0.first?.textValue?.sqlFolded == column.sqlFolded }
    }
}
