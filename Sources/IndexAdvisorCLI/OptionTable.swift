import Foundation
import IndexAdvisor

extension CommandOption {
    /// Every option of every command, in the order help lists them. Defaults are read from the options
    /// types themselves (the library's ``AnalysisOptions`` and ``CheckThresholds``, the CLI's ``DemoOptions``
    /// and ``WorkloadOptions``), never restated.
    ///
    /// To add an option: a property in the options of the commands that take it, and one entry here. A
    /// path that may be given several times is `.repeated("--name", value: "PATH", .text, help: …,
    /// into: .analysis(\.paths), .workload(\.paths))`.
    static var table: [CommandOption] {
        let analysis = AnalysisOptions()
        let thresholds = CheckThresholds()
        let demo = DemoOptions()
        let workload = WorkloadOptions()
        let reportFormats = ReportFormat.allCases.map(\.fileExtension)
        let summaryFormats = WorkloadSummaryFormat.allCases.map(\.rawValue)
        let costs = CostSource.allCases.map(\.rawValue)
        let notes = 1_000...10_000_000
        // A billion rows is already more than a store on a phone holds; above it the option only invites
        // overflow (`--sample-rows 5000000000000000000` once crashed computing 2 × N).
        let sampleRows = 0...1_000_000_000
        return [
            .repeated("--workload", "-w", value: "FILE|FOLDER", .text, help: """
                A .sql file (statements separated by ';', an optional '-- freq: N' comment before each or on the line of its ';'), Core Data / \
                SwiftData SQL debug output (-com.apple.CoreData.SQLDebug 1…4), or the JSON Lines file \
                IndexAdvisorRecorder writes (STORE\(WorkloadDiscovery.recordedWorkloadSuffix)). Repeat to merge several \
                files. A folder stands for its .log, .txt, .sql, .jsonl, .ndjson and .trace files. Default: \
                STORE\(WorkloadDiscovery.recordedWorkloadSuffix) if present.
                """, helpByCommand: [.workload: "Another file or folder (same as a FILE argument)."],
                into: .analysis(\.workloads), .workload(\.files)),
            .single("--workload-format", value: WorkloadFormat.allCases.map(\.rawValue).joined(separator: "|"),
                    ValueParser.choice(WorkloadFormat.init(rawValue:)) { text, use in
                        "\(use.name) must be one of \(WorkloadFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'"
                    }.optional,
                    help: "Force the workload format (default: detected from each file's content).",
                    into: .analysis(\.workloadFormat), .workload(\.workloadFormat)),
            .single("--format", "-f", value: reportFormats.joined(separator: "|"),
                    ValueParser.choice(ReportFormat.init(argument:)) { text, use in
                        "\(use.typed) must be \(reportFormats.dropLast().joined(separator: ", ")) or \(reportFormats.last!), not '\(text)'"
                    }, help: """
                    Report format (default: \(AnalyzeOptions().format.fileExtension)): md for a pull request, json \
                    (versioned, docs/report-json.md), sql (a migration: CREATE/DROP INDEX, one per line), html (one \
                    self-contained page with charts), swift (#Index/#Unique per model).
                    """, into: .analyzeOnly(\.format), .render(\.format)),
            .single("--format", "-f", value: summaryFormats.joined(separator: "|"),
                    ValueParser.choice { WorkloadSummaryFormat(rawValue: $0.lowercased()) } else: { text, use in
                        "\(use.name) must be \(summaryFormats.joined(separator: " or ")), not '\(text)'"
                    }, help: """
                    Output format (default: \(workload.format.rawValue)). json lists every statement, with the device's \
                    plans (SQLDebug 4) and where each was seen.
                    """, into: .workload(\.format)),
            .repeated("--model", "-m", value: "PATH", .text, help: """
                The app's @Model classes (a Swift file or a folder; repeat for several): key paths and index names \
                from the model instead of guessed from column names.
                """, into: .analyzeOnly(\.models), .render(\.models)),
            .repeated("--source", value: "PATH", .text, help: """
                The app's Swift source (a file or a folder; repeat for several): each fetch site (#Predicate, \
                FetchDescriptor, @Query, SortDescriptor, NSFetchRequest with NSPredicate format strings) becomes the \
                SQL Core Data prints for it, ×1 per site, ×10 per @Query, ×N after a comment \
                "// indexadvisor: freq N" on the line before. With a log, its statements keep their counts and gain \
                the site's location (File.swift:42); sites the log lacks are analysed and marked; sites that cannot \
                be translated are listed with the reason. Also the model, as --model reads it.
                """, helpByCommand: [.check: "As for analyze: the app's fetch sites join (or are) the workload.",
                                     .workload: "The app's Swift source (file or folder, repeatable): its fetch sites as statements (see analyze --help), each site listed with its location and the statement it became, or why not."],
                into: .analysis(\.sources), .workload(\.sources)),
            .single("--output", "-o", value: "FILE", ValueParser.path("a file name").optional,
                    help: "Write the report to FILE (atomically) instead of stdout.",
                    helpByCommand: [.check: "Also write this run's JSON report (the next --baseline)."],
                    into: .analysis(\.output), .render(\.output), .workload(\.output)),
            .flag("--quiet", "-q", help: """
                No progress on stderr (redrawn on a terminal; elsewhere a plain line every \
                \(HelpText.number(ProgressPrinter.plainEverySeconds)) s once a run passes \
                \(HelpText.number(ProgressPrinter.plainAfterSeconds)) s).
                """, helpByCommand: [.check: """
                    No progress or warnings on stderr, and no WARN lines (query-side advice) on stdout: only the FAIL \
                    lines and the summary line, which still counts the warnings. A failure is never hidden.
                    """],
                into: .analysis(\.quiet), .demo(\.quiet)),
            .flag("--verbose", help: """
                At the end, where the time went: seconds per stage, and candidate builds, read and write timings \
                (also in the JSON report's method.stageSeconds).
                """, helpByCommand: [.check: "At the end, on stderr, where the time went: seconds per stage and the timings run (also in the --output report's method.stageSeconds)."],
                into: .analysis(\.verbose)),
            .single("--repeats", value: "N", .integer(in: 1...1000),
                    help: "Timed runs per statement; the median is reported (default: \(analysis.repeats)).",
                    into: .analysis(\.analysisOptions.repeats)),
            .single("--cost", value: costs.joined(separator: "|"),
                    ValueParser.choice(CostSource.init(rawValue:)) { text, use in
                        "\(use.name) takes \(costs.joined(separator: " or ")), not '\(text)'"
                    }, help: """
                    What a statement costs: wall-clock time\(analysis.costSource == .wallClock ? " (default)" : ""), or \
                    SQLite's work counters (VM steps, page lookups) priced in seconds\(analysis.costSource == .sqliteCounters ? " (default)" : ""): \
                    the same figures on every run (index build times aside), for CI gates on shared machines.
                    """, into: .analysis(\.analysisOptions.costSource)),
            .single("--samples", value: "N", .integer(in: 1...1000), help: """
                Sets of bound values drawn from the data per statement when the workload has none (default: \
                \(analysis.bindingSamples)).
                """, into: .analysis(\.analysisOptions.bindingSamples)),
            .single("--statement-timeout", value: "SECONDS", .statementTimeout,
                    help: "Interrupt one execution after this long (default: \(HelpText.number(analysis.statementTimeout))).",
                    into: .analysis(\.analysisOptions.statementTimeout)),
            .single("--busy-timeout", value: "SECONDS", .seconds,
                    help: "Retry a store another process is changing (default: \(HelpText.number(analysis.busyTimeout))).",
                    into: .analysis(\.analysisOptions.busyTimeout)),
            .single("--max-indexes", value: "N", .integer(in: 0...1000),
                    help: "Recommend at most N new indexes (default: \(analysis.maxNewIndexes)).",
                    into: .analysis(\.analysisOptions.maxNewIndexes)),
            .single("--max-indexes-per-table", value: "N", .integer(in: 0...1000),
                    help: "At most N new indexes per table (default: \(analysis.maxIndexesPerTable)).",
                    into: .analysis(\.analysisOptions.maxIndexesPerTable)),
            .single("--max-index-bytes", value: "N", ValueParser.integer(in: 0...Int.max).map { Int64($0) }.optional,
                    help: "New indexes take at most N bytes together (default: \(analysis.maxIndexBytes.map { "\($0)" } ?? "no limit")).",
                    into: .analysis(\.analysisOptions.maxIndexBytes)),
            .single("--max-candidates", value: "N", .integer(in: 1...10_000),
                    help: "Build and measure at most N candidates (default: \(analysis.maxCandidatesMeasured)).",
                    into: .analysis(\.analysisOptions.maxCandidatesMeasured)),
            .single("--time-budget", value: "SECONDS", ValueParser.seconds.optional, help: """
                After this long, build and pick no more candidates (default: \
                \(analysis.timeBudgetSeconds.map(HelpText.number) ?? "none")): the statements that could save most \
                are measured first, and the report lists what was left out.
                """, into: .analysis(\.analysisOptions.timeBudgetSeconds)),
            .single("--seed", value: "N", ValueParser.integer(in: 0...Int.max).map { UInt64($0) },
                    help: "Seed for drawing bound values (default: \(analysis.seed)).",
                    into: .analysis(\.analysisOptions.seed)),
            .single("--sample-rows", value: "N", ValueParser<Int?> { text, use in
                // A sample under PlanFinding.smallTableRows makes every sampled table one too small to index (a
                // breaking helper's `--sample-rows 1`: "note has only 0 rows", no advice for 50,000 rows).
                let rows = try ValueParser.integer(in: sampleRows).parse(text, use)
                guard rows == 0 || rows >= PlanFinding.smallTableRows else {
                    throw use.error("\(use.typed) must be 0 (never sample) or from \(PlanFinding.smallTableRows) to \(sampleRows.upperBound), not '\(text)': a smaller sample leaves every table too small to index")
                }
                return rows == 0 ? nil : rows
            }, help: """
                Measure tables of more than 2×N rows on a deterministic 1-in-k sample of about N rows (default: \
                \(analysis.sampleRows.map(Figures.count) ?? "0"); 0: never), N from \(Figures.count(PlanFinding.smallTableRows)) to \(Figures.count(sampleRows.upperBound)). \
                Index sizes and build times are scaled to the store; times are the sample's, and the report says so.
                """, into: .analysis(\.analysisOptions.sampleRows)),
            .single("--temp-dir", value: "DIR", ValueParser.path("a directory").map { URL(fileURLWithPath: $0, isDirectory: true) }.optional,
                    help: "Where to put the private snapshot (default: system temp).",
                    into: .analysis(\.analysisOptions.temporaryDirectory)),
            .repeated("--unique", value: "'TABLE(col, …)'", ValueParser { text, use in
                do {
                    return try UniqueRule(parsing: text)
                } catch {
                    throw use.error("\(use.name): \(error)")
                }
            }, help: """
                A uniqueness rule to check against the data (e.g. one your model declares with #Unique). Repeat for \
                several.
                """, into: .analysis(\.analysisOptions.uniqueRules)),

            .single("--baseline", value: "FILE", ValueParser.path("a file name").optional, help: """
                A JSON report from an earlier analyze or check --output; it fails the check when it shares no \
                statement with the workload. An analyze report whose indexes now exist: writes they slow are \
                compared with its times after the advice.
                """, into: .check(\.baseline)),
            .single("--min-share", value: "SHARE", ValueParser.choice { Double($0).flatMap { (0...1).contains($0) ? $0 : nil } } else: { text, use in
                "\(use.name) must be a share from 0 to 1 (0.05 = 5 % of workload time), not '\(text)'"
            }, help: "Hot statements: at least this share of workload time (default: \(HelpText.number(thresholds.minimumShare))).",
                    into: .check(\.thresholds.minimumShare)),
            .single("--min-count", value: "N", ValueParser.integer(in: 1...Int.max).optional,
                    help: "…or run at least N times (default: \(thresholds.minimumCount.map { "\($0)" } ?? "share only")).",
                    into: .check(\.thresholds.minimumCount)),
            .single("--slowdown", value: "FACTOR", ValueParser.choice { Double($0).flatMap { $0 >= 1 && $0.isFinite ? $0 : nil } } else: { text, use in
                "\(use.name) must be a factor of at least 1 (1.5 = 50 % slower), not '\(text)'"
            }, help: "A regression is a median this many times the baseline's (default: \(HelpText.number(thresholds.slowdownFactor))).",
                    into: .check(\.thresholds.slowdownFactor)),

            .flag("--check", help: """
                Instead of rendering, check that every sentence the report prints agrees with its own data (plans, \
                times, claims, declarations, thresholds): one line per finding, exit 1 when there is one, 0 when \
                there is none.
                """, into: .render(\.check)),

            .single("--top", value: "N", .integer(in: 0...1_000_000),
                    help: "Statements in the text table, most observed time first (default: \(workload.top); 0: all).",
                    into: .workload(\.top)),

            .single("--notes", value: "N", .integer(in: notes),
                    help: "Notes in the store (default: \(Figures.count(demo.notes)); at least \(Figures.count(notes.lowerBound))).",
                    into: .demo(\.notes)),
            .single("--output-dir", value: "DIR", .path("a directory"),
                    help: "Where to write the demo's reports (default: \(demo.outputDirectory)).",
                    into: .demo(\.outputDirectory)),
            .single("--keep", value: "DIR", ValueParser.path("a directory").optional, help: """
                Keep the store (notes.sqlite), the log (notes-workload.log), the model (Note.swift) and the app's \
                source (NotesApp/, for --source) in DIR, to run `indexadvisor analyze` on them yourself.
                """, into: .demo(\.keepDirectory)),
            .single("--seed", value: "N", ValueParser.integer(in: 0...Int.max).map { UInt64($0) },
                    help: "Seed for the generated data (default: \(demo.seed)).",
                    into: .demo(\.seed)),
        ]
    }

    /// The options `command` accepts, in the table's order.
    static func options(of command: CommandName) -> [CommandOption] {
        table.filter { $0.accepts(command) }
    }
}
