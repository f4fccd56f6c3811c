import Foundation
import IndexAdvisor
import IndexAdvisorBenchKit

/// `scale`: the whole analysis of a four-statement workload on one 2,000,000-row table (`--rows`; 200,000
/// with `--quick`), as a ratio to building one index on that table in the same run, and to `.expert`.
struct ScaleBenchmark: Benchmark {
    let name = "scale"
    let summary = "indexadvisor analyze on a 2,000,000-row table (--rows; --quick: 200,000) vs one CREATE INDEX on it and vs .expert"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let rows = context.integer("--rows", context.quick ? 200_000 : 2_000_000)
        let directory = context.directory.appendingPathComponent("scale")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = directory.appendingPathComponent("big.sqlite")
        let built = try Self.build(store, rows: rows)
        context.say("built \(Figures.count(rows)) rows in \(Figures.duration(built))")
        let statements = [
            (400, "SELECT id, title FROM item WHERE owner = 4242 ORDER BY createdAt DESC LIMIT 20"),
            (200, "SELECT * FROM item WHERE code = 'C-0001234'"),
            (50, "SELECT count(*) FROM item WHERE status = 3 AND createdAt > 1750000000"),
            (100, "UPDATE item SET status = 2 WHERE id = 77"),
        ]
        let workloadURL = directory.appendingPathComponent("workload.sql")
        try Data(statements.map { "-- freq: \($0.0)\n\($0.1);" }.joined(separator: "\n").utf8).write(to: workloadURL)

        // The baseline: one index on the table, built on a copy in this run.
        let copy = directory.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: store, to: copy)
        let connection = try SQLiteConnection(path: copy.path, mode: .readWrite)
        var builds: [Double] = []
        for _ in 0..<max(1, min(3, context.samples)) {
            let start = DispatchTime.now().uptimeNanoseconds
            try connection.execute("CREATE INDEX \"bench_owner\" ON \"item\" (\"owner\")")
            builds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try connection.execute("DROP INDEX \"bench_owner\"")
        }
        let build = TimingSamples(name: "CREATE INDEX on owner (\(Figures.count(rows)) rows)", seconds: builds)

        let before = Machine.peakResidentBytes()
        var options = AnalysisOptions()
        options.temporaryDirectory = directory
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try Advisor.analyze(storeAt: store, workload: try WorkloadLoader.load([workloadURL]), options: options)
        let analysis = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let peak = Machine.peakResidentBytes()
        context.say("analysed in \(Figures.duration(analysis)): \(result.recommendations.count) indexes")

        var output = BenchmarkResult()
        output.timings = [build, TimingSamples(name: "indexadvisor analyze (whole run, once)", seconds: [analysis])]
        output.ratios.append(Ratio(name: "scale: analysis / one CREATE INDEX", value: analysis / build.median,
                                   meaning: "the whole analysis costs as much as building this many indexes on the table",
                                   // At --quick's small scale the analysis's fixed costs dominate: the target is the full run's.
                                   target: context.quick ? nil : "≤ 30", met: context.quick ? nil : analysis / build.median <= 30))
        if let shell = ExpertRunner.shell() {
            let expert = try ExpertRunner(shell: shell).run(statements: statements.filter { !$0.1.hasPrefix("UPDATE") }.map(\.1), store: store)
            output.timings.append(TimingSamples(name: ".expert on the 3 reads (whole run, once)", seconds: [expert.seconds]))
            output.ratios.append(Ratio(name: "scale: analysis / .expert", value: analysis / expert.seconds,
                                       meaning: "our analysis (it builds and times candidates) ÷ .expert's (plans only)", target: nil, met: nil))
        }
        output.figures = [
            ("Rows", Figures.count(rows)),
            ("Store", ByteCountText.format(result.store.bytes)),
            ("Recommendations", result.recommendations.map { ChangeSet.key($0.sql) }.joined(separator: "; ")),
            ("Peak resident memory", "\(ByteCountText.format(Int64(peak))) (was \(ByteCountText.format(Int64(before))) before the analysis)"),
        ]
        return output
    }

    /// A table of `rows` items: 50,000 owners, a unique code, a 5-value status, dates over 3 years.
    static func build(_ url: URL, rows: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, code TEXT NOT NULL, status INTEGER NOT NULL,
                               createdAt REAL NOT NULL, title TEXT NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO item SELECT i, (i * 7919) % 50000, printf('C-%07d', i), i % 5, 1660000000 + (i * 104729) % 94000000,
                                    'item ' || i FROM n;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
