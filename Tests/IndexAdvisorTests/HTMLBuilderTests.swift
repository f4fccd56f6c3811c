import Testing
@testable import IndexAdvisor

@Suite("The HTML builder")
struct HTMLBuilderTests {
    @Test("a String interpolated into HTML is escaped: a <script> in a table name renders as text")
    func textIsEscaped() {
        let table = "<script>alert(1)</script>"
        let row: HTML = "<td><code>\(table)</code></td>"
        #expect(row.markup == "<td><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></td>")
        let attribute = #"x" onmouseover="alert('1')"#
        let link: HTML = #"<a title="\#(attribute)">t</a>"#
        #expect(link.markup == "<a title=\"x&quot; onmouseover=&quot;alert(&#39;1&#39;)\">t</a>")
    }

    @Test("markup passes unescaped only as HTML or through raw; numbers as they are")
    func rawOnlyWhenSaidSo() {
        let badge: HTML = #"<span class="badge">\#("a & b")</span>"#
        let cell: HTML = "<td>\(badge) \(3)</td>"
        #expect(cell.markup == #"<td><span class="badge">a &amp; b</span> 3</td>"#)
        let trusted = "<svg><title>chart</title></svg>"
        let asText: HTML = "<figure>\(trusted)</figure>"
        let asMarkup: HTML = "<figure>\(raw: trusted)</figure>"
        #expect(asText.markup == "<figure>&lt;svg&gt;&lt;title&gt;chart&lt;/title&gt;&lt;/svg&gt;</figure>")
        #expect(asMarkup.markup == "<figure><svg><title>chart</title></svg></figure>")
        #expect(HTML.raw(trusted).markup == trusted)
        #expect(HTML.text("<b>").markup == "&lt;b&gt;")
    }

    @Test("joined puts the separator between pieces, and + and += keep markup as it is")
    func joining() {
        let names = ["a<b", "c"]
        let codes = names.map { "<code>\($0)</code>" as HTML }.joined(separator: ", ")
        #expect(codes.markup == "<code>a&lt;b</code>, <code>c</code>")
        var html: HTML = "<p>"
        html += "\("x>y")" + "</p>"
        #expect(html.markup == "<p>x&gt;y</p>")
        #expect([HTML]().joined().isEmpty)
    }

    @Test("the HTML report escapes a <script> table name everywhere and adds no tag of its own")
    func reportEscapesTableName() {
        let html = HTMLReport.render(ReportFixture.result(hostile: true))
        #expect(!html.contains(ReportFixture.table))
        #expect(html.contains("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"))
        // The page's one script is its own constant one.
        #expect(html.components(separatedBy: "<script>").count == 2)
    }
}
