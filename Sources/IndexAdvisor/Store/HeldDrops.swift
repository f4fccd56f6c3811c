import Foundation

// MARK: The store's indexes taken out of the snapshot without rebuilding them

/// A store index dropped on the snapshot and made again with its `CREATE INDEX` comes back packed full (an
/// index build fills its pages), so every later insert into it splits pages: the store's own index is aged,
/// and a write timed after such a rebuild was timed on other pages than the baseline. Dropping one index
/// made an INSERT 2.8× slower, 24 → 34 page lookups (issue 39, F2).
///
/// A store index is therefore taken out by hiding it: its `sqlite_schema` row and `sqlite_stat1` rows are
/// deleted (`PRAGMA writable_schema`) and kept, its pages left where they are, and it comes back by putting
/// the same rows back (same rowid, so the same place in the table's order; same root page). A drop in a
/// savepoint rolled back would restore the pages too, but every `ROLLBACK TO` of a timed write inside a
/// transaction that changed the schema makes SQLite reload the schema (vdbe.c, OP_Savepoint): an INSERT
/// timed 12.9 µs → 48.1 µs with an index fewer.
///
/// Writing `sqlite_schema` directly does not change the connection's parsed schema, and neither does its own
/// `PRAGMA schema_version = N` (OP_SetCookie records the new cookie as its own): only
/// `PRAGMA writable_schema = RESET` makes it read the schema, and `sqlite_stat1`, again (pragma.html). Without
/// it the planner kept using a hidden index and every write kept maintaining it.
///
/// Invariant: nothing commits a change to a table's rows, or creates or drops an index or a table, while an
/// index is hidden. Every timed write runs in a savepoint that is rolled back, so a hidden index, which SQLite
/// does not maintain, never goes stale; ANALYZE, `sqlite_stat1` rows and sampling do not touch table rows. A
/// candidate is built only with every store index back (``SnapshotIndexes/bring(to:)``, ``withoutHeldDrops(_:)``):
/// a new `sqlite_schema` row could take a hidden one's rowid, and on an auto-vacuum file a drop moves root pages.
/// Only the private snapshot is ever changed so (``StoreSnapshot/connection`` is opened on ``snapshotURL``; checked).
extension StoreSnapshot {
    /// Makes the snapshot be without exactly `names` among the store's indexes (an empty list: with all of
    /// them): the ones held and no longer wanted come back, the others are hidden.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when the schema cannot be changed.
    package func holdDrops(_ names: [String]) throws {
        let wanted = Set(names.map(\.sqlFolded))
        guard wanted != Set(heldDrops.map(\.sqlFolded)) else { return }
        try requireSnapshotFile()
        try run("PRAGMA writable_schema = ON")
        // RESET switches it off (on every path, errors included) and makes the connection read the schema and
        // sqlite_stat1 again, as they now are on disk.
        defer { _ = try? connection.execute("PRAGMA writable_schema = RESET") }
        // The books follow each step, so that after an error they still say what the file holds.
        for name in heldDrops where !wanted.contains(name.sqlFolded) {
            if let rows = hiddenRows[name.sqlFolded] {
                try run("INSERT INTO sqlite_schema(rowid, type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?, ?)", rows.schema)
                hiddenRows[name.sqlFolded] = nil
                heldDrops.removeAll { $0.sqlFolded == name.sqlFolded }
                for row in rows.statistics { try run("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)", row) }
            } else {
                heldDrops.removeAll { $0.sqlFolded == name.sqlFolded }
            }
        }
        for name in names where hiddenRows[name.sqlFolded] == nil {
            let schemaRows = try connection.query(
                "SELECT rowid, type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE type = 'index' AND name = ? COLLATE NOCASE", [.text(name)])
            guard let row = schemaRows.first, let rowid = row.first else { continue }
            let statistics = (try? connection.query("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE idx = ? COLLATE NOCASE", [.text(name)])) ?? []
            try run("DELETE FROM sqlite_schema WHERE rowid = ?", [rowid])
            hiddenRows[name.sqlFolded] = (row, statistics)
            heldDrops.append(name)
            if !statistics.isEmpty { try run("DELETE FROM sqlite_stat1 WHERE idx = ? COLLATE NOCASE", [.text(name)]) }
        }
        // For any other connection to the snapshot (a reader): a new schema version makes it read the schema again.
        let version = try connection.scalar("PRAGMA schema_version")?.integerValue ?? 0
        try run("PRAGMA schema_version = \(version + 1)")
    }

    /// Stops holding `names`, hidden indexes that are never to come back (candidates the selection left out):
    /// their rows are not put back, so their pages stay allocated and unused in the private snapshot, deleted
    /// with its folder. Dropping them instead would put those pages on the freelist, and every later write that
    /// splits a page would take one from it: the final state's INSERT looked up 17 pages where the selection
    /// had measured 15 with the same indexes (issue 40, item 2).
    package func abandonHidden(_ names: [String]) {
        let folded = Set(names.map(\.sqlFolded))
        heldDrops.removeAll { folded.contains($0.sqlFolded) }
        for name in folded { hiddenRows[name] = nil }
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

    /// Throws unless the connection's main database is the private snapshot file.
    private func requireSnapshotFile() throws {
        let sql = "PRAGMA database_list"
        let file = (try? connection.query(sql))?.first { $0.count > 2 && $0[1].textValue == "main" }?[2].textValue
        guard let file, URL(fileURLWithPath: file).resolvingSymlinksInPath().path == snapshotURL.resolvingSymlinksInPath().path else {
            throw StoreError.snapshotStateLost(directory: directory.url.path, sql: sql,
                                               error: SQLiteError(extendedCode: .misuse, message: "not the private snapshot: \(file ?? "no file")", sql: sql))
        }
    }

    private func run(_ sql: String, _ values: [SQLValue] = []) throws {
        do { _ = try connection.query(sql, values) } catch let error as SQLiteError {
            throw StoreError.snapshotStateLost(directory: directory.url.path, sql: sql, error: error)
        }
    }
}
