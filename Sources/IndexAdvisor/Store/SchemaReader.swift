/// Reads a store's schema through SQLite's own catalog: `sqlite_schema` and the table-valued pragmas
/// `pragma_table_xinfo`, `pragma_index_list`, `pragma_index_xinfo` (https://sqlite.org/pragma.html).
package enum SchemaReader {
    /// The schema of `connection`'s main database.
    /// - Parameter countRows: count each table's rows with `SELECT COUNT(*)` (a scan of the smallest index).
    /// - Throws: ``SQLiteError`` when the catalog cannot be read (not a database, corrupt, encrypted).
    package static func read(from connection: SQLiteConnection, countRows: Bool = true) throws -> Schema {
        let catalog = try connection.query("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid")
        var tables: [Table] = []
        var views: [View] = []
        var indexSQL: [String: String] = [:]
        for row in catalog where row[0].textValue == "index" {
            if let name = row[1].textValue, let sql = row[3].textValue { indexSQL[name.sqlFolded] = sql }
        }
        for row in catalog {
            guard let type = row[0].textValue, let name = row[1].textValue else { continue }
            let sql = row[3].textValue ?? ""
            switch type {
            case "table":
                if name.sqlFolded.hasPrefix("sqlite_") { continue }
                tables.append(try readTable(name: name, sql: sql, indexSQL: indexSQL, connection: connection, countRows: countRows))
            case "view":
                views.append(View(name: name, sql: sql))
            default:
                continue
            }
        }
        // Shadow tables of virtual tables (SQLite 3.37+; older ones have no table_list and mark none).
        let shadows = Set(((try? connection.query("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'")) ?? [])
            .compactMap { $0[0].textValue?.sqlFolded })
        for index in tables.indices where shadows.contains(tables[index].name.sqlFolded) { tables[index].isShadow = true }
        let names = Set(catalog.compactMap { $0[1].textValue?.sqlFolded })
        var statistics: [StatisticsRow] = []
        if names.contains("sqlite_stat1") {
            statistics = try connection.query("SELECT tbl, idx, stat FROM sqlite_stat1").compactMap { row in
                guard let table = row[0].textValue, let stat = row[2].textValue else { return nil }
                return StatisticsRow(table: table, index: row[1].textValue, stat: stat)
            }
        }
        var coreData: CoreDataModel?
        // Core Data keeps Z_PRIMARYKEY (entity numbers and names) and Z_METADATA; a reduced or copied
        // store may lack Z_METADATA, so Z_PRIMARYKEY with its Core Data columns is enough.
        let primaryKeyColumns = Set(tables.first { $0.name.sqlFolded == "z_primarykey" }?.columns.map { $0.name.uppercased() } ?? [])
        if primaryKeyColumns.isSuperset(of: ["Z_ENT", "Z_NAME", "Z_SUPER"]) {
            let rows = try connection.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            let entities = rows.compactMap { row -> (number: Int, name: String, superEntity: Int)? in
                guard let number = row[0].integerValue, let name = row[1].textValue else { return nil }
                return (Int(number), name, Int(row[2].integerValue ?? 0))
            }
            coreData = CoreDataModel.from(primaryKeyRows: entities, tableNames: tables.map(\.name))
            // The compiled model the store keeps (Z_MODELCACHE): the names with their case.
            if tables.contains(where: { $0.name.sqlFolded == "z_modelcache" }) {
                coreData?.cachedModel = StoreModelCache.read(from: connection)
            }
        }
        var schema = Schema(tables: tables, views: views, hasStatistics: !statistics.isEmpty,
                            statistics: statistics, coreData: coreData)
        schema.triggers = catalog.filter { $0[0].textValue == "trigger" }.compactMap { row in
            guard let name = row[1].textValue, let table = row[2].textValue else { return nil }
            return Trigger(name: name, table: table, sql: row[3].textValue ?? "")
        }
        return schema
    }

    private static func readTable(name: String, sql: String, indexSQL: [String: String],
                                  connection: SQLiteConnection, countRows: Bool) throws -> Table {
        let tokens = SQLTokenList(sql)
        let isVirtual = tokens.isWord(1, "VIRTUAL")
        let isWithoutRowid = tokens.count >= 2 && tokens.isWord(tokens.count - 1, "ROWID") && tokens.isWord(tokens.count - 2, "WITHOUT")
        let declaredCollations = isVirtual ? [:] : columnCollations(in: tokens)
        var columns: [Column] = []
        // A virtual table whose module is missing cannot be described; keep it with no columns.
        let columnRows = (try? connection.query(
            "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?)", [.text(name)])) ?? []
        let primaryKeyCount = columnRows.filter { ($0[3].integerValue ?? 0) > 0 }.count
        for row in columnRows {
            let columnName = row[0].textValue ?? ""
            let type = row[1].textValue ?? ""
            let pk = Int(row[3].integerValue ?? 0)
            columns.append(Column(
                name: columnName,
                declaredType: type,
                isNotNull: (row[2].integerValue ?? 0) != 0,
                primaryKeyPosition: pk,
                isRowidAlias: pk == 1 && primaryKeyCount == 1 && !isWithoutRowid && !isVirtual && type.uppercased() == "INTEGER",
                collation: declaredCollations[columnName.sqlFolded] ?? "BINARY",
                isHidden: (row[4].integerValue ?? 0) != 0,
                isGenerated: [2, 3].contains(row[4].integerValue ?? 0)))
        }
        var indexes: [Index] = []
        if !isVirtual {
            let list = try connection.query(
                "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?) ORDER BY seq DESC", [.text(name)])
            for row in list {
                guard let indexName = row[0].textValue else { continue }
                let sql = indexSQL[indexName.sqlFolded]
                let keyRows = try connection.query(
                    "SELECT cid, name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno",
                    [.text(indexName)])
                let expressions = sql.map { indexKeyTexts(in: SQLTokenList($0)) } ?? []
                let keyColumns = keyRows.enumerated().map { offset, key -> IndexColumn in
                    let cid = key[0].integerValue ?? 0
                    let expression = cid == -2 ? (offset < expressions.count ? expressions[offset] : "<expression>") : nil
                    return IndexColumn(name: cid == -2 ? nil : (cid == -1 ? "rowid" : key[1].textValue),
                                       expression: expression,
                                       isDescending: (key[2].integerValue ?? 0) != 0,
                                       collation: key[3].textValue ?? "BINARY")
                }
                let isPartial = (row[3].integerValue ?? 0) != 0
                indexes.append(Index(
                    name: indexName, table: name, columns: keyColumns,
                    isUnique: (row[1].integerValue ?? 0) != 0,
                    origin: Index.Origin(rawValue: row[2].textValue ?? "c") ?? .createIndex,
                    partialPredicate: isPartial ? sql.flatMap { partialPredicate(in: SQLTokenList($0)) } : nil,
                    sql: sql))
            }
        }
        var rowCount = 0
        if countRows {
            if let count = try? connection.scalar("SELECT COUNT(*) FROM \(SQLIdentifier.quote(name))")?.integerValue {
                rowCount = Int(count)
            } else if !isVirtual {
                // An unreadable ordinary table means the file is damaged: report it rather than guess.
                _ = try connection.scalar("SELECT COUNT(*) FROM \(SQLIdentifier.quote(name))")
            }
        }
        return Table(name: name, columns: columns, indexes: indexes, rowCount: rowCount,
                     isWithoutRowid: isWithoutRowid, isVirtual: isVirtual, sql: sql)
    }

    /// Declared `COLLATE` clauses of column definitions in a `CREATE TABLE` statement, by lower-cased column name.
    static func columnCollations(in tokens: SQLTokenList) -> [String: String] {
        guard let open = (0..<tokens.count).first(where: { tokens.isSymbol($0, "(") }) else { return [:] }
        var result: [String: String] = [:]
        let constraintWords = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        for item in tokens.items(inParenthesisAt: open) {
            if constraintWords.contains(where: { tokens.isWord(item.lowerBound, $0) }) { continue }
            if let collation = tokens.collation(in: item) {
                result[tokens.identifier(at: item.lowerBound).sqlFolded] = collation.uppercased() == "BINARY" ? "BINARY" : collation
            }
        }
        return result
    }

    /// The key terms of a `CREATE INDEX … ON t (…)` statement, without `COLLATE` and `ASC`/`DESC`.
    static func indexKeyTexts(in tokens: SQLTokenList) -> [String] {
        guard let on = tokens.firstTopLevelWord("ON"),
              let open = (on..<tokens.count).first(where: { tokens.isSymbol($0, "(") }) else { return [] }
        return tokens.items(inParenthesisAt: open).map { item in
            var end = item.upperBound
            if tokens.isWord(end, "ASC") || tokens.isWord(end, "DESC") { end -= 1 }
            if end - 1 >= item.lowerBound, tokens.isWord(end - 1, "COLLATE") { end -= 2 }
            return tokens.text(from: item.lowerBound, to: max(item.lowerBound, end))
        }
    }

    /// The `WHERE` clause of a partial index, without the keyword.
    static func partialPredicate(in tokens: SQLTokenList) -> String? {
        guard let on = tokens.firstTopLevelWord("ON"), let where_ = tokens.firstTopLevelWord("WHERE", from: on),
              where_ + 1 < tokens.count else { return nil }
        var end = tokens.count - 1
        if tokens.tokens[end].kind == .semicolon { end -= 1 }
        return tokens.text(from: where_ + 1, to: end)
    }
}
