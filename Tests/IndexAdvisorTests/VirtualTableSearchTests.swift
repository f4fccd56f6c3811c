import Testing
import Foundation
@testable import IndexAdvisor

/// A full-text search names the FTS5 table's hidden column (`WHERE note_fts MATCH ?`): its shape is read,
/// and the statement is said to be answered by the virtual table's module, not "no such column".
@Suite("Searches on virtual tables")
struct VirtualTableSearchTests {
    static let schema = """
        CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT, body TEXT, folder INTEGER);
        CREATE VIRTUAL TABLE note_fts USING fts5(title, body, content='note', content_rowid='id');
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
        INSERT INTO note SELECT i, 'title ' || i, 'body text number ' || i || ' lorem ipsum', i % 50 FROM n;
        INSERT INTO note_fts(note_fts) VALUES ('rebuild');
        CREATE VIRTUAL TABLE tag_fts USING fts5(name);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO tag_fts(name) SELECT 'tag ' || i FROM n;
        """

    @Test("a MATCH on the table-named column, joined or alone: shaped, no error, and the reason names the virtual table")
    func matchOnHiddenColumn() throws {
        let store = try FixtureStore(Self.schema)
        let workload = WorkloadLoader.parse("""
            -- freq: 50
            SELECT n.id, n.title FROM note n JOIN note_fts f ON f.rowid = n.id WHERE note_fts MATCH 'lorem' ORDER BY n.id LIMIT 20;
            -- freq: 50
            SELECT rowid FROM note_fts WHERE note_fts MATCH 'number 77*' ORDER BY rank;
            -- freq: 10
            SELECT * FROM note WHERE folder = 3 ORDER BY title;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(result.statements.count == 3)
        for statement in result.statements.prefix(2) {
            #expect(statement.error == nil)
            let shape = try #require(statement.shapeSummary, "no shape for \(statement.sql)")
            #expect(shape.contains("note_fts MATCH"), "\(shape)")
            #expect(!statement.notes.map(\.text).joined().contains("no such column"))
        }
        // The join sorts the search's rows (a temp B-tree): the reason it gets no index is the virtual table's.
        let joined = result.statements[0]
        #expect(joined.planBefore?.steps.contains { $0.detail.contains("USE TEMP B-TREE FOR ORDER BY") } == true)
        #expect(joined.notes.contains(.noRecommendation(.virtualTableSearch(tables: ["note_fts"], othersCovered: true))), "\(joined.notes.map(\.text))")
        #expect(NoRecommendationReason.virtualTableSearch(tables: ["note_fts"], othersCovered: true).text
                == "no index recommended: it searches `note_fts`, a virtual table whose own module answers the search (no index can serve it), and an index exists already on each of its other filter and sort columns")
        // The ordinary table's statement still gets its index.
        #expect(result.recommendations.first?.columns.first?.name == "folder")
    }

    // A breaking helper's workload read an FTS5 table's content shadow table by its column and got
    // `CREATE INDEX … ON "tag_fts_content"`, an index inside the module's own storage.
    @Test("a shadow table of a virtual table gets no index, and its statement says whose table it is")
    func shadowTable() throws {
        let store = try FixtureStore(Self.schema)
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT * FROM tag_fts_content WHERE c0 = 'tag 77';
            -- freq: 10
            SELECT * FROM note WHERE folder = 3 ORDER BY title;
            """, file: "w.sql", format: .sql)
        let reader = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let schema = try SchemaReader.read(from: reader)
        #expect(schema.table(named: "tag_fts_content")?.isShadow == true)
        #expect(schema.table(named: "tag_fts")?.isVirtual == true && schema.table(named: "note")?.isIndexable == true)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(!result.recommendations.contains { $0.table == "tag_fts_content" })
        #expect(!result.rejectedCandidates.contains { $0.table == "tag_fts_content" })
        let shadowRead = result.statements[0]
        #expect(shadowRead.notes.contains(.noRecommendation(.virtualTableSearch(tables: [], shadow: ["tag_fts_content"]))), "\(shadowRead.notes.map(\.text))")
        #expect(NoRecommendationReason.virtualTableSearch(tables: [], shadow: ["tag_fts_content"]).text
                == "no index recommended: it reads `tag_fts_content`, a table that a virtual table's module keeps for itself (its shadow table), where an index is the module's to make, not the app's")
    }

    // A breaking helper: `note_fts MATCH ?` drew an empty value ("fts5: syntax error", and `check` failed CI
    // on it), and `subject MATCH ?` drew "re: lunch?" ("no such column: re") on 10 of 12 value sets.
    @Test("a drawn MATCH value is the first word of the row's text, quoted: every drawn set runs and finds rows")
    func drawnMatchValues() throws {
        let table = Table(name: "msg", columns: [Column(name: "subject", declaredType: ""), Column(name: "msg", declaredType: "", isHidden: true)], isVirtual: true)
        #expect(BindingSampler.matchQuery(.text("re: lunch?"), row: [:], table: table) == .text("\"re\""))
        #expect(BindingSampler.matchQuery(.text("C++ (draft)"), row: [:], table: table) == .text("\"C\""))
        #expect(BindingSampler.matchQuery(.null, row: ["subject": .text("  Lunch, at noon")], table: table) == .text("\"Lunch\""))
        #expect(BindingSampler.matchQuery(.null, row: ["subject": .text("?!")], table: table) == .null)
        let store = try FixtureStore(Self.schema)
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT rowid FROM note_fts WHERE note_fts MATCH ? LIMIT 10;
            -- freq: 100
            SELECT rowid FROM note_fts WHERE body MATCH ?;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        for statement in result.statements {
            let timing = try #require(statement.timingBefore, "\(statement.sql): \(statement.error ?? "")")
            #expect(timing.failures == 0, "\(statement.sql)")
            #expect(timing.rowsPerExecution > 0, "\(statement.sql)")
        }
    }
}
