import Testing
import Foundation
@testable import IndexAdvisor

/// The statement sections of a Markdown report, by label: the text from `### S1 ·` to the next heading.
private func markdownStatements(_ markdown: String) -> [String: String] {
    var sections: [String: String] = [:]
    for part in markdown.components(separatedBy: "\n### S").dropFirst() {
        let number = part.prefix { $0 != " " }
        guard part.dropFirst(number.count).hasPrefix(" · ") else { continue }  // not the query advice's `### S3: …`
        sections["S" + number] = part.components(separatedBy: "\n## ").first ?? ""
    }
    return sections
}

/// The statement articles of an HTML report, by label.
private func htmlStatements(_ html: String) -> [String: String] {
    var sections: [String: String] = [:]
    for part in html.components(separatedBy: #"<article id="S"#).dropFirst() {
        let label = "S" + part.prefix { $0 != "\"" }
        sections[label] = part.components(separatedBy: "</article>").first ?? ""
    }
    return sections
}

@Suite("The section model both Markdown and HTML render")
struct ReportSectionsTests {
    /// The fixture with its first statement's plan and time unchanged by the advice: no "After" to show.
    private static func resultWithUnchangedStatement() -> AnalysisResult {
        var result = ReportFixture.result(hostile: false)
        result.statements[0].planAfter = result.statements[0].planBefore
        result.statements[0].timingAfter = result.statements[0].timingBefore
        return result
    }

    @Test("a statement's After time: hidden when plan and time are unchanged, shown otherwise, the same in both formats")
    func afterDecision() throws {
        let result = Self.resultWithUnchangedStatement()
        let sections = StatementSection.all(in: result)
        #expect(sections.map(\.label) == ["S1", "S2", "S3"])
        #expect(sections[0].after == nil)
        #expect(sections[1].after == result.statements[1].timingAfter)
        #expect(sections[0].plans == .unchanged(try #require(result.statements[0].planBefore)))
        #expect(sections[2].plans == .none)  // the statement that did not prepare has no plan

        let markdown = markdownStatements(MarkdownReport.render(result))
        let html = htmlStatements(HTMLReport.render(result))
        #expect(Set(markdown.keys) == ["S1", "S2", "S3"])
        #expect(Set(html.keys) == ["S1", "S2", "S3"])
        for section in sections {
            let shownInMarkdown = markdown[section.label]?.contains("\n- After: ") == true
            let shownInHTML = html[section.label]?.contains("<dt>After</dt>") == true
            #expect(shownInMarkdown == (section.after != nil), "\(section.label) in Markdown")
            #expect(shownInHTML == (section.after != nil), "\(section.label) in HTML")
        }
        #expect(markdown["S2"]?.contains("- After: \(Figures.timing(try #require(sections[1].after)))") == true)
        #expect(html["S1"]?.contains("Plan (unchanged by the advice)") == true)
        #expect(markdown["S1"]?.contains("Plan:\n") == true)
    }

    @Test("both formats list exactly a statement's facts from the model, in its order")
    func sameFacts() throws {
        var result = Self.resultWithUnchangedStatement()
        result.statements[1].observedTiming = ObservedTiming(count: 4, totalSeconds: 0.004, medianSeconds: 0.001)
        result.statements[1].observedRows = 2
        result.statements[1].sourceLocations = ["NotesList.swift:42"]
        let markdown = markdownStatements(MarkdownReport.render(result))
        let html = htmlStatements(HTMLReport.render(result))
        func markdownLabel(_ fact: StatementSection.Fact) -> String? {
            switch fact {
            case .shape: return "Shape"
            case .source: return nil
            case .boundValues: return "Bound values"
            case .before: return "Before"
            case .after: return "After"
            case .observed, .observedRows: return "Reported by the app's log"
            case .uses: return "Uses"
            }
        }
        func htmlLabel(_ fact: StatementSection.Fact) -> String {
            switch fact {
            case .shape: return "Shape"
            case .source: return "Swift source"
            case .boundValues: return "Bound values"
            case .before: return "Before"
            case .after: return "After"
            case .observed, .observedRows: return "App’s log"
            case .uses: return "Uses"
            }
        }
        let sections = StatementSection.all(in: result)
        #expect(sections[1].facts.contains(.observed(try #require(result.statements[1].observedTiming), lastRows: 2)))
        #expect(sections[1].facts.contains(.source(["NotesList.swift:42"])))
        #expect(sections[2].facts.isEmpty)  // not analysed
        for section in sections {
            let markdownFacts = (markdown[section.label] ?? "").split(separator: "\n").filter { $0.hasPrefix("- ") }
                .map { String($0.dropFirst(2).prefix { $0 != ":" && $0 != "(" }).trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            let notes = section.statement.notes.count
            #expect(Array(markdownFacts.dropLast(notes)) == section.facts.compactMap(markdownLabel), "\(section.label) in Markdown")
            let htmlFacts = (html[section.label] ?? "").components(separatedBy: "<dt>").dropFirst().map { $0.prefix { $0 != "<" } }.map(String.init)
            #expect(htmlFacts == section.facts.map(htmlLabel), "\(section.label) in HTML")
        }
    }

    @Test("the outline lists the sections with content, and both formats print exactly those (HTML also the empty ones it always links)")
    func sameSections() {
        let full = ReportFixture.result(hostile: false)
        #expect(ReportOutline(full).sections == [.summary, .times, .recommendations, .codeToPaste, .tradeOff, .statements,
                                                  .existingIndexes, .uniqueness, .rejected, .store])
        var bare = full
        bare.recommendations = []
        bare.existingIndexes = []
        bare.rejectedCandidates = []
        #expect(ReportOutline(bare).sections == [.summary, .times, .statements, .uniqueness, .store])

        for result in [full, bare] {
            let outline = ReportOutline(result)
            let markdown = MarkdownReport.render(result)
            let html = HTMLReport.render(result)
            for section in ReportSection.allCases where section != .summary {
                let inHTML = html.contains("<h2>\(section.title)</h2>")
                let markdownTitle = section == .recommendations ? "Recommended indexes" : section.title
                let inMarkdown = markdown.contains("\n## \(markdownTitle)\n")
                let alwaysInHTML: Set<ReportSection> = [.existingIndexes, .uniqueness, .rejected]
                #expect(inHTML == (outline.contains(section) || alwaysInHTML.contains(section)), "\(section) in HTML")
                #expect(inMarkdown == (outline.contains(section) && !section.isChart), "\(section) in Markdown")
            }
        }
    }
}

@Suite("Workload facts both Markdown and HTML print")
struct WorkloadFactsRenderTests {
    @Test("what the observed times are is printed when the log had some, in both formats, and never the 'none' sentinel")
    func observedTimes() {
        var result = ReportFixture.result(hostile: false)
        result.workload.observedTimeMeans = "SQLite's time for 3 executions"
        #expect(result.workload.observedTimesText == "SQLite's time for 3 executions")
        #expect(MarkdownReport.render(result).contains("Times reported by the app's log: SQLite's time for 3 executions."))
        #expect(HTMLReport.render(result).contains("<dt>Observed times</dt><dd>SQLite&#39;s time for 3 executions</dd>"))

        result.workload.observedTimeMeans = Workload.noObservedTimes
        #expect(result.workload.observedTimesText == nil)
        #expect(!MarkdownReport.render(result).contains("Times reported by the app's log"))
        #expect(!HTMLReport.render(result).contains("Observed times"))
    }
}
