// MARK: The snapshot's indexes in the order the migration leaves them

/// Among indexes it rates equal, SQLite's planner takes the one created last: a table's indexes are kept
/// newest first, and of two plans of equal cost the first found stays (where.c, `whereLoopInsert`). Dropping
/// an index to time a statement without it and building it again (the review of existing indexes, the
/// clock check of a pick) makes it the newest, and takes its `sqlite_stat1` rows with it, so the snapshot
/// would no longer plan as the store does with the migration applied: the store's indexes in their order,
/// then the recommendations in the order they were built. ``restoreIndexOrder(tables:)`` puts it back.
enum IndexOrder {
    /// The `sqlite_stat1` rows (`tbl`, `idx`, `stat`) by index (folded name); empty without the table.
    static func statistics(in connection: SQLiteConnection) -> [String: [[SQLValue]]] {
        let rows = (try? connection.query("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE idx IS NOT NULL")) ?? []
        return Dictionary(grouping: rows, by: { $0[1].textValue?.sqlFolded ?? "" })
    }
}

extension AnalysisRun {
    /// For each of `tables` (folded names; nil: every table), rebuilds the indexes from the first one out of
    /// the migration's order onward (``IndexOrder``): the store's own indexes in the store's order, then the
    /// picks in the order they were built, each with its `sqlite_stat1` rows (the store's, or those its
    /// `ANALYZE` gave a pick). Indexes dropped by the advice are left out of the order. Returns how many were rebuilt.
    @discardableResult
    mutating func restoreIndexOrder(tables: Set<String>? = nil) -> Int {
        let connection = snapshot.connection
        var rebuilt = 0
        for table in schema.tables where tables?.contains(table.name.sqlFolded) ?? true {
            let current = ((try? connection.query(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = ? COLLATE NOCASE ORDER BY rowid",
                [.text(table.name)])) ?? []).compactMap { $0.first?.textValue }
            let existing = Set(current.map(\.sqlFolded))
            let expected: [(name: String, sql: String)] = (table.indexes.compactMap { index in index.sql.map { (index.name, $0) } }
                + picks.filter { $0.measured.candidate.table.sqlFolded == table.name.sqlFolded }
                    .map { ($0.name, $0.measured.candidate.createSQL(name: $0.name)) })
                .filter { existing.contains($0.name.sqlFolded) }
            let known = current.filter { name in expected.contains { $0.name.sqlFolded == name.sqlFolded } }
            guard let first = zip(known, expected).enumerated().first(where: { $0.element.0.sqlFolded != $0.element.1.name.sqlFolded })?.offset
            else { continue }
            let moving = Array(expected[first...])
            var statistics = savedStatistics
            for (name, rows) in IndexOrder.statistics(in: connection) where statistics[name] == nil { statistics[name] = rows }
            for index in moving { _ = try? connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))") }
            for index in moving where (try? connection.execute(index.sql)) != nil {
                rebuilt += 1
                for row in statistics[index.name.sqlFolded] ?? [] {
                    _ = try? connection.query("DELETE FROM sqlite_stat1 WHERE idx = ?", [row[1]])
                    _ = try? connection.query("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)", row)
                }
            }
        }
        // The planner reads sqlite_stat1 when the schema is loaded: `ANALYZE sqlite_schema` loads it again
        // (lang_analyze.html: changes to the statistics tables take effect when they are reloaded).
        if rebuilt > 0, schema.hasStatistics { _ = try? connection.execute("ANALYZE sqlite_schema") }
        if rebuilt > 0 { snapshot.checkpoint() }
        return rebuilt
    }
}
