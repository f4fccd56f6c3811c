/// A uniqueness rule that a narrower one of the same table implies: when `(a)` is unique, so is every `(a, b)`
/// (two rows with the same `(a, b)` would share `a`), and a row with a NULL in `a` is in no conflict under
/// either rule, since NULLs are distinct (https://sqlite.org/lang_createindex.html#unique_indexes). A UNIQUE
/// index or constraint on `(a, b)` is then redundant as a rule, whatever the index does for lookups.
enum ImpliedUniqueness {
    /// A key of the table that makes its rows unique: a UNIQUE index or constraint, the PRIMARY KEY, or the
    /// rowid alias (`INTEGER PRIMARY KEY`, which has no index of its own: https://sqlite.org/lang_createtable.html#rowid).
    struct Key: Equatable {
        /// The index's name, or `INTEGER PRIMARY KEY` for the rowid alias.
        let name: String
        let columns: [IndexColumn]
        let origin: Index.Origin
    }

    /// How the reports name the rowid alias as a key.
    static let rowidKeyName = "INTEGER PRIMARY KEY"

    /// The table's keys: its UNIQUE indexes (constraints and the PRIMARY KEY included) that have no WHERE
    /// clause and no expression column, and the rowid alias.
    static func keys(of table: Table) -> [Key] {
        var keys = table.indexes.filter { $0.isUnique && $0.partialPredicate == nil && $0.columns.allSatisfy { $0.name != nil } }
            .map { Key(name: $0.name, columns: $0.columns, origin: $0.origin) }
        if let alias = table.rowidAlias {
            keys.insert(Key(name: rowidKeyName, columns: [IndexColumn(name: alias.name)], origin: .primaryKey), at: 0)
        }
        return keys
    }

    /// The key of `table` that implies the rule on `columns` (a rule named `name`, when it is one of the table's
    /// keys): one whose every column is among `columns`, under the same collation (a rule under NOCASE is not
    /// implied by one under BINARY). A strictly narrower key, or, between keys on the same columns, the one
    /// listed first (the PRIMARY KEY, then the order of the table's indexes), so that of two twins only the
    /// second is called implied. Nil when none does.
    static func implyingKey(for columns: [IndexColumn], named name: String? = nil, in table: Table) -> Key? {
        let keys = keys(of: table)
        let position = name.flatMap { name in keys.firstIndex { $0.name == name } }
        return keys.enumerated().filter { offset, key in
            guard key.name != name, key.columns.count <= columns.count,
                  key.columns.allSatisfy({ column in columns.contains { covers($0, column) } }) else { return false }
            if key.columns.count < columns.count { return true }
            // The same columns: only the earlier key implies the later one.
            return position.map { offset < $0 } ?? true
        }.min { $0.element.columns.count < $1.element.columns.count }?.element
    }

    /// True when `column` of a rule is `key`'s column under the same collation.
    private static func covers(_ column: IndexColumn, _ key: IndexColumn) -> Bool {
        guard let name = column.name, let keyName = key.name else { return false }
        return name.sqlFolded == keyName.sqlFolded && column.collation.uppercased() == key.collation.uppercased()
    }
}
