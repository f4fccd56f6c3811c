/// What a schema finding found, with the data its sentences name beyond the finding's own table, columns
/// and index (``SchemaFinding/detail``); the words are the renderers' (``SchemaFinding/advice``).
public enum SchemaFindingDetail: Sendable, Equatable {
    /// The store has no `sqlite_stat1`; on a Core Data store that is normal.
    case noStatistics(isCoreData: Bool)
    /// A table of `rows` rows with no index besides its rowid.
    case tableWithoutIndex(rows: Int)
    /// A Core Data hierarchy table of `entities` entities whose `Z_ENT` index (the finding's) can attract plans.
    case hierarchyIndex(entities: Int)
    /// The finding's index is a left prefix of `wider` (with `widerColumns`); `caveat`, why not to drop it.
    case redundantIndex(wider: String, widerColumns: [String], caveat: DropCaveat?)
    /// The finding's column refers to `target` (how: ``ReferenceKind``) and has no index.
    case unindexedReference(target: String, kind: ReferenceKind)
    /// The finding's UNIQUE index enforces its columns' uniqueness.
    case uniqueRule
    /// The finding's column is present and distinct on all `rows` rows and named like an identifier.
    case identityColumn(rows: Int, next: IdentityAdvice)
    /// A finding read back from a JSON report, in its words.
    case other(String)
}

/// How a column refers to another table.
public enum ReferenceKind: Sendable, Equatable {
    /// A declared foreign key.
    case foreignKey
    /// A Core Data to-one relationship column (Core Data indexes these itself).
    case toOneRelationship
    /// Named like a reference (`author_id` to `author`).
    case namedLikeReference
}

/// What to do about an identity-like column.
public enum IdentityAdvice: Sendable, Equatable {
    /// The store syncs with CloudKit, which forbids unique constraints.
    case cloudKitForbids
    /// Declare it unique on the entity (`#Unique`).
    case declareOn(entity: String)
    /// Not a plain SQLite table, and no `#Unique` can name it: nothing more to say.
    case nothing
    /// A UNIQUE index would keep it so.
    case uniqueIndex
}
