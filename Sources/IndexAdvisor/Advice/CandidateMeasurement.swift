import Foundation

/// A candidate built for real on the snapshot, with what it did to the statements it serves and to
/// the writes on its table.
struct MeasuredCandidate {
    var candidate: IndexCandidate
    /// Profiles (by position) whose what-if plan uses the candidate.
    var users: [Int]
    /// Profiles (by position) of writes to the candidate's table.
    var writes: [Int]
    /// Wall time of CREATE INDEX, in seconds.
    var buildSeconds: Double
    var bytes: Int64
    /// Timings with the candidate present, by profile position.
    var after: [Int: Timing]
    /// Profiles whose timing failed with the candidate present, with the reason.
    var failures: [Int: String] = [:]
}

/// Builds a candidate on the snapshot, times the statements it affects, and drops it again.
struct CandidateMeasurer {
    let snapshot: StoreSnapshot
    let timer: StatementTimer
    /// True when the store keeps `sqlite_stat1`: a new index then gets its own statistics, as `ANALYZE` would give it.
    let storeHasStatistics: Bool

    /// Creates `candidate` under `name`, measures, and keeps it when `keep` is true (the index was chosen).
    /// - Throws: ``SQLiteError`` when the index cannot be built.
    func measure(_ candidate: IndexCandidate, name: String, users: [Int], writes: [Int],
                 profiles: [StatementProfile], keep: Bool = false) throws -> MeasuredCandidate {
        let connection = snapshot.connection
        let start = DispatchTime.now().uptimeNanoseconds
        try connection.execute(candidate.createSQL(name: name))
        let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var dropped = false
        defer {
            if !keep && !dropped {
                try? connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(name))")
                snapshot.checkpoint()
            }
        }
        if storeHasStatistics { try connection.execute("ANALYZE \(SQLIdentifier.quote(name))") }
        snapshot.checkpoint()
        let bytes = (try? connection.scalar("SELECT sum(pgsize) FROM dbstat WHERE name = ?", [.text(name)])?.integerValue) ?? nil
        var measured = MeasuredCandidate(candidate: candidate, users: users, writes: writes, buildSeconds: buildSeconds,
                                         bytes: bytes ?? 0, after: [:])
        for position in Set(users + writes) {
            let profile = profiles[position]
            do {
                measured.after[position] = try timer.time(profile.statement.sql, samples: profile.samples, isWrite: profile.isWrite)
            } catch {
                measured.failures[position] = "\(error)"
            }
        }
        if !keep {
            try connection.execute("DROP INDEX \(SQLIdentifier.quote(name))")
            snapshot.checkpoint()
            dropped = true
        }
        return measured
    }
}
