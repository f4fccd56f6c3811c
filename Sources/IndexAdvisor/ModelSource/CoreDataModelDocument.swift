/// A Core Data model as Xcode's model editor saves it (the XML `contents` of an `.xcdatamodel`) or as a
/// store caches it compiled (`Z_MODELCACHE`): entities with their parent entity, attributes, relationships,
/// fetch indexes and uniqueness constraints. Read by ``XCDataModelReader`` and ``StoreModelCache``; turned
/// into ``ModelClass`` values (``modelClasses``) for the name mapping and the fetch-site translation.
///
/// Store layout (shared/formats/coredata-sqldebug.md §4): an entity without a parent has the table
/// `Z<NAME>`, its sub-entities share it (told apart by `Z_ENT`); an attribute is the column `Z<NAME>`; a
/// to-one relationship the column `Z<NAME>` holding the destination's `Z_PK`; a many-to-many
/// relationship a join table `Z_<n><NAME>`; a fetch index named `byDate` the index `Z_<Entity>_byDate`.
public struct CoreDataModelDocument: Sendable, Codable, Equatable {
    public struct Entity: Sendable, Codable, Equatable {
        /// The entity name (`Note`), which names the table (`ZNOTE`) and `Z_PRIMARYKEY.Z_NAME`.
        public var name: String
        /// The class that represents it (`representedClassName` without its module: `.Note` and
        /// `App.Note` are `Note`); nil when the entity uses `NSManagedObject` itself.
        public var className: String?
        /// The parent entity's name, for a sub-entity.
        public var parent: String?
        public var isAbstract: Bool
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        /// Fetch indexes (the model editor's Indexes), compound indexes of older models, and attributes
        /// marked Indexed, each as the fetch index Core Data makes of it.
        public var fetchIndexes: [FetchIndex]
        /// Each constraint's property names (`[["remoteID"], ["folder", "slug"]]`).
        public var uniquenessConstraints: [[String]]
        /// 1-based line of the `<entity>` element in the XML; nil for a compiled model.
        public var line: Int?
        /// The lines of each uniqueness constraint, in order (XML only).
        public var uniquenessLines: [Int] = []

        public init(name: String, className: String? = nil, parent: String? = nil, isAbstract: Bool = false,
                    attributes: [Attribute] = [], relationships: [Relationship] = [], fetchIndexes: [FetchIndex] = [],
                    uniquenessConstraints: [[String]] = [], line: Int? = nil) {
            self.name = name
            self.className = className
            self.parent = parent
            self.isAbstract = isAbstract
            self.attributes = attributes
            self.relationships = relationships
            self.fetchIndexes = fetchIndexes
            self.uniquenessConstraints = uniquenessConstraints
            self.line = line
        }
    }

    public struct Attribute: Sendable, Codable, Equatable {
        public var name: String
        /// The model editor's type name: `String`, `Boolean`, `Integer 16`, `Integer 32`, `Integer 64`,
        /// `Double`, `Float`, `Decimal`, `Date`, `Binary`, `UUID`, `URI`, `Transformable`, `ObjectID`.
        public var type: String
        public var isOptional: Bool
        /// Transient attributes have no column.
        public var isTransient: Bool = false
        public var line: Int?

        public init(name: String, type: String, isOptional: Bool, isTransient: Bool = false, line: Int? = nil) {
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.isTransient = isTransient
            self.line = line
        }

        /// The Swift type an `@NSManaged` property of this attribute has (`Date`, `Int64`, `String`), with
        /// `?` when the attribute is optional.
        public var swiftType: String {
            let base: String
            switch type {
            case "String": base = "String"
            case "Boolean": base = "Bool"
            case "Integer 16": base = "Int16"
            case "Integer 32": base = "Int32"
            case "Integer 64": base = "Int64"
            case "Double": base = "Double"
            case "Float": base = "Float"
            case "Decimal": base = "Decimal"
            case "Date": base = "Date"
            case "Binary": base = "Data"
            case "UUID": base = "UUID"
            case "URI": base = "URL"
            case "ObjectID": base = "NSManagedObjectID"
            default: base = "NSObject"
            }
            return isOptional ? base + "?" : base
        }

        /// The model editor's name for `NSAttributeType`'s raw value (what a compiled model stores).
        static func typeName(forAttributeType code: Int) -> String {
            switch code {
            case 100: return "Integer 16"
            case 200: return "Integer 32"
            case 300: return "Integer 64"
            case 400: return "Decimal"
            case 500: return "Double"
            case 600: return "Float"
            case 700: return "String"
            case 800: return "Boolean"
            case 900: return "Date"
            case 1000: return "Binary"
            case 1100: return "UUID"
            case 1200: return "URI"
            case 1800: return "Transformable"
            case 2000: return "ObjectID"
            default: return "Undefined"
            }
        }
    }

    public struct Relationship: Sendable, Codable, Equatable {
        public var name: String
        /// The destination entity's name.
        public var destination: String
        public var isToMany: Bool
        public var isOrdered: Bool
        public var inverse: String?
        public var isOptional: Bool
        public var line: Int?

        public init(name: String, destination: String, isToMany: Bool, isOrdered: Bool = false, inverse: String? = nil,
                    isOptional: Bool = true, line: Int? = nil) {
            self.name = name
            self.destination = destination
            self.isToMany = isToMany
            self.isOrdered = isOrdered
            self.inverse = inverse
            self.isOptional = isOptional
            self.line = line
        }
    }

    public struct FetchIndex: Sendable, Codable, Equatable {
        public struct Element: Sendable, Codable, Equatable {
            public var property: String
            public var isAscending: Bool

            public init(property: String, isAscending: Bool = true) {
                self.property = property
                self.isAscending = isAscending
            }
        }

        /// How the model declares it, which says how to remove it.
        public enum Kind: String, Sendable, Codable {
            /// A `<fetchIndex>` (the model editor's fetch indexes, `NSFetchIndexDescription`).
            case fetchIndex
            /// An attribute marked Indexed (`indexed="YES"`, older models): the fetch index named after it.
            case indexedAttribute
            /// An older model's `<compoundIndex>`: named after its properties joined by `_`.
            case compoundIndex
        }

        /// The name typed in the model editor (`byDate`): Core Data names the store's index `Z_<Entity>_<name>`.
        public var name: String
        public var elements: [Element]
        public var line: Int?
        /// Nil for a fetch index (and in documents read before the kind was kept).
        public var kind: Kind? = nil

        public init(name: String, elements: [Element], line: Int? = nil, kind: Kind? = nil) {
            self.name = name
            self.elements = elements
            self.line = line
            self.kind = kind == .fetchIndex ? nil : kind
        }
    }

    public var entities: [Entity]
    /// Where the model came from, as the reports name it: `Notes.xcdatamodel` or `Z_MODELCACHE`.
    public var source: String
    /// The file read, as given (the `contents` file); nil for a store's cached model.
    public var path: String?

    public init(entities: [Entity], source: String, path: String? = nil) {
        self.entities = entities
        self.source = source
        self.path = path
    }

    /// The entity named `name`.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// `entity` and its parents, nearest first; a missing parent or a cycle ends the chain.
    public func lineage(of entity: Entity) -> [Entity] {
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        while let parent = chain.last?.parent, let next = self.entity(named: parent), seen.insert(parent).inserted {
            chain.append(next)
        }
        return chain
    }

    /// The table that stores `entity`: `Z` + its root entity's name, upper-cased.
    public func table(of entity: Entity) -> String {
        "Z" + (lineage(of: entity).last ?? entity).name.uppercased()
    }
}
