import Foundation

/// Index sizes and build times on the snapshot, as they would be on the store; the room candidates need.
extension AnalysisRun {

    /// Each index's size (`dbstat`); for an index of a sampled table, scaled to the store's rows.
    func indexSizes() -> [String: Int64] {
        var sizes: [String: Int64] = [:]
        let rows = (try? snapshot.connection.query("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'")) ?? []
        let tableOf = Dictionary(rows.compactMap { row in row[0].textValue.map { ($0, row[1].textValue ?? "") } },
                                 uniquingKeysWith: { first, _ in first })
        for row in (try? snapshot.connection.query("SELECT name, sum(pgsize) FROM dbstat GROUP BY name")) ?? [] {
            if let name = row[0].textValue, let bytes = row[1].integerValue {
                sizes[name] = tableOf[name].map { storeBytes(bytes, table: $0) } ?? bytes
            }
        }
        return sizes
    }

    /// Fails before any candidate is built when the snapshot's folder has too little room for the indexes
    /// the measurement may hold at once (see ``IndexSpaceCheck``).
    /// - Throws: ``StoreError/insufficientSpaceForIndexes(directory:neededBytes:availableBytes:candidates:)``.
    func checkSpace(for candidates: [IndexCandidate]) throws {
        guard !candidates.isEmpty else { return }
        var check = IndexSpaceCheck(connection: snapshot.connection, schema: schema)
        let needed = check.bytesNeeded(for: candidates, keptAtOnce: min(options.maxNewIndexes, candidates.count))
        let folder = snapshot.directory.url.deletingLastPathComponent()
        guard let free = options.assumedFreeBytes ?? IndexSpaceCheck.freeBytes(in: snapshot.directory.url), free < needed else { return }
        throw StoreError.insufficientSpaceForIndexes(directory: folder.path, neededBytes: needed, availableBytes: free,
                                                    candidates: candidates.count)
    }

    /// The sample `table` was measured on, if it was sampled.
    func sample(of table: String) -> SampledTable? {
        sampledTables.first { $0.table.sqlFolded == table.sqlFolded }
    }

    /// An index's size measured on the snapshot, as it would be on the store (see ``SampledTable/sizeFactor``).
    func storeBytes(_ bytes: Int64, table: String) -> Int64 {
        sample(of: table).map { Int64((Double(bytes) * $0.sizeFactor).rounded()) } ?? bytes
    }

    /// An index's build time measured on the snapshot, as it would be on the store (see ``SampledTable/buildFactor``).
    func storeBuildSeconds(_ seconds: Double, table: String) -> Double {
        sample(of: table).map { seconds * $0.buildFactor } ?? seconds
    }
}
