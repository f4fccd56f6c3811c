import Foundation
import IndexAdvisorTesting
import Testing

/// The README's IndexAdvisorTesting section says what the code does: its example is the example file the
/// suite builds and runs, and its failure message is the one the helper prints for the same statement.
@Suite("The README's IndexAdvisorTesting section")
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of the README's block between `<!-- NAME:begin … -->` and `<!-- NAME:end -->`, without its fence.
    static func readmeBlock(_ name: String) throws -> String {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- \(name):begin"))
        let end = try #require(readme.range(of: "<!-- \(name):end -->", range: begin.upperBound..<readme.endIndex))
        var lines = readme[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        #expect(lines.first?.hasPrefix("```") == true)
        #expect(lines.last == "```" || lines.dropLast().last == "```")
        lines = lines.dropFirst()
        while let last = lines.last, last.isEmpty || last == "```" { lines = lines.dropLast() }
        return lines.joined(separator: "\n")
    }

    @Test("the README's example is Examples/IndexAdvisorTestingExamples/NoteQueryPlanTests.swift, which the suite builds and runs")
    func example() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Examples/IndexAdvisorTestingExamples/NoteQueryPlanTests.swift"), encoding: .utf8)
        #expect(try Self.readmeBlock("testing-example") + "\n" == file)
    }

    @Test("the README's failure message is the one the example's statement gets without its index")
    func failureMessage() throws {
        let db = try TestDatabase()
        try db.execute("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder_id INTEGER, updated_at REAL, title TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO note (folder_id, updated_at, title) SELECT i % 50, i, 'note ' || i FROM n;
            """)
        let check = try QueryPlanInspector(connection: db.handle)
            .plan("SELECT title FROM note WHERE folder_id = ? ORDER BY updated_at DESC LIMIT 20", bindings: [3]).check(.usingIndex("note_folder_updated"))
        #expect(try Self.readmeBlock("testing-failure") == check.failureMessage)
    }
}
