import Foundation
import IndexAdvisor

/// A private copy of a pair's store that configurations are built on: it holds the store's indexes and
/// a chosen set of candidates, brought from one configuration to the next by the difference (an index
/// already there is not built again). On a store that keeps `sqlite_stat1`, each index built gets its
/// statistics (`ANALYZE "name"`), as a migration that follows the advice would; a store index dropped and
/// built again gets its own rows back.
package final class WorkCopy {
    package let url: URL
    package let connection: SQLiteConnection
    let indexes: StoreIndexes
    /// The store's indexes' `sqlite_stat1` rows, by index.
    private var storeStatistics: [String: [[SQLValue]]] = [:]
    /// Candidates built now (name → definition) and store indexes dropped now.
    private(set) var built: [String: String] = [:]
    private(set) var dropped: Set<String> = []
    /// Seconds each candidate took to build, and its size in bytes, the last time it was built.
    package private(set) var buildSeconds: [String: Double] = [:]
    package private(set) var bytes: [String: Int64] = [:]

    /// Copies `store` to `url` (replacing a file there).
    /// - Throws: a file system error, or ``SQLiteError`` when the copy does not open.
    package init(store: URL, at url: URL, indexes: StoreIndexes, statements: [PairStatement] = []) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: store, to: url)
        self.url = url
        self.indexes = indexes
        connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        StandIns.install(on: connection, for: statements)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        if indexes.hasStatistics {
            for row in try connection.query("SELECT tbl, idx, stat FROM sqlite_stat1") {
                if let name = row[1].textValue { storeStatistics[name, default: []].append(row) }
            }
        }
    }

    /// Closes nothing (the connection closes when released) and removes the copy's files.
    package func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// Brings the copy to `creates` (name → `CREATE INDEX`, built in `order`) with the store's indexes in
    /// `drops` dropped and every other store index in place.
    /// - Throws: ``SQLiteError`` when an index cannot be built or dropped.
    package func set(creates: [String: String], order: [String], drops: Set<String>) throws {
        var statisticsChanged = false
        for name in built.keys.sorted() where creates[name] != built[name] {
            try connection.execute("DROP INDEX \(SQLQuote.identifier(name))")
            built[name] = nil
        }
        for name in dropped.subtracting(drops).sorted() {
            guard let sql = indexes.indexes.first(where: { $0.name == name })?.sql else { continue }
            try connection.execute(sql)
            for row in storeStatistics[name] ?? [] {
                try connection.execute("INSERT INTO sqlite_stat1 VALUES (\(row.map(\.sqlLiteral).joined(separator: ", ")))")
                statisticsChanged = true
            }
            dropped.remove(name)
        }
        for name in drops.subtracting(dropped).sorted() {
            try connection.execute("DROP INDEX \(SQLQuote.identifier(name))")
            dropped.insert(name)
        }
        for name in order where creates[name] != nil && built[name] == nil {
            let sql = creates[name]!
            let start = DispatchTime.now().uptimeNanoseconds
            try connection.execute(sql)
            buildSeconds[name] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if let size = try connection.scalar("SELECT sum(pgsize) FROM dbstat WHERE name = ?", [.text(name)])?.integerValue { bytes[name] = size }
            if indexes.hasStatistics { try connection.execute("ANALYZE \(SQLQuote.identifier(name))") }
            built[name] = sql
        }
        if statisticsChanged { try connection.execute("ANALYZE sqlite_schema") }
    }

    /// The `sqlite_stat1` and `sqlite_stat4` rows of the index `name` as built now.
    package func statistics(of name: String) throws -> (stat1: [[SQLValue]], stat4: [[SQLValue]]) {
        let stat1 = try connection.query("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE idx = ?", [.text(name)])
        let hasStat4 = try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'")?.integerValue ?? 0 > 0
        let stat4 = hasStat4 ? try connection.query("SELECT tbl, idx, neq, nlt, ndlt, sample FROM sqlite_stat4 WHERE idx = ?", [.text(name)]) : []
        return (stat1, stat4)
    }
}
