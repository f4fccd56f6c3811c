import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F19: a walk of an index in its order stops at a LIMIT, so it is no problem; with a deep
/// OFFSET it first passes over every row before it (`LIMIT 10 OFFSET 290000` read 870,091 VM steps for 10
/// rows) and `check` passed it. Such a walk fails when the statement is hot and its counters show the work.
@Suite("A deep OFFSET's walk of an index fails check")
struct DeepOffsetTests {
    static func failures(_ page: String) throws -> [CheckProblem] {
        let store = try FixtureStore("""
            CREATE TABLE article (id INTEGER PRIMARY KEY, headline TEXT, body TEXT);
            CREATE INDEX article_headline ON article(headline);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
            INSERT INTO article SELECT i, printf('h%06d', (i * 7919) % 60000), 'b' || i FROM n;
            """)
        let workload = WorkloadLoader.parse("-- freq: 100\n\(page);\n-- freq: 100\nSELECT body FROM article WHERE id = 5;\n", file: "pages.sql", format: .sql)
        let result = try Advisor.profile(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(result.statements.first?.planBefore?.steps.map(\.detail) == ["SCAN article USING COVERING INDEX article_headline"])
        return CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
    }

    @Test("the page after 55,000 rows fails, in both spellings of OFFSET; the first page passes")
    func deepPage() throws {
        for page in ["SELECT id, headline FROM article ORDER BY headline LIMIT 10 OFFSET 55000",
                     "SELECT id, headline FROM article ORDER BY headline LIMIT 55000, 10"] {
            let failures = try Self.failures(page)
            #expect(failures.map(\.kind) == [.fullTableScan], "\(page)")
            #expect(failures.first?.message.contains("S1 full scan of article through the entries of article_headline before its OFFSET (60,000 rows; ") == true, "\(failures.map(\.message))")
            #expect(failures.first?.message.contains("VM steps an execution for 10 rows") == true, "\(failures.map(\.message))")
        }
        #expect(try Self.failures("SELECT id, headline FROM article ORDER BY headline LIMIT 10").isEmpty)
        #expect(try Self.failures("SELECT id, headline FROM article ORDER BY headline LIMIT 10 OFFSET 20").isEmpty)
    }
}
