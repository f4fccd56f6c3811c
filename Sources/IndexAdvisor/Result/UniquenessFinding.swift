/// What the data says about one uniqueness rule.
public struct UniquenessFinding: Sendable, Codable {
    public enum Origin: String, Sendable, Codable {
        /// Given by the user (`--unique`) or declared by the app's model.
        case declared
        /// Columns the workload looks up like an identifier; a candidate for `#Unique`.
        case proposed
        /// Enforced by a UNIQUE index in the store: the data cannot break it.
        case enforced
    }

    public var origin: Origin
    public var table: String
    public var columns: [String]
    /// Rows whose (non-NULL) values another row shares: what SwiftData's upsert would merge into fewer rows.
    public var violatingRows: Int
    /// Distinct values (tuples) that occur more than once.
    public var duplicateValues: Int
    /// Rows with a NULL in one of the columns (SQLite's UNIQUE lets NULLs repeat).
    public var nullRows: Int
    public var tableRows: Int
    /// `#Unique<Note>([\.remoteID])`, when the rule holds, the table is an entity's and the store is not synced with CloudKit.
    public var swiftDataUnique: String?
    /// Why the rule is here and what to do, in one or two sentences.
    public var advice: String
}
