/// The words of a ``SchemaFinding``, as the schema review prints them, and the finding's JSON form.
extension SchemaFinding: Codable {
    /// What was found and what to do.
    public var advice: String {
        let index = self.index ?? ""
        switch detail {
        case .noStatistics(let isCoreData):
            return isCoreData
                ? "The store has no sqlite_stat1, as Core Data stores normally do: SQLite picks indexes from the schema alone, so an index's shape decides whether it is used."
                : "The store has no sqlite_stat1: SQLite picks indexes from the schema alone. Running ANALYZE gives it statistics; check the plans of the app's statements then (analyse the store with a workload to see what they change)."
        case .tableWithoutIndex(let rows):
            return "\(Figures.count(rows)) rows and no index besides the rowid: every lookup by another column reads the whole table. Capture a workload to see which lookups the app makes."
        case .hierarchyIndex(let entities):
            return "\(table) holds \(entities) entities told apart by Z_ENT. Without statistics SQLite may prefer \(index) (Z_ENT = ?) for a fetch of one sub-entity even when another index is far more selective; a compound index that starts with the fetch's selective column avoids that."
        case .redundantIndex(let wider, let widerColumns, let caveat):
            return "\(index) (\(columns.joined(separator: ", "))) is a left prefix of \(wider) (\(widerColumns.joined(separator: ", "))), which serves the same lookups; every insert, delete and update of its columns maintains both."
                + (caveat.map { " Not to drop: \($0.text)." } ?? "")
        case .unindexedReference(let target, let kind):
            let column = columns.first ?? ""
            let why: String
            switch kind {
            case .foreignKey: why = "a declared foreign key"
            case .toOneRelationship: why = "a to-one relationship (Core Data indexes these itself, as \(table)_\(column)_INDEX)"
            case .namedLikeReference: why = "named like a reference to \(target)"
            }
            return "\(column) is \(why) to \(target), with no index: SQLite does not create one for you, so fetching \(table) rows of one \(target) (and the foreign-key check when a row of \(target) is deleted) reads the whole table."
        case .uniqueRule:
            return "\(index) enforces uniqueness of (\(columns.joined(separator: ", "))); the data cannot break it."
        case .identityColumn(let rows, let next):
            let found = "\(columns.first ?? "") is present and distinct on all \(Figures.count(rows)) rows and named like an identifier, but no unique rule says so."
            switch next {
            case .cloudKitForbids: return found + " The store syncs with CloudKit, which does not allow unique constraints: keep it unique in code."
            case .declareOn(let entity): return found + " If it identifies a \(entity), declaring it unique lets SwiftData upsert by it."
            case .nothing: return found
            case .uniqueIndex: return found + " A UNIQUE index would keep it so and serve lookups by it."
            }
        case .other(let words):
            return words
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, table, columns, index, bytes, advice, sql, measurements, swiftDataUnique
    }

    /// Read back from a JSON report: the advice in its words.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try container.decode(Kind.self, forKey: .kind), table: try container.decode(String.self, forKey: .table),
                  columns: try container.decode([String].self, forKey: .columns),
                  index: try container.decodeIfPresent(String.self, forKey: .index),
                  bytes: try container.decodeIfPresent(Int64.self, forKey: .bytes),
                  detail: .other(try container.decode(String.self, forKey: .advice)),
                  sql: try container.decodeIfPresent(String.self, forKey: .sql),
                  measurements: try container.decode([SchemaMeasurement].self, forKey: .measurements),
                  swiftDataUnique: try container.decodeIfPresent(String.self, forKey: .swiftDataUnique))
    }

    /// In a JSON report: the fields it always had, the advice in words.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeFields([.kind: kind, .table: table, .columns: columns, .index: index, .bytes: bytes, .advice: advice,
                                    .sql: sql, .measurements: measurements, .swiftDataUnique: swiftDataUnique])
    }
}
