import Foundation
import Testing
@testable import IndexAdvisor

/// On a Core Data store the rejected-candidates tables name an entity table's key by the model's names
/// (`Task(isDone)`), as the rest of the report names the entity's indexes and rules, not `ZTASK(ZISDONE)`.
@Suite("rejected candidates in the model's names")
struct RejectedCandidateNamingTests {
    static let schema = """
        CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISDONE INTEGER, ZDUEAT TIMESTAMP, ZTITLE VARCHAR );
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Task', 0, 30000);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO ZTASK SELECT i, 1, 1, (i % 20 != 0), 700000000 + i * 60, 'task ' || i FROM n;
        """

    @Test("a candidate on an entity table is listed as Entity(property, …) in Markdown and HTML")
    func entityNames() throws {
        let workload = """
            -- freq: 50
            SELECT 0, t0.Z_PK, t0.ZTITLE FROM ZTASK t0 WHERE t0.ZISDONE = 1;
            -- freq: 20
            SELECT 0, t0.Z_PK FROM ZTASK t0 WHERE t0.ZDUEAT > 701000000 AND t0.ZDUEAT < 701001000;

            """
        let result = try analyze(Self.schema, workload: workload)
        #expect(result.store.isCoreData)
        let named = result.rejectedCandidates.filter { $0.table == "ZTASK" && $0.properties != nil }
        #expect(!named.isEmpty, "\(result.rejectedCandidates.map(\.displayName))")
        let markdown = checkedRender(result, .markdown)
        let html = checkedRender(result, .html)
        for candidate in named {
            let name = candidate.modelDisplayName(onCoreDataStore: true)
            #expect(name.hasPrefix("Task(") && !name.contains("ZISDONE") && !name.contains("ZDUEAT"), "\(name)")
            #expect(markdown.contains("| `\(name)` |"))
            #expect(html.contains("<code>\(name)</code>"))
        }
        #expect(named.contains { $0.properties == ["isDone"] })
    }

    @Test("without every key column a property, or off a Core Data store, the SQL name stays")
    func sqlNames() {
        var candidate = RejectedCandidate(sql: "CREATE INDEX i ON ZTASK (Z_ENT, ZDUEAT DESC)", table: "ZTASK", columns: ["ZDUEAT DESC"],
                                          partialPredicate: "ZISDONE = 0", readSecondsSaved: 0, writeSecondsAdded: 0, rejection: .candidateLimit(5))
        #expect(candidate.modelDisplayName(onCoreDataStore: true) == "ZTASK(ZDUEAT DESC) WHERE ZISDONE = 0")
        candidate.entity = "Task"
        candidate.properties = ["dueAt DESC"]
        #expect(candidate.modelDisplayName(onCoreDataStore: true) == "Task(dueAt DESC) WHERE ZISDONE = 0")
        #expect(candidate.modelDisplayName(onCoreDataStore: false) == "ZTASK(ZDUEAT DESC) WHERE ZISDONE = 0")
    }
}
