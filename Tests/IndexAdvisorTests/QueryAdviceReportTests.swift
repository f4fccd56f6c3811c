import Foundation
import Testing
@testable import IndexAdvisor

@Suite("Query-side advice in every report format")
struct QueryAdviceReportTests {
    /// The fixture with one piece of query-side advice whose rewrite carries hostile text.
    static func result() -> AnalysisResult {
        var result = ReportFixture.result(hostile: true)
        result.queryAdvice = [QueryAdvice(kind: .caseInsensitiveLike, statementID: "00000000000000a1",
                                          finding: .other(advice: "LIKE is case-insensitive, so the BINARY index cannot serve the prefix; GLOB can.",
                                                          caveat: "GLOB is case-sensitive"),
                                          timing: ReportFixture.timing(0.0185), rewrite: "SELECT 1 FROM t WHERE name GLOB 'a*'\n-- </style><script>alert(5)</script>",
                                          rewriteTiming: ReportFixture.timing(0.000013), rewritePlan: nil)]
        return result
    }

    @Test("Markdown: a section with the statement, the measured change, the caveat and the rewrite in a fence")
    func markdown() {
        let text = checkedRender(Self.result(), .markdown)
        #expect(text.contains("1 query-side finding (below)"))
        #expect(text.contains("## Query-side advice"))
        #expect(text.contains("### S1: case-insensitive LIKE, which no BINARY index serves"))
        #expect(text.contains("- S1 18.5 ms → 13.0 µs per execution with the change (1423× faster)"))
        #expect(text.contains("- Caveat: GLOB is case-sensitive"))
        #expect(text.contains("```sql\nSELECT 1 FROM t WHERE name GLOB 'a*'\n-- </style><script>alert(5)</script>\n```"))
        // The migration embedded under "Code to paste" stays a migration.
        let code = text.components(separatedBy: "## Code to paste")[1].components(separatedBy: "## Query-side advice")[0]
        #expect(!code.contains("Query-side advice"))
    }

    // Regression: the advice's own code spans printed as escaped backticks, and the time as it is was said twice.
    @Test("advice text: its backtick spans become code, the rest stays escaped, in Markdown and HTML")
    func prose() throws {
        var result = Self.result()
        result.queryAdvice[0].finding = .other(advice: "Use `GLOB 'a*'` on <b>x|y</b>_z_", caveat: result.queryAdvice[0].caveat)
        let text = checkedRender(result, .markdown)
        #expect(text.contains("Use `GLOB 'a*'` on \\<b\\>x\\|y\\</b\\>\\_z\\_"))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Use ") })
        #expect(!line.contains("\\`"))
        result.queryAdvice[0].rewriteTiming = nil
        let alone = checkedRender(result, .markdown)
        #expect(alone.contains("- S1 18.5 ms per execution as it is; as it is: 18.5 ms (IQR") == false)
        #expect(alone.contains("- S1 18.5 ms per execution as it is (IQR "))
        let page = checkedRender(result, .html)
        #expect(page.contains("Use <code>GLOB &#39;a*&#39;</code> on &lt;b&gt;x|y&lt;/b&gt;_z_") || page.contains("Use <code>GLOB 'a*'</code> on &lt;b&gt;x|y&lt;/b&gt;_z_"))
    }

    @Test("HTML: a section with both timings, the caveat and the rewrite escaped")
    func html() {
        let page = checkedRender(Self.result(), .html)
        #expect(page.contains(#"<section id="query-advice">"#))
        #expect(page.contains("case-insensitive LIKE, which no BINARY index serves</h3>"))
        #expect(page.contains("&lt;/style&gt;&lt;script&gt;alert(5)&lt;/script&gt;"))
        #expect(!page.contains("<script>alert(5)"))
        #expect(page.contains("1423× faster"))
        #expect(page.contains("Caveat: GLOB is case-sensitive"))
    }

    @Test("HTML without a workload: the schema review by kind, its measurements, and the capture steps with code spans")
    func schemaReviewPage() {
        var result = ReportFixture.result(hostile: true)
        result.statements = []
        result.recommendations = []
        // No statements, so no time: the totals a review without a workload has.
        result.totals = Totals(readSecondsBefore: 0, readSecondsAfter: 0, writeSecondsBefore: 0, writeSecondsAfter: 0,
                               fullScansBefore: 0, fullScansAfter: 0, tempBTreeSortsBefore: 0, tempBTreeSortsAfter: 0)
        result.schemaReview = [SchemaFinding(kind: .unindexedReference, table: ReportFixture.table, columns: ["ZFOLDER"], index: nil, bytes: nil,
                                             detail: .other("Core Data indexes a to-one relationship; this store lacks it."),
                                             sql: "CREATE INDEX \"x\" ON \"ZNOTE\" (\"ZFOLDER\")",
                                             measurements: [SchemaMeasurement(operation: "lookup by ZFOLDER", withIndex: ReportFixture.timing(0.000004),
                                                                              withoutIndex: ReportFixture.timing(0.006), isSignificant: true)],
                                             swiftDataUnique: nil)]
        result.captureHint = ["No workload was given.", "- Add `-com.apple.CoreData.SQLDebug 1` to the scheme."]
        let page = checkedRender(result, .html)
        #expect(!page.contains("Weighted workload time") && !page.contains("takes 0 s now"))
        #expect(page.contains(#"<section id="schema-review">"#))
        #expect(page.contains("<h3>References without an index</h3>"))
        #expect(page.contains("<code>&lt;script&gt;alert(1)&lt;/script&gt;(ZFOLDER)</code>: Core Data indexes a to-one relationship"))
        #expect(page.contains("<li>lookup by ZFOLDER: with the index 4.00 µs, without 6.00 ms</li>"))
        #expect(page.contains("<li>Add <code>-com.apple.CoreData.SQLDebug 1</code> to the scheme.</li>"))
    }

    @Test("SQL and Swift: the advice as comments after the migration, every line a comment")
    func comments() {
        let sql = checkedRender(Self.result(), .sql)
        let tail = sql.components(separatedBy: "COMMIT;\n")[1]
        #expect(tail.contains("-- S1, case-insensitive LIKE, which no BINARY index serves: LIKE is case-insensitive"))
        #expect(tail.contains("--     SELECT 1 FROM t WHERE name GLOB 'a*'"))
        #expect(tail.split(separator: "\n").allSatisfy { $0.hasPrefix("--") })
        let swift = checkedRender(Self.result(), .swift)
        #expect(swift.contains("//   S1 18.5 ms → 13.0 µs per execution with the change (1423× faster)."))
        #expect(!SQLReport.render(Self.result(), queryAdvice: false).contains("Query-side"))
    }
}
