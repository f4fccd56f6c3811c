import Testing
import Foundation
@testable import IndexAdvisor

@Suite("The Markdown report")
struct MarkdownReportTests {
    @Test("the summary names every read an index makes measurably slower, in Markdown and HTML; a write's cost stays in its write figure")
    func summaryNamesSlowedReads() throws {
        // Regression (a new user's workout store): `#Index<Workout>([\.startedAt])` made a search ×10 go
        // 103.2 ms → 158.1 ms, and only the index's own table said so; the summary gave S3's 46× alone.
        // The summary prints what each index is charged with the whole set in place (issue 42): the search
        // is slower in the final state, with its final plan using the index.
        var result = ReportFixture.result(hostile: false)
        var search = result.statements[0]
        search.id = "00000000000000d4"
        search.sql = "SELECT * FROM ZNOTE t0 WHERE NSCoreDataStringSearch(t0.ZTITLE, ?, 385, 0) ORDER BY t0.ZUPDATEDAT DESC LIMIT 20"
        search.count = 10
        search.timingBefore = ReportFixture.timing(0.1032)
        search.timingAfter = ReportFixture.timing(0.1581)
        search.weightedSecondsBefore = 1.032
        search.weightedSecondsAfter = 1.581
        result.statements.append(search)
        result.recommendations[0].effects.append(StatementEffect(statementID: search.id, count: 10, before: ReportFixture.timing(0.1032),
                                                                 after: ReportFixture.timing(0.1581), isSignificant: true))
        // A read inside the noise is not named.
        var quiet = search
        quiet.id = "00000000000000e5"
        quiet.timingBefore = ReportFixture.timing(0.010)
        quiet.timingAfter = ReportFixture.timing(0.0104)
        quiet.weightedSecondsBefore = 0.1
        quiet.weightedSecondsAfter = 0.104
        result.statements.append(quiet)
        result.recommendations[0].effects.append(StatementEffect(statementID: quiet.id, count: 10, before: ReportFixture.timing(0.010),
                                                                 after: ReportFixture.timing(0.0104), isSignificant: false))
        result.totals.readSecondsBefore += 1.132
        result.totals.readSecondsAfter += 1.685
        result = result.chargingFinalState()
        let charge = try #require(result.charge(of: result.recommendations[0]))
        // S1 saves 400 × (18.5 ms − 27.5 µs) = 7.389 s; S4 loses 0.549 s, S5 0.004 s.
        #expect(abs(charge.readSecondsSaved - (7.389 - 0.549 - 0.004)) < 1e-9)
        let text = result.chargeText(for: result.recommendations[0])
        #expect(text.hasPrefix("saves 6.84 s of reads (S1, S4 and S5); makes S4 slower: 103.2 ms → 158.1 ms (1.5× slower), adds "))
        #expect(!text.contains("S5 slower"))
        #expect(MarkdownReport.render(result).contains("1. `#Index<Note>([\\.folderID, \\.updatedAt])`: \(text)."))
        #expect(HTMLReport.render(result).contains(": \(text) per workload</li>"))
        #expect(ReportChecker().check(result).filter { [.chargesAgainstHeadline, .partialSetUnlabelled].contains($0.kind) }.isEmpty)
    }

    @Test("every format renders the result's own totals, not sums of its statements, and the same text twice")
    func formatsReadTheResult() {
        var result = ReportFixture.result(hostile: false)
        // Totals set apart from the statements' sums (reads 7.25 s → 0.25 s, writes 0.5 s → 0.75 s, so the
        // workload 7.75 s → 1.00 s; the statements sum to 7.4 s), so that a renderer that recomputed them would
        // show; the checker says the totals are not the sums.
        result.totals = Totals(readSecondsBefore: 7.25, readSecondsAfter: 0.25, writeSecondsBefore: 0.5, writeSecondsAfter: 0.75,
                               fullScansBefore: 1, fullScansAfter: 0, tempBTreeSortsBefore: 1, tempBTreeSortsAfter: 0)
        #expect(ReportChecker().check(result).filter { $0.kind == .totalsAgainstStatements }.count == 4)
        let markdown = MarkdownReport.render(result)
        let html = HTMLReport.render(result)
        let sql = SQLReport.render(result)
        #expect(markdown.contains("**Workload time 7.75 s → 1.00 s**"))
        #expect(html.contains("<div class=\"v\">7.75 s → 1.00 s</div>"))
        #expect(sql.contains("Weighted workload time 7.75 s → 1.00 s"))
        #expect(!markdown.contains("7.40 s") && !html.contains("7.40 s"))
        // The migration's cost is the recommendation's measured build time, in every format that states it.
        for text in [markdown, html, sql, SwiftReport.render(result)] {
            #expect(text.contains("107.2 ms"))
        }
        for format in ReportFormat.allCases {
            #expect(format.render(result) == format.render(result), "\(format) is not deterministic")
        }
    }

    @Test("hostile names render as written in Markdown: no raw HTML outside code, table rows keep their cells")
    func markdownEscaping() throws {
        let markdown = checkedRender(ReportFixture.result(), .markdown)
        var inFence: String?
        var headerPipes: Int?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let ticks = line.prefix { $0 == "`" }
            if let fence = inFence {
                if ticks.count >= fence.count && line.allSatisfy({ $0 == "`" }) { inFence = nil }
                continue
            }
            if ticks.count >= 3 {
                inFence = String(ticks)
                continue
            }
            // Outside code: remove code spans, then no `<` may start raw HTML (a tag, a closing tag, a
            // comment, a declaration or a processing instruction, as CommonMark defines them).
            var outside = ""
            var rest = Substring(line)
            while let start = rest.firstIndex(of: "`") {
                let run = rest[start...].prefix { $0 == "`" }
                outside += rest[..<start]
                let after = rest[run.endIndex...]
                guard let close = after.range(of: String(run)) else { rest = after; break }
                rest = after[close.upperBound...]
            }
            outside += rest
            let characters = Array(outside)
            for (offset, character) in characters.enumerated() where character == "<" && (offset == 0 || characters[offset - 1] != "\\") {
                let next = offset + 1 < characters.count ? characters[offset + 1] : " "
                #expect(!(next.isLetter || "/!?".contains(next)), "raw HTML in: \(line)")
            }
            // GFM table rows: as many unescaped pipes as the header row.
            if line.hasPrefix("|") {
                var pipes = 0
                var last: Character = " "
                for character in line {
                    if character == "|" && last != "\\" { pipes += 1 }
                    last = character
                }
                if line.hasPrefix("|---") || line.hasPrefix("| ---") { continue }
                if let header = headerPipes, !markdown.contains(line + "\n|---") {
                    #expect(pipes == header, "row with \(pipes) cells instead of \(header): \(line)")
                } else {
                    headerPipes = pipes
                }
            } else {
                headerPipes = nil
            }
        }
        #expect(inFence == nil)
        // The SQL holds a ``` run: its fence is longer.
        #expect(markdown.contains("\n````sql\nSELECT *\nFROM \"<script>alert(1)</script>\""))
        #expect(markdown.contains("`<script>alert(1)</script>`"))
        #expect(markdown.contains("note with \\*emphasis\\*, \\[a link\\](http://example.com), \\<b\\>html\\</b\\> \\& \\`code\\`"))
    }

    @Test("Markdown leads each recommendation with its CREATE INDEX, what it saves and costs with the whole set, how sure, then its figures of when it was chosen")
    func markdownRecommendation() throws {
        let markdown = checkedRender(ReportFixture.result(hostile: false).chargingFinalState(), .markdown)
        let section = try #require(markdown.components(separatedBy: "### 1. `Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt`").last)
        // The read: 400 × (18.5 ms − 27.5 µs) = 7.389 s. The write: 150 × (11.5 − 3.6) µs = 1.185 ms measured
        // with the whole set in place, of which the index's 150 × 7.9 µs and the drop's 150 × −2.6 µs (the
        // fixture's timings keep no counters: their medians) take 1.185 ÷ 0.795 of each: +1.766 ms and −0.581 ms.
        let expected = """


            ```sql
            CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt" ON "ZNOTE" ("ZFOLDERID", "ZUPDATEDAT");
            ```

            SwiftData, in `@Model class Note`: `#Index<Note>([\\.folderID, \\.updatedAt])` (key paths guessed from the column names; check them against your model, or pass it with `--model`)

            - Saves 7.39 s of reads per workload: S1 18.5 ms → 27.5 µs per execution.
            - Adds 1.77 ms of writes (spread 1.69 ms–1.86 ms) per workload: S2; built in 107.2 ms on this store (what a migration pays), 2.9 MiB.
            - How sure: on the clock S1 18.5 ms (IQR 18.1 ms–19.1 ms) → 27.5 µs (IQR 27.0 µs–28.3 µs): the runs are apart.

            Measured when it was chosen, before any other was built (the figures above are with the whole set in place):

            For S1 (select, ×400), its largest saving: 18.5 ms → 27.5 µs per execution (673× faster).

            Plan before (as the store is):
            ```
            QUERY PLAN
            |--SCAN ZNOTE
            `--USE TEMP B-TREE FOR ORDER BY
            ```
            Plan after (all the advice in place):
            ```
            QUERY PLAN
            `--SEARCH ZNOTE USING INDEX Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt (ZFOLDERID=?)
            ```
            """
        #expect(section.hasPrefix(expected))
        #expect(markdown.contains("1. `#Index<Note>([\\.folderID, \\.updatedAt])`: saves 7.39 s of reads (S1), adds 1.77 ms of writes (spread 1.69 ms–1.86 ms)."))
        #expect(markdown.contains("2. Drop `ZNOTE_ZFOLDERID` (redundant: a left prefix of `Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt`): saves 581.3 µs of writes (spread 556.4 µs–612.0 µs)."))
        #expect(!markdown.contains("<details"))
    }

    @Test("percentages and tick labels read as numbers people use")
    func figures() {
        #expect(Figures.percent(0.372) == "37 %")
        #expect(Figures.percent(0.0423) == "4.2 %")
        #expect(Figures.percent(0.0004) == "<0.1 %")
        #expect(Figures.percent(0) == "0 %")
        #expect(Figures.comparison(32.47, 4.55) == "7.1× faster")
        #expect(Figures.comparison(1.31, 1.32) == "about the same")
        #expect(Figures.comparison(0.001, 0.0013) == "1.3× slower")
        // Regression (a new user's report): a log's 0.0000s median printed "median 0 s over 100 executions".
        #expect(Figures.logged(0) == "under 0.1 ms")
        #expect(Figures.logged(0.00005) == "under 0.1 ms")
        #expect(Figures.logged(0.0123) == "12.3 ms")
        var result = ReportFixture.result(hostile: false)
        result.statements[0].observedTiming = ObservedTiming(count: 100, totalSeconds: 0, medianSeconds: 0)
        let markdown = MarkdownReport.render(result)
        #expect(markdown.contains("median under 0.1 ms over 100 executions"))
        #expect(!markdown.contains("median 0 s"))
        #expect(HTMLReport.render(result).contains("median under 0.1 ms over 100 executions"))
    }
}

@Suite("The statements table's plan column")
struct PlanColumnTests {
    // Regression (new-user trial): a 77 ms `SCAN orders USING INDEX orders_status` was labelled "ok".
    @Test("a plan that reads a whole index says so; a plan with nothing to flag is not called ok")
    func wholeIndexRead() {
        var result = ReportFixture.result()
        result.statements[0].sql = "SELECT * FROM orders WHERE status = 'open'"
        let detail = "SCAN orders USING INDEX orders_status"
        result.statements[0].planBefore = QueryPlan(steps: [.init(id: 2, parent: 0, detail: detail)],
                                                    findings: [PlanFinding(kind: .fullIndexScan, table: "orders", alias: nil, index: "orders_status",
                                                                           constraints: nil, purpose: nil, detail: detail, tableRows: 200_000)])
        let markdown = MarkdownReport.render(result)
        #expect(markdown.contains("| SCAN orders USING INDEX orders\\_status (reads the whole index) |"))
        #expect(!markdown.contains("| ok |"))
        // Regression (new-user trial): with a LIMIT the walk in index order stops early; a 56 µs page was
        // labelled as reading the whole index.
        result.statements[0].sql += " LIMIT 50"
        #expect(MarkdownReport.render(result).contains("| SCAN orders USING INDEX orders\\_status (in index order, up to its LIMIT) |"))
    }
}

/// Regression (a breaking helper's workload with a NUL byte in a statement): the Markdown report held three
/// raw NUL bytes, which made it a binary file; the other formats escaped them.
@Suite("Control characters in the Markdown report")
struct MarkdownControlCharacterTests {
    @Test("control characters show as their Unicode pictures in code spans, fences and text; tabs and line ends stay")
    func controls() {
        #expect(MarkdownReport.controlsShown("a\u{0}b\u{1B}c\u{7F}\td\ne") == "a\u{2400}b\u{241B}c\u{2421}\td\ne")
        #expect(MarkdownReport.inline("x\u{0}y") == "`x\u{2400}y`")
        #expect(MarkdownReport.fence("SELECT 1\u{0}", language: "sql") == "```sql\nSELECT 1\u{2400}\n```")
        #expect(MarkdownReport.text("S1\u{0}") == "S1\u{2400}")
        var result = ReportFixture.result(hostile: false)
        result.statements[0].sql = "SELECT *\u{0} FROM note"
        #expect(!MarkdownReport.render(result).unicodeScalars.contains("\u{0}"))
    }
}
