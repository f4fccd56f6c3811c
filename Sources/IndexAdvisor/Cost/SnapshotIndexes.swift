import Foundation

/// The indexes on the private snapshot, as a configuration: the store's own (each kept or dropped) and the
/// candidates built, each table's in the order the migration leaves them (the store's indexes in the store's
/// order, then the candidates in the configuration's). ``bring(to:)`` changes only what differs and rebuilds
/// only candidates the order requires (a store index is hidden and put back, never rebuilt); on a store that keeps `sqlite_stat1`, a candidate built gets its own rows
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

    /// Makes the snapshot hold `configuration`: its candidates built with every store index there, then the
    /// store indexes it drops hidden (``StoreSnapshot/holdDrops(_:)``),
    /// so a store index is never built again and its pages stay the store's (issue 39, F2).
    /// - Throws: ``StoreError/snapshotWriteFailed(directory:sql:error:)`` when the folder is full or failing,
    ///   ``StoreError/snapshotStateLost(directory:sql:error:)`` when an index cannot be dropped or made again,
    ///   ``UnmeasurableStatement`` when a candidate does not build (it is recorded in ``buildFailures``).
    func bring(to configuration: IndexConfiguration) throws {
        guard configuration != current else { return }
        let drops = schema.tables.flatMap(\.indexes).filter { configuration.isDropped($0.name) }.map(\.name)
        let tables = Set(configuration.added.map { $0.table.sqlFolded } + current.added.map { $0.table.sqlFolded })
        let changing = schema.tables.filter { table in
            tables.contains(table.name.sqlFolded)
                && configuration.added(on: table.name).map(\.key) != current.added(on: table.name).map(\.key)
        }
        if !changing.isEmpty {
            try snapshot.releaseDrops()
            var statisticsChanged = false
            for table in changing { statisticsChanged = try arrange(table, as: configuration) || statisticsChanged }
            if statisticsChanged, schema.hasStatistics { _ = try? snapshot.connection.execute("ANALYZE sqlite_schema") }
        }
        current = configuration
        snapshot.checkpoint()
        try snapshot.holdDrops(drops)
    }

    /// Puts `table`'s candidates in the order `configuration` wants, after every store index (none is held out
    /// here): what should not be there dropped, and from the first index out of order on, each built again (or
    /// for the first time). True when store statistics were put back (a store index out of order, which only an
    /// earlier rebuild elsewhere leaves).
    private func arrange(_ table: Table, as configuration: IndexConfiguration) throws -> Bool {
        let connection = snapshot.connection
        let wanted: [(name: String, sql: String, candidate: IndexCandidate?)] =
            table.indexes.filter { $0.sql != nil }.map { ($0.name, $0.sql!, nil) }
            + configuration.added(on: table.name).map { (name(of: $0), $0.createSQL(name: name(of: $0)), $0) }
        let wantedNames = Set(wanted.map { $0.name.sqlFolded })
        let existing = IndexOrder.indexes(onTable: table.name, in: connection)
        for index in existing where !wantedNames.contains(index.name.sqlFolded) { try execute("DROP INDEX \(SQLIdentifier.quote(index.name))") }
        let kept = existing.map(\.name).filter { wantedNames.contains($0.sqlFolded) }
        let first = Array(zip(kept, wanted)).firstIndex { $0.0.sqlFolded != $0.1.name.sqlFolded } ?? kept.count
        var restoredStatistics = false
        for index in wanted[first...] {
            if kept.contains(where: { $0.sqlFolded == index.name.sqlFolded }) { try execute("DROP INDEX \(SQLIdentifier.quote(index.name))") }
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                try connection.execute(index.sql)
            } catch let error as SQLiteError where error.code == .full || error.code == .ioError {
                throw StoreError.snapshotWriteFailed(directory: snapshot.directory.url.path, sql: index.sql, error: error)
            } catch let error as SQLiteError {
                guard let candidate = index.candidate else { throw StoreError.snapshotStateLost(directory: snapshot.directory.url.path, sql: index.sql, error: error) }
                buildFailures[candidate.key] = error.description
                throw UnmeasurableStatement("\(candidate.createSQL(name: index.name)) does not build: \(error)")
            }
            if let candidate = index.candidate {
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                clock?.addCandidateBuild(seconds)
                if buildSeconds[candidate.key] == nil {
                    buildSeconds[candidate.key] = seconds
                    onFirstBuild(buildSeconds.count)
                    bytes[candidate.key] = (try? connection.scalar("SELECT sum(pgsize) FROM dbstat WHERE name = ?", [.text(index.name)])?.integerValue) ?? nil
                }
                if schema.hasStatistics { try execute("ANALYZE \(SQLIdentifier.quote(index.name))") }
            } else if let rows = savedStatistics[index.name.sqlFolded] {
                for row in rows { try execute("INSERT INTO sqlite_stat1 VALUES (\(row.map { $0.sqlLiteral }.joined(separator: ", ")))") }
                restoredStatistics = true
            }
        }
        return restoredStatistics
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
