import Foundation
import IndexAdvisor

/// A set of index changes to a store: what `.expert`, our advice or a searched subset proposes.
struct IndexConfiguration: Hashable {
    var name: String
    /// `CREATE INDEX` statements.
    var creates: [String] = []
    /// Existing indexes to drop, by name.
    var drops: [String] = []

    var changeCount: Int { creates.count + drops.count }
}

/// The workload's cost with one configuration in place, measured on the benchmark's copy of the store.
struct ConfigurationMeasurement {
    /// Σ count × median seconds per execution, over the reads.
    var readSeconds: Double
    /// The same over the writes (each execution rolled back, only the statement timed).
    var writeSeconds: Double
    var totalSeconds: Double { readSeconds + writeSeconds }
    /// Indexes added and dropped, and the net bytes of that change (used pages after − before × page size).
    var indexesAdded: Int
    var indexesDropped: Int
    var bytesAdded: Int64
    var buildSeconds: Double
    /// Distinct read statements whose plan still has a full table scan / a temp B-tree sort.
    var fullScansLeft: Int
    var sortsLeft: Int
    /// Reads that must not scan (``AdviceStore/mustNotScan``) but do.
    var forbiddenScans: [String]
    /// Count × median seconds of each workload entry, in ``AdviceStore/entries`` order.
    var entrySeconds: [Double]
}

/// Applies configurations to a private copy of a benchmark store, times the workload, and reverts them.
final class WorkloadEvaluator {
    let store: AdviceStore
    let connection: SQLiteConnection
    /// Timed runs per statement (after one warm-up).
    let runs: Int
    /// The private copy of the store.
    let copy: URL
    private var prepared: [String: SQLiteStatement] = [:]

    /// Copies `store` into `directory` as `evaluated-<name><suffix>.sqlite` (a suffix lets several copies of
    /// one store be open at once).
    init(store: AdviceStore, copyIn directory: URL, runs: Int, suffix: String = "") throws {
        self.store = store
        self.runs = runs
        copy = directory.appendingPathComponent("evaluated-\(store.name)\(suffix).sqlite")
        for extra in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + extra) }
        try FileManager.default.copyItem(at: store.url, to: copy)
        connection = try SQLiteConnection(path: copy.path, mode: .readWrite)
        try connection.execute("PRAGMA journal_mode = WAL")
    }

    /// Removes the copy's files (the connection must be the last use of this evaluator).
    func removeCopy() {
        prepared.removeAll()
        for extra in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + extra) }
    }

    /// A configuration in place: what to undo.
    struct Applied {
        var added: Set<String>
        var restore: [String]
        var buildSeconds: Double
        var bytes: Int64
    }

    /// Makes `configuration`'s changes on the copy.
    /// - Throws: ``SQLiteError`` when a change cannot be made.
    func apply(_ configuration: IndexConfiguration) throws -> Applied {
        let pagesBefore = try usedPages()
        let indexesBefore = try indexNames()
        var restore: [String] = []
        let start = DispatchTime.now().uptimeNanoseconds
        for name in configuration.drops {
            guard let sql = try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(name)]),
                  case .text(let definition) = sql else { continue }
            try connection.execute("DROP INDEX \(SQLIdentifier.quote(name))")
            restore.append(definition)
        }
        // In the migration's order (the advisor's rule, IndexOrder.migrationOrder): of a full and a partial
        // index on one key the planner rates equal it takes the newer, so every configuration is built in the
        // order that lets the partial one win. `table(columns)` is the table and key.
        let ordered = IndexOrder.migrationOrder(configuration.creates, key: { IndexConfiguration.key($0).prefix { $0 != ")" }.lowercased() },
                                                isPartial: { $0.range(of: ") WHERE ", options: .caseInsensitive) != nil })
        for create in ordered {
            try connection.execute(create)
        }
        let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let added = try indexNames().subtracting(indexesBefore)
        // On a store that keeps sqlite_stat1, every configuration's new indexes get their statistics, as the
        // advisor's migration does (`ANALYZE "name"`): an index without them is planned on defaults.
        if try keepsStatistics() {
            for name in added.sorted() { try connection.execute("ANALYZE \(SQLIdentifier.quote(name))") }
        }
        prepared.removeAll()  // plans change with the schema
        return Applied(added: added, restore: restore, buildSeconds: buildSeconds,
                       bytes: (try usedPages() - pagesBefore) * (try pageSize()))
    }

    /// True when the copy has a `sqlite_stat1` table.
    func keepsStatistics() throws -> Bool {
        try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'")?.integerValue ?? 0 > 0
    }

    /// Undoes what ``apply(_:)`` did.
    func revert(_ applied: Applied) {
        prepared.removeAll()
        for name in applied.added { try? connection.execute("DROP INDEX \(SQLIdentifier.quote(name))") }
        for definition in applied.restore { try? connection.execute(definition) }
        // DROP INDEX removed the dropped indexes' statistics; put them back as they were measured.
        if (try? keepsStatistics()) == true, !applied.restore.isEmpty { try? connection.execute("ANALYZE") }
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Read times by statement and plan, for ``measureApplied(applied:cachingReads:)``.
    private var readCache: [String: Double] = [:]

    /// Applies `configuration`, measures the workload, and reverts it.
    /// - Throws: ``SQLiteError`` when a change cannot be applied or a statement fails.
    func measure(_ configuration: IndexConfiguration) throws -> ConfigurationMeasurement {
        let applied = try apply(configuration)
        defer { revert(applied) }
        return try measureApplied(applied: applied, cachingReads: false)
    }

    /// Measures the workload with what is applied now. With `cachingReads`, a read whose plan (every
    /// step, with index names) was timed before under another configuration keeps that time: the search
    /// over many configurations times each plan once.
    func measureApplied(applied: Applied, cachingReads: Bool) throws -> ConfigurationMeasurement {
        var entrySeconds: [Double] = []
        for entry in store.entries {
            let seconds: Double
            if cachingReads, !entry.isWrite {
                let plan = try connection.query("EXPLAIN QUERY PLAN " + entry.sql).map { row in
                    row.map { value -> String in if case .text(let text) = value { return text } else { return "\(value)" } }.joined(separator: " ")
                }.joined(separator: "\n")
                let key = entry.sql + "\u{1}" + plan
                if let cached = readCache[key] {
                    seconds = cached
                } else {
                    seconds = try time(entry)
                    readCache[key] = seconds
                }
            } else {
                seconds = try time(entry)
            }
            entrySeconds.append(seconds * Double(entry.count))
        }
        return measurement(applied: applied, entrySeconds: entrySeconds, facts: try planFacts())
    }

    /// The measurement made of `entrySeconds` (count × median seconds of each entry, in
    /// ``AdviceStore/entries`` order) with `applied` in place and the plans' `facts` (``planFacts()``).
    func measurement(applied: Applied, entrySeconds: [Double], facts: (scans: Int, sorts: Int, forbidden: [String])) -> ConfigurationMeasurement {
        var read = 0.0, write = 0.0
        for (entry, seconds) in zip(store.entries, entrySeconds) {
            if entry.isWrite { write += seconds } else { read += seconds }
        }
        return ConfigurationMeasurement(readSeconds: read, writeSeconds: write, indexesAdded: applied.added.count, indexesDropped: applied.restore.count,
                                        bytesAdded: applied.bytes, buildSeconds: applied.buildSeconds, fullScansLeft: facts.scans, sortsLeft: facts.sorts,
                                        forbiddenScans: facts.forbidden, entrySeconds: entrySeconds)
    }

    /// The plans of the store's distinct reads as the copy is now: how many have a full table scan and how
    /// many a temp B-tree sort, and the reads that must not scan (``AdviceStore/mustNotScan``) but do. Plans
    /// only, no timing: a deterministic fact.
    func planFacts() throws -> (scans: Int, sorts: Int, forbidden: [String]) {
        var scans = 0, sorts = 0
        var forbidden: [String] = []
        for sql in store.distinctReads {
            let details = try connection.query("EXPLAIN QUERY PLAN " + sql).compactMap { row -> String? in
                if case .text(let detail)? = row.last { return detail }
                return nil
            }
            let scan = details.contains { $0.hasPrefix("SCAN ") && !$0.contains(" USING ") }
            if scan {
                scans += 1
                if store.mustNotScan.contains(where: { sql.hasPrefix($0) }) { forbidden.append(sql) }
            }
            if details.contains(where: { $0.contains("USE TEMP B-TREE") }) { sorts += 1 }
        }
        return (scans, sorts, forbidden)
    }

    /// Every distinct read's query plan (its `EXPLAIN QUERY PLAN` details, one line per read) with
    /// `configuration` applied, each index it creates named by its key (`table(columns…)`), so that two
    /// configurations that create the same indexes under other names plan alike (plans only; reverted after).
    func readPlans(with configuration: IndexConfiguration) throws -> [String] {
        let applied = try apply(configuration)
        defer { revert(applied) }
        let names = configuration.creates.compactMap { create -> (String, String)? in
            guard let name = IndexConfiguration.name(create) else { return nil }
            return (name, IndexConfiguration.key(create))
        }
        return try store.distinctReads.map { sql in
            try connection.query("EXPLAIN QUERY PLAN " + sql).compactMap { row -> String? in
                guard case .text(let detail)? = row.last else { return nil }
                // "… USING [COVERING] INDEX name (a=?)" or "… INDEX name" at the end of the line.
                return names.reduce(detail) { line, index in
                    var line = line.replacingOccurrences(of: " INDEX \(index.0) (", with: " INDEX <\(index.1)> (")
                    if line.hasSuffix(" INDEX \(index.0)") { line = String(line.dropLast(index.0.count)) + "<\(index.1)>" }
                    return line
                }
            }.joined(separator: "; ")
        }
    }

    /// The reads that must not scan but do with `configuration` applied (plans only; reverted after).
    func forbiddenScans(with configuration: IndexConfiguration) throws -> [String] {
        let applied = try apply(configuration)
        defer { revert(applied) }
        return try planFacts().forbidden
    }

    /// The seconds of one execution of `entry`, the fastest of `runs` timed runs (after a warm-up; fast
    /// statements grouped so that a timed run lasts about a millisecond), with what is applied now.
    func time(_ entry: WorkloadEntry) throws -> Double {
        let statement: SQLiteStatement
        if let cached = prepared[entry.sql] {
            statement = cached
        } else {
            statement = try connection.prepare(entry.sql)
            prepared[entry.sql] = statement
        }
        func once() throws -> Double {
            if entry.isWrite {
                try connection.execute("SAVEPOINT bench")
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try statement.run()
                let elapsed = DispatchTime.now().uptimeNanoseconds - start
                try connection.execute("ROLLBACK TO bench; RELEASE bench")
                return Double(elapsed) / 1e9
            }
            let start = DispatchTime.now().uptimeNanoseconds
            while try statement.step() {}
            statement.reset()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        // Warm up, then group fast statements so that a timed run lasts about a millisecond.
        let first = try once()
        let group = max(1, min(200, Int(0.001 / max(first, 1e-7))))
        var samples: [Double] = []
        for _ in 0..<runs {
            var sum = 0.0
            for _ in 0..<group { sum += try once() }
            samples.append(sum / Double(group))
        }
        // The fastest run: on a shared machine a run is only ever slowed by what else runs, so the least
        // disturbed one is the statement's own cost. The median kept some of the load: one configuration's
        // indexes, timed against the same indexes under another name (case 09, ours and .expert's set),
        // came out 1.14 times slower over nine rounds at a load of 3 to 5.
        return samples.min() ?? 0
    }

    private func indexNames() throws -> Set<String> {
        Set(try connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").compactMap { row -> String? in
            if case .text(let name)? = row.first { return name }
            return nil
        })
    }

    private func usedPages() throws -> Int64 {
        func integer(_ sql: String) throws -> Int64 {
            if case .integer(let value)? = try connection.scalar(sql) { return value }
            return 0
        }
        return try integer("PRAGMA page_count") - integer("PRAGMA freelist_count")
    }

    private func pageSize() throws -> Int64 {
        if case .integer(let value)? = try connection.scalar("PRAGMA page_size") { return value }
        return 4096
    }
}
