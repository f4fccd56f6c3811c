import Foundation
@testable import IndexAdvisor

/// Writes what a Core Data store keeps in `Z_MODELCACHE`, for tests: a binary property list (`bplist00`)
/// holding an `NSKeyedArchiver` archive of a model, laid out as real caches are (the model's entities in an
/// `NSKnownKeysDictionary1`, each entity's properties — its parents' included — in an `NSMutableDictionary`,
/// fetch indexes as `NSFetchIndexDescription` objects), then DEFLATE-framed in stored blocks.
enum ModelCacheWriter {
    /// A property-list object of the archive being written.
    indirect enum Object {
        case null
        case bool(Bool)
        case integer(Int)
        case string(String)
        case uid(Int)
        case array([Object])
        case dictionary([(String, Object)])
    }

    /// `bplist00` bytes of `top`, every object written once in order (one-byte object references are enough
    /// for small archives; two are used past 255 objects).
    static func binaryPropertyList(_ top: Object) -> [UInt8] {
        var objects: [[UInt8]] = []
        var pending: [(index: Int, object: Object)] = []
        func reserve(_ object: Object) -> Int {
            objects.append([])
            pending.append((objects.count - 1, object))
            return objects.count - 1
        }
        _ = reserve(top)
        var encoded: [(index: Int, object: Object, children: [Int])] = []
        while !pending.isEmpty {
            let (index, object) = pending.removeFirst()
            var children: [Int] = []
            switch object {
            case .array(let elements): children = elements.map(reserve)
            case .dictionary(let entries): children = entries.map { reserve(.string($0.0)) } + entries.map { reserve($0.1) }
            default: break
            }
            encoded.append((index, object, children))
        }
        let referenceSize = objects.count > 255 ? 2 : 1
        func reference(_ value: Int) -> [UInt8] { referenceSize == 1 ? [UInt8(value)] : [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func marker(_ type: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [type << 4 | UInt8(count)] : [type << 4 | 0x0F, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
        }
        for (index, object, children) in encoded {
            switch object {
            case .null: objects[index] = [0x00]
            case .bool(let flag): objects[index] = [flag ? 0x09 : 0x08]
            case .integer(let value): objects[index] = [0x13] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    objects[index] = marker(0x5, text.utf8.count) + Array(text.utf8)
                } else {
                    let units = Array(text.utf16)
                    objects[index] = marker(0x6, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                }
            case .uid(let value): objects[index] = [0x81, UInt8(value >> 8), UInt8(value & 0xFF)]
            case .array: objects[index] = marker(0xA, children.count) + children.flatMap(reference)
            case .dictionary: objects[index] = marker(0xD, children.count / 2) + children.flatMap(reference)
            }
        }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 24 & 0xFF), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)] }
        func eight(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        bytes += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)] + eight(objects.count) + eight(0) + eight(table)
        return bytes
    }

    /// `bytes` as raw DEFLATE stored blocks (no compression), which any inflater must read.
    static func storedBlocks(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let length = min(65_535, bytes.count - start)
            let isFinal = start + length == bytes.count
            output += [isFinal ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            output += bytes[start..<(start + length)]
            start += length
        } while start < bytes.count
        return output
    }

    /// The archive of `model` as Core Data caches it (a `.mom`'s keyed archive).
    static func archive(_ model: CoreDataModelDocument) -> [UInt8] {
        var objects: [Object] = [.string("$null")]
        func add(_ object: Object) -> Object {
            objects.append(object)
            return .uid(objects.count - 1)
        }
        func className(_ names: String...) -> Object { add(.dictionary([("$classname", .string(names[0])), ("$classes", .array(names.map { .string($0) }))])) }
        let modelClass = className("NSManagedObjectModel", "NSObject")
        let entityClass = className("NSEntityDescription", "NSObject")
        let attributeClass = className("NSAttributeDescription", "NSPropertyDescription", "NSObject")
        let relationshipClass = className("NSRelationshipDescription", "NSPropertyDescription", "NSObject")
        let dictionaryClass = className("NSMutableDictionary", "NSDictionary", "NSObject")
        let arrayClass = className("NSMutableArray", "NSArray", "NSObject")
        let knownKeysClass = className("NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject")
        let mappingClass = className("NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject")
        let indexClass = className("NSFetchIndexDescription", "NSObject")
        let elementClass = className("NSFetchIndexElementDescription", "NSObject")
        func array(_ elements: [Object]) -> Object { add(.dictionary([("NS.objects", .array(elements)), ("$class", arrayClass)])) }
        // Entities are referenced before they are written (a superentity, a destination): reserve their slots.
        var slots: [String: Int] = [:]
        for entity in model.entities {
            objects.append(.null)
            slots[entity.name] = objects.count - 1
        }
        for entity in model.entities {
            var properties: [(String, Object)] = []
            for owner in model.lineage(of: entity).reversed() {
                for attribute in owner.attributes {
                    let code = [100: "Integer 16", 200: "Integer 32", 300: "Integer 64", 400: "Decimal", 500: "Double", 600: "Float", 700: "String",
                                800: "Boolean", 900: "Date", 1000: "Binary", 1100: "UUID", 1200: "URI", 1800: "Transformable"]
                        .first { $0.value == attribute.type }?.key ?? 0
                    var fields: [(String, Object)] = [("$class", attributeClass), ("NSPropertyName", add(.string(attribute.name))),
                                                      ("NSAttributeType", .integer(code)), ("NSEntity", .uid(slots[entity.name]!))]
                    if attribute.isOptional { fields.append(("NSIsOptional", .bool(true))) }
                    if attribute.isTransient { fields.append(("NSIsTransient", .bool(true))) }
                    properties.append((attribute.name, add(.dictionary(fields))))
                }
                for relationship in owner.relationships {
                    var fields: [(String, Object)] = [("$class", relationshipClass), ("NSPropertyName", add(.string(relationship.name))),
                                                      ("NSMaxCount", .integer(relationship.isToMany ? 0 : 1)), ("NSMinCount", .integer(0)),
                                                      ("NSDestinationEntity", .uid(slots[relationship.destination] ?? 0)),
                                                      ("_NSDestinationEntityName", add(.string(relationship.destination)))]
                    if relationship.isOrdered { fields.append(("NSIsOrdered", .bool(true))) }
                    if relationship.isOptional { fields.append(("NSIsOptional", .bool(true))) }
                    properties.append((relationship.name, add(.dictionary(fields))))
                }
            }
            let propertyDictionary = add(.dictionary([("NS.keys", .array(properties.map { add(.string($0.0)) })),
                                                      ("NS.objects", .array(properties.map(\.1))), ("$class", dictionaryClass)]))
            let indexes = entity.fetchIndexes.map { index in
                add(.dictionary([("$class", indexClass), ("NSIndexName", add(.string(index.name))), ("NSPartialIndexPredicate", .uid(0)),
                                 ("NSIndexElements", array(index.elements.map { element in
                                     add(.dictionary([("$class", elementClass), ("NSPropertyName", add(.string(element.property))),
                                                      ("NSFetchIndexElementType", .integer(0)), ("NSAscending", .bool(element.isAscending))]))
                                 }))]))
            }
            var fields: [(String, Object)] = [("$class", entityClass), ("NSEntityName", add(.string(entity.name))),
                                              ("NSClassNameForEntity", entity.className.map { add(.string($0)) } ?? .uid(0)),
                                              ("NSSuperentity", entity.parent.flatMap { slots[$0] }.map { .uid($0) } ?? .uid(0)),
                                              ("NSProperties", propertyDictionary), ("NSFetchIndexDescriptions", array(indexes))]
            if entity.isAbstract { fields.append(("NSIsAbstract", .bool(true))) }
            if !entity.uniquenessConstraints.isEmpty {
                fields.append(("NSUniqueTuples", array(entity.uniquenessConstraints.map { tuple in array(tuple.map { add(.string($0)) }) })))
            }
            objects[slots[entity.name]!] = .dictionary(fields)
        }
        let keys = array(model.entities.map { add(.string($0.name)) })
        let mapping = add(.dictionary([("$class", mappingClass), ("keys", keys), ("length", .integer(model.entities.count))]))
        let values = array(model.entities.map { .uid(slots[$0.name]!) })
        let entities = add(.dictionary([("$class", knownKeysClass), ("searchMapping", mapping), ("values", values)]))
        let root = add(.dictionary([("$class", modelClass), ("NSEntities", entities)]))
        return binaryPropertyList(.dictionary([("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
                                               ("$top", .dictionary([("root", root)])), ("$objects", .array(objects))]))
    }
}
