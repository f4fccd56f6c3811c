import Foundation

/// The indexes on the private snapshot, as a configuration: the store's own (each kept or dropped) and the
/// candidates built, each table's in the order the migration leaves them (the store's indexes in the store's
/// order, then the candidates in the configuration's). ``bring(to:)`` changes only what differs and rebuilds
/// only candidates the order requires (a store index, and a candidate built once, is hidden and put back); on a store that keeps `sqlite_stat1`, a candidate built gets its own rows
/// (`ANALYZE "name"`) and a store index built again gets the store's back (https://sqlite.org/lang_analyze.html).
final class SnapshotIndexes {
    let snapshot: StoreSnapshot
    let schema: Schema
    /// Candidate key → the name it is built under (the name the report gives it).
    private(set) var names: [String: String] = [:]
    /// Folded name → candidate key, for reading plans.
    private var keysByName: [String: String] = [:]
    /// The configuration the snapshot holds.
    private(set) var current = IndexConfiguration.store
    /// Each table's (folded name) candidates on the snapshot, shown or hidden, by key, in the order they were built.
    private(set) var built: [String: [String]] = [:]
    /// At most this many bytes of candidates are kept built at once (the room ``IndexSpaceCheck`` found for
    /// them): past it, the ones the configuration leaves out are dropped. Nil: no limit but the folder's.
    var builtBytesLimit: Int64?
    /// Seconds each candidate took to build, and its size, the first time it was built.
    private(set) var buildSeconds: [String: Double] = [:]
    private(set) var bytes: [String: Int64] = [:]
    /// Candidates that failed to build, with SQLite's message.
    private(set) var buildFailures: [String: String] = [:]
    let savedStatistics: [String: [[SQLValue]]]
    let name: (IndexCandidate, Set<String>) -> String
    private let storeTables: [String: String]
    /// Where candidate builds are added up, and called with the number of distinct candidates built so far.
    var clock: StageClock?
    var onFirstBuild: (Int) -> Void = { _ in }

    /// - Parameter name: the name to build a candidate under, given the names already taken.
    init(snapshot: StoreSnapshot, schema: Schema, savedStatistics: [String: [[SQLValue]]], name: @escaping (IndexCandidate, Set<String>) -> String) {
        self.snapshot = snapshot
        self.schema = schema
        self.savedStatistics = savedStatistics
        self.name = name
        var tables: [String: String] = [:]
        for table in schema.tables { for index in table.indexes { tables[index.name.sqlFolded] = table.name.sqlFolded } }
        storeTables = tables
    }

    func tableOfStoreIndex(_ folded: String) -> String? { storeTables[folded] }

    /// The name `candidate` is (or will be) built under.
    func name(of candidate: IndexCandidate) -> String {
        if let known = names[candidate.key] { return known }
        let taken = Set(names.values.map(\.sqlFolded)).union(storeTables.keys)
        let chosen = name(candidate, taken)
        names[candidate.key] = chosen
        keysByName[chosen.sqlFolded] = candidate.key
        return chosen
    }

    func ref(ofIndexNamed name: String) -> IndexRef {
        keysByName[name.sqlFolded].map(IndexRef.candidate) ?? .store(name.sqlFolded)
    }

    /// The indexes on `tables` under `configuration`, as one comparable string (a write's upkeep depends on it).
    func present(on tables: Set<String>, under configuration: IndexConfiguration) -> String {
        let store = storeTables.filter { tables.contains($0.value) && !configuration.isDropped($0.key) }.keys.sorted()
        let added = configuration.added.filter { tables.contains($0.table.sqlFolded) }.map(\.key)
        return (store + added).joined(separator: ",")
    }

    /// Makes the snapshot hold `configuration`. A candidate is built once: one the configuration leaves out is
    /// hidden like a store index the configuration drops (``StoreSnapshot/holdDrops(_:)``), and comes back by
    /// showing it again, its pages as they were. On a table whose wanted candidates are not already built in the
    /// configuration's order, every hidden index comes back first, then the first candidate out of order and
    /// each after it is built again (or for the first time) behind the others (issue 40, item 2: the demo's
    /// selection built its 16 candidates 75 times, 6.0 s of an 11.6 s analysis).
    /// - Throws: ``StoreError/snapshotWriteFailed(directory:sql:error:)`` when the folder is full or failing,
    ///   ``StoreError/snapshotStateLost(directory:sql:error:)`` when an index cannot be dropped or made again,
    ///   ``UnmeasurableStatement`` when a candidate does not build (it is recorded in ``buildFailures``).
    func bring(to configuration: IndexConfiguration) throws {
        guard configuration != current else { return }
        let changing = schema.tables.filter { table in
            !Self.isInOrder(configuration.added(on: table.name).map(\.key), within: built[table.name.sqlFolded] ?? [])
        }
        if !changing.isEmpty {
            try snapshot.releaseDrops()
            var statisticsChanged = false
            for table in changing { statisticsChanged = try arrange(table, as: configuration) || statisticsChanged }
            if statisticsChanged, schema.hasStatistics { _ = try? snapshot.connection.execute("ANALYZE sqlite_schema") }
        }
        current = configuration
        snapshot.checkpoint()
        try snapshot.holdDrops(hidden(under: configuration))
    }

    /// Retires every candidate built that `current` leaves out, so that the snapshot holds nothing hidden but
    /// the store indexes it drops: called when the selection is over, before any other code changes indexes.
    /// They stay hidden for good (``StoreSnapshot/abandonHidden(_:)``), their pages off the freelist, except on
    /// an auto-vacuum file, where they are dropped: there a later drop moves root pages and truncates the file
    /// (the freelist is emptied at each commit in full mode), and no page should be left that no schema row names.
    /// - Throws: ``StoreError/snapshotStateLost(directory:sql:error:)`` when one cannot be dropped.
    func retireHiddenCandidates() throws {
        let wanted = Set(current.added.map(\.key))
        guard built.values.contains(where: { $0.contains { !wanted.contains($0) } }) else { return }
        if (try? snapshot.connection.scalar("PRAGMA auto_vacuum"))?.integerValue ?? 0 != 0 {
            try snapshot.releaseDrops()
            try dropUnwanted(for: current)
            snapshot.checkpoint()
            try snapshot.holdDrops(hidden(under: current))
            return
        }
        var abandoned: [String] = []
        for (table, keys) in built {
            abandoned += keys.filter { !wanted.contains($0) }.compactMap { names[$0] }
            built[table] = keys.filter { wanted.contains($0) }
        }
        snapshot.abandonHidden(abandoned)
    }

    /// True when `wanted` (candidate keys) appear in `built` in the same order, others between them allowed.
    static func isInOrder(_ wanted: [String], within built: [String]) -> Bool {
        var next = wanted.makeIterator()
        var looking = next.next()
        for key in built where key == looking { looking = next.next() }
        return looking == nil
    }

    /// The indexes to hide under `configuration`: the store's it drops and the candidates built that it leaves out.
    private func hidden(under configuration: IndexConfiguration) -> [String] {
        let wanted = Set(configuration.added.map(\.key))
        let candidates = built.values.flatMap { $0 }.filter { !wanted.contains($0) }.compactMap { names[$0] }.sorted()
        return schema.tables.flatMap(\.indexes).filter { configuration.isDropped($0.name) }.map(\.name) + candidates
    }

    /// Drops `table`'s built candidates whose keys are not in `wanted` (every index shown).
    private func dropBuilt(on table: Table, except wanted: Set<String>) throws {
        let folded = table.name.sqlFolded
        for key in built[folded] ?? [] where !wanted.contains(key) {
            if let name = names[key] { try execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(name))") }
            built[folded]?.removeAll { $0 == key }
        }
    }

    /// Puts `table`'s candidates in the order `configuration` wants, after every store index (none is held out
    /// here; the candidates it leaves out stay, to be hidden): the wanted indexes already in order are kept, and
    /// from the first that is not on, each is built again (or for the first time) behind them. When the folder is full, the candidates it leaves out are dropped
    /// and the build tried once more. True when store statistics were put back (a store index out of order,
    /// which only an earlier rebuild elsewhere leaves).
    private func arrange(_ table: Table, as configuration: IndexConfiguration) throws -> Bool {
        let connection = snapshot.connection
        let folded = table.name.sqlFolded
        let wanted: [(name: String, sql: String, candidate: IndexCandidate?)] =
            table.indexes.filter { $0.sql != nil }.map { ($0.name, $0.sql!, nil) }
            + configuration.added(on: table.name).map { (name(of: $0), $0.createSQL(name: name(of: $0)), $0) }
        let wantedNames = Set(wanted.map { $0.name.sqlFolded })
        let builtNames = Set((built[folded] ?? []).compactMap { names[$0]?.sqlFolded })
        let existing = IndexOrder.indexes(onTable: table.name, in: connection)
        for index in existing where !wantedNames.contains(index.name.sqlFolded) && !builtNames.contains(index.name.sqlFolded) {
            try execute("DROP INDEX \(SQLIdentifier.quote(index.name))")
        }
        let kept = existing.map(\.name).filter { wantedNames.contains($0.sqlFolded) }
        // The wanted indexes already in order, others between them allowed: the first `first` of them.
        var first = 0
        for name in kept where first < wanted.count && name.sqlFolded == wanted[first].name.sqlFolded { first += 1 }
        var restoredStatistics = false
        for index in wanted[first...] {
            if kept.contains(where: { $0.sqlFolded == index.name.sqlFolded }) { try execute("DROP INDEX \(SQLIdentifier.quote(index.name))") }
            if let candidate = index.candidate { built[folded]?.removeAll { $0 == candidate.key } }
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                try build(index.sql, for: configuration)
            } catch let error as SQLiteError where error.code == .full || error.code == .ioError {
                throw StoreError.snapshotWriteFailed(directory: snapshot.directory.url.path, sql: index.sql, error: error)
            } catch let error as SQLiteError {
                guard let candidate = index.candidate else { throw StoreError.snapshotStateLost(directory: snapshot.directory.url.path, sql: index.sql, error: error) }
                buildFailures[candidate.key] = error.description
                throw UnmeasurableStatement("\(candidate.createSQL(name: index.name)) does not build: \(error)")
            }
            if let candidate = index.candidate {
                built[folded, default: []].append(candidate.key)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                clock?.addCandidateBuild(seconds)
                if buildSeconds[candidate.key] == nil {
                    buildSeconds[candidate.key] = seconds
                    onFirstBuild(buildSeconds.count)
                    bytes[candidate.key] = (try? connection.scalar("SELECT sum(pgsize) FROM dbstat WHERE name = ?", [.text(index.name)])?.integerValue) ?? nil
                }
                if let limit = builtBytesLimit, builtBytes > limit { try dropUnwanted(for: configuration) }
                if schema.hasStatistics { try execute("ANALYZE \(SQLIdentifier.quote(index.name))") }
            } else if let rows = savedStatistics[index.name.sqlFolded] {
                for row in rows { try execute("INSERT INTO sqlite_stat1 VALUES (\(row.map { $0.sqlLiteral }.joined(separator: ", ")))") }
                restoredStatistics = true
            }
        }
        return restoredStatistics
    }

    /// Runs `sql` (a `CREATE INDEX`); when the folder or the page limit is full and candidates `configuration`
    /// leaves out are kept built, drops those and runs it once more.
    private func build(_ sql: String, for configuration: IndexConfiguration) throws {
        do {
            try snapshot.connection.execute(sql)
        } catch let error as SQLiteError where error.code == .full {
            guard try dropUnwanted(for: configuration) else { throw error }
            try snapshot.connection.execute(sql)
        }
    }

    /// Bytes of the candidates built, shown or hidden, as first measured.
    private var builtBytes: Int64 { built.values.joined().reduce(0) { $0 + (bytes[$1] ?? 0) } }

    /// Drops every table's built candidates `configuration` leaves out (every index shown); true when there were any.
    @discardableResult
    private func dropUnwanted(for configuration: IndexConfiguration) throws -> Bool {
        let wanted = Set(configuration.added.map(\.key))
        guard built.values.contains(where: { $0.contains { !wanted.contains($0) } }) else { return false }
        for table in schema.tables { try dropBuilt(on: table, except: wanted) }
        return true
    }

    private func execute(_ sql: String) throws {
        do { try snapshot.connection.execute(sql) } catch let error as SQLiteError {
            if error.code == .full || error.code == .ioError {
                throw StoreError.snapshotWriteFailed(directory: snapshot.directory.url.path, sql: sql, error: error)
            }
            throw StoreError.snapshotStateLost(directory: snapshot.directory.url.path, sql: sql, error: error)
        }
    }
}
