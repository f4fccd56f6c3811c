import Foundation
import IndexAdvisor

/// Exit codes of `indexadvisor` (also listed in `--help` and the README).
public enum ExitCode {
    public static let success: Int32 = 0
    /// A `check` threshold was crossed.
    public static let checkFailed: Int32 = 1
    /// Bad usage or unusable input.
    public static let failure: Int32 = 2
}

/// Runs `indexadvisor` with `arguments` (without the program name) and returns the exit code. Errors are
/// printed as one line, `indexadvisor: error: …`, on stderr; usage mistakes add a `Usage:` line.
public enum IndexAdvisorCommand {
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments)
        } catch let error as UsageError {
            console.error(usageLine(error))
            return ExitCode.failure
        } catch {
            console.error("indexadvisor: error: \(oneLine(error))\n")
            return ExitCode.failure
        }
        do {
            switch command {
            case .version:
                console.out("indexadvisor \(IndexAdvisor.version) (SQLite \(sqliteVersion))\n")
            case .help(let topic):
                guard let text = HelpText.text(for: topic) else {
                    throw UsageError("no help for '\(topic ?? "")'; the commands are analyze, workload and demo")
                }
                console.out(text + "\n")
            case .analyze(let options):
                try analyze(options, console: console)
            case .workload(let options):
                try workload(options, console: console)
            case .demo(let options):
                try demo(options, console: console)
            }
            if let failure = console.outputFailure() {
                console.error("indexadvisor: error: cannot write the report to standard output (\(failure)); use --output FILE\n")
                return ExitCode.failure
            }
            return ExitCode.success
        } catch let error as UsageError {
            console.error(usageLine(error))
            return ExitCode.failure
        } catch {
            console.error("indexadvisor: error: \(oneLine(error))\n")
            return ExitCode.failure
        }
    }

    /// A usage mistake as one line: the message, then how the command is used.
    static func usageLine(_ error: UsageError) -> String {
        "indexadvisor: error: \(sanitized(error.message)) (\(HelpText.usage(for: error.command).replacingOccurrences(of: "Usage: ", with: "usage: ")))\n"
    }

    /// `text` on one line, with control characters (line breaks, escape sequences) shown as `\u{…}`.
    static func sanitized(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                result += scalar == "\n" || scalar == "\r" || scalar == "\t" ? " " : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func analyze(_ options: AnalyzeOptions, console: Console) throws {
        if let output = options.output {
            // The report must never replace the store, one of its sidecar files, or an input.
            let target = canonicalPath(output)
            let protected = ["", "-wal", "-shm", "-journal"].map { canonicalPath(options.store + $0) } + options.workloads.map(canonicalPath)
            if protected.contains(target) {
                throw UsageError("--output \(output) is the store, one of its -wal/-shm/-journal files, or a workload: choose another file", command: "analyze")
            }
        }
        let workload = try WorkloadLoader.load(options.workloads.map { URL(fileURLWithPath: $0) }, format: options.workloadFormat)
        let progress = ProgressPrinter(console: console, enabled: !options.quiet && console.errorIsTerminal)
        let result = try Advisor.analyze(storeAt: URL(fileURLWithPath: options.store), workload: workload,
                                         options: options.analysisOptions, progress: progress.update)
        progress.finish()
        let report = options.format.render(result)
        if options.format == .sql, result.recommendations.isEmpty, !options.quiet {
            console.error("indexadvisor: no index to add for this workload (see --format md for why)\n")
        }
        if let output = options.output {
            try write(report, to: output)
        } else {
            console.out(report)
        }
        if result.workload.skipped.values.reduce(0, +) > 0, !options.quiet {
            let skipped = result.workload.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            console.error("indexadvisor: warning: workload lines skipped: \(sanitized(skipped))\n")
        }
        for warning in result.warnings where !options.quiet {
            console.error("indexadvisor: warning: \(sanitized(warning))\n")
        }
    }

    static func workload(_ options: WorkloadOptions, console: Console) throws {
        if let output = options.output, options.files.map(canonicalPath).contains(canonicalPath(output)) {
            throw UsageError("--output \(output) is one of the workload files: choose another file", command: "workload")
        }
        let workload = try WorkloadLoader.read(options.files.map { URL(fileURLWithPath: $0) }, format: options.workloadFormat)
        let summary = WorkloadSummary(workload)
        let text = options.format == .json ? try summary.json() : summary.text(top: options.top)
        if let output = options.output {
            try write(text, to: output)
        } else {
            console.out(text)
        }
    }

    static func demo(_ options: DemoOptions, console: Console) throws {
        let started = Date()
        var temporary: TemporaryDirectory?
        let directory: URL
        let outputDirectory = URL(fileURLWithPath: options.outputDirectory, isDirectory: true)
        try makeDirectory(outputDirectory, option: "--output-dir")
        if let keep = options.keepDirectory {
            directory = URL(fileURLWithPath: keep, isDirectory: true)
            try makeDirectory(directory, option: "--keep")
            for name in ["notes.sqlite", "notes.sqlite-wal", "notes.sqlite-journal", "notes-workload.log"]
            where FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) {
                throw UsageError("--keep \(keep): \(name) already exists there; choose an empty directory or remove it", command: "demo")
            }
        } else {
            temporary = try TemporaryDirectory()
            directory = temporary!.url
        }
        defer { temporary?.remove() }
        let store = directory.appendingPathComponent("notes.sqlite")
        let log = directory.appendingPathComponent("notes-workload.log")
        let progress = ProgressPrinter(console: console, enabled: !options.quiet && console.errorIsTerminal)
        progress.say("building a \(options.notes)-note store")
        try NotesDemo.makeStore(at: store, notes: options.notes, seed: options.seed)
        try NotesDemo.workloadLog(seed: options.seed).write(to: log, atomically: true, encoding: .utf8)
        let built = Date().timeIntervalSince(started)
        let workload = try WorkloadLoader.load([log])
        let result = try Advisor.analyze(storeAt: store, workload: workload, progress: progress.update)
        progress.finish()
        let markdown = outputDirectory.appendingPathComponent("demo.md")
        let json = outputDirectory.appendingPathComponent("demo.json")
        try write(ReportFormat.markdown.render(result), to: markdown.path)
        try write(ReportFormat.json.render(result), to: json.path)

        var lines = ["indexadvisor demo: \(Figures.count(options.notes)) notes (\(ByteCountText.format(result.store.bytes))) built in \(Figures.duration(built)), analysed in \(Figures.duration(result.tool.analysisSeconds))."]
        let totals = result.totals
        lines.append("Weighted read time \(Figures.duration(totals.readSecondsBefore)) → \(Figures.duration(totals.readSecondsAfter)); \(Figures.counted(result.recommendations.count, "index", plural: "indexes")) recommended:")
        for recommendation in result.recommendations {
            // The statement it saves most on, timed with no new index and in the final state.
            let statements = recommendation.effects.compactMap { effect in result.statements.first { $0.id == effect.statementID } }
            let best = statements.max { a, b in
                a.weightedSecondsBefore - a.weightedSecondsAfter < b.weightedSecondsBefore - b.weightedSecondsAfter
            }
            let effect = best.flatMap { statement in
                statement.timingBefore.flatMap { before in statement.timingAfter.map { after in
                    " — \(Figures.duration(before.medianSeconds)) → \(Figures.duration(after.medianSeconds)) per execution of its main statement"
                } }
            } ?? ""
            lines.append("  \(recommendation.rank). \(recommendation.swiftDataIndex ?? recommendation.sql)\(effect)")
        }
        lines.append("Reports: \(markdown.path), \(json.path)")
        if options.keepDirectory != nil {
            lines.append("Store and workload kept: \(store.path), \(log.path)")
            lines.append("Try: indexadvisor analyze \(store.path) --workload \(log.path)")
        }
        console.out(lines.joined(separator: "\n") + "\n")
    }

    /// Writes `text` to `path` atomically (a temporary file renamed into place), so a failed run leaves
    /// no partial file.
    static func write(_ text: String, to path: String) throws {
        try AtomicFile.write(text, to: path)
    }

    /// Creates `directory` if needed; a file in the way is a usage error naming the option.
    static func makeDirectory(_ directory: URL, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw UsageError("\(option) \(directory.path) is a file, not a directory", command: "demo") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageError("\(option) \(directory.path): cannot create the directory (\(String(cString: strerror(errno))))", command: "demo")
        }
    }

    /// `path` absolute, with symbolic links resolved (for an existing file or its existing directory).
    static func canonicalPath(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if FileManager.default.fileExists(atPath: url.path) { return url.resolvingSymlinksInPath().path }
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
    }

    static func oneLine(_ error: any Error) -> String {
        sanitized(String(describing: error))
    }

    static var sqliteVersion: String { IndexAdvisor.sqliteLibraryVersion }
}


/// Draws one progress line on stderr when it is a terminal.
final class ProgressPrinter: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private var lastStage = ""

    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func update(_ progress: AnalysisProgress) {
        guard enabled else { return }
        let count = progress.total > 0 ? " \(progress.done + 1)/\(progress.total)" : ""
        console.error("\r\u{1B}[K" + String(format: "[%5.1fs] ", progress.elapsedSeconds) + progress.stage + count)
        lastStage = progress.stage
    }

    func say(_ text: String) {
        guard enabled else { return }
        console.error("\r\u{1B}[K" + text)
    }

    func finish() {
        guard enabled else { return }
        console.error("\r\u{1B}[K")
    }
}
