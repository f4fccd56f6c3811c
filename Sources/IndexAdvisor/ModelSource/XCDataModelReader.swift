import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Why a path given as a Core Data model cannot be read as one: one line naming the path.
public enum CoreDataModelFileError: Error, Equatable, CustomStringConvertible {
    /// The file is not a model: what it is instead (not XML, another XML document).
    case notAModel(path: String, reason: String)
    /// An `.xcdatamodeld` with several versions and no `.xccurrentversion` naming the current one.
    case noCurrentVersion(path: String, versions: [String])
    /// The file cannot be read, with the reason.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notAModel(let path, let reason):
            return "\(path): not a Core Data model (\(reason)); give an .xcdatamodeld, an .xcdatamodel or its contents file, or Swift source"
        case .noCurrentVersion(let path, let versions):
            return "\(path): \(versions.count) model versions (\(versions.joined(separator: ", "))) and no .xccurrentversion saying which is current: give the .xcdatamodel to read"
        case .unreadable(let path, let reason):
            return "\(path): cannot read the Core Data model (\(reason))"
        }
    }
}

/// Reads a Core Data model as Xcode saves it, with Foundation's XML parser: an `.xcdatamodeld` folder
/// (the version its `.xccurrentversion` names, or its only version), an `.xcdatamodel` folder, or the
/// `contents` file inside one.
///
/// The `contents` XML (checked against public models): a root `<model>` with one `<entity name=…
/// representedClassName=… parentEntity=… isAbstract="YES">` per entity; inside it `<attribute name=…
/// attributeType=… optional="YES" transient="YES" indexed="YES">`, `<relationship name=… destinationEntity=…
/// toMany="YES" maxCount=… ordered="YES" inverseName=…>`, `<fetchIndex name=…>` with `<fetchIndexElement
/// property=… type="Binary" order="ascending|descending">`, `<uniquenessConstraints>` with
/// `<uniquenessConstraint>` and `<constraint value=…>`, and the older `<compoundIndexes>` with
/// `<compoundIndex>` and `<index value=…>`. Any other root element, or text that is not XML, is refused.
public enum XCDataModelReader {
    /// True when `path` names something this reader takes: an `.xcdatamodeld` or `.xcdatamodel` folder, or a
    /// file named `contents` inside an `.xcdatamodel`.
    public static func isModelPath(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension.lowercased()
        if ext == "xcdatamodeld" || ext == "xcdatamodel" { return true }
        return url.lastPathComponent == "contents" && url.deletingLastPathComponent().pathExtension.lowercased() == "xcdatamodel"
    }

    /// Reads the model at `path` (an `.xcdatamodeld`, an `.xcdatamodel` folder, or an XML file).
    /// - Throws: ``CoreDataModelFileError`` when it is not a model or cannot be read.
    public static func read(path: String) throws -> CoreDataModelDocument {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CoreDataModelFileError.unreadable(path: path, reason: "no such file or directory")
        }
        let url = URL(fileURLWithPath: path)
        guard isDirectory.boolValue else { return try readContents(at: url, shownAs: url.lastPathComponent) }
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld":
            let version = try currentVersion(of: url)
            return try readContents(at: version.appendingPathComponent("contents"), shownAs: version.lastPathComponent)
        default:
            let contents = url.appendingPathComponent("contents")
            guard FileManager.default.fileExists(atPath: contents.path) else {
                throw CoreDataModelFileError.notAModel(path: path, reason: "the folder has no contents file")
            }
            return try readContents(at: contents, shownAs: url.lastPathComponent)
        }
    }

    /// The `.xcdatamodel` an `.xcdatamodeld` holds as its current version.
    private static func currentVersion(of bundle: URL) throws -> URL {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.lowercased().hasSuffix(".xcdatamodel") }.sorted()
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if let data = try? Data(contentsOf: marker),
           let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
           let name = plist["_XCCurrentVersionName"] as? String, versions.contains(name) {
            return bundle.appendingPathComponent(name)
        }
        if versions.count == 1 { return bundle.appendingPathComponent(versions[0]) }
        if versions.isEmpty { throw CoreDataModelFileError.notAModel(path: bundle.path, reason: "the folder has no .xcdatamodel version") }
        throw CoreDataModelFileError.noCurrentVersion(path: bundle.path, versions: versions)
    }

    /// Reads one `contents` file; `shownAs` names the model in reports (`Notes 2.xcdatamodel`).
    static func readContents(at url: URL, shownAs: String) throws -> CoreDataModelDocument {
        let type = (try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path))?[.type] as? FileAttributeType
        guard type == .typeRegular else {
            throw CoreDataModelFileError.unreadable(path: url.path, reason: type == nil ? "cannot read its type" : "not a regular file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CoreDataModelFileError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        var document = try parse(data, path: url.path)
        document.source = shownAs
        return document
    }

    /// The model in `data` (a `contents` file's bytes); `path` names it in errors.
    /// - Throws: ``CoreDataModelFileError/notAModel(path:reason:)``.
    public static func parse(_ data: Data, path: String) throws -> CoreDataModelDocument {
        let start = data.prefix(64)
        if start.contains(0) { throw CoreDataModelFileError.notAModel(path: path, reason: "binary data, not XML") }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let reader = ContentsParser()
        parser.delegate = reader
        let parsed = parser.parse()
        if let root = reader.root, root != "model" {
            throw CoreDataModelFileError.notAModel(path: path, reason: "its XML root element is <\(root)>, not <model>")
        }
        guard parsed, reader.root != nil, reader.depth == 0 else {
            if parsed, reader.root != nil {
                throw CoreDataModelFileError.notAModel(path: path, reason: "not XML a model editor wrote: it ends at line \(parser.lineNumber) before </model>")
            }
            let line = parser.lineNumber
            let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not XML"
            throw CoreDataModelFileError.notAModel(path: path, reason: "not XML a model editor wrote: line \(line): \(message)")
        }
        return CoreDataModelDocument(entities: reader.entities, source: URL(fileURLWithPath: path).lastPathComponent, path: path)
    }

    /// The XMLParser delegate that collects entities (used once, synchronously, by ``parse(_:path:)``).
    private final class ContentsParser: NSObject, XMLParserDelegate {
        var root: String?
        var entities: [CoreDataModelDocument.Entity] = []
        private var entity: CoreDataModelDocument.Entity?
        private var fetchIndex: CoreDataModelDocument.FetchIndex?
        private var compound: (names: [String], line: Int)?
        private var constraint: (names: [String], line: Int)?
        private(set) var depth = 0

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            depth += 1
            let line = parser.lineNumber
            if root == nil {
                root = name
                if name != "model" { parser.abortParsing() }
                return
            }
            func flag(_ key: String) -> Bool { attributes[key]?.uppercased() == "YES" }
            switch name {
            case "entity" where depth == 2:
                guard let entityName = attributes["name"], !entityName.isEmpty else { return }
                entity = CoreDataModelDocument.Entity(name: entityName, className: Self.className(attributes["representedClassName"]),
                                                      parent: attributes["parentEntity"], isAbstract: flag("isAbstract"), line: line)
            case "attribute":
                guard let attributeName = attributes["name"], entity != nil else { return }
                let attribute = CoreDataModelDocument.Attribute(name: attributeName, type: attributes["attributeType"] ?? "Undefined",
                                                                isOptional: flag("optional"), isTransient: flag("transient"), line: line)
                entity?.attributes.append(attribute)
                // "Indexed" (older models): Core Data makes it the fetch index named after the attribute.
                if flag("indexed"), !attribute.isTransient {
                    entity?.fetchIndexes.append(.init(name: attributeName, elements: [.init(property: attributeName)], line: line, kind: .indexedAttribute))
                }
            case "relationship":
                guard let relationshipName = attributes["name"], entity != nil else { return }
                let toMany = flag("toMany") || (attributes["maxCount"].flatMap(Int.init).map { $0 != 1 } ?? false)
                entity?.relationships.append(.init(name: relationshipName, destination: attributes["destinationEntity"] ?? "",
                                                   isToMany: toMany, isOrdered: flag("ordered"), inverse: attributes["inverseName"],
                                                   isOptional: flag("optional"), line: line))
            case "fetchIndex":
                fetchIndex = .init(name: attributes["name"] ?? "", elements: [], line: line)
            case "fetchIndexElement":
                // An element on an expression instead of a property cannot be matched to a column: the index
                // is kept without it only if it has no such element (see didEndElement).
                guard fetchIndex != nil else { return }
                if let property = attributes["property"] {
                    fetchIndex?.elements.append(.init(property: property, isAscending: attributes["order"]?.lowercased() != "descending"))
                } else {
                    fetchIndex?.name = ""
                }
            case "compoundIndex":
                compound = ([], line)
            case "index":
                if let value = attributes["value"] { compound?.names.append(value) }
            case "uniquenessConstraint":
                constraint = ([], line)
            case "constraint":
                if let value = attributes["value"] { constraint?.names.append(value) }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            switch name {
            case "entity" where depth == 1:
                if let entity { entities.append(entity) }
                entity = nil
            case "fetchIndex":
                if let index = fetchIndex, !index.name.isEmpty, !index.elements.isEmpty { entity?.fetchIndexes.append(index) }
                fetchIndex = nil
            case "compoundIndex":
                // Core Data names a compound index's store index after its properties, joined by `_`.
                if let compound, !compound.names.isEmpty {
                    entity?.fetchIndexes.append(.init(name: compound.names.joined(separator: "_"),
                                                      elements: compound.names.map { .init(property: $0) }, line: compound.line, kind: .compoundIndex))
                }
                compound = nil
            case "uniquenessConstraint":
                if let constraint, !constraint.names.isEmpty {
                    entity?.uniquenessConstraints.append(constraint.names)
                    entity?.uniquenessLines.append(constraint.line)
                }
                constraint = nil
            default:
                break
            }
        }

        /// `representedClassName` without the module: `.Note` (the current module) and `App.Note` are `Note`.
        static func className(_ represented: String?) -> String? {
            guard let represented, !represented.isEmpty else { return nil }
            let last = represented.split(separator: ".").last.map(String.init) ?? represented
            return last.isEmpty ? nil : last
        }
    }
}
