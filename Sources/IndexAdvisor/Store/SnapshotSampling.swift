import Foundation

/// A table measured on a deterministic sample of its rows.
public struct SampledTable: Sendable, Codable, Equatable {
    public var table: String
    /// Rows in the store.
    public var rows: Int
    /// Rows kept in the snapshot: every `step`-th rowid.
    public var sampledRows: Int
    public var step: Int

    /// What an index's size on the sample is multiplied by to give its size on the store: rows ÷ sampled
    /// rows. An index holds one entry per row, of the same width on average, so its pages grow about
    /// linearly with the rows.
    public var sizeFactor: Double { Double(rows) / Double(max(1, sampledRows)) }

    /// What an index's build time on the sample is multiplied by to give the store's: building sorts the
    /// rows, n·log n, so rows ÷ sampled rows × ln(rows) ÷ ln(sampled rows).
    public var buildFactor: Double {
        let sampled = Double(max(2, sampledRows))
        return sizeFactor * log(Double(max(2, rows))) / log(sampled)
    }
}

extension StoreSnapshot {
    /// Replaces the snapshot by one in which every rowid table of more than `2 × maxRows` rows keeps about
    /// one row in k = ⌈rows / maxRows⌉, chosen by a mixing hash of the rowid (deterministic, and blind to
    /// patterns such as rowids interleaved by kind); other tables are copied whole. Indexes,
    /// views, triggers and the store's own `sqlite_stat1` rows come along unchanged, so plans stay those of
    /// the store. Plans and relative costs carry over to the full store; absolute times shrink with the
    /// table, which the report states next to them.
    ///
    /// Stores with virtual tables (FTS, R-Tree) are left whole: their shadow tables cannot be sampled safely.
    /// - Returns: the sampled tables; empty when nothing needed sampling (the snapshot is unchanged).
    /// - Throws: ``SQLiteError`` when the sampled copy cannot be written.
    package func sampleLargeTables(schema: Schema, maxRows: Int) throws -> [SampledTable] {
        guard maxRows > 0, !schema.tables.contains(where: \.isVirtual) else { return [] }
        // `rows - maxRows > maxRows` is `rows > 2 × maxRows` without computing 2 × maxRows, which overflows
        // for a maxRows above Int.max / 2 (`--sample-rows 5000000000000000000` crashed here).
        let large = schema.tables.filter { !$0.isWithoutRowid && $0.rowCount - maxRows > maxRows }
        guard !large.isEmpty else { return [] }
        let sampledURL = directory.url.appendingPathComponent("sampled.sqlite")
        let sampled = try SQLiteConnection(path: sampledURL.path, mode: .readWriteCreate)
        let pageSize = try connection.scalar("PRAGMA page_size")?.integerValue ?? 4096
        let journalMode = try connection.scalar("PRAGMA journal_mode")?.textValue ?? "delete"
        try sampled.execute("PRAGMA page_size = \(pageSize); PRAGMA synchronous = OFF")
        try sampled.registerMixFunction()
        // The same stand-ins as the snapshot, before a definition or a row is copied (see `installSchemaStandIns()`).
        sampled.installStandIns()
        for name in connection.standInFunctions.sorted() { try sampled.registerStandInFunction(named: name) }
        if try connection.scalar("PRAGMA ignore_check_constraints")?.integerValue == 1 {
            try sampled.execute("PRAGMA ignore_check_constraints = ON")
        }
        sampled.allowAttach()
        try sampled.execute("ATTACH DATABASE \(SQLIdentifier.stringLiteral(snapshotURL.path)) AS indexadvisor_source")
        try sampled.execute("BEGIN")
        var result: [SampledTable] = []
        for table in schema.tables {
            try sampled.executeDefinition(table.sql)
            let columns = table.columns.filter { !$0.isHidden }.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
            let name = SQLIdentifier.quote(table.name)
            if large.contains(where: { $0.name == table.name }) {
                // ⌈rows / maxRows⌉, without the overflow of `rows + maxRows - 1`.
                let step = table.rowCount / maxRows + (table.rowCount % maxRows == 0 ? 0 : 1)
                try sampled.execute("INSERT INTO main.\(name) (\(columns)) SELECT \(columns) FROM indexadvisor_source.\(name) WHERE indexadvisor_mix(rowid) % \(step) = 0")
                result.append(SampledTable(table: table.name, rows: table.rowCount, sampledRows: sampled.changes, step: step))
            } else {
                try sampled.execute("INSERT INTO main.\(name) (\(columns)) SELECT \(columns) FROM indexadvisor_source.\(name)")
            }
        }
        let extras = try sampled.query("""
            SELECT type, sql FROM indexadvisor_source.sqlite_schema
            WHERE sql IS NOT NULL AND type IN ('index', 'view', 'trigger') AND name NOT LIKE 'sqlite_%'
            ORDER BY CASE type WHEN 'index' THEN 0 WHEN 'view' THEN 1 ELSE 2 END, rowid
            """)
        for row in extras {
            if let sql = row[1].textValue { try sampled.executeDefinition(sql) }
        }
        let sourceTables = Set(try sampled.query("SELECT name FROM indexadvisor_source.sqlite_schema WHERE type = 'table'").compactMap { $0[0].textValue })
        if sourceTables.contains("sqlite_sequence") {
            try sampled.execute("DELETE FROM main.sqlite_sequence; INSERT INTO main.sqlite_sequence SELECT * FROM indexadvisor_source.sqlite_sequence")
        }
        try sampled.execute("COMMIT")
        if schema.hasStatistics {
            // ANALYZE creates sqlite_stat1; its rows are then replaced by the store's own.
            try sampled.execute("""
                ANALYZE; DELETE FROM main.sqlite_stat1;
                INSERT INTO main.sqlite_stat1 SELECT tbl, idx, stat FROM indexadvisor_source.sqlite_stat1;
                ANALYZE sqlite_schema;
                """)
        }
        try sampled.execute("DETACH DATABASE indexadvisor_source")
        if journalMode.sqlFolded == "wal" { _ = try sampled.query("PRAGMA journal_mode = WAL") }
        try sampled.execute("PRAGMA wal_autocheckpoint = 0")
        replaceConnection(with: sampled, file: sampledURL)
        return result
    }
}
