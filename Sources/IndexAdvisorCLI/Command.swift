import Foundation
import IndexAdvisor

/// What the command line asks for.
public enum Command: Equatable, Sendable {
    case analyze(AnalyzeOptions)
    case check(CheckOptions)
    case workload(WorkloadOptions)
    case demo(DemoOptions)
    /// `render REPORT.json`: another format of a saved JSON report, without analysing again.
    case render(RenderOptions)
    /// `--help`, `help`, or `help <command>`.
    case help(topic: String?)
    case version
}

/// Options of `indexadvisor analyze` (and of `check`, through ``CheckOptions/analyze``).
public struct AnalyzeOptions: Equatable, Sendable {
    /// The store file.
    public var store = ""
    /// `--workload`: the workload files and folders, read and merged in order.
    public var workloads: [String] = []
    /// `--workload-format`: the format to read them as (nil: detected from their content).
    public var workloadFormat: WorkloadFormat?
    /// `--format`: the report's format.
    public var format = ReportFormat.markdown
    /// `--output`: the file to write the report to (nil: standard output).
    public var output: String?
    /// `--quiet`: no progress on stderr.
    public var quiet = false
    /// Print where the analysis spent its time (per stage) on stderr at the end.
    public var verbose = false
    /// `--model`: Swift files or folders with the app's `@Model` classes, for exact key paths.
    public var models: [String] = []
    /// `--source`: Swift files or folders of the app, whose fetch sites become (or join) the workload.
    public var sources: [String] = []
    /// The library's settings (`--repeats`, `--cost`, `--max-indexes`, …), passed to the analysis as they are;
    /// their defaults are the library's.
    public var analysisOptions = AnalysisOptions()

    /// The defaults: no store or workload yet, a Markdown report on standard output.
    public init() {}
}

/// Options of `indexadvisor check`: the analysis settings plus the thresholds and an optional baseline.
public struct CheckOptions: Equatable, Sendable {
    public var analyze = AnalyzeOptions()
    /// An earlier JSON report (`analyze --format json` or `check --format json`) to compare times with.
    public var baseline: String?
    public var thresholds = CheckThresholds()

    public init() {}
}

/// Options of `indexadvisor render`.
public struct RenderOptions: Equatable, Sendable {
    /// The JSON report to read.
    public var report = ""
    public var format = ReportFormat.markdown
    public var output: String?
    /// `--model`: Swift files or folders with the app's `@Model` classes, for exact key paths.
    public var models: [String] = []
    /// `--check`: run ``ReportChecker`` on the report and print its findings instead of rendering it.
    public var check = false

    public init() {}
}

/// Options of `indexadvisor workload`.
public struct WorkloadOptions: Equatable, Sendable {
    /// The workload files, read and merged in order.
    public var files: [String] = []
    public var workloadFormat: WorkloadFormat?
    public var format = WorkloadSummaryFormat.text
    public var output: String?
    /// Statements listed in the text table (the most observed time first); 0 lists all.
    public var top = 50
    /// `--source`: Swift files or folders of the app, whose fetch sites become (or join) the workload.
    public var sources: [String] = []

    public init() {}
}

/// How `indexadvisor workload` prints what it read.
public enum WorkloadSummaryFormat: String, Equatable, Sendable, CaseIterable {
    case text, json
}

/// Options of `indexadvisor demo`.
public struct DemoOptions: Equatable, Sendable {
    public var notes = 100_000
    public var outputDirectory = "reports"
    /// Keep the generated store and workload log in this directory instead of deleting them.
    public var keepDirectory: String?
    public var seed: UInt64 = 42
    public var quiet = false

    public init() {}
}

/// A mistake in the command line: printed as one line, then a usage line; exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The command whose usage line to print.
    public var command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String { message }
}

extension ReportFormat {
    init?(argument: String) {
        switch argument.lowercased() {
        case "md", "markdown": self = .markdown
        case "json": self = .json
        case "sql": self = .sql
        case "html", "htm": self = .html
        case "swift": self = .swift
        default: return nil
        }
    }
}
