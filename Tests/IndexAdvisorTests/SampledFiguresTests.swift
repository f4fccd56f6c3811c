import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 16, item 7: figures measured on a sample of a large store were shown as the store's.
@Suite("Figures from a sample are scaled to the store or labelled as the sample's")
struct SampledFiguresTests {
    static let storeSQL = """
        CREATE TABLE event(id INTEGER PRIMARY KEY, user INTEGER, kind INTEGER, at INTEGER, note TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
        INSERT INTO event SELECT i, (i * 7919) % 3000, i % 13, 1700000000 + i, 'note ' || i FROM n;
        """
    static let workload = """
        -- freq: 100
        SELECT id, at FROM event WHERE user = 77 ORDER BY at DESC LIMIT 20;
        -- freq: 5
        INSERT INTO event(user, kind, at, note) VALUES (5, 3, 1800000000, 'new');
        """

    static func analyze(_ store: FixtureStore, sampleRows: Int?) throws -> AnalysisResult {
        var options = quickOptions()
        options.sampleRows = sampleRows
        return try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "w.sql", format: .sql), options: options)
    }

    @Test("index size and build time are scaled to the store's rows; times are labelled as the sample's in every format")
    func scaledAndLabelled() throws {
        let store = try FixtureStore(Self.storeSQL)
        let sampled = try Self.analyze(store, sampleRows: 10_000)
        let whole = try Self.analyze(store, sampleRows: nil)

        let sample = try #require(sampled.store.sampledTables.first)
        #expect(sample.table == "event" && sample.rows == 60_000 && sample.step == 6)
        let scaled = try #require(sampled.recommendations.first)
        let measured = try #require(whole.recommendations.first)
        #expect(scaled.columns.map(\.name) == measured.columns.map(\.name))
        // Size: the sample's × rows ÷ sampled rows, within 5 % of the index built on the whole table.
        let scale = try #require(scaled.sampleScale)
        #expect(abs(scale - 60_000 / Double(sample.sampledRows)) < 1e-9)
        let sampleBytes = try #require(scaled.sampleBytes)
        #expect(scaled.bytes == Int64((Double(sampleBytes) * scale).rounded()))
        #expect(abs(Double(scaled.bytes) / Double(measured.bytes) - 1) < 0.05, "\(scaled.bytes) against \(measured.bytes)")
        #expect(sampleBytes < measured.bytes / 4)
        // Build time: the sample's × rows ÷ sampled rows × ln rows ÷ ln sampled rows (a sort).
        let sampleSeconds = try #require(scaled.sampleBuildSeconds)
        #expect(abs(scaled.buildSeconds - sampleSeconds * scale * log(60_000) / log(Double(sample.sampledRows))) < 1e-12)
        #expect(measured.sampleScale == nil && measured.sampleBytes == nil && measured.sampleBuildSeconds == nil)

        // Times are the sample's, and say so.
        #expect(sampled.totals.timesFromSample == true)
        #expect(whole.totals.timesFromSample == nil)
        #expect(sampled.methodText.contains("index sizes × \(String(format: "%.2f", scale))"))
        #expect(sampled.methodText.contains("Statement and workload times are the sample's, not scaled"))

        let markdown = MarkdownReport.render(sampled)
        #expect(markdown.contains("**Workload time on the sample (event: 1 row in 6) "))
        // What each index saves and costs is the sample's; its build and size the store's, scaled.
        let saves = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- Saves ") })
        #expect(saves.hasSuffix(" per execution (on the sample)."))
        let costs = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- Adds ") })
        #expect(costs.contains(" (on the sample); built in about \(Figures.duration(scaled.buildSeconds)) on the whole store"))
        #expect(markdown.contains("Building it takes about "))
        #expect(markdown.contains("on the whole store ("))
        #expect(markdown.contains("Every time here was measured on the sample (event: 1 row in 6)"))

        #expect(!MarkdownReport.render(whole).contains("sample"))
        let html = HTMLReport.render(sampled)
        #expect(html.contains("Workload time (sample)"))
        #expect(html.contains("the workload takes on the sample (event: 1 row in 6)"))
        #expect(html.contains("built in about \(Figures.duration(scaled.buildSeconds)) on the whole store"))
        let sql = SQLReport.render(sampled)
        #expect(sql.contains("Weighted workload time on the sample (event: 1 row in 6)"))
        #expect(sql.contains("(the whole store's, scaled from the sample)"))
        let json = JSONReport.render(sampled)
        #expect(json.contains("\"sampleScale\""))
        #expect(json.contains("\"timesFromSample\" : true"))
        let decoded = try JSONReport.decode(Data(json.utf8))
        #expect(decoded.recommendations.first?.sampleBytes == sampleBytes)
    }
}
