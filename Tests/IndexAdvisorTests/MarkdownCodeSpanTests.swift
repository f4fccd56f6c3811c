import Testing
@testable import IndexAdvisor

@Suite("Markdown code spans")
struct MarkdownCodeSpanTests {
    @Test("a line break inside an identifier shows as ␊ in a code span (one would read as a space, and a pasted DROP would name another index); backticks still get a longer fence")
    func lineBreaks() {
        #expect(MarkdownReport.inline("DROP INDEX IF EXISTS \"ZEVIL\nFATAL\"") == "`DROP INDEX IF EXISTS \"ZEVIL\u{240A}FATAL\"`")
        #expect(MarkdownReport.inline("a\r\nb") == "`a\u{240D}\u{240A}b`")
        #expect(MarkdownReport.inline("x`y") == "``x`y``")
        #expect(MarkdownReport.codeCell("a|b") == "`a\\|b`")
    }
}
