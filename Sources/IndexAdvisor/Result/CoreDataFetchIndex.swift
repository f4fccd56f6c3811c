/// A Core Data fetch index to declare in the model (the model editor's Indexes, `NSFetchIndexDescription`),
/// for an index recommended on a Core Data entity.
///
/// Core Data names the store's index `Z_<Entity>_<name>` (shared/formats/coredata-sqldebug.md §5: the fetch
/// index `byDateIndex` of `Person` is `Z_Person_byDateIndex`), so the name typed in the model editor is
/// ``name`` and the store's is ``storeIndexName``: the name the SQL migration uses, so that a store
/// migrated by hand holds the index Core Data would build.
public struct CoreDataFetchIndex: Sendable, Codable, Equatable {
    public struct Element: Sendable, Codable, Equatable {
        /// The attribute or to-one relationship (`recordedAt`).
        public var property: String
        /// False for an element sorted descending (`NSFetchIndexElementDescription.isAscending`).
        public var isAscending: Bool

        public init(property: String, isAscending: Bool = true) {
            self.property = property
            self.isAscending = isAscending
        }
    }

    /// The entity that declares it (a sub-entity when only its fetches use it).
    public var entity: String
    /// The name to type in the model editor: `by` and the properties (`bySpeciesCodeRecordedAt`).
    public var name: String
    public var elements: [Element]
    /// An `NSPredicate` format for `partialIndexPredicate` (`destructionDate != nil`), when the index is partial.
    public var partialIndexPredicate: String?

    public init(entity: String, name: String, elements: [Element], partialIndexPredicate: String? = nil) {
        self.entity = entity
        self.name = name
        self.elements = elements
        self.partialIndexPredicate = partialIndexPredicate
    }

    /// `Z_<Entity>_<name>`: the index Core Data builds for it in the store.
    public var storeIndexName: String { Self.storeIndexName(entity: entity, name: name) }

    /// `Z_<Entity>_<name>`.
    public static func storeIndexName(entity: String, name: String) -> String { "Z_\(entity)_\(name)" }

    /// True when `storeName` is `Z_<entity>_<name>`, or that with a number after it (`…Title2`), as the
    /// advice numbers a name another index has.
    public static func isStoreName(_ storeName: String, entity: String, name: String) -> Bool {
        let base = storeIndexName(entity: entity, name: name)
        return storeName.hasPrefix(base) && storeName.dropFirst(base.count).allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// True when a fetch index can declare `candidate`: every key a stored attribute or to-one relationship
    /// (no expression, no `Z_PK`, `Z_ENT` or `Z_OPT`) in binary collation, in either direction
    /// (`isAscending`), and a partial predicate `partialIndexPredicate` can state (``AlternativeShipping``).
    static func canDeclare(_ candidate: IndexCandidate) -> Bool {
        let keys = candidate.columns.allSatisfy { column in
            guard let name = column.name else { return false }
            return column.collation.uppercased() == "BINARY" && !name.uppercased().hasPrefix("Z_")
        }
        return keys && (candidate.partialPredicate.map { AlternativeShipping.fetchIndexPredicate($0) { $0 } != nil } ?? true)
    }

    /// `by` followed by each property with its first letter upper-cased: `[speciesCode, recordedAt]` →
    /// `bySpeciesCodeRecordedAt`.
    public static func name(for properties: [String]) -> String {
        "by" + properties.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
