/// Why an index of the store must be kept whatever the workload (``DropCaveat``), and the indexes that
/// `INDEXED BY` names: what the existing-index review and the selector's removal moves both ask first.
extension ExistingIndexReview {
    /// Why `index` must not be dropped whatever the workload: it backs a constraint or a uniqueness rule, or Core
    /// Data owns it; nil when nothing keeps it. With `connection` (the snapshot), an index named as Core Data names
    /// its own (`<TABLE>_<COLUMN>_INDEX`) on a column that is provably a plain attribute, not a to-one
    /// relationship (``isPlainAttribute(_:schema:connection:)``), is not Core Data's: it is an attribute marked
    /// "Indexed" in the model, which a new model version can unmark.
    /// `named`: the indexes (folded names) that statements, views and triggers name with `INDEXED BY`; nil to
    /// read the views' and triggers' from `connection`.
    static func caveat(for index: Index, schema: Schema, connection: SQLiteConnection? = nil, named: Set<String>? = nil) -> DropCaveat? {
        if index.origin != .createIndex { return .enforcesConstraint(primaryKey: index.origin == .primaryKey) }
        if index.isUnique { return .uniqueRule }
        if (named ?? connection.map(namedIndexes(in:)) ?? []).contains(index.name.sqlFolded) { return .namedByIndexedBy }
        // By Core Data's name for it, or by what it is whatever its name: an index on `Z_ENT` alone on an entity table.
        let entityIndex = schema.coreData?.rootEntity(ofTable: index.table) != nil && index.columns.count == 1
            && index.columns.first?.name?.sqlFolded == "z_ent"
        if schema.coreData != nil, entityIndex || (index.name.uppercased().hasSuffix("_INDEX") && !index.name.hasPrefix("Z_")) {
            if !entityIndex, let connection, isPlainAttribute(index, schema: schema, connection: connection) { return nil }
            return .ownedByCoreData
        }
        return nil
    }

    /// The indexes (folded names) that `sql` names with `INDEXED BY` (lang_indexedby.html): a statement that
    /// names an index fails to prepare once it is gone, so such an index is never dropped.
    static func indexedByNames(in sql: String) -> Set<String> {
        let tokens = SQLTokenList(sql)
        var names = Set<String>()
        for i in 0..<max(0, tokens.count - 2) where tokens.isWord(i, "INDEXED") && tokens.isWord(i + 1, "BY") {
            names.insert(tokens.identifier(at: i + 2).sqlFolded)
        }
        return names
    }

    /// The indexes (folded names) the store's views and triggers name with `INDEXED BY`.
    static func namedIndexes(in connection: SQLiteConnection) -> Set<String> {
        let rows = (try? connection.query("SELECT sql FROM sqlite_schema WHERE type IN ('view', 'trigger') AND sql LIKE '%indexed%'")) ?? []
        return rows.reduce(into: Set<String>()) { names, row in names.formUnion(indexedByNames(in: row.first?.textValue ?? "")) }
    }

    /// True when `index` is on one column that cannot be a Core Data to-one relationship: a relationship column is
    /// declared `INTEGER` and holds the `Z_PK` of a row of an entity table, so a column declared otherwise, or
    /// holding a value (a flag's 0, say) that is no entity row's `Z_PK`, is an attribute. A column whose every value
    /// is some row's `Z_PK` may be either, and stays Core Data's.
    static func isPlainAttribute(_ index: Index, schema: Schema, connection: SQLiteConnection) -> Bool {
        guard index.columns.count == 1, let name = index.columns.first?.name, let table = schema.table(named: index.table),
              let column = table.columns.first(where: { $0.name.sqlFolded == name.sqlFolded }) else { return false }
        guard column.declaredType.uppercased().contains("INT") else { return true }
        let entityTables = Set(schema.coreData?.entities.map { $0.table.sqlFolded } ?? [])
        let keys = schema.tables.filter { entityTables.contains($0.name.sqlFolded) && $0.columns.contains { $0.name.sqlFolded == "z_pk" } }
            .map { "SELECT Z_PK FROM \(SQLIdentifier.quote($0.name))" }
        guard !keys.isEmpty else { return false }
        let quoted = SQLIdentifier.quote(column.name)
        let sql = "SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE \(quoted) IS NOT NULL AND \(quoted) NOT IN (\(keys.joined(separator: " UNION "))) LIMIT 1"
        return (try? connection.scalar(sql)) != nil
    }
}
