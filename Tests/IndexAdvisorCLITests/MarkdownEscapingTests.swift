import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// Issue 39, item 16: the Markdown printed eight string fields of an edited report as they were (`tool.version`,
/// `statements[].bindingSource`, `store.snapshotMethod`, …), so a report in a pull request could carry raw HTML
/// into the comment. Each string of a real analysis's report is edited here, and the Markdown read back as
/// CommonMark reads it.
@Suite("Every string of a saved report is escaped in the Markdown")
struct MarkdownEscapingTests {
    /// Raw HTML, a table pipe, emphasis, a code span, a link and an entity, appended to a field.
    static let hostile = "<script>alert(7)</script>|*loud*`tick`_under_[here](https://example.com)&amp;"
    /// What must never be markup: found outside code and escapes, the text became HTML or Markdown.
    static let markers = ["<script", "*loud*", "_under_", "[here](", "&amp;"]

    /// The parts of `markdown` CommonMark reads as markup or plain text: fenced blocks, code spans and
    /// backslash escapes taken out.
    static func outsideCode(_ markdown: String) -> String {
        var kept: [String] = []
        var fence: String?
        for line in markdown.components(separatedBy: "\n") {
            let ticks = String(line.prefix { $0 == "`" })
            if let open = fence {
                if ticks.count >= open.count && line.dropFirst(ticks.count).allSatisfy(\.isWhitespace) { fence = nil }
                continue
            }
            if ticks.count >= 3 { fence = ticks; continue }
            kept.append(line)
        }
        let text = Array(kept.joined(separator: "\n"))
        var result = "", index = 0
        while index < text.count {
            let character = text[index]
            if character == "\\", index + 1 < text.count, text[index + 1].isPunctuation || text[index + 1].isSymbol {
                index += 2
                continue
            }
            if character == "`" {
                var end = index
                while end < text.count && text[end] == "`" { end += 1 }
                let length = end - index
                // The closing run: exactly as many backticks.
                var search = end, closed: Int?
                while search < text.count {
                    if text[search] == "`" {
                        var run = search
                        while run < text.count && text[run] == "`" { run += 1 }
                        if run - search == length { closed = run; break }
                        search = run
                    } else {
                        search += 1
                    }
                }
                if let closed { result += "CODE"; index = closed } else { result += String(text[index..<end]); index = end }
                continue
            }
            result.append(character)
            index += 1
        }
        return result
    }

    /// The table rows of `markdown` whose count of cell separators (pipes not escaped) differs from their header's.
    static func brokenRows(_ markdown: String) -> [String] {
        func separators(_ line: String) -> Int {
            var count = 0, escaped = false
            for character in line {
                if character == "|" && !escaped { count += 1 }
                escaped = character == "\\" && !escaped
            }
            return count
        }
        let lines = markdown.components(separatedBy: "\n")
        var broken: [String] = []
        for (offset, line) in lines.enumerated() where line.hasPrefix("|---") && offset > 0 {
            let expected = separators(lines[offset - 1])
            for row in lines[(offset + 1)...].prefix(while: { $0.hasPrefix("|") }) where separators(row) != expected {
                broken.append(row)
            }
        }
        return broken
    }

    /// `json` with `hostile` appended to the strings at `shapes`.
    static func edited(_ json: EditedReportJSON, _ shapes: Set<String>) -> EditedReportJSON {
        json.editingLeaves { shape, leaf in
            guard shapes.contains(shape), case .string(let text) = leaf else { return leaf }
            return .string(text + hostile)
        }
    }

    /// The Markdown `render` prints for the JSON at `url`, or nil when it refuses the report.
    static func markdown(_ url: URL) -> String? {
        let captured = CapturedConsole()
        guard IndexAdvisorCommand.run(["render", url.path, "-f", "md"], console: captured.console) == ExitCode.success else { return nil }
        return captured.out
    }

    @Test("each string field alone, and all of them at once, with raw HTML, pipes, emphasis and backticks: no markup in the Markdown and no broken table row")
    func everyString() throws {
        let saved = try SavedReports()
        var reports = saved.reports
        // A report made before the method's fields were kept prints its own method paragraph.
        let old = saved.directory.url.appendingPathComponent("old.json")
        var plain = try JSONReport.decode(Data(contentsOf: reports[0].url))
        plain.method.sqliteVersion = nil
        plain.method.description = "Each time is the median of 3 runs."
        try Data(JSONReport.render(plain).utf8).write(to: old)
        reports.append(("old", old))
        for (name, url) in reports {
            let json = try EditedReportJSON.read(url)
            let file = saved.directory.url.appendingPathComponent("\(name)-strings.json")
            var printed: Set<String> = []
            for shape in json.leafShapes(numbers: false).sorted() {
                try Self.edited(json, [shape]).data.write(to: file)
                // An edit the reader refuses (a code field, a statement id that names no statement) prints nothing.
                guard let markdown = Self.markdown(file) else { continue }
                printed.insert(shape)
                let outside = Self.outsideCode(markdown)
                for marker in Self.markers where outside.contains(marker) {
                    Issue.record("\(name): \(shape): \(marker) printed as markup: \(outside.components(separatedBy: "\n").first { $0.contains(marker) } ?? "")")
                }
                #expect(Self.brokenRows(markdown).isEmpty, "\(name): \(shape): \(Self.brokenRows(markdown))")
            }
            // The fields the issue found printed raw are among those printed.
            let named = ["tool.version", "tool.name", "tool.sqliteVersion", "tool.generatedAt", "store.snapshotMethod"]
                + (name == "review" ? [] : ["statements[].bindingSource"]) + (name == "old" ? ["method.description"] : ["method.sqliteVersion"])
            #expect(Set(named).isSubset(of: printed), "\(name): \(Set(named).subtracting(printed))")
            #expect(printed.count > 10, "\(name): \(printed.count)")
            // All at once: every table cell and sentence hostile together.
            try Self.edited(json, printed).data.write(to: file)
            let markdown = try #require(Self.markdown(file), "\(name)")
            let outside = Self.outsideCode(markdown)
            #expect(Self.markers.allSatisfy { !outside.contains($0) }, "\(name)")
            #expect(markdown.components(separatedBy: Self.hostile).count > 3, "\(name)")
            #expect(Self.brokenRows(markdown).isEmpty, "\(name): \(Self.brokenRows(markdown))")
        }
    }

    @Test("the scanner sees markup outside code and none inside it")
    func scanner() {
        #expect(Self.outsideCode("a <b> `<c>` \\<d> ``x ` <e>`` end") == "a <b> CODE d> CODE end")
        #expect(Self.outsideCode("```sql\n<f>\n```\n<g>") == "<g>")
        #expect(Self.brokenRows("| a | b |\n|---|---|\n| `x\\|y` | z |\n| q | r | s |") == ["| q | r | s |"])
    }
}
