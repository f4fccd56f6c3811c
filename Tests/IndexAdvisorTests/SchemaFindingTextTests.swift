import Testing
import Foundation
@testable import IndexAdvisor

/// The words of each schema-review finding (issue 22: the review measures, the renderers word it), exactly as
/// the reports printed them before, and the JSON report's form.
@Suite("Schema findings in words")
struct SchemaFindingTextTests {
    func finding(_ kind: SchemaFinding.Kind, _ detail: SchemaFindingDetail, table: String = "ZNOTE", columns: [String] = ["ZFOLDER"],
                 index: String? = nil) -> SchemaFinding {
        SchemaFinding(kind: kind, table: table, columns: columns, index: index, bytes: nil, detail: detail)
    }

    @Test("references, by how the column refers")
    func references() {
        #expect(finding(.unindexedReference, .unindexedReference(target: "folder", kind: .foreignKey), table: "note", columns: ["folder_id"]).advice
                == "folder_id is a declared foreign key to folder, with no index: SQLite does not create one for you, so fetching note rows of one folder (and the foreign-key check when a row of folder is deleted) reads the whole table.")
        #expect(finding(.unindexedReference, .unindexedReference(target: "author", kind: .namedLikeReference), table: "book", columns: ["author_id"]).advice
            .hasPrefix("author_id is named like a reference to author to author, with no index"))
        #expect(finding(.unindexedReference, .unindexedReference(target: "ZFOLDER", kind: .toOneRelationship)).advice
            .hasPrefix("ZFOLDER is a to-one relationship (Core Data indexes these itself, as ZNOTE_ZFOLDER_INDEX) to ZFOLDER, with no index"))
    }

    @Test("indexes, statistics and tables")
    func indexes() {
        #expect(finding(.uniqueRule, .uniqueRule, columns: ["ZREMOTEID"], index: "ZNOTE_REMOTE").advice
                == "ZNOTE_REMOTE enforces uniqueness of (ZREMOTEID); the data cannot break it.")
        #expect(finding(.redundantIndex, .redundantIndex(wider: "i2", widerColumns: ["a", "b"], caveat: .uniqueRule), table: "t", columns: ["a"], index: "i1").advice
                == "i1 (a) is a left prefix of i2 (a, b), which serves the same lookups; every insert, delete and update of its columns maintains both. Not to drop: it is UNIQUE: dropping it drops the uniqueness rule.")
        #expect(finding(.tableWithoutIndex, .tableWithoutIndex(rows: 25_000), columns: []).advice
                == "25,000 rows and no index besides the rowid: every lookup by another column reads the whole table. Capture a workload to see which lookups the app makes.")
        #expect(finding(.hierarchyIndex, .hierarchyIndex(entities: 3), table: "ZITEM", columns: ["Z_ENT"], index: "ZITEM_Z_ENT_INDEX").advice
            .hasPrefix("ZITEM holds 3 entities told apart by Z_ENT. Without statistics SQLite may prefer ZITEM_Z_ENT_INDEX (Z_ENT = ?) for a fetch"))
        #expect(finding(.noStatistics, .noStatistics(isCoreData: false), table: "", columns: []).advice
            .hasPrefix("The store has no sqlite_stat1: SQLite picks indexes from the schema alone. Running ANALYZE"))
    }

    @Test("identity columns: what to do next depends on the store")
    func identity() {
        let found = "ZSLUG is present and distinct on all 1,000 rows and named like an identifier, but no unique rule says so."
        #expect(finding(.identityColumn, .identityColumn(rows: 1_000, next: .nothing), columns: ["ZSLUG"]).advice == found)
        #expect(finding(.identityColumn, .identityColumn(rows: 1_000, next: .declareOn(entity: "Note")), columns: ["ZSLUG"]).advice
                == found + " If it identifies a Note, declaring it unique lets SwiftData upsert by it.")
        #expect(finding(.identityColumn, .identityColumn(rows: 1_000, next: .cloudKitForbids), columns: ["ZSLUG"]).advice
                == found + " The store syncs with CloudKit, which does not allow unique constraints: keep it unique in code.")
        #expect(finding(.identityColumn, .identityColumn(rows: 1_000, next: .uniqueIndex), columns: ["ZSLUG"]).advice
                == found + " A UNIQUE index would keep it so and serve lookups by it.")
    }

    @Test("the JSON report keeps the advice in words, and reads it back")
    func json() throws {
        let original = finding(.uniqueRule, .uniqueRule, columns: ["a"], index: "u")
        let data = try JSONEncoder().encode(original)
        let read = try JSONDecoder().decode(SchemaFinding.self, from: data)
        #expect(read.detail == .other("u enforces uniqueness of (a); the data cannot break it."))
        #expect(read.advice == original.advice && read.index == "u")
    }
}
