import Testing
import Foundation
@testable import IndexAdvisor

/// The tags the HTML report writes; anything else after a `<` is text that escaped escaping.
private let htmlTags: Set<String> = [
    "!DOCTYPE", "html", "head", "meta", "title", "style", "script", "body", "main", "header", "nav", "section", "article",
    "footer", "h1", "h2", "h3", "p", "a", "div", "span", "ol", "ul", "li", "table", "tr", "th", "td", "code", "pre", "strong",
    "figure", "figcaption", "dl", "dt", "dd", "button", "details", "summary", "svg", "g", "rect", "line", "path", "text", "circle",
]

/// The names of every tag opened or closed in `html`.
private func tagNames(in html: String) -> [String] {
    var names: [String] = []
    var rest = html[...]
    while let open = rest.firstIndex(of: "<") {
        var name = ""
        var index = rest.index(after: open)
        if index < rest.endIndex, rest[index] == "/" { index = rest.index(after: index) }
        while index < rest.endIndex, rest[index].isLetter || rest[index].isNumber || rest[index] == "!" {
            name.append(rest[index])
            index = rest.index(after: index)
        }
        names.append(name)
        rest = rest[index...]
    }
    return names
}

/// `text` between the first `<tag>` and the next `</tag>`.
private func element(_ tag: String, in html: String) -> String? {
    guard let open = html.range(of: "<\(tag)>"), let close = html.range(of: "</\(tag)>", range: open.upperBound..<html.endIndex) else { return nil }
    return String(html[open.upperBound..<close.lowerBound])
}

@Suite("The HTML report")
struct HTMLReportTests {
    @Test("the HTML page: summary, both charts, plans as trees, IQR, sections, and a policy that allows only its own style and script")
    func htmlStructure() throws {
        let result = ReportFixture.result(hostile: false)
        let html = checkedRender(result, .html)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        for id in ["summary", "times", "add", "code", "tradeoff", "statements", "existing", "uniqueness", "rejected", "store", "method"] {
            #expect(html.contains("<section id=\"\(id)\">"), "no section \(id)")
        }
        #expect(html.contains("<div class=\"v\">+1 / −1</div>"))  // one to add, one to drop
        #expect(html.contains("<div class=\"v\">0 of 1</div>"))  // full scans left
        #expect(html.contains("aria-labelledby=\"chart-times-title\""))
        #expect(html.contains("aria-labelledby=\"chart-tradeoff-title\""))
        #expect(html.contains("<ul class=\"tree\"><li><span class=\"step bad\">SCAN ZNOTE</span><span class=\"badge bad\">full table scan</span></li>"))
        #expect(html.contains("IQR 18.1 ms–19.1 ms"))
        #expect(html.contains("<pre class=\"sql\">SELECT *\nFROM ZNOTE t0\nWHERE (t0.ZFOLDERID = ?\n  AND t0.ZUPDATEDAT &gt; ?)\nORDER BY t0.ZUPDATEDAT DESC\nLIMIT 5</pre>"))
        #expect(html.contains("CREATE INDEX IF NOT EXISTS &quot;Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt&quot;"))
        #expect(html.contains("DROP INDEX IF EXISTS &quot;ZNOTE_ZFOLDERID&quot;;"))
        #expect(html.contains("VersionedSchema"))
        // No network: nothing is loaded from anywhere.
        #expect(!html.contains("http://") || !html.contains("src=\"http"))
        #expect(!html.contains("@import") && !html.contains("url("))
        // Exactly one style and one script, the constant ones, both allowed by hash and nothing else.
        #expect(element("style", in: html) == HTMLAssets.styleSheet)
        #expect(element("script", in: html) == HTMLAssets.script)
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.components(separatedBy: "<style").count == 2)
        let policy = HTMLAssets.contentSecurityPolicy
        #expect(policy.hasPrefix("default-src 'none'; style-src 'sha256-"))
        #expect(policy.contains(SHA256.cspSource(of: HTMLAssets.styleSheet)) && policy.contains(SHA256.cspSource(of: HTMLAssets.script)))
        #expect(HTMLAssets.styleSheet.contains("@media (prefers-color-scheme:dark)") && HTMLAssets.styleSheet.contains("@media print"))
    }

    @Test("hostile names and SQL render as text in HTML: no tag, attribute or style of theirs survives")
    func htmlEscaping() {
        let html = checkedRender(ReportFixture.result(), .html)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>"))
        #expect(!html.contains("\"onmouseover"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;/style&gt;&lt;b&gt;x"))
        #expect(html.contains("idx_&quot;onmouseover=&quot;alert(1)&#39;x"))
        #expect(html.contains("<title>indexadvisor report: &lt;img src=x onerror=alert(3)&gt;.sqlite</title>"))
        let unknown = Set(tagNames(in: html)).subtracting(htmlTags)
        #expect(unknown.isEmpty, "tags that are not the report's: \(unknown)")
        #expect(html.components(separatedBy: "</style>").count == 2)
        #expect(html.components(separatedBy: "</script>").count == 2)
        #expect(element("style", in: html) == HTMLAssets.styleSheet)
    }

    @Test("HTML escaping covers text and both attribute quotes")
    func escaping() {
        #expect(HTMLText.escape(#"<a href="x" title='y'>&amp;</a>"#) == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
        #expect(HTMLText.escape("ok \u{0}") == "ok \u{FFFD}")
        #expect(HTMLText.anchor("S2\"><x") == "S2---x")
    }

    @Test("log scales run between powers of ten and label them with units")
    func logScale() {
        let scale = SVGCharts.LogScale(values: [0.0000036, 0.0185, 0, -1])
        #expect(scale.low == 1e-6 && abs(scale.high - 0.1) < 1e-12)
        #expect(scale.ticks.map(SVGCharts.tickLabel) == ["1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms"])
        #expect(scale.fraction(1e-6) == 0 && abs(scale.fraction(1e-3) - 0.6) < 1e-9 && scale.fraction(5) == 1 && scale.fraction(0) == 0)
        #expect(SVGCharts.tickLabel(10) == "10 s")
    }

    @Test("SHA-256 gives the FIPS 180-4 test vectors")
    func sha256() {
        func hex(_ text: String) -> String { SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.base64([0xfb, 0xff]) == "+/8=" && SHA256.base64(Array("abc".utf8)) == "YWJj")
    }

    @Test("a store with hostile table and column names, analysed for real, renders as text in HTML and Markdown")
    func hostileStore() throws {
        let store = try FixtureStore("""
            CREATE TABLE "<script>alert(1)</script>" (id INTEGER PRIMARY KEY, "</style>" INTEGER, "a|b`c" TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO "<script>alert(1)</script>" SELECT i, i % 400, 'v' || i FROM n;
            """, name: "<img src=x onerror=alert(3)>.sqlite")
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT * FROM "<script>alert(1)</script>" WHERE "</style>" = 7 ORDER BY "a|b`c";
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        #expect(result.recommendations.first?.table == "<script>alert(1)</script>")
        let html = checkedRender(result, .html)
        #expect(Set(tagNames(in: html)).subtracting(htmlTags).isEmpty)
        #expect(html.components(separatedBy: "</style>").count == 2 && html.components(separatedBy: "</script>").count == 2)
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !html.contains("<img"))
        let markdown = checkedRender(result, .markdown)
        #expect(markdown.contains("`<script>alert(1)</script>`"))
        #expect(!markdown.replacingOccurrences(of: "`<script>alert(1)</script>`", with: "").contains("| <script"))
    }

    @Test("with only an index to drop, the summary says so and lists it; the migration says when its saving is noise")
    func dropOnly() {
        var result = ReportFixture.result(hostile: false)
        result.recommendations = []
        result.totals = Totals(readSecondsBefore: 1.0, readSecondsAfter: 1.0, writeSecondsBefore: 0.3, writeSecondsAfter: 0.3,
                               fullScansBefore: 0, fullScansAfter: 0, tempBTreeSortsBefore: 0, tempBTreeSortsAfter: 0)
        result.existingIndexes[0].writeSecondsSaved = 0
        // Totals set for the sentence, not summed from the fixture's statements: rendered without the checker.
        let html = HTMLReport.render(result)
        #expect(html.contains("<p class=\"lead\">Drop 1 index: the workload takes 1.30 s now and 1.30 s with the advice (about the same).</p>"))
        #expect(html.contains("<li>Drop <a href=\"#existing\"><code>ZNOTE_ZFOLDERID</code></a>"))
        #expect(html.contains("<a href=\"#code\">Code to paste</a>") && !html.contains("<a href=\"#add\">"))
        #expect(SQLReport.render(result).contains("its cost to writes is inside the noise"))
    }

    // Issue 17: "HTML: long index names overflow the plan boxes; the statements table is wider than the page."
    // `overflow-wrap: break-word` does not lower a table cell's or a grid item's minimum width, so one long
    // name widened the whole table or plan box; `anywhere` does, and a grid item needs `min-width: 0`.
    @Test("long names wrap inside their box: cells, code and plan trees may break anywhere, and plan boxes may shrink")
    func longNamesWrap() {
        let css = HTMLAssets.styleSheet
        #expect(!css.contains("overflow-wrap:break-word"))
        #expect(css.contains("code{background:var(--panel);border-radius:4px;padding:1px 4px;overflow-wrap:anywhere}"))
        #expect(css.contains("td,th,h2,h3,li,p,dd{overflow-wrap:anywhere}"))
        #expect(css.contains("figure{margin:6px 0;min-width:0}"))
        #expect(css.contains(".plan{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow-wrap:anywhere;overflow-x:auto;min-width:0}"))
        #expect(css.contains("main{max-width:1120px;"))
        // The long names are where those rules apply: plan rows in `.plan` boxes inside figures, names in cells.
        var result = ReportFixture.result(hostile: false)
        let long = "Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedisPinnedupdatedAtcreatedAtremoteIDslugtitle"
        result.recommendations[0].name = long
        result.statements[0].usesRecommendations = [long]
        result.statements[0].planAfter = QueryPlan(steps: [.init(id: 3, parent: 0, detail: "SEARCH ZNOTE USING INDEX \(long) (ZFOLDERID=?)")],
                                                   findings: [PlanFinding(kind: .indexSearch, table: "ZNOTE", alias: nil, index: long, constraints: "ZFOLDERID=?",
                                                                          detail: "SEARCH ZNOTE USING INDEX \(long) (ZFOLDERID=?)", tableRows: 100_000)])
        let html = checkedRender(result, .html)
        #expect(html.contains(#"<figure><figcaption>Plan after</figcaption><div class="plan">"#))
        #expect(html.contains("<td><code>\(long)</code></td>"))
    }
}
