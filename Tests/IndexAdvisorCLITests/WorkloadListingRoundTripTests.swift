import Foundation
import Testing
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// `indexadvisor workload --format json` writes a document that `analyze --workload` reads back as the same
/// workload: each statement's text with its literals (`LIMIT 25 OFFSET 50` is planned as such, not as
/// `LIMIT ? OFFSET ?`), its count and the value sets seen, so that it is timed as the original was.
@Suite("workload --format json reads back")
struct WorkloadListingRoundTripTests {
    static let workload = """
        -- freq: 40
        SELECT * FROM item WHERE owner = 7 ORDER BY name LIMIT 25 OFFSET 50;
        -- freq: 10
        SELECT * FROM item WHERE owner = 9 ORDER BY name LIMIT 25 OFFSET 75;
        -- freq: 5
        SELECT count(*) FROM item WHERE name >= 'item 10' AND name < 'item 2';
        -- freq: 3
        UPDATE item SET name = 'renamed' WHERE id = 12;

        """

    func options() -> AnalysisOptions {
        var options = AnalysisOptions()
        options.costSource = .sqliteCounters
        options.repeats = 3
        return options
    }

    @Test("a statement written by workload --format json and read back is planned and timed as the original")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let store = try makeItemStore(in: directory, rows: 3000, owners: 40)
        let script = directory.url.appendingPathComponent("app.sql")
        try Data(Self.workload.utf8).write(to: script)
        let listing = directory.url.appendingPathComponent("listing.json")
        let captured = CapturedConsole()
        let code = IndexAdvisorCommand.run(["workload", script.path, "--format", "json", "--output", listing.path], console: captured.console)
        #expect(code == 0, "\(captured.error)")

        let original = try WorkloadLoader.load([script])
        let readBack = try WorkloadLoader.load([listing])
        #expect(readBack.diagnostics.formats.first?.format == .listing)
        #expect(readBack.statements.count == original.statements.count)
        for statement in original.statements {
            let again = try #require(readBack.statements.first { $0.fingerprint == statement.fingerprint })
            #expect(again.sql == statement.sql)
            #expect(again.text == statement.text)
            #expect(again.literalValues == statement.literalValues)
            #expect(again.count == statement.count)
            #expect(Set(again.observedBindings.map { $0.map(\.sqlLiteral) }) == Set(statement.observedBindings.map { $0.map(\.sqlLiteral) }))
        }
        let paged = try #require(readBack.statements.first { $0.text.contains("OFFSET 50") })
        #expect(paged.literalValues.contains(.integer(25)) && paged.literalValues.contains(.integer(50)))

        let before = try Advisor.analyze(storeAt: store, workload: original, options: options())
        let after = try Advisor.analyze(storeAt: store, workload: readBack, options: options())
        for statement in before.statements {
            let again = try #require(after.statements.first { $0.id == statement.id })
            #expect(again.planBefore?.steps.map(\.detail) == statement.planBefore?.steps.map(\.detail))
            // Priced by SQLite's work counters, the same runs do the same work.
            #expect(again.timingBefore?.medianSeconds == statement.timingBefore?.medianSeconds, "\(statement.sql)")
        }
    }

    @Test("a listing is told from a saved report and from JSON Lines by its about")
    func detection() {
        let listing = "{\n  \"about\" : \"indexadvisor-workload-listing\",\n  \"statements\" : [\n    { \"sql\" : \"SELECT 1 FROM t WHERE a = ?\", \"text\" : \"SELECT 1 FROM t WHERE a = 3\", \"count\" : 2 }\n  ]\n}\n"
        #expect(WorkloadFormat.detect(Substring(listing)) == .listing)
        let workload = WorkloadLoader.parse(listing, file: "listing.json")
        #expect(workload.statements.first?.text == "SELECT 1 FROM t WHERE a = 3")
        #expect(workload.statements.first?.count == 2)
        #expect(WorkloadFormat.detect(Substring("{\"type\":\"statement\",\"sql\":\"SELECT 1\"}\n")) == .jsonl)
        let report = "{\n  \"statements\" : [],\n  \"schemaVersion\" : 3\n}\n"
        #expect(Array(report.utf8).withUnsafeBufferPointer { NotAWorkload.identify($0) } != nil)
        #expect(Array(listing.utf8).withUnsafeBufferPointer { NotAWorkload.identify($0) } == nil)
    }
}
