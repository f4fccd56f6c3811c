import Foundation

/// A candidate built for real on the snapshot, with what it did to the statements it serves and to
/// the writes on its table.
struct MeasuredCandidate {
    var candidate: IndexCandidate
    /// Profiles (by position) whose what-if plan uses the candidate.
    var users: [Int]
    /// WHERE terms the users' what-if plans resolve through the candidate (`a=? AND b>?` counts 2): how
    /// well the index fits the statements, in SQLite's own terms.
    var termsUsed = 0
    /// The share of rows an equality on the leading key column matches, on average
    /// (``ColumnStatistics/matchedFraction``): lower is more selective.
    var leadMatchedFraction: Double?
    /// Profiles (by position) of writes to the candidate's table.
    var writes: [Int]
    /// Wall time of CREATE INDEX, in seconds.
    var buildSeconds: Double
    var bytes: Int64
    /// Timings with the candidate present, by profile position.
    var after: [Int: Timing]
    /// Writes timed just before the candidate was built, so that their comparison is not skewed by what
    /// the machine did in between.
    var writesBefore: [Int: Timing] = [:]
    /// Profiles whose timing failed with the candidate present, with the reason.
    var failures: [Int: String] = [:]
    /// For each user (profile position), the what-if plan its timing in `after` was taken with, as
    /// ``EquivalentCandidates/signature(of:index:)`` writes it: while it stays the same, so does the work.
    var whatIfPlans: [Int: String] = [:]
}

/// Builds a candidate on the snapshot, times the statements it affects, and drops it again.
struct CandidateMeasurer {
    let snapshot: StoreSnapshot
    let timer: StatementTimer
    /// True when the store keeps `sqlite_stat1`: a new index then gets its own statistics, as `ANALYZE` would give it.
    let storeHasStatistics: Bool
    /// False when the selection decides on SQLite's counters: a write's counters before the build are the
    /// ones the profile already holds, so timing it again would only repeat a figure (issue 18); the
    /// profile's current timing is kept as `writesBefore` instead.
    var timesWritesBefore = true
    /// The store's own indexes (folded names): every other index on the snapshot is one this run built, and
    /// its partial ones are built again after each full index so that they stay the newest, as the migration
    /// creates them (``IndexOrder/migrationOrder(_:key:isPartial:movesWith:)``).
    var storeIndexNames: Set<String> = []

    /// Creates `candidate` under `name`, times the statements at `positions` (default: all users and
    /// writes), and keeps the index when `keep` is true (it was chosen).
    /// - Throws: ``SQLiteError`` when the index cannot be built; ``StoreError/snapshotWriteFailed(directory:sql:error:)``
    ///   when the snapshot's folder is full or fails to write (`SQLITE_FULL`, `SQLITE_IOERR`).
    func measure(_ candidate: IndexCandidate, name: String, users: [Int], writes: [Int],
                 profiles: [StatementProfile], keep: Bool = false, positions: Set<Int>? = nil) throws -> MeasuredCandidate {
        let connection = snapshot.connection
        var writesBefore: [Int: Timing] = [:]
        for position in writes where !users.contains(position) && (positions?.contains(position) ?? true) {
            let profile = profiles[position]
            writesBefore[position] = timesWritesBefore ? try? timer.time(profile.executions, isWrite: true) : profile.current
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let create = candidate.createSQL(name: name)
        do {
            try connection.execute(create)
        } catch let error as SQLiteError where error.code == .full || error.code == .ioError {
            // The folder is full or failing: no candidate can be built, so the run stops rather than report
            // "no index to add" (a breaking helper filled the temporary directory mid-run: exit 0, every
            // candidate rejected as not built).
            throw StoreError.snapshotWriteFailed(directory: snapshot.directory.url.path, sql: create, error: error)
        }
        let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        timer.clock?.addCandidateBuild(buildSeconds)
        do {
            if storeHasStatistics { try connection.execute("ANALYZE \(SQLIdentifier.quote(name))") }
        } catch {
            if !keep { try drop(name) }
            throw error
        }
        if candidate.partialPredicate == nil {
            do {
                try rebuildPartialIndexes(sharingKeyOf: candidate, after: name)
            } catch {
                if !keep { try drop(name) }
                throw error
            }
        }
        snapshot.checkpoint()
        let bytes = (try? connection.scalar("SELECT sum(pgsize) FROM dbstat WHERE name = ?", [.text(name)])?.integerValue) ?? nil
        var measured = MeasuredCandidate(candidate: candidate, users: users, writes: writes, buildSeconds: buildSeconds,
                                         bytes: bytes ?? 0, after: [:], writesBefore: writesBefore)
        for position in positions ?? Set(users + writes) {
            let profile = profiles[position]
            do {
                // A read already half again slower than it is now will not be a gain: one pass tells enough.
                let giveUp = profile.isRead ? profile.current.map { $0.medianSeconds * 1.5 + 0.000_05 } : nil
                measured.after[position] = try timer.time(profile.executions, isWrite: profile.isWrite, giveUpAboveSeconds: giveUp)
            } catch {
                measured.failures[position] = "\(error)"
            }
        }
        if !keep { try drop(name) }
        return measured
    }

    /// Builds the partial indexes this run made on `candidate`'s key again (each with its `sqlite_stat1`
    /// rows), so that `candidate`, the full index `name` just built, is older than they are: the order the
    /// migration creates them in (``IndexOrder/migrationOrder(_:key:isPartial:movesWith:)``), in which of a
    /// full and a partial index on one key, which the planner rates equal, it takes the partial one. The
    /// store's own indexes keep their places.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when one cannot be dropped or built
    ///   again: the snapshot would no longer plan as the migration leaves the store.
    func rebuildPartialIndexes(sharingKeyOf candidate: IndexCandidate, after name: String) throws {
        let connection = snapshot.connection
        let table = candidate.table
        // Key columns as `pragma_index_xinfo` gives them (an expression has no name: never the same key here).
        let wanted = candidate.columns.map { column -> String in
            "\(column.name?.sqlFolded ?? "\u{0}")|\(column.isDescending ? 1 : 0)|\(column.collation.uppercased())"
        }
        let partial = Set(((try? connection.query("SELECT name FROM pragma_index_list(?) WHERE \"partial\"", [.text(table)])) ?? [])
            .compactMap { $0.first?.textValue }.filter { index in
                let key = ((try? connection.query(
                    "SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE \"key\" ORDER BY seqno", [.text(index)])) ?? []).map { row in
                    "\(row[0].textValue?.sqlFolded ?? "\u{1}")|\(row[1].integerValue ?? 0)|\((row[2].textValue ?? "BINARY").uppercased())"
                }
                return key == wanted
            }.map(\.sqlFolded))
        guard !partial.isEmpty else { return }
        let moving = IndexOrder.indexes(onTable: table, in: connection).filter { index in
            let folded = index.name.sqlFolded
            return partial.contains(folded) && !storeIndexNames.contains(folded) && folded != name.sqlFolded
        }
        guard !moving.isEmpty else { return }
        let statistics = storeHasStatistics ? IndexOrder.statistics(in: connection) : [:]
        for index in moving {
            do {
                try IndexOrder.rebuild(index, statistics: statistics, in: connection)
            } catch let error as SQLiteError {
                throw StoreError.snapshotStateLost(directory: snapshot.directory.url.path, sql: index.sql, error: error)
            }
        }
        // The planner reads sqlite_stat1 when the schema is loaded (lang_analyze.html).
        if storeHasStatistics { _ = try? connection.execute("ANALYZE sqlite_schema") }
    }

    /// Drops the index `name` from the snapshot again.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when it cannot: the index would stay
    ///   and skew every later measurement, so the analysis must stop (exit 2), not go on with worse advice.
    func drop(_ name: String) throws {
        let sql = "DROP INDEX IF EXISTS \(SQLIdentifier.quote(name))"
        do {
            try snapshot.connection.execute(sql)
        } catch let error as SQLiteError {
            throw StoreError.snapshotStateLost(directory: snapshot.directory.url.path, sql: sql, error: error)
        }
        snapshot.checkpoint()
    }
}
