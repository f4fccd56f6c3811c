import Foundation
import IndexAdvisor

/// `speed` (issue 18): what one analysis costs next to the least any advisor that measures must pay.
///
/// 1. **Floor ratio.** On each advice benchmark store and on the demo store: the whole analysis (its own
///    process, the default options) ÷ the *floor*, which is copying the store with the `sqlite3` shell
///    (`.backup`) plus running the analysis's own SQL migration (its `CREATE INDEX` and `DROP INDEX`
///    statements) on that copy with the shell. Target ≤ 10 in a release build at full scale.
/// 2. **Cost per statement.** 10 tables of 10,000 rows and workloads of 100 and 3,000 distinct statements
///    (`--quick`: 2,000 rows, 30 and 300): analysis seconds per distinct statement at the large count ÷ at
///    the small one (target ≤ 1.2: linear), and the peak resident memory of each run's process.
///
/// Each analysis runs in a child process (`--child analyze`), so its peak memory is its own. Timings are
/// taken once each: the ratios, not the seconds, are the figures that travel.
struct SpeedBenchmark: Benchmark {
    let name = "speed"
    let summary = "analysis time ÷ the floor (sqlite3 .backup + building the advised indexes) per store and on the demo; seconds per statement at 3,000 statements ÷ at 100"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        guard let shell = ExpertRunner.shell() else { throw BenchmarkError("the sqlite3 shell is needed for the floor (apt-get install sqlite3)") }
        let directory = context.directory.appendingPathComponent("speed")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Targets hold for what a user runs: a release build on full-size stores.
        let judged = !context.quick && !Machine.isDebugBuild
        var output = BenchmarkResult()

        var inputs: [(name: String, store: URL, workload: URL, rows: String)] = []
        for store in try AdviceStores.all(in: directory, scale: context.quick ? 0.1 : 1, seed: UInt64(context.integer("--seed", 7))) {
            let workload = directory.appendingPathComponent("\(store.name).sql")
            try Data(store.workloadSQL.utf8).write(to: workload)
            inputs.append((store.name, store.url, workload, store.summary))
        }
        let notes = context.quick ? 10_000 : 100_000
        let demoStore = directory.appendingPathComponent("demo.sqlite")
        try NotesDemo.makeStore(at: demoStore, notes: notes)
        let demoLog = directory.appendingPathComponent("demo-workload.log")
        try Data(NotesDemo.workloadLog().utf8).write(to: demoLog)
        inputs.append(("demo", demoStore, demoLog, "the demo's \(Figures.count(notes)) notes and its Core Data log"))

        var rows: [String] = [
            "| store | analysis | floor: copy + build | ratio | stages over 15 % of the analysis | indexes |",
            "| --- | ---: | ---: | ---: | --- | ---: |",
        ]
        // `--keep-stores DIR`: each store, its workload and the analysis's JSON report, to reproduce a row by hand.
        let keep = context.options["--keep-stores"].map { URL(fileURLWithPath: $0) }
        var storeRuns: [(String, ChildAnalysis)] = []
        for input in inputs {
            context.say("speed: analysing \(input.name)")
            let report = try keep.map { directory -> URL in
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for file in [input.store, input.workload] {
                    let target = directory.appendingPathComponent(file.lastPathComponent)
                    try? FileManager.default.removeItem(at: target)
                    try FileManager.default.copyItem(at: file, to: target)
                }
                return directory.appendingPathComponent("\(input.name)-report.json")
            }
            let run = try ChildAnalysis.child(context.executable, store: input.store, workload: input.workload, directory: directory, report: report)
            storeRuns.append((input.name, run))
            let floor = try Self.floor(shell: shell, store: input.store, migration: run.migration, directory: directory,
                                       samples: max(1, min(3, context.samples)))
            let ratio = run.seconds / floor.total
            output.ratios.append(Ratio(name: "speed: \(input.name) analysis / floor", value: ratio,
                                       meaning: "analysis wall time ÷ (sqlite3 .backup + the advised migration run by the shell)",
                                       target: judged ? "≤ 10" : nil, met: judged ? ratio <= 10 : nil))
            let heavy = run.stages.filter { !$0.isActivity && $0.seconds >= 0.15 * run.seconds }
                .map { "\($0.stage) \(Figures.duration($0.seconds))" }.joined(separator: ", ")
            rows.append("| \(input.name) | \(Figures.duration(run.seconds)) | \(Figures.duration(floor.copy)) + \(Figures.duration(floor.build)) | \(String(format: "%.1f", ratio)) | \(heavy.isEmpty ? "–" : heavy) | \(run.indexes) |")
        }
        output.sections.append((["### Analysis ÷ floor", "",
                                 "Each analysis once, in its own process, default options; the floor is the median of \(max(1, min(3, context.samples))) runs of the `sqlite3` shell copying the store (`.backup`) and running the analysis's own SQL migration on the copy.", ""]
                                + rows).joined(separator: "\n"))

        // Cost per distinct statement: linear in their number, memory bounded.
        let tableRows = context.quick ? 2_000 : 10_000
        let counts = context.quick ? (small: 30, large: 300) : (small: 100, large: 3_000)
        let scaleStore = directory.appendingPathComponent("tables.sqlite")
        try StatementScaleWorkload.makeStore(at: scaleStore, tables: 10, rows: tableRows)
        var perStatement: [Int: ChildAnalysis] = [:]
        for count in [counts.small, counts.large] {
            let workload = directory.appendingPathComponent("statements-\(count).sql")
            try Data(StatementScaleWorkload.sql(statements: count).utf8).write(to: workload)
            context.say("speed: analysing \(count) distinct statements")
            perStatement[count] = try ChildAnalysis.child(context.executable, store: scaleStore, workload: workload, directory: directory,
                                                        report: keep?.appendingPathComponent("statements-\(count)-report.json"))
        }
        let small = perStatement[counts.small]!, large = perStatement[counts.large]!
        output.sections.append(Self.stageTable(storeRuns + [("\(counts.small) statements", small), ("\(Figures.count(counts.large)) statements", large)]))
        let growth = (large.seconds / Double(counts.large)) / (small.seconds / Double(counts.small))
        output.ratios.append(Ratio(name: "speed: seconds per statement, \(Figures.count(counts.large)) ÷ \(counts.small) statements", value: growth,
                                   meaning: "about 1 when the cost is linear in the number of distinct statements",
                                   target: judged ? "≤ 1.2" : nil, met: judged ? growth <= 1.2 : nil))
        output.ratios.append(Ratio(name: "speed: peak memory, \(Figures.count(counts.large)) ÷ \(counts.small) statements", value: Double(large.peakBytes) / Double(max(1, small.peakBytes)),
                                   meaning: "peak resident memory of the analysis process", target: nil, met: nil))
        output.figures = [
            ("Statement scaling", "10 tables of \(Figures.count(tableRows)) rows: \(counts.small) statements in \(Figures.duration(small.seconds)) (\(Figures.duration(small.seconds / Double(counts.small))) each, peak \(ByteCountText.format(Int64(small.peakBytes)))); \(Figures.count(counts.large)) in \(Figures.duration(large.seconds)) (\(Figures.duration(large.seconds / Double(counts.large))) each, peak \(ByteCountText.format(Int64(large.peakBytes))))"),
        ]
        return output
    }

    /// Issue 40, item 1: every run's stages (in the order the analysis met them, then rendering every report
    /// format) and, after them, the activities that overlap the stages (candidate builds, read and write
    /// timings, with their counts), in wall-clock seconds; a stage a run did not enter is "–".
    static func stageTable(_ runs: [(name: String, run: ChildAnalysis)]) -> String {
        var stages: [String] = [], activities: [String] = []
        for (_, run) in runs {
            for stage in run.stages where !(stage.isActivity ? activities : stages).contains(stage.stage) {
                if stage.isActivity { activities.append(stage.stage) } else { stages.append(stage.stage) }
            }
        }
        let columns = stages + ["render"] + activities
        var lines = ["### Stages", "",
                     "Wall-clock seconds per stage of each analysis above (one run each; \"render\", every report format rendered once, is not in the analysis's time); the last \(activities.count) columns are activities inside the stages, with how many times they happened.", "",
                     "| run | analysis | " + columns.joined(separator: " | ") + " |",
                     "| --- | ---: | " + columns.map { _ in "---:" }.joined(separator: " | ") + " |"]
        for (name, run) in runs {
            let cells = columns.map { column -> String in
                if column == "render" { return Figures.duration(run.renderSeconds) }
                guard let stage = run.stages.first(where: { $0.stage == column }) else { return "–" }
                return Figures.duration(stage.seconds) + (stage.count.map { " (\(Figures.count($0)))" } ?? "")
            }
            lines.append("| \(name) | \(Figures.duration(run.seconds)) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// The floor's two parts, in seconds: the shell's `.backup` of `store`, and the shell running `migration`
    /// on that copy (medians of `samples` runs, each on a fresh copy).
    static func floor(shell: URL, store: URL, migration: String, directory: URL, samples: Int) throws -> (copy: Double, build: Double, total: Double) {
        let copy = directory.appendingPathComponent("floor-copy.sqlite")
        let script = directory.appendingPathComponent("floor-migration.sql")
        try Data(migration.utf8).write(to: script)
        var copies: [Double] = [], builds: [Double] = []
        for _ in 0..<samples {
            try? FileManager.default.removeItem(at: copy)
            copies.append(try timedShell(shell, [store.path, ".backup '\(copy.path)'"]))
            builds.append(try timedShell(shell, [copy.path, ".read '\(script.path)'"]))
        }
        try? FileManager.default.removeItem(at: copy)
        let c = TimingSamples(name: "copy", seconds: copies).median, b = TimingSamples(name: "build", seconds: builds).median
        return (c, b, c + b)
    }

    static func timedShell(_ shell: URL, _ arguments: [String]) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try LogParseBenchmark.output(of: shell.path, ["-bail"] + arguments)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// One analysis in a child process (`indexadvisor-bench --child analyze STORE WORKLOAD TMPDIR [REPORT.json]`).
struct ChildAnalysis: Codable {
    var seconds: Double
    var peakBytes: Int
    var indexes: Int
    /// The report's SQL migration.
    var migration: String
    var stages: [StageTime]
    /// Seconds to render every report format once, after the analysis (not in ``seconds``).
    var renderSeconds: Double

    static func child(_ executable: URL, store: URL, workload: URL, directory: URL, report: URL? = nil) throws -> ChildAnalysis {
        let text = try LogParseBenchmark.output(of: executable.path, ["--child", "analyze", store.path, workload.path, directory.path]
                                                    + (report.map { [$0.path] } ?? []))
        return try JSONDecoder().decode(ChildAnalysis.self, from: Data(text.utf8))
    }

    /// The child's work: analyse, print the figures as JSON.
    static func runInChild(_ arguments: [String]) throws {
        guard arguments.count == 3 || arguments.count == 4 else { throw BenchmarkError("analyze STORE WORKLOAD TMPDIR [REPORT.json]") }
        var options = AnalysisOptions()
        options.temporaryDirectory = URL(fileURLWithPath: arguments[2])
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try Advisor.analyze(storeAt: URL(fileURLWithPath: arguments[0]),
                                         workload: try WorkloadLoader.load([URL(fileURLWithPath: arguments[1])]), options: options)
        let analysed = DispatchTime.now().uptimeNanoseconds
        // What `analyze` writes by default besides the console: every report format, rendered once.
        let json = JSONReport.render(result)
        _ = (MarkdownReport.render(result), HTMLReport.render(result), SwiftReport.render(result))
        let migration = SQLReport.render(result, queryAdvice: false)
        let rendered = DispatchTime.now().uptimeNanoseconds
        if arguments.count == 4 { try Data(json.utf8).write(to: URL(fileURLWithPath: arguments[3])) }
        let run = ChildAnalysis(seconds: Double(analysed - start) / 1e9, peakBytes: Machine.peakResidentBytes(), indexes: result.recommendations.count,
                              migration: migration, stages: result.method.stageSeconds ?? [], renderSeconds: Double(rendered - analysed) / 1e9)
        print(String(decoding: try JSONEncoder().encode(run), as: UTF8.self))
    }
}

/// The statement-count workload: 10 tables `t0`…`t9` (`a`…`f` of different cardinalities) and distinct
/// SELECT shapes over them (one or two equalities, an optional range, an optional sort with a LIMIT), each
/// with its own frequency, drawn from a fixed seed.
enum StatementScaleWorkload {
    static func makeStore(at url: URL, tables: Int, rows: Int) throws {
        try? FileManager.default.removeItem(at: url)
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        for table in 0..<tables {
            try connection.execute("""
                CREATE TABLE "t\(table)" (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER, d REAL, e TEXT, f INTEGER);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                INSERT INTO "t\(table)" SELECT i, i % 97, i % 13, (i * 7919) % 1000, i * 1.5, printf('v%05d', i % 5000), i % 3 FROM n;
                """)
        }
    }

    /// `statements` distinct statements as a `.sql` workload with `-- freq:` comments.
    static func sql(statements: Int) -> String {
        let columns = ["a", "b", "c", "d", "e", "f"]
        var shapes: [(table: Int, equalities: [String], range: String?, order: (String, Bool)?)] = []
        for table in 0..<10 {
            let pairs = columns.indices.flatMap { i in columns.indices.filter { $0 > i }.map { [columns[i], columns[$0]] } }
            for equalities in columns.map({ [$0] }) + pairs {
                let rest = columns.filter { !equalities.contains($0) }
                for range in [nil] + rest.prefix(3).map(Optional.some) {
                    for order in [nil] + rest.flatMap({ [($0, false), ($0, true)] }).map(Optional.some) {
                        shapes.append((table, equalities, range, order))
                    }
                }
            }
        }
        var generator = SeededGenerator(seed: 7)
        shapes.shuffle(using: &generator)
        func literal(_ column: String) -> String {
            column == "e" ? "'v\(String(format: "%05d", Int.random(in: 0..<5000, using: &generator)))'" : String(Int.random(in: 0...12, using: &generator))
        }
        return shapes.prefix(statements).map { shape in
            var sql = "SELECT id, a, b FROM t\(shape.table) WHERE " + shape.equalities.map { "\($0) = \(literal($0))" }.joined(separator: " AND ")
            if let range = shape.range { sql += " AND \(range) > \(literal(range))" }
            if let (column, descending) = shape.order { sql += " ORDER BY \(column)\(descending ? " DESC" : "") LIMIT 20" }
            return "-- freq: \(Int.random(in: 1...50, using: &generator))\n\(sql);"
        }.joined(separator: "\n") + "\n"
    }
}
