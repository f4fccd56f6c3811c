import Foundation

/// A persistent class of the app's model, as read from Swift source — a SwiftData `@Model` class, or a
/// Core Data `NSManagedObject` subclass with `@NSManaged` properties (its own or in extensions) — or an
/// entity of a Core Data model (an `.xcdatamodeld`, or the model a store caches in `Z_MODELCACHE`).
public struct ModelClass: Sendable, Equatable {
    /// What declares the entity, which decides the code to paste: `#Index` inside a `@Model` class, or a
    /// fetch index in the Core Data model.
    public enum Framework: String, Sendable, Codable {
        /// A SwiftData `@Model` class.
        case swiftData
        /// An `NSManagedObject` subclass in the Swift source (with its entity in a Core Data model when one was read).
        case coreData
        /// An entity known only from a Core Data model file (`.xcdatamodeld`): its class, if any, is generated.
        case coreDataModel
        /// An entity known only from the model the store caches (`Z_MODELCACHE`): SwiftData or Core Data.
        case storeModel

        /// True for an entity whose indexes are declared in a Core Data model (fetch indexes), not with `#Index`.
        public var isCoreData: Bool { self == .coreData || self == .coreDataModel }
    }

    /// The entity name: the class name, or the `@objc(Name)` a Core Data class gives.
    public var entity: String
    /// The class name as written.
    public var className: String
    public var framework: Framework
    /// The first type its inheritance clause names (`Item` in `class Note: Item`), for sub-entities.
    public var superclass: String?
    /// The file name (no directory) and the 1-based line of `class`.
    public var file: String
    public var line: Int
    /// Stored properties, in declaration order. Computed, `static`, `@Transient` properties are left out.
    public var properties: [ModelProperty]
    /// Property lists of `#Unique<…>([…], […])`, and one list per `@Attribute(.unique)` property.
    public var uniques: [ModelDeclaration]
    /// Property lists of `#Index<…>([…], […])`.
    public var indexes: [ModelDeclaration]

    /// The file's path as given (`--model`/`--source` argument joined with the path below it), when known.
    public var path: String? = nil
    /// The Core Data model's fetch indexes for the entity (its own, not its parent's).
    public var fetchIndexes: [CoreDataModelDocument.FetchIndex] = []
    /// Where the `NSManagedObject` subclass is declared (`Note.swift:12`), when the entity comes from a
    /// Core Data model and the Swift source declares its class too.
    public var classLocation: String? = nil

    /// `Note.swift:12` (the file alone when there is no line, as for a store's cached model).
    public var location: String { line > 0 ? "\(file):\(line)" : file }
}

/// A stored property of a ``ModelClass``.
public struct ModelProperty: Sendable, Equatable {
    /// The Swift name, e.g. `folderID`.
    public var name: String
    /// The type as written, white space removed, e.g. `Folder?`, `[Tag]`, `Date`.
    public var type: String
    /// `@Attribute(originalName: "old")` or `@Relationship(originalName: "old")`.
    public var originalName: String?
    /// `@Attribute(.unique)`.
    public var isUnique: Bool
    /// Declared with `@Relationship`.
    public var isRelationship: Bool
    public var line: Int

    /// The Core Data column: `Z` + the upper-cased stored name (`originalName` when given, else the name).
    public var columnName: String { "Z" + (originalName ?? name).uppercased() }

    /// The type without optionality: `Folder?` → `Folder`, `Optional<[Tag]>` → `[Tag]`.
    public var baseType: String {
        var type = self.type
        while type.hasSuffix("?") || type.hasSuffix("!") { type.removeLast() }
        if type.hasPrefix("Optional<") && type.hasSuffix(">") { type = String(type.dropFirst(9).dropLast()) }
        return type
    }

    /// The element type when the type is a collection (`[Tag]`, `Array<Tag>`, `Set<Tag>`), else nil.
    public var elementType: String? {
        let type = baseType
        if type.hasPrefix("[") && type.hasSuffix("]") && !type.contains(":") { return String(type.dropFirst().dropLast()) }
        for prefix in ["Array<", "Set<", "ContiguousArray<"] where type.hasPrefix(prefix) && type.hasSuffix(">") {
            return String(type.dropFirst(prefix.count).dropLast())
        }
        return nil
    }
}

/// One `#Unique`/`#Index` property list, or an `@Attribute(.unique)`, with where it is declared.
public struct ModelDeclaration: Sendable, Equatable {
    /// Property names (`folderID`), or dotted paths for key paths through a relationship.
    public var properties: [String]
    public var line: Int
}

/// The model classes read from a set of Swift files and Core Data models.
public struct ModelSource: Sendable, Equatable {
    /// The files read, by file name (a Core Data model by its `.xcdatamodel` name).
    public var files: [String]
    public var classes: [ModelClass]
    /// The Core Data models read (``adding(_:framework:)``), as read.
    public var documents: [CoreDataModelDocument] = []
    /// Classes that may be `NSManagedObject` subclasses (they inherit from a class the source does not
    /// declare): one named like an entity of a model added later becomes that entity's class.
    var otherClasses: [ModelClass] = []

    public init(files: [String], classes: [ModelClass]) {
        self.files = files
        self.classes = classes
    }

    /// `model` and the classes it inherits from that the source declares, nearest first (`[Task, Item]`);
    /// a superclass the source does not declare, or a cycle, ends the chain.
    func lineage(of model: ModelClass) -> [ModelClass] {
        var chain = [model]
        var seen: Set<String> = [model.className]
        while let parent = chain.last?.superclass, let next = classes.first(where: { $0.className == parent }), seen.insert(parent).inserted {
            chain.append(next)
        }
        return chain
    }
}

/// Reads the app's model classes from Swift source, without a compiler: a small lexer (comments,
/// string literals of every kind, attributes, macros) and a scan of class bodies.
///
/// Finds `@Model` classes (`@Model final class Note { … }`, also nested in a `VersionedSchema` enum) and
/// `NSManagedObject` subclasses; in their bodies, stored properties (`var`/`let name: Type`, with or
/// without an initializer or `willSet`/`didSet`), `@Attribute(.unique, originalName: "old")`,
/// `@Relationship(…)`, `@Transient`, and the `#Unique<…>([…])` / `#Index<…>([…])` already declared.
/// Computed properties (a `{` body that is not `willSet`/`didSet`), `static`/`class` properties, functions
/// and nested types are skipped. For Core Data, only `@NSManaged` properties are stored, including those
/// declared in `extension Note { … }` (Xcode's `Note+CoreDataProperties.swift`).
public enum ModelSourceReader {
    /// True for `primitiveCondition`: Core Data's primitive accessor of the attribute `condition` (`primitive`
    /// then the key with its first letter upper-cased), declared `@NSManaged` to read the stored value without
    /// change notifications. It is no attribute of its own, and no column (a new user's trial of LoopKit: 22 of
    /// 34 fetch sites named `ZPRIMITIVECONDITION` and did not prepare). Core Data Programming Guide, "Managed
    /// Object Accessor Methods".
    static func isPrimitiveAccessor(_ name: String) -> Bool {
        guard name.hasPrefix("primitive"), let next = name.dropFirst("primitive".count).first else { return false }
        return next.isUppercase
    }

    /// Reads `paths`: Swift files, Core Data models (an `.xcdatamodeld`, an `.xcdatamodel` or its `contents`
    /// file, see ``XCDataModelReader``), or folders searched recursively for both (sorted by path; an
    /// `.xcdatamodeld` found in a folder is read as a model, not walked into). The models' entities are
    /// merged with the classes (``ModelSource/adding(_:framework:)``).
    /// - Throws: ``ModelSourceError`` for a missing path, a folder without Swift files or models, a file
    ///   that is neither Swift (`.swift`) nor a model (`notAModel`), an unreadable file, a model that
    ///   cannot be read (`modelFile`).
    public static func read(paths: [String]) throws -> ModelSource {
        let found = try ModelPaths.collect(paths, option: ModelOption.self, nonSwiftFile: { path in
            // A file given directly must say what it is: Swift by its extension, a model by its XML.
            guard ModelPaths.isRegularFile(path) else { throw ModelSourceError.unreadable(path: path, reason: "not a regular file") }
            guard ModelPaths.looksLikeXML(path) else {
                throw ModelSourceError.notAModel(path: path, reason: "neither Swift source (.swift) nor a Core Data model (.xcdatamodeld, .xcdatamodel or its XML contents file)")
            }
            return .model
        })
        var texts: [(path: String, text: String)] = []
        // Read as --source reads the app's files (a breaking helper: a UTF-16 file with a byte-order mark was
        // refused here and read there, and a FIFO was "no permission"): UTF-8, UTF-16 or UTF-32 (as
        // SourceScanner.decode detects them), regular files only, with the reason when not.
        for path in found.swift {
            switch SourceScanner.read(path.path) {
            case .success(let text): texts.append((path.path, text))
            case .failure(let failure): throw ModelSourceError.unreadable(path: path.path, reason: failure.reason)
            }
        }
        var source = parse(files: texts)
        for model in found.models {
            do {
                source = source.adding(try XCDataModelReader.read(path: model))
            } catch let error as CoreDataModelFileError {
                throw ModelSourceError.modelFile(error)
            }
        }
        return source
    }

    /// The model classes of several files already in memory, `@NSManaged` properties of extensions merged
    /// across them; each class's ``ModelClass/path`` is its file's path.
    public static func parse(files: [(path: String, text: String)]) -> ModelSource {
        var classes: [ModelClass] = []
        var extensions: [ModelClass] = []
        var candidates: [ModelClass] = []
        for file in files {
            let parsed = scan(file.text, file: URL(fileURLWithPath: file.path).lastPathComponent)
            let located = { (model: ModelClass) -> ModelClass in
                var model = model
                model.path = file.path
                return model
            }
            classes += parsed.classes.map(located)
            candidates += parsed.candidates.map(located)
            extensions += parsed.extensions
        }
        var source = ModelSource(files: files.map { URL(fileURLWithPath: $0.path).lastPathComponent },
                                 classes: merge(promote(candidates, classes: classes, extensions: extensions), extensions: extensions))
        source.otherClasses = candidates.filter { candidate in !source.classes.contains { $0.className == candidate.className } }
        return source
    }

    /// The model classes declared in `source` (one file's text); `file` names it in locations.
    public static func parse(_ source: String, file: String) -> [ModelClass] {
        let parsed = scan(source, file: file)
        return merge(promote(parsed.candidates, classes: parsed.classes, extensions: parsed.extensions), extensions: parsed.extensions)
    }

    /// `classes` with the candidates that are Core Data classes after all: a subclass of a Core Data class, or
    /// one whose extensions declare `@NSManaged` properties (Xcode's `+CoreDataProperties.swift`).
    private static func promote(_ candidates: [ModelClass], classes: [ModelClass], extensions: [ModelClass]) -> [ModelClass] {
        var result = classes
        var pending = candidates
        var changed = true
        while changed {
            changed = false
            for (offset, candidate) in pending.enumerated() {
                let managed = result.contains { $0.framework == .coreData && $0.className == candidate.superclass }
                    || extensions.contains { $0.className == candidate.className && !$0.properties.isEmpty }
                guard managed else { continue }
                result.append(candidate)
                pending.remove(at: offset)
                changed = true
                break
            }
        }
        return result
    }

    /// Adds `@NSManaged` properties declared in extensions to the Core Data class of the same name.
    private static func merge(_ classes: [ModelClass], extensions: [ModelClass]) -> [ModelClass] {
        var result = classes
        for addition in extensions where !addition.properties.isEmpty {
            if let index = result.lastIndex(where: { $0.className == addition.className && $0.framework == .coreData }) {
                result[index].properties += addition.properties.filter { property in !result[index].properties.contains { $0.name == property.name } }
            }
        }
        return result
    }

    // MARK: Scanning

    private static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "static", "lazy", "override",
        "nonisolated", "weak", "unowned", "dynamic", "required", "convenience", "mutating", "nonmutating",
        "optional", "indirect", "isolated", "consuming", "borrowing", "distributed",
    ]
    private static let declarationKeywords: Set<String> = [
        "var", "let", "func", "init", "deinit", "subscript", "enum", "struct", "class", "actor", "protocol",
        "typealias", "case", "extension", "associatedtype", "import", "macro", "operator", "precedencegroup",
    ]

    private static func scan(_ source: String, file: String) -> (classes: [ModelClass], extensions: [ModelClass], candidates: [ModelClass]) {
        let tokens = SwiftLexer.tokenize(source)
        // Where `@NSManaged` is, looked up per class (a scan of each class's body would be quadratic in nested ones).
        let managed = tokens.indices.filter { tokens[$0].kind == .attribute && tokens[$0].text == "NSManaged" }
        var classes: [ModelClass] = []
        var extensions: [ModelClass] = []
        var candidates: [ModelClass] = []
        var attributes: [Attribute] = []
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if token.kind == .attribute {
                let (attribute, next) = readAttribute(tokens, at: i)
                attributes.append(attribute)
                i = next
                continue
            }
            if token.kind == .identifier && modifiers.contains(token.text) {
                i += 1
                continue
            }
            if token.isWord("class") || token.isWord("extension"), i + 1 < tokens.count, tokens[i + 1].kind == .identifier,
               !declarationKeywords.contains(tokens[i + 1].text) {
                let isExtension = token.text == "extension"
                // `extension Schema.Note`: the last component names the class.
                var nameIndex = i + 1
                while nameIndex + 2 < tokens.count, tokens[nameIndex + 1].isPunctuation("."), tokens[nameIndex + 2].kind == .identifier { nameIndex += 2 }
                let name = tokens[nameIndex].text
                guard let open = bodyStart(tokens, from: nameIndex + 1) else {
                    attributes = []
                    i = nameIndex + 1
                    continue
                }
                let close = matchingBrace(tokens, open)
                let inherited = tokens[(nameIndex + 1)..<open].filter { $0.kind == .identifier }.map(\.text)
                let isSwiftData = attributes.contains { $0.name == "Model" }
                // An NSManagedObject subclass, directly or (with `@NSManaged` properties) through a parent
                // entity's class; an empty one whose properties are in extensions is promoted by `parse(files:)`.
                let isCoreData = inherited.contains("NSManagedObject")
                    || (!isExtension && first(of: managed, after: open).map { $0 < close } == true)
                if !isExtension && (isSwiftData || isCoreData) {
                    let objcName = attributes.first { $0.name == "objc" }?.arguments.first { $0.kind == .identifier }?.text
                    let framework: ModelClass.Framework = isSwiftData ? .swiftData : .coreData
                    let members = readMembers(tokens, from: open + 1, to: close, framework: framework)
                    let superclass = inherited.first.flatMap { $0 == "NSManagedObject" || $0 == "PersistentModel" ? nil : $0 }
                    classes.append(ModelClass(entity: objcName ?? name, className: name, framework: framework, superclass: superclass,
                                              file: file, line: token.line, properties: members.properties,
                                              uniques: members.uniques, indexes: members.indexes))
                    i = close + 1
                } else if isExtension {
                    let members = readMembers(tokens, from: open + 1, to: close, framework: .coreData)
                    extensions.append(ModelClass(entity: name, className: name, framework: .coreData, superclass: nil, file: file,
                                                 line: token.line, properties: members.properties, uniques: [], indexes: []))
                    i = close + 1
                } else {
                    // Another class: look inside it for nested models; a subclass of another class may be a
                    // Core Data class whose properties an extension declares (Xcode's category code generation).
                    if token.isWord("class"), let parent = inherited.first, !declarationKeywords.contains(parent) {
                        let objcName = attributes.first { $0.name == "objc" }?.arguments.first { $0.kind == .identifier }?.text
                        candidates.append(ModelClass(entity: objcName ?? name, className: name, framework: .coreData, superclass: parent,
                                                     file: file, line: token.line, properties: [], uniques: [], indexes: []))
                    }
                    i = open + 1
                }
                attributes = []
                continue
            }
            attributes = []
            i += 1
        }
        return (classes, extensions, candidates)
    }

    private struct Attribute {
        var name: String
        var arguments: [SwiftLexer.Token]
    }

    /// The attribute at `i` (`@Attribute(.unique)`) and the index after it.
    private static func readAttribute(_ tokens: SwiftTokens, at i: Int) -> (Attribute, Int) {
        var name = tokens[i].text
        var next = i + 1
        // `@SwiftData.Model`: the last component names it.
        while next + 1 < tokens.count, tokens[next].isPunctuation("."), tokens[next + 1].kind == .identifier {
            name = tokens[next + 1].text
            next += 2
        }
        var arguments: [SwiftLexer.Token] = []
        if next < tokens.count, tokens[next].isPunctuation("("), tokens[next].precededBySpace == false {
            let close = matchingParenthesis(tokens, next)
            // A `(` that is the file's last token has nothing inside it (and no closing parenthesis).
            arguments = close > next ? Array(tokens[(next + 1)..<close]) : []
            next = close + 1
        }
        return (Attribute(name: name, arguments: arguments), next)
    }

    private struct Members {
        var properties: [ModelProperty] = []
        var uniques: [ModelDeclaration] = []
        var indexes: [ModelDeclaration] = []
    }

    private static func readMembers(_ tokens: SwiftTokens, from start: Int, to end: Int, framework: ModelClass.Framework) -> Members {
        var members = Members()
        var attributes: [Attribute] = []
        var memberModifiers: [String] = []
        var i = start
        func reset() {
            attributes = []
            memberModifiers = []
        }
        while i < end {
            let token = tokens[i]
            if token.isPunctuation("{") {
                i = matchingBrace(tokens, i) + 1
                reset()
                continue
            }
            if token.kind == .attribute {
                let (attribute, next) = readAttribute(tokens, at: i)
                attributes.append(attribute)
                i = next
                continue
            }
            if token.kind == .pound && (token.text == "Unique" || token.text == "Index") {
                let (lists, next) = readKeyPathLists(tokens, from: i + 1, end: end)
                let declarations = lists.map { ModelDeclaration(properties: $0, line: token.line) }
                if token.text == "Unique" { members.uniques += declarations } else { members.indexes += declarations }
                i = next
                reset()
                continue
            }
            if token.kind == .identifier && (modifiers.contains(token.text) || (token.text == "class" && i + 1 < end && ["var", "let", "func"].contains(tokens[i + 1].text))) {
                memberModifiers.append(token.text)
                i += 1
                // `private(set)`.
                if i < end, tokens[i].isPunctuation("("), !tokens[i].precededBySpace { i = matchingParenthesis(tokens, i) + 1 }
                continue
            }
            if token.isWord("var") || token.isWord("let") {
                let (property, next) = readProperty(tokens, at: i, end: end, attributes: attributes)
                if let property, !memberModifiers.contains("static"), !memberModifiers.contains("class"),
                   !attributes.contains(where: { $0.name == "Transient" }),
                   framework == .swiftData || (attributes.contains(where: { $0.name == "NSManaged" }) && !Self.isPrimitiveAccessor(property.name)) {
                    members.properties.append(property)
                    if property.isUnique { members.uniques.append(ModelDeclaration(properties: [property.name], line: property.line)) }
                }
                i = next
                reset()
                continue
            }
            if token.kind == .identifier && declarationKeywords.contains(token.text) {
                // A function, initializer or nested type: skip to its body and over it (typealias and case have none).
                if ["func", "init", "deinit", "subscript", "enum", "struct", "class", "actor", "protocol", "extension"].contains(token.text) {
                    // One without a body (a protocol's requirement) ends at the next declaration.
                    var j = i + 1
                    var depth = 0
                    var bodyless = false
                    while j < end {
                        let next = tokens[j]
                        if next.isPunctuation("(") || next.isPunctuation("[") { depth += 1 }
                        if next.isPunctuation(")") || next.isPunctuation("]") { depth -= 1 }
                        if depth <= 0 && next.isPunctuation("{") { break }
                        if depth <= 0 && (next.isPunctuation("}") || (next.kind == .identifier && declarationKeywords.contains(next.text))) {
                            bodyless = true
                            break
                        }
                        j += 1
                    }
                    i = bodyless ? j : j < end ? matchingBrace(tokens, j) + 1 : end
                } else {
                    i += 1
                }
                reset()
                continue
            }
            reset()
            i += 1
        }
        return members
    }

    /// The property declared by the `var`/`let` at `i`, or nil when it is computed or a pattern; and the
    /// index after its declaration.
    private static func readProperty(_ tokens: SwiftTokens, at i: Int, end: Int, attributes: [Attribute]) -> (ModelProperty?, Int) {
        var j = i + 1
        guard j < end, tokens[j].kind == .identifier else { return (nil, j) }
        let name = tokens[j].text
        let line = tokens[i].line
        j += 1
        var type = ""
        if j < end, tokens[j].isPunctuation(":") {
            j += 1
            var depth = 0
            var angle = 0
            while j < end {
                let token = tokens[j]
                if depth == 0 && angle == 0 {
                    if token.isPunctuation("=") || token.isPunctuation("{") || token.isPunctuation(",") || token.isPunctuation("}") || token.isPunctuation(";") { break }
                    if token.kind == .attribute || token.kind == .pound { break }
                    if token.kind == .identifier && (declarationKeywords.contains(token.text) || modifiers.contains(token.text)) { break }
                    // A new line that does not continue the type (no `.`, `&`, `->` or `?` at its start) ends it.
                    if token.startsLine && !type.isEmpty && !(token.kind == .punctuation && ".&-?!>".contains(token.text)) && !type.hasSuffix("->") && !type.hasSuffix("&") { break }
                }
                if token.isPunctuation("(") || token.isPunctuation("[") { depth += 1 }
                if token.isPunctuation(")") || token.isPunctuation("]") { depth -= 1 }
                if token.isPunctuation("<") { angle += 1 }
                if token.isPunctuation(">") && angle > 0 && !type.hasSuffix("-") { angle -= 1 }
                type += token.text
                j += 1
            }
        }
        var isComputed = false
        if j < end, tokens[j].isPunctuation("=") {
            // The initializer runs to the next declaration at its nesting level.
            j += 1
            var depth = 0
            while j < end {
                let token = tokens[j]
                if depth == 0 {
                    if token.kind == .attribute || token.kind == .pound || token.isPunctuation("}") || token.isPunctuation(";") { break }
                    if token.kind == .identifier && (declarationKeywords.contains(token.text) || modifiers.contains(token.text)) { break }
                }
                if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{") { depth += 1 }
                if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation("}") { depth -= 1 }
                j += 1
            }
        } else if j < end, tokens[j].isPunctuation("{") {
            let close = matchingBrace(tokens, j)
            let first = j + 1 < close ? tokens[j + 1].text : ""
            isComputed = first != "willSet" && first != "didSet"
            j = close + 1
        }
        if isComputed { return (nil, j) }
        let attribute = attributes.first { $0.name == "Attribute" }
        let relationship = attributes.first { $0.name == "Relationship" }
        let arguments = (attribute?.arguments ?? []) + (relationship?.arguments ?? [])
        var originalName: String?
        var isUnique = false
        for (offset, token) in arguments.enumerated() {
            if token.isWord("originalName"), offset + 2 < arguments.count, arguments[offset + 1].isPunctuation(":"), arguments[offset + 2].kind == .string {
                originalName = arguments[offset + 2].text
            }
            if token.isWord("unique"), offset > 0, arguments[offset - 1].isPunctuation("."), attribute != nil {
                isUnique = true
            }
        }
        return (ModelProperty(name: name, type: type, originalName: originalName, isUnique: isUnique,
                              isRelationship: relationship != nil, line: line), j)
    }

    /// The key path lists of `<Model>([\.a, \.b], [\.c])` starting at `i` (after `#Unique`), and the index
    /// after the closing parenthesis.
    private static func readKeyPathLists(_ tokens: SwiftTokens, from i: Int, end: Int) -> ([[String]], Int) {
        var j = i
        if j < end, tokens[j].isPunctuation("<") {
            while j < end, !tokens[j].isPunctuation(">") { j += 1 }
            j += 1
        }
        guard j < end, tokens[j].isPunctuation("(") else { return ([], j) }
        let close = matchingParenthesis(tokens, j)
        var lists: [[String]] = []
        var current: [String]?
        var k = j + 1
        while k < close {
            let token = tokens[k]
            if token.isPunctuation("[") {
                current = []
            } else if token.isPunctuation("]") {
                if let list = current, !list.isEmpty { lists.append(list) }
                current = nil
            } else if token.isPunctuation("\\") {
                // `\.a.b` or `\Note.a.b`: the components after the type.
                var m = k + 1
                if m < close, tokens[m].kind == .identifier { m += 1 }
                var components: [String] = []
                while m + 1 < close, tokens[m].isPunctuation("."), tokens[m + 1].kind == .identifier {
                    components.append(tokens[m + 1].text)
                    m += 2
                }
                if !components.isEmpty { current?.append(components.joined(separator: ".")) }
                k = m
                continue
            }
            k += 1
        }
        return (lists, close + 1)
    }

    /// The `{` that opens the body of a declaration whose header starts at `i`.
    /// Nil when the header ends first (at a `}`, a `;` or another declaration's keyword: `class A` alone
    /// on a line), so that each header is read once, not up to the next body.
    private static func bodyStart(_ tokens: SwiftTokens, from i: Int) -> Int? {
        var depth = 0
        var j = i
        while j < tokens.count {
            let token = tokens[j]
            if token.isPunctuation("(") || token.isPunctuation("[") { depth += 1 }
            if token.isPunctuation(")") || token.isPunctuation("]") { depth -= 1 }
            if depth <= 0 && token.isPunctuation("{") { return j }
            if depth <= 0 && (token.isPunctuation("}") || token.isPunctuation(";") || (token.kind == .identifier && declarationKeywords.contains(token.text))) {
                return nil
            }
            j += 1
        }
        return nil
    }

    /// The first of `positions` (ascending) after `index`.
    private static func first(of positions: [Int], after index: Int) -> Int? {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] > index { high = middle } else { low = middle + 1 }
        }
        return low < positions.count ? positions[low] : nil
    }

    private static func matchingBrace(_ tokens: SwiftTokens, _ open: Int) -> Int {
        tokens.closing(open)
    }

    private static func matchingParenthesis(_ tokens: SwiftTokens, _ open: Int) -> Int {
        tokens.closing(open)
    }
}
