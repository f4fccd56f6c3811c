// MARK: The snapshot's indexes in the order the migration leaves them

/// Among indexes it rates equal, SQLite's planner takes the one created last: a table's indexes are kept
/// newest first, and of two plans of equal cost the first found stays (where.c, `whereLoopInsert`). Dropping
/// an index to time a statement without it and building it again (the review of existing indexes, the
/// clock check of a pick) makes it the newest, and takes its `sqlite_stat1` rows with it, so the snapshot
/// would no longer plan as the store does with the migration applied: the store's indexes in their order,
/// then the recommendations in the migration's order (``migrationOrder(_:key:isPartial:movesWith:)``). ``restoreIndexOrder(tables:)`` puts it back.
public enum IndexOrder {
    /// `items` (indexes to create, in the order they were chosen) in the order the migration creates them: a
    /// partial index chosen before a full one on the same key (table and columns, ``IndexCandidate/keyWithoutPredicate``)
    /// moves to just after the last such full one, and the items chosen between them that `movesWith` ties
    /// to it (or to one already moving with it), and the partial ones on its key, move with it, in their
    /// order; everything else keeps its place. `key` gives an item's table and key (any spelling that is
    /// equal for equal ones). On a list already in this order it changes nothing.
    ///
    /// Without `sqlite_stat1` SQLite rates a partial index like the full one on the same key (its default
    /// statistics assume the same rows per key value), so of the two it takes the one created last. The
    /// partial index holds only the rows its `WHERE` keeps, a part of what the full one holds, so it is the
    /// one to win: a team store's count of admins per organisation took 521 VM steps and 55 page lookups
    /// through `membership(team_id) WHERE role = 'admin'` (0.1–0.2 ms in the sqlite3 shell) and 8,029 steps
    /// and 1,609 lookups through `membership(team_id)` (2 ms), and which it took followed only which of the
    /// two was built last, so the advice on `team(org_id)` changed from run to run. Created after the full
    /// one on its key, the partial index wins that tie, whatever order the advice chose them in. A pick
    /// chosen after the partial one may rest on it (`team(org_id)` saves the count only through it): the
    /// picks serve statements in common, and it moves along, so that each pick is still listed after what
    /// its figures were measured beside. Indexes whose keys differ are not moved: the planner tells them
    /// apart by what each key serves, and a full `task(project_id, due)` listed before the partial
    /// `task(project_id, created) WHERE status = 'open'` chosen before it was measured without it again and
    /// shown making a project's open tasks 5.9× slower (a new user). (where.c `whereLoopInsert`; partialindex.html.)
    public static func migrationOrder<T>(_ items: [T], key: (T) -> String, isPartial: (T) -> Bool,
                                         movesWith: (T, T) -> Bool = { _, _ in false }) -> [T] {
        var ordered = items
        var offset = 0
        while offset < ordered.count {
            let item = ordered[offset]
            guard isPartial(item),
                  let last = ordered.indices.last(where: { $0 > offset && !isPartial(ordered[$0]) && key(ordered[$0]) == key(item) })
            else { offset += 1; continue }
            var moving = [item]
            var staying: [T] = []
            for between in ordered[(offset + 1)..<last] {
                let sameKeyPartial = isPartial(between) && key(between) == key(item)
                if sameKeyPartial || moving.contains(where: { movesWith(between, $0) }) { moving.append(between) } else { staying.append(between) }
            }
            ordered.replaceSubrange(offset...last, with: staying + [ordered[last]] + moving)
            // What moved to `offset` has not been looked at yet.
        }
        return ordered
    }

    /// `table`'s indexes as `sqlite_schema` lists them, oldest first (by rowid): names and SQL; those SQLite
    /// makes for a constraint (no SQL) left out.
    static func indexes(onTable table: String, in connection: SQLiteConnection) -> [(name: String, sql: String)] {
        ((try? connection.query(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = ? COLLATE NOCASE ORDER BY rowid",
            [.text(table)])) ?? []).compactMap { row in
                guard let name = row.first?.textValue, let sql = row.last?.textValue else { return nil }
                return (name, sql)
            }
    }

    /// Drops `index` and builds it again, so that it is the newest index of its table, with its rows from
    /// `statistics` (folded name → `sqlite_stat1` rows) put back; the caller reloads them (`ANALYZE sqlite_schema`).
    /// - Throws: ``SQLiteError`` when a step fails.
    static func rebuild(_ index: (name: String, sql: String), statistics: [String: [[SQLValue]]], in connection: SQLiteConnection) throws {
        try connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))")
        try connection.execute(index.sql)
        for row in statistics[index.name.sqlFolded] ?? [] {
            _ = try connection.query("DELETE FROM sqlite_stat1 WHERE idx = ?", [row[1]])
            _ = try connection.query("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)", row)
        }
    }

    /// The `sqlite_stat1` rows (`tbl`, `idx`, `stat`) by index (folded name); empty without the table.
    static func statistics(in connection: SQLiteConnection) -> [String: [[SQLValue]]] {
        let rows = (try? connection.query("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE idx IS NOT NULL")) ?? []
        return Dictionary(grouping: rows, by: { $0[1].textValue?.sqlFolded ?? "" })
    }
}

extension AnalysisRun {
    /// The store's own indexes (folded names), which keep their places on the snapshot.
    var storeIndexNames: Set<String> { Set(schema.indexes.map(\.name.sqlFolded)) }

    /// For each of `tables` (folded names; nil: every table), rebuilds the indexes from the first one out of
    /// the migration's order onward (``IndexOrder``): the store's own indexes in the store's order, then the
    /// picks in the migration's order (``IndexOrder/migrationOrder(_:key:isPartial:movesWith:)``), each with its `sqlite_stat1` rows (the store's, or those its
    /// `ANALYZE` gave a pick). Indexes dropped by the advice are left out of the order. Returns how many were rebuilt.
    @discardableResult
    mutating func restoreIndexOrder(tables: Set<String>? = nil) -> Int {
        let connection = snapshot.connection
        var moves: [(indexes: [(name: String, sql: String)], statistics: [String: [[SQLValue]]])] = []
        for table in schema.tables where tables?.contains(table.name.sqlFolded) ?? true {
            let current = IndexOrder.indexes(onTable: table.name, in: connection).map(\.name)
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
            moves.append((moving, statistics))
        }
        guard !moves.isEmpty else { return 0 }
        var rebuilt = 0
        func rebuildAll() {
            for (moving, statistics) in moves {
                for index in moving where (try? IndexOrder.rebuild(index, statistics: statistics, in: connection)) != nil { rebuilt += 1 }
            }
        }
        // A new sqlite_schema row could take a hidden store index's rowid, and on an auto-vacuum file a drop
        // moves root pages: rebuilt with every store index back (``StoreSnapshot/holdDrops(_:)``).
        if snapshot.heldDrops.isEmpty { rebuildAll() } else { _ = try? snapshot.withoutHeldDrops(rebuildAll) }
        // The planner reads sqlite_stat1 when the schema is loaded: `ANALYZE sqlite_schema` loads it again
        // (lang_analyze.html: changes to the statistics tables take effect when they are reloaded).
        if rebuilt > 0, schema.hasStatistics { _ = try? connection.execute("ANALYZE sqlite_schema") }
        if rebuilt > 0 { snapshot.checkpoint() }
        return rebuilt
    }
}
