import Foundation
import Testing
@testable import IndexAdvisor

/// The summary's workload line names every statement left out of the totals once per reason: "S2 and S3 not
/// timed (see Not analysed), not in these totals", not the clause again for each.
@Suite("headline clauses said once")
struct HeadlineClauseTests {
    @Test("two statements that could not be timed share one clause")
    func untimedTogether() throws {
        let schema = """
            CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT, rank INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO shelf SELECT i, 'shelf ' || i, i % 9 FROM n;
            """
        let workload = """
            -- freq: 30
            SELECT * FROM shelf WHERE rank = 4;
            -- freq: 2
            SELECT * FROM shelf_archive WHERE rank = 1;
            -- freq: 3
            SELECT colour FROM shelf WHERE rank = 2;

            """
        let result = try analyze(schema, workload: workload)
        let failed = result.statements.enumerated().filter { $0.element.error != nil }.map { "S\($0.offset + 1)" }
        #expect(failed.count == 2)
        let markdown = checkedRender(result, .markdown)
        let line = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- Workload: ") })
        #expect(line.contains("; \(failed[0]) and \(failed[1]) not timed (see Not analysed), not in these totals."), "\(line)")
        #expect(line.components(separatedBy: "not in these totals").count == 2)
        #expect(line.components(separatedBy: "not timed").count == 2)
    }

    @Test("lists: one, two, three, then how many more")
    func listed() {
        #expect(AnalysisResult.listed(["S1"]) == "S1")
        #expect(AnalysisResult.listed(["S1", "S2"]) == "S1 and S2")
        #expect(AnalysisResult.listed(["S1", "S2", "S3"]) == "S1, S2 and S3")
        #expect(AnalysisResult.listed(["S1", "S2", "S3", "S4", "S5"]) == "S1, S2, S3 and 2 more")
    }
}
