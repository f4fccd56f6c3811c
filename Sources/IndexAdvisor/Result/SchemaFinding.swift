/// A finding from the schema and the data alone (no workload): nothing here is a claim about how fast the
/// app's statements are, only about what the store holds and what its indexes cost or would save. (Its
/// advice in words and its JSON form are in Render/SchemaFindingText.swift.)
public struct SchemaFinding: Sendable {
    public enum Kind: String, Sendable, Codable {
        /// An index whose columns are a left prefix of another's, or a duplicate.
        case redundantIndex = "redundant-index"
        /// A foreign-key or relationship column with no index that starts with it.
        case unindexedReference = "unindexed-reference"
        /// A column whose values are all present and distinct, named like an identifier, with no unique rule.
        case identityColumn = "identity-column"
        /// A unique rule the store enforces (reported with the data's state).
        case uniqueRule = "unique-rule"
        /// A large table with no index besides its rowid.
        case tableWithoutIndex = "table-without-index"
        /// The store has no `sqlite_stat1`, so plans come from the schema alone.
        case noStatistics = "no-statistics"
        /// A Core Data hierarchy table whose `Z_ENT` index can attract plans on a store without statistics.
        case hierarchyIndex = "hierarchy-index"
    }

    public var kind: Kind
    public var table: String
    public var columns: [String]
    /// The index concerned, when there is one.
    public var index: String?
    /// Its size in bytes (`dbstat`).
    public var bytes: Int64?
    /// What was found, with the data ``advice`` puts in words.
    public var detail: SchemaFindingDetail
    /// SQL to apply the advice (`DROP INDEX …`, `CREATE INDEX …`), when there is one.
    public var sql: String?
    /// Measured operations, each with and without the change, e.g. "lookup by folder_id", "INSERT".
    public var measurements: [SchemaMeasurement] = []
    /// `#Unique<Note>([\.remoteID])`, for an identity column of an entity (never for a CloudKit store).
    public var swiftDataUnique: String?
}

/// One operation timed with and without an index (the change a schema finding proposes).
public struct SchemaMeasurement: Sendable, Codable {
    /// What was timed, e.g. `SELECT * FROM note WHERE folder_id = ?` or `INSERT of a copied row`.
    public var operation: String
    public var withIndex: Timing
    public var withoutIndex: Timing
    /// True when the two differ beyond the noise.
    public var isSignificant: Bool
}
