/// The model a Core Data store carries itself: `Z_MODELCACHE.Z_CONTENT`, the compiled model (an
/// `NSKeyedArchiver` archive of the `NSManagedObjectModel`, as in a `.mom` file) compressed as raw DEFLATE
/// (Apple's `COMPRESSION_ZLIB`, no zlib header; several public readers of the cache agree), or stored
/// uncompressed by some OS versions. It keeps the entity, attribute and relationship names with their case,
/// which the store's columns lose, so names can come from the store when no model is given.
///
/// Read without Core Data (there is none on Linux): ``RawInflate``, ``BinaryPropertyList``, then the archive's
/// object graph by the keys Core Data's classes encode: the model's `NSEntities`; an entity's
/// `NSEntityName`, `NSClassNameForEntity`, `NSIsAbstract`, `NSSuperentity`, `NSProperties`,
/// `NSFetchIndexDescriptions` (`NSIndexName`, `NSIndexElements` with `NSPropertyName` and `NSAscending`) and
/// `NSUniqueTuples`; a property's `NSPropertyName`, an attribute's `NSAttributeType`, a relationship's
/// `NSDestinationEntity`, `NSMaxCount` (1 for a to-one) and `NSIsOrdered`; `NSIsOptional` and
/// `NSIsTransient` are present only when true. Checked on real stores: those of a public app's migration
/// tests (an abstract `Message` with six sub-entities, fetch indexes named as the store's `Z_Message_…`).
public enum StoreModelCache {
    /// What reading the cache gave: the model, or why there is none.
    public struct Outcome: Sendable, Codable, Equatable {
        public var model: CoreDataModelDocument?
        /// Why the cache gave no model (empty, not raw DEFLATE, not an archive of a model), in words.
        public var failure: String?
    }

    struct Failure: Error, Equatable {
        var reason: String
    }

    /// The source name reports give a model read from the cache.
    public static let sourceName = "Z_MODELCACHE"

    /// Reads `Z_MODELCACHE` of `connection`'s store; nil when the store has no such table.
    static func read(from connection: SQLiteConnection) -> Outcome? {
        guard let rows = try? connection.query("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") else { return nil }
        guard let value = rows.first?.first, case .blob(let bytes) = value, !bytes.isEmpty else {
            return Outcome(model: nil, failure: "the store's Z_MODELCACHE holds no model")
        }
        do {
            return Outcome(model: try decode(bytes), failure: nil)
        } catch let failure as Failure {
            return Outcome(model: nil, failure: failure.reason)
        } catch {
            return Outcome(model: nil, failure: String(describing: error))
        }
    }

    /// The model in a `Z_CONTENT` blob.
    /// - Throws: ``Failure`` saying what the blob is not.
    static func decode(_ blob: [UInt8]) throws -> CoreDataModelDocument {
        let archive: [UInt8]
        if blob.starts(with: Array("bplist00".utf8)) {
            archive = blob
        } else {
            do {
                archive = try RawInflate.inflate(blob)
            } catch let failure as RawInflate.Failure {
                throw Failure(reason: "Z_MODELCACHE is not raw DEFLATE data as Core Data writes it (\(failure.reason))")
            }
        }
        let plist: BinaryPropertyList.Value
        do {
            plist = try BinaryPropertyList.parse(archive)
        } catch let failure as BinaryPropertyList.Failure {
            throw Failure(reason: "Z_MODELCACHE inflates to no binary property list (\(failure.reason))")
        }
        return try KeyedArchive(plist).model()
    }

    /// The object graph of an `NSKeyedArchiver` archive: `$objects`, referenced by UID from `$top` and from each other.
    private struct KeyedArchive {
        let objects: [BinaryPropertyList.Value]
        let root: Int

        init(_ plist: BinaryPropertyList.Value) throws {
            guard case .dictionary(let top) = plist, top["$archiver"] == .string("NSKeyedArchiver"),
                  case .array(let objects)? = top["$objects"], case .dictionary(let roots)? = top["$top"],
                  case .uid(let root)? = roots["root"], root < objects.count else {
                throw Failure(reason: "Z_MODELCACHE is no NSKeyedArchiver archive")
            }
            self.objects = objects
            self.root = root
        }

        /// The object a value refers to (a UID resolved, once: archives reference objects, not references).
        func resolve(_ value: BinaryPropertyList.Value?) -> BinaryPropertyList.Value? {
            guard let value else { return nil }
            if case .uid(let index) = value { return index < objects.count ? objects[index] : nil }
            return value
        }

        func dictionary(_ value: BinaryPropertyList.Value?) -> [String: BinaryPropertyList.Value]? {
            if case .dictionary(let dictionary)? = resolve(value) { return dictionary }
            return nil
        }

        /// The class names of an archived object, most derived first (`$class` → `$classes`).
        func classes(_ object: [String: BinaryPropertyList.Value]) -> [String] {
            guard let info = dictionary(object["$class"]) else { return [] }
            if case .array(let names)? = info["$classes"] {
                return names.compactMap { if case .string(let name) = $0 { return name } else { return nil } }
            }
            if case .string(let name)? = info["$classname"] { return [name] }
            return []
        }

        func string(_ value: BinaryPropertyList.Value?) -> String? {
            switch resolve(value) {
            case .string(let text)?: return text == "$null" ? nil : text
            case .dictionary(let object)?: return string(object["NS.string"])
            default: return nil
            }
        }

        func integer(_ value: BinaryPropertyList.Value?) -> Int64? {
            switch resolve(value) {
            case .integer(let number)?: return number
            case .bool(let flag)?: return flag ? 1 : 0
            default: return nil
            }
        }

        func bool(_ value: BinaryPropertyList.Value?) -> Bool? { integer(value).map { $0 != 0 } }

        /// The elements of an archived `NSArray`, `NSSet` or `NSOrderedSet`.
        func array(_ value: BinaryPropertyList.Value?) -> [BinaryPropertyList.Value] {
            guard let object = dictionary(value), case .array(let elements)? = object["NS.objects"] else { return [] }
            return elements
        }

        /// The entries of an archived `NSDictionary` (`NS.keys`, `NS.objects`), or of Core Data's
        /// `NSKnownKeysDictionary` (as real caches hold the model's entities: the keys in its
        /// `searchMapping`'s `keys` array, the values in its `values` array, in the same order), sorted by key.
        func entries(_ value: BinaryPropertyList.Value?) -> [(String, BinaryPropertyList.Value)] {
            guard let object = dictionary(value) else { return [] }
            var keys: [BinaryPropertyList.Value] = []
            var values: [BinaryPropertyList.Value] = []
            if case .array(let plainKeys)? = object["NS.keys"], case .array(let plainValues)? = object["NS.objects"] {
                keys = plainKeys
                values = plainValues
            } else if let mapping = dictionary(object["searchMapping"]) {
                keys = array(mapping["keys"])
                values = array(object["values"])
            }
            return zip(keys, values).compactMap { key, value in string(key).map { ($0, value) } }.sorted { $0.0 < $1.0 }
        }

        func model() throws -> CoreDataModelDocument {
            guard let root = dictionary(.uid(root)), classes(root).contains("NSManagedObjectModel") else {
                throw Failure(reason: "Z_MODELCACHE archives no NSManagedObjectModel")
            }
            var entities: [CoreDataModelDocument.Entity] = []
            for (key, value) in entries(root["NSEntities"]) {
                guard let object = dictionary(value) else { continue }
                entities.append(entity(object, name: key))
            }
            guard !entities.isEmpty else { throw Failure(reason: "Z_MODELCACHE holds a model without entities") }
            return CoreDataModelDocument(entities: withoutInherited(entities), source: StoreModelCache.sourceName)
        }

        func entity(_ object: [String: BinaryPropertyList.Value], name key: String) -> CoreDataModelDocument.Entity {
            let name = string(object["NSEntityName"]) ?? key
            let className = string(object["NSClassNameForEntity"]).flatMap { represented -> String? in
                let last = represented.split(separator: ".").last.map(String.init) ?? represented
                return last == "NSManagedObject" || last.isEmpty ? nil : last
            }
            let parent = dictionary(object["NSSuperentity"]).flatMap { string($0["NSEntityName"]) }
            var entity = CoreDataModelDocument.Entity(name: name, className: className, parent: parent,
                                                      isAbstract: bool(object["NSIsAbstract"]) ?? false)
            for (propertyName, value) in entries(object["NSProperties"]) {
                guard let property = dictionary(value) else { continue }
                let kinds = classes(property)
                let named = string(property["NSPropertyName"]) ?? propertyName
                if kinds.contains("NSAttributeDescription") {
                    let type = integer(property["NSAttributeType"]).map { CoreDataModelDocument.Attribute.typeName(forAttributeType: Int($0)) } ?? "Undefined"
                    entity.attributes.append(.init(name: named, type: type, isOptional: bool(property["NSIsOptional"]) ?? false,
                                                   isTransient: bool(property["NSIsTransient"]) ?? false))
                } else if kinds.contains("NSRelationshipDescription") {
                    let destination = dictionary(property["NSDestinationEntity"]).flatMap { string($0["NSEntityName"]) }
                        ?? string(property["_NSDestinationEntityName"]) ?? ""
                    let inverse = dictionary(property["NSInverseRelationship"]).flatMap { string($0["NSPropertyName"]) }
                        ?? string(property["_NSInverseRelationshipName"])
                    // Core Data: a relationship is to-many unless its maximum count is 1.
                    entity.relationships.append(.init(name: named, destination: destination, isToMany: integer(property["NSMaxCount"]) != 1,
                                                      isOrdered: bool(property["NSIsOrdered"]) ?? false, inverse: inverse,
                                                      isOptional: bool(property["NSIsOptional"]) ?? false))
                }
            }
            // Models older than fetch index descriptions mark attributes Indexed: each is the index named after it.
            if case .array? = dictionary(object["NSFetchIndexDescriptions"])?["NS.objects"] {} else {
                for (propertyName, value) in entries(object["NSProperties"]) where bool(dictionary(value)?["NSIsIndexed"]) == true {
                    entity.fetchIndexes.append(.init(name: propertyName, elements: [.init(property: propertyName)], kind: .indexedAttribute))
                }
            }
            for value in array(object["NSFetchIndexDescriptions"]) {
                guard let index = dictionary(value), let indexName = string(index["NSIndexName"]) else { continue }
                let elements = array(index["NSIndexElements"]).compactMap { element -> CoreDataModelDocument.FetchIndex.Element? in
                    guard let element = dictionary(element) else { return nil }
                    let property = string(element["NSPropertyName"]) ?? dictionary(element["NSIndexedProperty"]).flatMap { string($0["NSPropertyName"]) }
                    return property.map { .init(property: $0, isAscending: bool(element["NSAscending"]) ?? true) }
                }
                if !elements.isEmpty { entity.fetchIndexes.append(.init(name: indexName, elements: elements)) }
            }
            for tuple in array(object["NSUniqueTuples"]) {
                let names = array(tuple).compactMap { element in string(element) ?? dictionary(element).flatMap { string($0["NSPropertyName"]) } }
                if !names.isEmpty { entity.uniquenessConstraints.append(names) }
            }
            return entity
        }

        /// The entities with each sub-entity's properties that its parents declare left out (a compiled entity
        /// may list the properties it inherits).
        func withoutInherited(_ entities: [CoreDataModelDocument.Entity]) -> [CoreDataModelDocument.Entity] {
            let document = CoreDataModelDocument(entities: entities, source: StoreModelCache.sourceName)
            return entities.map { entity in
                let inherited = Set(document.lineage(of: entity).dropFirst().flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
                var own = entity
                own.attributes.removeAll { inherited.contains($0.name) }
                own.relationships.removeAll { inherited.contains($0.name) }
                return own
            }
        }
    }
}
