import Testing
import Foundation
@testable import IndexAdvisor

@Suite("The SQL migration and the Swift code")
struct CodeReportTests {
    @Test("with --model, key paths still guessed (no class matches the entity) are not said to come from the model")
    func guessedKeyPathsBesideAModel() throws {
        // Regression (a new user): a model whose class was TaskItem for the entity Task gave a Swift header
        // "Key paths from the app's model: Models.swift (--model)" above guessed key paths.
        var result = ReportFixture.result(hostile: false)
        result.model = ModelSummary(files: ["Models.swift"], entities: [], notes: ["no class Task in the model source"])
        let swift = checkedRender(result, .swift)
        #expect(result.recommendations.contains { $0.keyPathsAreGuessed })
        #expect(!swift.contains("// Key paths from the app's model: Models.swift (--model)."))
        // The header names each guessed key path with its column (hostile round 6, F9: not a whole table's).
        let first = try #require(result.recommendations.first)
        let column = try #require(first.columns.first)
        #expect(swift.contains("except these, which no class or property of the model matched and are guessed from the column names: on \(first.table), \(column.keyPath ?? "") (\(column.name))"))
    }

    @Test("the SQL migration: quoted CREATE and DROP statements one per line, each after a comment; names cannot end a comment")
    func sqlMigration() {
        let sql = checkedRender(ReportFixture.result(), .sql)
        let lines = sql.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("-- ") || ["BEGIN;", "COMMIT;"].contains($0) || $0.hasPrefix("CREATE INDEX IF NOT EXISTS \"") || $0.hasPrefix("DROP INDEX IF EXISTS \"") })
        let statements = lines.filter { !$0.hasPrefix("--") }
        #expect(statements == [
            "BEGIN;",
            #"CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt" ON "<script>alert(1)</script>" ("</style><b>x", "a|b`c");"#,
            #"DROP INDEX IF EXISTS "idx_""onmouseover=""alert(1)'x";"#,
            "COMMIT;",
        ])
        // Each statement follows a comment that says what it does.
        for (offset, line) in lines.enumerated() where line.hasPrefix("CREATE") || line.hasPrefix("DROP") {
            #expect(lines[offset - 1].hasPrefix("-- "))
        }
        #expect(sql.contains("-- 1. for S1: saves 7.13 s of reads, adds 1.19 ms of writes per workload; built in 107.2 ms, 2.9 MiB."))
        #expect(sql.contains("Core Data / SwiftData store: adding an index is a schema change."))
        #expect(SQLReport.comment("a\nDROP TABLE x; --\u{2028}b") == "-- a DROP TABLE x; -- b")
        var empty = ReportFixture.result(hostile: false)
        empty.recommendations = []
        empty.existingIndexes = []
        for index in empty.statements.indices { empty.statements[index].usesRecommendations = [] }
        #expect(checkedRender(empty, .sql).hasSuffix("-- No index to add or drop for this workload.\n"))
    }

    @Test("the Swift format groups #Index and #Unique per model, says where the key paths come from, and leaves out what the model declares")
    func swiftFormat() {
        var result = ReportFixture.result(hostile: false)
        let swift = checkedRender(result, .swift)
        // No model said which framework declares Note: both forms, each saying when it applies, never "inside @Model".
        #expect(swift.contains("// If Note is a SwiftData @Model class, inside it:\n#Index<Note>([\\.folderID, \\.updatedAt])\n#Unique<Note>([\\.folderID])\n"))
        #expect(!swift.contains("Inside @Model"))
        #expect(swift.contains("some are guesses"))
        #expect(swift.contains("Building them took 107.2 ms on this store"))
        // Regression (a new user): nothing said the macros need iOS 18; an app targeting iOS 17 does not compile them.
        #expect(swift.contains("// #Index and #Unique need iOS 18, macOS 15, tvOS 18 or watchOS 11 as the deployment target."))
        // Regression (a new user): the Xcode model's fetch index was named Z_Note_…, which Core Data would store
        // as Z_Note_Z_Note_…, not the index the SQL migration builds.
        #expect(swift.contains("// For an entity of a Core Data model (.xcdatamodeld) rather than a SwiftData @Model class:"))
        #expect(swift.contains("//   Fetch index SwiftDataIndexOnBinaryfolderIDupdatedAt (Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt in the store): select the entity Note,"))
        #expect(swift.contains("//     <fetchIndex name=\"SwiftDataIndexOnBinaryfolderIDupdatedAt\">\n//         <fetchIndexElement property=\"folderID\" type=\"Binary\" order=\"ascending\"/>\n"))
        result.recommendations[0].declaredInModel = "Note.swift:9"
        let declared = checkedRender(result, .swift)
        #expect(!declared.contains("\n#Index<Note>"))
        #expect(declared.contains("is already declared at Note.swift:9"))
        result.store.isCoreData = false
        #expect(checkedRender(result, .swift).contains("not a Core Data / SwiftData store"))
    }
}
