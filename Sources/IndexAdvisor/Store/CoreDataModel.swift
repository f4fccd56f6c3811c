/// What a Core Data / SwiftData store's bookkeeping tables say about its model.
///
/// Recognised by `Z_METADATA` and `Z_PRIMARYKEY`. Entity `Note` lives in table `ZNOTE`; sub-entities
/// share their root entity's table and are told apart by `Z_ENT` (see ../formats in the design notes).
public struct CoreDataModel: Sendable, Codable, Equatable {
    /// One row of `Z_PRIMARYKEY`.
    public struct Entity: Sendable, Codable, Equatable {
        /// The entity number stored in `Z_ENT`.
        public var number: Int
        /// The entity name with its case, e.g. `Note`.
        public var name: String
        /// The parent entity's number, nil for a root entity.
        public var superEntity: Int?
        /// The table that holds the entity's rows (its root entity's table).
        public var table: String
    }

    public var entities: [Entity]
    /// True when the store syncs with CloudKit (it has `ANSCK…` tables): CloudKit does not allow unique constraints.
    public var isCloudKitSynced: Bool
    /// The model the store caches in `Z_MODELCACHE` (``StoreModelCache``), or why it gave none; nil when the
    /// store has no such table.
    public var cachedModel: StoreModelCache.Outcome? = nil

    public init(entities: [Entity], isCloudKitSynced: Bool) {
        self.entities = entities
        self.isCloudKitSynced = isCloudKitSynced
    }

    /// The entities stored in `table`, root first.
    public func entities(inTable table: String) -> [Entity] {
        let key = table.sqlFolded
        return entities.filter { $0.table.sqlFolded == key }.sorted { ($0.superEntity ?? -1) < ($1.superEntity ?? -1) }
    }

    /// The root entity of `table` (the model name to use for `#Index<Model>`), if the table is an entity table.
    public func rootEntity(ofTable table: String) -> Entity? {
        entities(inTable: table).first { $0.superEntity == nil } ?? entities(inTable: table).first
    }

    /// Builds the model from `Z_PRIMARYKEY` rows `(Z_ENT, Z_NAME, Z_SUPER)` and the store's table names.
    /// Entities whose table does not exist (abstract entities without rows still have one) keep the computed name.
    public static func from(primaryKeyRows: [(number: Int, name: String, superEntity: Int)], tableNames: [String]) -> CoreDataModel {
        var byNumber: [Int: (name: String, superEntity: Int)] = [:]
        for row in primaryKeyRows { byNumber[row.number] = (row.name, row.superEntity) }
        // Roots found by walking up to an entity without a parent are remembered for every entity on the way,
        // so a long chain of sub-entities costs one walk, not one per entity (a breaking helper's 20,000-deep
        // chain took 118 s). A walk stopped by a cycle is not remembered: each entity of a cycle is its own root.
        var roots: [Int: Int] = [:]
        func root(of number: Int) -> Int {
            var current = number
            var seen: Set<Int> = []
            var path: [Int] = []
            while let entry = byNumber[current], entry.superEntity != 0, byNumber[entry.superEntity] != nil, seen.insert(current).inserted {
                if let known = roots[current] { current = known; break }
                path.append(current)
                current = entry.superEntity
            }
            let reachedTop = byNumber[current].map { $0.superEntity == 0 || byNumber[$0.superEntity] == nil } ?? true
            if reachedTop { for entity in path { roots[entity] = current } }
            return current
        }
        let existing = Dictionary(tableNames.map { ($0.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let entities = primaryKeyRows.map { row -> Entity in
            let rootName = byNumber[root(of: row.number)]?.name ?? row.name
            let computed = "Z" + rootName.uppercased()
            return Entity(number: row.number, name: row.name,
                          superEntity: row.superEntity == 0 ? nil : row.superEntity,
                          table: existing[computed] ?? computed)
        }
        let cloudKit = tableNames.contains { $0.uppercased().hasPrefix("ANSCK") }
        return CoreDataModel(entities: entities.sorted { $0.number < $1.number }, isCloudKitSynced: cloudKit)
    }
}
