/// What the data says about one uniqueness rule. (Its advice in words and its JSON form are in
/// Render/UniquenessVerdictText.swift.)
public struct UniquenessFinding: Sendable {
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
    /// What the data says about the rule; ``advice`` is the same in words.
    public var verdict: UniquenessVerdict
    /// Where the app's model already declares the rule (`Note.swift:12`) when the store does not enforce it.
    public var modelDeclaresAt: String? = nil
    /// The uniqueness constraint to declare on a Core Data model's entity, as its property names
    /// (`["regionCode", "name"]`), when the rule holds and would be a `#Unique` on a SwiftData class.
    public var coreDataConstraint: [String]? = nil
    /// The entity whose model declares ``coreDataConstraint``.
    public var coreDataEntity: String? = nil

    /// True when a rule is proposed for the model to declare: a `#Unique` or a Core Data uniqueness constraint.
    public var isProposedForModel: Bool { swiftDataUnique != nil || coreDataConstraint != nil }
}

/// What the data says about one uniqueness rule, for ``UniquenessFinding/verdict``; the rows, values and
/// NULLs it counts are the finding's own.
public enum UniquenessVerdict: Sendable, Equatable {
    /// The store has no such table or columns.
    case notChecked
    /// A UNIQUE index (named) enforces it.
    case enforced(index: String)
    /// The UNIQUE `index` enforces it, but a narrower key of the table (the index `by`, on `columns`, or the
    /// rowid alias) already makes every such tuple unique: redundant as a rule. `tableConstraint` when `index`
    /// backs a UNIQUE or PRIMARY KEY constraint of `CREATE TABLE`, which no `DROP INDEX` removes.
    case implied(index: String, by: String, columns: [String], tableConstraint: Bool)
    /// Rows share their values: the rule would be broken.
    case broken
    /// Unique in the data, but the store syncs with CloudKit, which forbids unique constraints.
    case cloudKitForbids
    /// Looked up like an identifier and unique in the data: declare it, with `#Unique` (`withMacro`) or a UNIQUE index.
    case declareIt(withMacro: Bool)
    /// It holds in the data.
    case holds
    /// A verdict read back from a JSON report, in its words.
    case other(String)
}
