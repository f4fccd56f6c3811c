// MARK: The store's indexes taken out of the snapshot without rebuilding them

/// A store index dropped on the snapshot and made again with its `CREATE INDEX` comes back packed full (an
/// index build fills its pages), so every later insert into it splits pages: the store's own index is aged,
/// and a write timed after such a rebuild was timed on other pages than the baseline. Dropping one index
/// made an INSERT 2.8× slower, 24 → 34 page lookups (issue 39, F2).
///
/// A store index is therefore taken out by hiding it: its `sqlite_schema` row and `sqlite_stat1` rows are
/// deleted (`PRAGMA writable_schema`) and kept, its pages left where they are, and it comes back by putting
/// the same rows back (same rowid, so the same place in the table's order; same root page). Writes never
/// reach its pages while it is hidden (every timed write is rolled back, and a hidden index is not
/// maintained), so they are the store's when it is back. A drop in a savepoint rolled back would restore
/// the pages too, but every `ROLLBACK TO` of a timed write inside a transaction that changed the schema
/// makes SQLite reload the schema (vdbe.c, OP_Savepoint): an INSERT timed 12.9 µs → 48.1 µs with an index fewer.
/// Nothing commits a change to the table while an index is hidden, and the snapshot is private.
extension StoreSnapshot {
    /// Makes the snapshot be without exactly `names` among the store's indexes (an empty list: with all of
    /// them): the ones held and no longer wanted come back, the others are hidden.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when the schema cannot be changed.
    package func holdDrops(_ names: [String]) throws {
        let wanted = Set(names.map(\.sqlFolded))
        guard wanted != Set(heldDrops.map(\.sqlFolded)) else { return }
        try run("PRAGMA writable_schema = ON")
        defer { _ = try? connection.execute("PRAGMA writable_schema = OFF") }
        for name in heldDrops where !wanted.contains(name.sqlFolded) {
            guard let rows = hiddenRows.removeValue(forKey: name.sqlFolded) else { continue }
            try run("INSERT INTO sqlite_schema(rowid, type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?, ?)", rows.schema)
            for row in rows.statistics { try run("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)", row) }
        }
        heldDrops.removeAll { !wanted.contains($0.sqlFolded) }
        for name in names where hiddenRows[name.sqlFolded] == nil {
            let schemaRows = try connection.query(
                "SELECT rowid, type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE type = 'index' AND name = ? COLLATE NOCASE", [.text(name)])
            guard let row = schemaRows.first, let rowid = row.first else { continue }
            let statistics = (try? connection.query("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE idx = ? COLLATE NOCASE", [.text(name)])) ?? []
            try run("DELETE FROM sqlite_schema WHERE rowid = ?", [rowid])
            if !statistics.isEmpty { try run("DELETE FROM sqlite_stat1 WHERE idx = ? COLLATE NOCASE", [.text(name)]) }
            hiddenRows[name.sqlFolded] = (row, statistics)
            heldDrops.append(name)
        }
        // A new schema version makes SQLite read the schema, and sqlite_stat1, again.
        let version = try connection.scalar("PRAGMA schema_version")?.integerValue ?? 0
        try run("PRAGMA schema_version = \(version + 1)")
    }

    /// Brings every hidden store index back.
    package func releaseDrops() throws { try holdDrops([]) }

    /// Runs `body` with the store's indexes all back, then hides the same ones again.
    package func withoutHeldDrops<T>(_ body: () throws -> T) throws -> T {
        let held = heldDrops
        try releaseDrops()
        let result: T
        do { result = try body() } catch {
            try? holdDrops(held)
            throw error
        }
        try holdDrops(held)
        return result
    }

    private func run(_ sql: String, _ values: [SQLValue] = []) throws {
        do { _ = try connection.query(sql, values) } catch let error as SQLiteError {
            throw StoreError.snapshotStateLost(directory: directory.url.path, sql: sql, error: error)
        }
    }
}
