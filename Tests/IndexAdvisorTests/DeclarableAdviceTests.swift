import Testing
import Foundation
@testable import IndexAdvisor

/// On a Core Data or SwiftData store, the advice is what the model can declare.
@Suite("Advice a SwiftData model can declare")
struct DeclarableAdviceTests {
    static let model = """
        import SwiftData

        @Model
        final class Diary {
            var name: String
            @Relationship(deleteRule: .cascade, inverse: \\Page.diary) var pages: [Page] = []
            init(name: String) { self.name = name }
        }

        @Model
        final class Page {
            @Attribute(.unique) var cloudID: String
            var diary: Diary?
            @Attribute(originalName: "written") var writtenAt: Date
            var rating: Int
            var isHidden: Bool
            var summary: String
            init(cloudID: String, writtenAt: Date, rating: Int, isHidden: Bool, summary: String) {
                self.cloudID = cloudID; self.writtenAt = writtenAt; self.rating = rating; self.isHidden = isHidden; self.summary = summary
            }
        }
        """

    // Regression (shared repro swiftdata-covering, here with other names): the pick was
    // (ZMOODSCORE, ZISDRAFT, ZCREATED, Z_OPT, ZHEADLINE): Core Data's optimistic-locking counter is no
    // property, so no #Index could name it and the report had no #Index line at all.
    @Test("a fetch reading Z_OPT and an attribute gets an #Index on its filter and sort key paths, never Z_OPT")
    func noCoveringOnEntityTables() throws {
        let store = try FixtureStore("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1,'Page',0,70000),(2,'Diary',0,30);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE ZDIARY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZPAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDIARY INTEGER, ZWRITTEN TIMESTAMP,
                                ZRATING INTEGER, ZISHIDDEN INTEGER, ZCLOUDID VARCHAR, ZSUMMARY VARCHAR);
            CREATE INDEX ZPAGE_ZDIARY_INDEX ON ZPAGE (ZDIARY);
            CREATE UNIQUE INDEX Z_Page_UNIQUE_cloudID ON ZPAGE (ZCLOUDID COLLATE BINARY ASC);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<30) INSERT INTO ZDIARY SELECT i, 2, 1, 'd'||i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<70000)
            INSERT INTO ZPAGE SELECT i, 1, 1, 1 + (i*11)%30, 700000000 + i*577.0, i%8, (i%11=0), printf('%08X-c', i), 'summary '||i FROM n;
            """)
        let workload = WorkloadLoader.parse("""
            -- freq: 200
            SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZSUMMARY, t0.ZWRITTEN FROM ZPAGE t0 WHERE ( t0.ZISHIDDEN = 0 AND t0.ZRATING = 5) ORDER BY t0.ZWRITTEN DESC;
            -- freq: 5
            INSERT INTO ZPAGE(Z_PK, Z_ENT, Z_OPT, ZDIARY, ZWRITTEN, ZRATING, ZISHIDDEN, ZCLOUDID, ZSUMMARY) VALUES(70001, 1, 1, 3, 750000000.0, 4, 0, 'new-c', 'hello');
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        let mapped = ModelMapping.apply(ModelSource(files: ["Page.swift"], classes: ModelSourceReader.parse(Self.model, file: "Page.swift")), to: result)
        let top = try #require(mapped.recommendations.first)
        #expect(!mapped.recommendations.contains { $0.columns.contains { ["Z_OPT", "Z_ENT", "Z_PK"].contains($0.name) } })
        let index = try #require(top.swiftDataIndex)
        #expect(index == #"#Index<Page>([\.isHidden, \.rating, \.writtenAt])"# || index == #"#Index<Page>([\.rating, \.isHidden, \.writtenAt])"#, "\(index)")
        #expect(!top.keyPathsAreGuessed)
    }

    /// shared/repros/swiftdata-covering as it is (copied to Fixtures/repros, so that a clean clone has it):
    /// issue 15's must-hold, an `#Index<Entry>` on `isDraft`, `moodScore` and `createdAt` (equality columns in
    /// either order, then the sort) with the model's key paths, and no `Z_OPT`.
    @Test("shared/repros/swiftdata-covering gets #Index<Entry> on isDraft, moodScore, createdAt with the model's key paths, no Z_OPT")
    func sharedRepro() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/repros/swiftdata-covering")
        let store = try FixtureStore(String(contentsOf: folder.appendingPathComponent("schema.sql"), encoding: .utf8))
        let workload = try WorkloadLoader.load([folder.appendingPathComponent("workload.sql")])
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        let model = try String(contentsOf: folder.appendingPathComponent("Models/Entry.swift"), encoding: .utf8)
        let mapped = ModelMapping.apply(ModelSource(files: ["Entry.swift"], classes: ModelSourceReader.parse(model, file: "Entry.swift")), to: result)
        expectTrueReport(mapped)
        #expect(!mapped.recommendations.contains { $0.columns.contains { $0.name == "Z_OPT" } })
        let indexes = mapped.recommendations.compactMap(\.swiftDataIndex)
        #expect(indexes.contains(#"#Index<Entry>([\.isDraft, \.moodScore, \.createdAt])"#)
                || indexes.contains(#"#Index<Entry>([\.moodScore, \.isDraft, \.createdAt])"#), "\(indexes)")
        #expect(mapped.recommendations.allSatisfy { !$0.keyPathsAreGuessed })
        #expect(SwiftReport.render(mapped).contains("#Index<Entry>"))
    }
}
