import Testing
import Foundation
@testable import IndexAdvisor

/// A SwiftData model as apps write it: nested in a VersionedSchema, with originalName, relationships both
/// ways, camel-case names with acronyms, declared #Unique/#Index, computed, static and transient
/// properties, observers, and braces inside comments and strings.
let sampleModel = #"""
    import Foundation
    import SwiftData

    enum NotesSchemaV2: VersionedSchema {
        static var versionIdentifier = Schema.Version(2, 0, 0)
        static var models: [any PersistentModel.Type] { [Note.self, Folder.self, Tag.self] }

        @Model
        final class Folder {
            @Attribute(.unique) var name: String
            @Relationship(deleteRule: .cascade, inverse: \Note.folder) var notes: [Note] = []
            init(name: String) { self.name = name }
        }

        @Model final class Note {
            #Unique<Note>([\.remoteID], [\.folderID, \.slug])
            #Index<Note>([\.folderID, \.updatedAt])

            var remoteID: String
            var folderID: UUID   // a } in a comment
            var slug: String = "untitled {draft}"
            @Attribute(originalName: "name") var title: String
            /* var hidden: Int { /* nested */ } */
            var body: String = #"raw "quoted" { brace"#
            var isArchived: Bool = false {
                didSet { print("changed \(oldValue) {") }
            }
            private(set) var updatedAt: Date = .now
            var folder: Folder?
            @Relationship(originalName: "labels") var tags: [Tag]? = []
            @Attribute(.externalStorage) var attachment: Data?
            @Transient var isSelected = false
            static let defaultSlug = "x"
            var preview: String {
                String(body.prefix(80))
            }
            var summary: String { "\(title): \(body.count) {chars}" }

            init(remoteID: String, folderID: UUID, slug: String, title: String) {
                self.remoteID = remoteID
                var local = 1
                local += 1
                self.folderID = folderID
                self.slug = slug
                self.title = title
                self.body = ""
            }

            func touch() { updatedAt = .now; let x = 1; _ = x }
        }

        @Model final class Tag { var label: String; init(label: String) { self.label = label } }
    }
    """#

@Suite("Reading the app's model from Swift source")
struct ModelSourceTests {
    @Test("@Model classes, nested in a VersionedSchema: stored properties only, originalName, relationships, #Unique, #Index")
    func swiftDataClasses() throws {
        let classes = ModelSourceReader.parse(sampleModel, file: "Schema.swift")
        #expect(classes.map(\.entity) == ["Folder", "Note", "Tag"])
        let note = try #require(classes.first { $0.entity == "Note" })
        #expect(note.framework == .swiftData)
        #expect(note.location == "Schema.swift:15")
        #expect(note.properties.map(\.name) == ["remoteID", "folderID", "slug", "title", "body", "isArchived", "updatedAt", "folder", "tags", "attachment"])
        #expect(note.properties.map(\.type) == ["String", "UUID", "String", "String", "String", "Bool", "Date", "Folder?", "[Tag]?", "Data?"])
        let title = try #require(note.properties.first { $0.name == "title" })
        #expect(title.originalName == "name" && title.columnName == "ZNAME")
        #expect(note.properties.first { $0.name == "folderID" }?.columnName == "ZFOLDERID")
        #expect(note.properties.first { $0.name == "tags" }.map { ($0.isRelationship, $0.originalName, $0.elementType) } ?? (false, nil, nil) == (true, "labels", "Tag"))
        #expect(note.uniques.map(\.properties) == [["remoteID"], ["folderID", "slug"]])
        #expect(note.indexes.map(\.properties) == [["folderID", "updatedAt"]])
        let folder = try #require(classes.first { $0.entity == "Folder" })
        #expect(folder.properties.map(\.name) == ["name", "notes"])
        #expect(folder.uniques.map(\.properties) == [["name"]])
        #expect(classes.first { $0.entity == "Tag" }?.properties.map(\.name) == ["label"])
    }

    @Test("Core Data: an NSManagedObject subclass with @objc(Name) and @NSManaged properties in an extension")
    func coreDataClasses() {
        let source = """
            import CoreData
            @objc(Item)
            public class ItemMO: NSManagedObject {
                var transientHelper: Int = 0
            }
            extension ItemMO {
                @NSManaged public var createdAt: Date?
                @NSManaged public var ownerID: Int64
                @NSManaged public var owner: Person?
                public var display: String { "x" }
            }
            """
        let classes = ModelSourceReader.parse(source, file: "Item.swift")
        #expect(classes.map(\.entity) == ["Item"])
        #expect(classes.first?.className == "ItemMO")
        #expect(classes.first?.framework == .coreData)
        #expect(classes.first?.properties.map(\.name) == ["createdAt", "ownerID", "owner"])
    }

    @Test("files and folders are read; a missing path or a folder without Swift files is an error naming it")
    func paths() throws {
        let directory = try TemporaryDirectory()
        let models = directory.url.appendingPathComponent("Models", isDirectory: true)
        try FileManager.default.createDirectory(at: models.appendingPathComponent("Sub"), withIntermediateDirectories: true)
        try Data(sampleModel.utf8).write(to: models.appendingPathComponent("Sub/Schema.swift"))
        try Data("struct NotAModel {}".utf8).write(to: models.appendingPathComponent("Other.swift"))
        try Data("not swift".utf8).write(to: models.appendingPathComponent("README.md"))
        let source = try ModelSourceReader.read(paths: [models.path])
        #expect(source.files == ["Other.swift", "Schema.swift"])
        #expect(source.classes.map(\.entity) == ["Folder", "Note", "Tag"])
        let missing = directory.url.appendingPathComponent("nope.swift").path
        #expect(throws: ModelSourceError.notFound(path: missing)) { try ModelSourceReader.read(paths: [missing]) }
        let empty = directory.url.appendingPathComponent("Empty", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(throws: ModelSourceError.noSwiftFiles(path: empty.path)) { try ModelSourceReader.read(paths: [empty.path]) }
    }

    /// A Core Data result whose names were guessed from the store: ZNAME became `name` (the model calls it
    /// `title`, originalName "name"), ZFOLDER is the to-one relationship `folder`.
    func guessedResult() -> AnalysisResult {
        var result = ReportFixture.result(hostile: false)
        let old = "Z_Note_SwiftDataIndexOnBinaryfoldername"
        result.store.tables = [
            TableSummary(name: "ZNOTE", entities: ["Note"], rows: 100, sampledRows: nil, columns: 12, indexes: [], columnStatistics: []),
            TableSummary(name: "ZFOLDER", entities: ["Folder"], rows: 10, sampledRows: nil, columns: 4, indexes: [], columnStatistics: []),
        ]
        var recommendation = result.recommendations[0]
        recommendation.name = old
        recommendation.table = "ZNOTE"
        recommendation.columns = [RecommendedColumn(name: "ZFOLDER", isDescending: false, collation: "BINARY", keyPath: "\\.folder"),
                                  RecommendedColumn(name: "ZNAME", isDescending: false, collation: "BINARY", keyPath: "\\.name")]
        recommendation.sql = #"CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfoldername" ON "ZNOTE" ("ZFOLDER", "ZNAME")"#
        recommendation.swiftDataIndex = #"#Index<Note>([\.folder, \.name])"#
        var declared = result.recommendations[0]
        declared.rank = 2
        declared.name = "Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt"
        declared.table = "ZNOTE"
        declared.columns = [RecommendedColumn(name: "ZFOLDERID", isDescending: false, collation: "BINARY", keyPath: "\\.folderId"),
                            RecommendedColumn(name: "ZUPDATEDAT", isDescending: false, collation: "BINARY", keyPath: "\\.updatedAt")]
        declared.swiftDataIndex = #"#Index<Note>([\.folderId, \.updatedAt])"#
        result.recommendations = [recommendation, declared]
        let detail = "SEARCH t0 USING INDEX \(old) (ZFOLDER=? AND ZNAME=?)"
        result.statements[0].planAfter = QueryPlan(steps: [.init(id: 3, parent: 0, detail: detail)],
                                                   findings: [PlanFinding(kind: .indexSearch, table: "ZNOTE", alias: "t0", index: old, constraints: nil, detail: detail, tableRows: 100)])
        result.statements[0].usesRecommendations = [old]
        result.rejectedCandidates[0].reason = "a left prefix of the recommended \(old), which serves it; not \(old)_2"
        result.existingIndexes = []
        result.uniqueness = [
            UniquenessFinding(origin: .proposed, table: "ZNOTE", columns: ["ZREMOTEID"], violatingRows: 0, duplicateValues: 0, nullRows: 0,
                              tableRows: 100, swiftDataUnique: #"#Unique<Note>([\.remoteId])"#, verdict: .other("unique in the data.")),
            UniquenessFinding(origin: .proposed, table: "ZNOTE", columns: ["ZSLUG"], violatingRows: 0, duplicateValues: 0, nullRows: 0,
                              tableRows: 100, swiftDataUnique: #"#Unique<Note>([\.slugx])"#, verdict: .other("unique in the data.")),
        ]
        return result
    }

    @Test("--model gives exact key paths: originalName, a to-one relationship, camel case; the index is renamed everywhere")
    func mapping() throws {
        let source = ModelSource(files: ["Schema.swift"], classes: ModelSourceReader.parse(sampleModel, file: "Schema.swift"))
        let result = ModelMapping.apply(source, to: guessedResult())
        let first = result.recommendations[0]
        let new = "Z_Note_SwiftDataIndexOnBinaryfoldertitle"
        #expect(first.columns.map(\.keyPath) == ["\\.folder", "\\.title"])
        #expect(!first.keyPathsAreGuessed)
        #expect(first.swiftDataIndex == #"#Index<Note>([\.folder, \.title])"#)
        #expect(first.name == new)
        #expect(first.sql == #"CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfoldertitle" ON "ZNOTE" ("ZFOLDER", "ZNAME")"#)
        #expect(result.statements[0].usesRecommendations == [new])
        #expect(result.statements[0].planAfter?.steps.first?.detail == "SEARCH t0 USING INDEX \(new) (ZFOLDER=? AND ZNAME=?)")
        #expect(result.statements[0].planAfter?.findings.first?.index == new)
        #expect(result.rejectedCandidates[0].reason == "a left prefix of the recommended \(new), which serves it; not Z_Note_SwiftDataIndexOnBinaryfoldername_2")
        // The second is declared in the model already: exact paths, marked, and left out of the code to paste.
        let second = result.recommendations[1]
        #expect(second.columns.map(\.keyPath) == ["\\.folderID", "\\.updatedAt"])
        #expect(second.declaredInModel == "Schema.swift:17")
        #expect(second.name == "Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt")
        #expect(SwiftDataCode.declarations(for: result.recommendations) == [#"#Index<Note>([\.folder, \.title])"#])
        // Uniqueness: declared in the model → not proposed again; otherwise the model's spelling.
        #expect(result.uniqueness[0].swiftDataUnique == nil)
        #expect(result.uniqueness[0].advice.contains("Your model already declares it (Schema.swift:16)"))
        #expect(result.uniqueness[1].swiftDataUnique == #"#Unique<Note>([\.slug])"#)
        let model = try #require(result.model)
        #expect(model.files == ["Schema.swift"])
        #expect(model.entities.map(\.entity) == ["Note", "Folder"])
        let note = try #require(model.entities.first)
        #expect(note.table == "ZNOTE" && note.declaredAt == "Schema.swift:15")
        #expect(note.properties.contains(PropertyMapping(column: "ZNAME", property: "title", kind: .attribute, originalName: "name")))
        #expect(note.properties.contains(PropertyMapping(column: "ZFOLDER", property: "folder", kind: .toOneRelationship)))
        #expect(!note.properties.contains { $0.property == "tags" || $0.property == "isSelected" || $0.property == "preview" })
        #expect(model.notes.isEmpty)
        #expect(result.keyPathsComeFromModel)
        // The renderers say where the names came from.
        #expect(checkedRender(result, .markdown).contains("(key paths from `Schema.swift`)"))
        #expect(checkedRender(result, .html).contains("key paths from your model"))
    }

    @Test("what the model cannot name stays as recovered from the store, and says so")
    func unmapped() {
        let source = ModelSource(files: ["Other.swift"], classes: ModelSourceReader.parse("@Model final class Folder { var name: String }", file: "Other.swift"))
        let input = guessedResult()
        let result = ModelMapping.apply(source, to: input)
        #expect(result.recommendations.map(\.name) == input.recommendations.map(\.name))
        #expect(result.recommendations.map(\.keyPathsAreGuessed) == [true, true])
        #expect(result.model?.notes == ["no class Note in the model source: key paths on ZNOTE stay as recovered from the store"])
        var plain = input
        plain.store.isCoreData = false
        #expect(ModelMapping.apply(source, to: plain).model?.notes == ["the store is not a Core Data / SwiftData store, so its columns are not named after the model"])
    }

    @Test("the model's #Unique and @Attribute(.unique) become uniqueness rules on Core Data's tables")
    func declaredRules() {
        let source = ModelSource(files: ["Schema.swift"], classes: ModelSourceReader.parse(sampleModel, file: "Schema.swift"))
        #expect(ModelMapping.declaredUniqueRules(in: source) == [
            UniqueRule(table: "ZFOLDER", columns: ["ZNAME"]),
            UniqueRule(table: "ZNOTE", columns: ["ZREMOTEID"]),
            UniqueRule(table: "ZNOTE", columns: ["ZFOLDERID", "ZSLUG"]),
        ])
    }

    @Test("a whole-identifier rename leaves longer names alone")
    func rename() {
        #expect("use idx_a, idx_ab and (idx_a)".replacingIdentifier("idx_a", with: "X") == "use X, idx_ab and (X)")
        #expect("idx_a_2 idx_a".replacingIdentifier("idx_a", with: "X") == "idx_a_2 X")
    }
}

@Suite("Reading --model files as --source reads them")
struct ModelFileReadingTests {
    @Test("a UTF-16 model file with a byte-order mark is read; a FIFO is refused as not a regular file")
    func readsAsSourceDoes() throws {
        // Regression (a breaking helper): --model refused a UTF-16 file that --source read, and called a FIFO
        // "no permission".
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("Model.swift")
        let text = "import SwiftData\n@Model final class Note {\n    var title: String = \"\"\n}\n"
        try #require(text.data(using: .utf16)).write(to: file)  // Foundation writes the byte-order mark
        let model = try ModelSourceReader.read(paths: [file.path])
        #expect(model.classes.map(\.className) == ["Note"])
        let fifo = directory.url.appendingPathComponent("pipe.swift").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ModelSourceError.self) { try ModelSourceReader.read(paths: [fifo]) }
        do {
            _ = try ModelSourceReader.read(paths: [fifo])
        } catch {
            #expect("\(error)".contains("not a regular file"))
        }
    }
}
