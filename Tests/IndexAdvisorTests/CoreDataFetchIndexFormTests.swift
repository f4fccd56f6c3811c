import Testing
import Foundation
@testable import IndexAdvisor

/// A Core Data entity's fetch index can be partial (`partialIndexPredicate`) and have descending elements
/// (`isAscending`): when the model says an entity is Core Data's, those forms compete in the recommended
/// set and ship as fetch indexes; for a SwiftData `@Model` (whose `#Index` has neither) they stay
/// alternatives. A reminders store of my own: snoozed reminders (0.25 % of rows) are swept by
/// `IS NOT NULL`, and a list is read by priority, highest first, then due date.
@Suite("Fetch-index forms on Core Data entities")
struct CoreDataFetchIndexFormTests {
    static let schema = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1,'Reminder',0,48000);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE ZREMINDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLISTID INTEGER, ZPRIORITY INTEGER,
                                ZDUEDATE TIMESTAMP, ZSNOOZEDUNTIL TIMESTAMP, ZTITLE VARCHAR);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 48000)
        INSERT INTO ZREMINDER SELECT i, 1, 1, 1 + (i * 37) % 12, i % 5, 780000000.0 + (i * 7919) % 40000 * 60,
               CASE WHEN i % 400 = 0 THEN 790000000.0 + i END, printf('Reminder %d %.*c', i, 20 + i % 40, 'r') FROM n;
        """
    static let workload = """
        -- freq: 60
        SELECT t0.Z_ENT, t0.Z_PK, t0.ZSNOOZEDUNTIL, t0.ZTITLE FROM ZREMINDER t0 WHERE t0.ZSNOOZEDUNTIL IS NOT NULL;
        -- freq: 300
        SELECT t0.Z_ENT, t0.Z_PK, t0.ZTITLE, t0.ZPRIORITY, t0.ZDUEDATE FROM ZREMINDER t0 WHERE t0.ZLISTID = 7 ORDER BY t0.ZPRIORITY DESC, t0.ZDUEDATE LIMIT 30;
        -- freq: 100
        INSERT INTO ZREMINDER(Z_PK, Z_ENT, Z_OPT, ZLISTID, ZPRIORITY, ZDUEDATE, ZTITLE) VALUES (48001, 1, 1, 3, 2, 790000000.0, 'new');
        """
    static let coreDataModel = """
        import CoreData

        @objc(Reminder)
        public class Reminder: NSManagedObject {
            @NSManaged public var listID: Int64
            @NSManaged public var priority: Int16
            @NSManaged public var dueDate: Date?
            @NSManaged public var snoozedUntil: Date?
            @NSManaged public var title: String?
        }
        """
    static let swiftDataModel = """
        import SwiftData

        @Model
        final class Reminder {
            var listID: Int
            var priority: Int
            var dueDate: Date?
            var snoozedUntil: Date?
            var title: String
            init(listID: Int, priority: Int, title: String) { self.listID = listID; self.priority = priority; self.title = title }
        }
        """

    func analyze(model: String) throws -> AnalysisResult {
        let store = try FixtureStore(Self.schema)
        let source = ModelSource(files: ["Reminder.swift"], classes: ModelSourceReader.parse(model, file: "Reminder.swift"))
        var options = quickOptions()
        options.coreDataEntities = ModelMapping.coreDataEntities(in: source)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql), options: options)
        return ModelMapping.apply(source, to: result)
    }

    @Test("the model's Core Data entities are the ones whose fetch indexes may be partial or descending")
    func coreDataEntities() {
        #expect(ModelMapping.coreDataEntities(in: ModelSource(files: ["R.swift"], classes: ModelSourceReader.parse(Self.coreDataModel, file: "R.swift"))) == ["Reminder"])
        #expect(ModelMapping.coreDataEntities(in: ModelSource(files: ["R.swift"], classes: ModelSourceReader.parse(Self.swiftDataModel, file: "R.swift"))).isEmpty)
    }

    @Test("a Core Data entity gets its partial and descending fetch indexes in the recommended set, with their predicate and directions")
    func coreDataRecommends() throws {
        let result = try analyze(model: Self.coreDataModel)
        expectTrueReport(result)
        let partial = try #require(result.recommendations.first { $0.partialPredicate != nil }, "\(result.recommendations.map(\.sql))")
        #expect(partial.partialPredicate == "\"ZSNOOZEDUNTIL\" IS NOT NULL")
        #expect(partial.fetchIndex?.partialIndexPredicate == "snoozedUntil != nil")
        #expect(partial.swiftDataIndex == nil)
        let directed = try #require(result.recommendations.first { $0.columns.contains(where: \.isDescending) }, "\(result.recommendations.map(\.sql))")
        #expect(directed.columns.map(\.name) == ["ZLISTID", "ZPRIORITY", "ZDUEDATE"])
        #expect(directed.fetchIndex?.elements.map(\.isAscending) == [true, false, true])
        #expect(directed.fetchIndex?.elements.map(\.property) == ["listID", "priority", "dueDate"])
        #expect(result.alternatives?.isEmpty ?? true)
        // The code to paste is Core Data's, with the predicate and the direction; no #Index.
        let swift = SwiftReport.render(result)
        #expect(swift.contains("partialIndexPredicate = NSPredicate(format: \"snoozedUntil != nil\")"), "\(swift)")
        #expect(swift.contains("element(entity, \"priority\", ascending: false)"), "\(swift)")
        #expect(!swift.contains("#Index<"))
        #expect(directed.fetchIndex?.name == "byListIDPriorityDueDate")
        #expect(partial.fetchIndex?.name == "bySnoozedUntilPartial")
        #expect(partial.name == "Z_Reminder_bySnoozedUntilPartial")
        // The migration builds what Core Data would: the same key, order and predicate.
        let sql = SQLReport.render(result, queryAdvice: false)
        #expect(sql.contains("WHERE \"ZSNOOZEDUNTIL\" IS NOT NULL"), "\(sql)")
    }

    // Regression (hostile round 6, F4): the SQL literal was copied into the format (`size == 'it''s'`), which
    // NSPredicate's grammar reads otherwise: `''` is no escape there, and `size` is one of its words.
    @Test("a partial index's predicate is written in NSPredicate's grammar: strings, reserved words, numbers")
    func predicateGrammar() {
        let names = ["ZSIZE": "size", "ZKIND": "kind", "ZFIRST": "first", "ZNOTE": "note", "ZSCORE": "score"]
        func format(_ sql: String) -> String? { AlternativeShipping.fetchIndexPredicate(sql) { names[$0] } }
        #expect(format("\"ZKIND\" = 'it''s'") == #"kind == "it's""#)
        #expect(format("\"ZNOTE\" = 'a \"b\" \\ c'") == #"note == "a \"b\" \\ c""#)
        #expect(format("\"ZSIZE\" = 3") == "#size == 3")
        #expect(format("\"ZFIRST\" IS NOT NULL") == "#first != nil")
        #expect(format("\"ZSCORE\" = -2.5") == "score == -2.5")
        #expect(format("\"ZSCORE\" = x'00'") == nil)
        #expect(format("\"ZOTHER\" = 1") == nil)
    }

    @Test("a SwiftData @Model keeps those forms as alternatives beside what #Index declares")
    func swiftDataKeepsAlternatives() throws {
        let result = try analyze(model: Self.swiftDataModel)
        expectTrueReport(result)
        #expect(!result.recommendations.contains { $0.partialPredicate != nil || $0.columns.contains(where: \.isDescending) })
        #expect(result.recommendations.allSatisfy { $0.swiftDataIndex != nil })
        let alternatives = result.alternatives ?? []
        #expect(alternatives.contains { $0.partialPredicate == "\"ZSNOOZEDUNTIL\" IS NOT NULL" }, "\(alternatives.map(\.sql))")
    }
}
