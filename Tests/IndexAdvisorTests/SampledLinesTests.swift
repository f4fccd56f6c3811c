import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39, item 7: the Markdown's cardinality and rows-per-execution lines gave a sample's figures as the
/// store's ("0 rows per execution" for a key the sample happened to leave out).
@Suite("Rows and cardinality measured on a sample say so")
struct SampledLinesTests {
    @Test("a sampled table's rows per execution and cardinality are labelled as the sample's, beside the store's rows")
    func labelled() throws {
        let store = try FixtureStore("""
            CREATE TABLE visit(id INTEGER PRIMARY KEY, page INTEGER, ms INTEGER, agent TEXT);
            CREATE TABLE page(id INTEGER PRIMARY KEY, path TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 36000)
            INSERT INTO visit SELECT i, (i * 31) % 700, i % 900, 'agent ' || (i % 40) FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700) INSERT INTO page SELECT i, '/p/' || i FROM n;
            """)
        var options = quickOptions()
        options.sampleRows = 4000
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("""
            -- freq: 200
            SELECT id, ms FROM visit WHERE page = 12;
            -- freq: 50
            SELECT path FROM page WHERE id = 3;
            """, file: "visits.sql", format: .sql), options: options)
        let sample = try #require(result.store.sampledTables.first)
        #expect(sample.table == "visit" && sample.step == 9 && sample.rows == 36000)
        let markdown = checkedRender(result, .markdown)
        let lines = markdown.split(separator: "\n").map(String.init)
        // The visit lookup's rows are the sample's; the page lookup touches no sampled table.
        let befores = lines.filter { $0.hasPrefix("- Before: ") }
        #expect(befores.count == 2)
        #expect(befores.first?.hasSuffix(" per execution on the sample (visit: 1 row in 9)") == true, "\(befores)")
        #expect(befores.last?.hasSuffix("; 1 row per execution") == true, "\(befores)")
        let recommendation = try #require(result.recommendations.first)
        #expect(recommendation.table == "visit")
        let cardinality = try #require(lines.first { $0.hasPrefix("- Cardinality (") })
        #expect(cardinality.hasPrefix("- Cardinality (on the sample, 1 row in 9: \(Figures.count(sample.sampledRows)) of the store's 36,000 rows): (page): "), "\(cardinality)")
        // The whole store, measured whole: the lines carry no such words.
        let whole = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("-- freq: 200\nSELECT id, ms FROM visit WHERE page = 12;\n", file: "visits.sql", format: .sql), options: quickOptions())
        let plain = checkedRender(whole, .markdown)
        #expect(!plain.contains("on the sample"))
        #expect(plain.contains("- Cardinality (36,000 rows): (page): 700 distinct, 0 % NULL"), "\(plain)")
    }
}
