import Foundation
import IndexAdvisor

/// Exit codes of `indexadvisor` (also listed in `--help` and the README).
public enum ExitCode {
    public static let success: Int32 = 0
    /// A `check` threshold was crossed, or `render --check` found a sentence the report's data contradict.
    public static let checkFailed: Int32 = 1
    /// Bad usage or unusable input.
    public static let failure: Int32 = 2
}

/// A report that cannot be written where it should go: one line, exit 2.
struct OutputError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
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
        // Told when another process deletes this run's private directory (see `RunWatch`).
        let watch = RunWatch()
        return RunWatch.$current.withValue(watch) {
            execute(command, console: console, watch: watch)
        }
    }

    /// Runs a parsed command; the exit code.
    private static func execute(_ command: Command, console: Console, watch: RunWatch) -> Int32 {
        do {
            var code = ExitCode.success
            switch command {
            case .check(let options):
                code = try check(options, console: console)
            case .version:
                console.out("indexadvisor \(IndexAdvisor.version) (SQLite \(sqliteVersion))\n")
            case .help(let topic):
                guard let text = HelpText.text(for: topic) else {
                    throw UsageError("no help for '\(topic ?? "")'; the commands are analyze, check, render, workload and demo")
                }
                console.out(text + "\n")
            case .analyze(let options):
                try analyze(options, console: console)
            case .workload(let options):
                try workload(options, console: console)
            case .demo(let options):
                try demo(options, console: console)
            case .render(let options):
                code = try render(options, console: console)
            }
            if let failure = console.outputFailure() {
                console.error("indexadvisor: error: cannot write the report to standard output (\(failure)); use --output FILE\n")
                return ExitCode.failure
            }
            return code
        } catch let error as UsageError {
            console.error(usageLine(error))
            return ExitCode.failure
        } catch {
            // A snapshot deleted under the run makes later steps fail in odd ways: name the cause.
            let cause = watch.vanished.first.map { StoreError.snapshotVanished(directory: $0) } ?? error
            console.error("indexadvisor: error: \(oneLine(cause))\n")
            return ExitCode.failure
        }
    }

    /// Checks where a command will write before it does any work: a missing directory, an unwritable or
    /// refused target, `--output ""`, or a closed standard output are found in a moment, not after minutes of
    /// analysis. Each is one line, exit 2.
    static func checkOutput(_ output: String?, console: Console, command: String) throws {
        guard let output else {
            if let problem = console.outputProblem() {
                throw OutputError(message: "cannot write the report to standard output (\(problem)); use --output FILE")
            }
            return
        }
        if output.isEmpty {
            throw UsageError("--output needs a file name, not an empty string", command: command)
        }
        try AtomicFile.checkWritable(output)
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

    /// The workload paths for `options` and the files they stand for: the `--workload` paths (a folder
    /// stands for the logs under it, said on stderr), or, when none is given, the recorded workload beside
    /// the store (`STORE.workload.jsonl`), also said on stderr. Both empty when there is no workload.
    static func workloadFiles(_ options: AnalyzeOptions, console: Console) throws -> (paths: [String], files: [String]) {
        if options.workloads.isEmpty {
            guard let found = WorkloadDiscovery.recordedWorkload(besideStore: URL(fileURLWithPath: options.store)) else { return ([], []) }
            if !options.quiet {
                console.error("indexadvisor: using the recorded workload beside the store: \(sanitized(found.path)) (--workload FILE to use another)\n")
            }
            return ([found.path], [found.path])
        }
        let inputs = try WorkloadDiscovery.inputs(options.workloads.map { URL(fileURLWithPath: $0) })
        let folders = options.workloads.filter { path in !inputs.contains { $0.url.path == URL(fileURLWithPath: path).path } }
        if !folders.isEmpty, !options.quiet {
            console.error("indexadvisor: reading \(Figures.counted(inputs.count, "workload file")) from \(folders.map(sanitized).joined(separator: ", "))\n")
        }
        return (options.workloads, inputs.map(\.url.path))
    }

    /// Refuses an `--output` that is the store, one of its sidecar files, or an input.
    static func protectInputs(output: String?, store: String, workloads: [String], models: [String] = [], command: String) throws {
        guard let output else { return }
        // The side files belong to the store's real path: through a link `s.sqlite` → `t/s.sqlite` they are
        // `t/s.sqlite-wal`, not `s.sqlite-wal`.
        let realStore = canonicalPath(store)
        let sideFiles = ["", "-wal", "-shm", "-journal"].flatMap { [canonicalPath(store + $0), canonicalPath(realStore + $0)] }
        let protected = sideFiles + workloads.map(canonicalPath) + models.map(canonicalPath)
        // By path, and by file identity (a hard link has another path).
        let identities = Set(protected.compactMap(fileIdentity))
        if protected.contains(canonicalPath(output)) || fileIdentity(output).map(identities.contains) == true
            || isModelSource(output, models: models) {
            throw UsageError("--output \(output) is the store, one of its -wal/-shm/-journal files, a workload or a model file: choose another file", command: command)
        }
    }

    /// True when `output` is a `--model` file, or a Swift file or a Core Data model's file inside a `--model`
    /// folder (the app's sources).
    static func isModelSource(_ output: String, models: [String]) -> Bool {
        let target = canonicalPath(output)
        let inModel = target.split(separator: "/").contains { $0.lowercased().hasSuffix(".xcdatamodel") || $0.lowercased().hasSuffix(".xcdatamodeld") }
        return models.map(canonicalPath).contains { model in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: model, isDirectory: &isDirectory) else { return false }
            if isDirectory.boolValue { return (target.hasPrefix(model + "/") || target == model) && (target.hasSuffix(".swift") || inModel) }
            return target == model || (fileIdentity(output) != nil && fileIdentity(output) == fileIdentity(model))
        }
    }

    /// Device and inode of an existing file, links followed.
    static func fileIdentity(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_dev):\(status.st_ino)"
    }

    static func analyze(_ options: AnalyzeOptions, console: Console) throws {
        let (workloads, workloadInputs) = try workloadFiles(options, console: console)
        try protectInputs(output: options.output, store: options.store, workloads: workloadInputs, models: options.models + options.sources, command: "analyze")
        try checkOutput(options.output, console: console, command: "analyze")
        // The model and the source are read first: a wrong path fails before minutes of analysis.
        // The --model classes and Core Data models translate the source's fetch sites too.
        let modelRead = options.models.isEmpty ? nil : try readModel(options.models, command: "analyze")
        let scan = options.sources.isEmpty ? nil : try readSource(options.sources, command: "analyze", quiet: options.quiet, model: modelRead, console: console)
        let model = scan?.model ?? modelRead
        var analysisOptions = options.analysisOptions
        if let model {
            // What the model declares unique is checked against the data like a --unique rule.
            for rule in ModelMapping.declaredUniqueRules(in: model) where !analysisOptions.uniqueRules.contains(rule) {
                analysisOptions.uniqueRules.append(rule)
            }
            // A Core Data entity's fetch index can be partial or descending: those forms compete in its set.
            analysisOptions.coreDataEntities = ModelMapping.coreDataEntities(in: model)
        }
        let progress = ProgressPrinter(console: console, enabled: !options.quiet && console.errorIsTerminal, plain: !options.quiet)
        let analysed: AnalysisResult
        if workloads.isEmpty && scan == nil {
            // No workload: review the schema and the data, and say how to capture one.
            analysed = try Advisor.review(storeAt: URL(fileURLWithPath: options.store), options: analysisOptions,
                                          progress: progress.update)
            progress.finish()
            if !options.quiet, options.output != nil || options.format != .markdown {
                console.error(analysed.captureHint.map { "indexadvisor: " + $0 }.joined(separator: "\n") + "\n")
            }
        } else {
            let workload = try loadWorkload(workloads, format: options.workloadFormat, scan: scan, command: "analyze")
            analysed = try Advisor.analyze(storeAt: URL(fileURLWithPath: options.store), workload: workload,
                                           options: analysisOptions, progress: progress.update)
            progress.finish()
        }
        try RunWatch.current?.check()
        // The model is the source's when only --source gave it; the reports say which option it came from.
        // Without one, the model the store caches (Z_MODELCACHE) names the columns.
        let result = model.map { ModelMapping.apply($0, to: analysed, option: options.models.isEmpty ? "--source" : "--model") }
            ?? ModelMapping.applyStoreModel(to: analysed)
        RenderObserver.notify(result)
        let report = options.format.render(result)
        if options.format == .sql, result.recommendations.isEmpty, !options.quiet {
            let alternatives = result.alternatives?.count ?? 0
            console.error("indexadvisor: no index to add for this workload\(alternatives == 0 ? "" : "; \(Figures.counted(alternatives, "alternative")) the model cannot declare, commented out at the end") (see --format md for why)\n")
        }
        if let output = options.output {
            try write(report, to: output)
            if !options.quiet {
                console.error("indexadvisor: wrote \(sanitized(output)): \(Figures.counted(result.recommendations.count, "index", plural: "indexes")) to add, \(Figures.counted(result.existingIndexes.filter { $0.dropSQL != nil }.count, "index", plural: "indexes")) to drop\((result.alternatives ?? []).isEmpty ? "" : ", \(Figures.counted(result.alternatives!.count, "alternative")) the model cannot declare")\n")
            }
        } else {
            console.out(report)
        }
        if result.workload.skipped.values.reduce(0, +) > 0, !options.quiet {
            let skipped = result.workload.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            console.error("indexadvisor: warning: workload lines skipped: \(sanitized(skipped))\n")
        }
        for warning in result.warnings where !options.quiet {
            console.error("indexadvisor: warning: \(sanitized(warning.text))\n")
        }
        for note in result.model?.notes ?? [] where !options.quiet && result.model?.option != StoreModelCache.sourceName {
            console.error("indexadvisor: warning: \(result.model?.option ?? "--model"): \(sanitized(note))\n")
        }
        if options.verbose, let stages = result.method.stageSeconds {
            console.error(StageBreakdown.text(stages, total: result.tool.analysisSeconds))
        }
    }

    /// Renders a saved JSON report in another format, with the model's names when `--model` is given.
    /// Renders a saved report, or with `--check` prints what ``ReportChecker`` finds in it (exit 1 when it
    /// finds anything). The exit code.
    static func render(_ options: RenderOptions, console: Console) throws -> Int32 {
        try checkOutput(options.output, console: console, command: "render")
        let model = options.models.isEmpty ? nil : try readModel(options.models, command: "render")
        let data: Data
        do {
            data = try SavedReportFile.read(options.report)
        } catch {
            throw UsageError("\(options.report): cannot read the report (\(error))", command: "render")
        }
        let decoded: AnalysisResult
        do {
            decoded = try JSONReport.decode(data)
        } catch let error as JSONReportError {
            throw UsageError("\(options.report): \(error)", command: "render")
        } catch {
            throw UsageError("\(options.report): not a JSON report this indexadvisor reads (\(error))", command: "render")
        }
        let result = model.map { ModelMapping.apply($0, to: decoded) } ?? decoded
        if options.check {
            let findings = ReportChecker().check(result)
            var lines = findings.map { "\(options.report): \($0)" }
            lines.append(findings.isEmpty ? "\(options.report): every sentence checked agrees with the report's data"
                         : "\(options.report): \(Figures.counted(findings.count, "finding"))")
            let text = lines.joined(separator: "\n") + "\n"
            if let output = options.output { try write(text, to: output) } else { console.out(text) }
            return findings.isEmpty ? ExitCode.success : ExitCode.checkFailed
        }
        let report = options.format.render(result)
        if let output = options.output {
            if canonicalPath(output) == canonicalPath(options.report) {
                throw UsageError("--output \(output) is the report being read: choose another file", command: "render")
            }
            if isModelSource(output, models: options.models) {
                throw UsageError("--output \(output) is one of the --model sources: choose another file", command: "render")
            }
            try write(report, to: output)
        } else {
            console.out(report)
        }
        return ExitCode.success
    }

    /// Reads `--source` paths; an unreadable one is a usage error naming it. Unless `quiet`, each file skipped
    /// and each site that cannot be translated is a warning on stderr with its location and the reason, after
    /// a one-line count of the sites when `summary`.
    static func readSource(_ paths: [String], command: String, quiet: Bool, summary: Bool = true, model: ModelSource? = nil,
                           console: Console) throws -> SourceScan {
        let scan: SourceScan
        do {
            scan = try SourceScanner.scan(paths: paths, model: model)
        } catch let error as SourceScanError {
            throw UsageError("--source \(error)", command: command)
        }
        if !quiet {
            let translated = scan.sites.filter { $0.sql != nil }.count
            if summary { console.error("indexadvisor: --source: \(Figures.counted(scan.sites.count, "fetch site")) in \(Figures.counted(scan.files.count, "Swift file")), \(translated) translated into SQL\n") }
            for warning in scan.warnings {
                console.error("indexadvisor: warning: --source: \(sanitized(warning))\n")
            }
            for site in scan.sites {
                if let reason = site.untranslatedReason {
                    console.error("indexadvisor: warning: --source: \(sanitized(site.location)) (\(site.form.displayName)) not translated: \(sanitized(reason))\n")
                }
            }
        }
        return scan
    }

    /// The workload files read and merged, with the source's fetch sites merged in when `scan` is given.
    /// - Throws: ``WorkloadError/empty(paths:diagnostics:)`` when no statement can be analysed.
    static func loadWorkload(_ paths: [String], format: WorkloadFormat?, scan: SourceScan?, command: String) throws -> Workload {
        let urls = paths.map { URL(fileURLWithPath: $0) }
        guard let scan else { return try WorkloadLoader.load(urls, format: format) }
        let logged = paths.isEmpty ? nil : try WorkloadLoader.read(urls, format: format)
        let workload = SourceWorkload.merge(scan, into: logged)
        if workload.analysedStatements.isEmpty {
            if paths.isEmpty {
                throw UsageError("--source: no fetch site in \(scan.files.count == 1 ? scan.files[0] : Figures.counted(scan.files.count, "Swift file")) could be translated into SQL (\(Figures.counted(scan.sites.count, "site")) found)", command: command)
            }
            throw WorkloadError.empty(paths: paths, diagnostics: workload.diagnostics)
        }
        return workload
    }

    /// Reads `--model` paths; an unreadable one is a usage error naming it.
    static func readModel(_ paths: [String], command: String) throws -> ModelSource {
        do {
            return try ModelSourceReader.read(paths: paths)
        } catch let error as ModelSourceError {
            throw UsageError("--model \(error)", command: command)
        }
    }

    /// `check`: plans and times the workload as the store is; exit 1 when a hot statement scans or sorts, or
    /// got slower than the baseline. Problems print one per line (as GitHub Actions annotations when
    /// `GITHUB_ACTIONS` is set); `--output` keeps the JSON result, to serve as the next baseline.
    static func check(_ options: CheckOptions, console: Console) throws -> Int32 {
        var baseline: AnalysisResult?
        if let path = options.baseline {
            let data: Data
            do {
                data = try SavedReportFile.read(path)
            } catch {
                throw UsageError("--baseline \(path): \(error)", command: "check")
            }
            do {
                baseline = try JSONReport.decode(data)
            } catch let error as JSONReportError {
                throw UsageError("--baseline \(path): \(error)", command: "check")
            } catch {
                throw UsageError("--baseline \(path): not an indexadvisor JSON report", command: "check")
            }
        }
        let (workloads, workloadInputs) = try workloadFiles(options.analyze, console: console)
        let scan = options.analyze.sources.isEmpty ? nil
            : try readSource(options.analyze.sources, command: "check", quiet: options.analyze.quiet, console: console)
        if workloads.isEmpty && scan == nil {
            throw UsageError("check needs a workload: --workload FILE, the app's Swift source (--source PATH), or a recorded \(URL(fileURLWithPath: options.analyze.store).lastPathComponent)\(WorkloadDiscovery.recordedWorkloadSuffix) beside the store", command: "check")
        }
        try protectInputs(output: options.analyze.output, store: options.analyze.store, workloads: workloadInputs, models: options.analyze.sources, command: "check")
        try checkOutput(options.analyze.output, console: console, command: "check")
        // The verdict goes to standard output even with --output: it must be writable too.
        if options.analyze.output != nil { try checkOutput(nil, console: console, command: "check") }
        let workload: Workload
        do {
            workload = try loadWorkload(workloads, format: options.analyze.workloadFormat, scan: scan, command: "check")
        } catch WorkloadError.empty(_, let diagnostics) where !diagnostics.setAside.isEmpty {
            // Every statement was set aside as it was read (too long to read, or refused by SQLite): none can be
            // checked, and that fails the gate, as a workload whose statements all fail on the store does.
            let setAside = diagnostics.setAside
            let lines = setAside.map { "FAIL \(sanitized("\($0.location) cannot be checked: \($0.reason) (×\(Figures.count($0.count))): \(CheckEvaluator.excerpt($0.excerpt, limit: 100))"))" }
            console.out((lines + ["indexadvisor check: \(Figures.counted(setAside.count, "failure")), 0 warnings in \(Figures.counted(setAside.count, "statement")) (\(setAside.count) set aside as the workload was read)"]).joined(separator: "\n") + "\n")
            return ExitCode.checkFailed
        }
        let progress = ProgressPrinter(console: console, enabled: !options.analyze.quiet && console.errorIsTerminal, plain: !options.analyze.quiet)
        let result: AnalysisResult
        do {
            result = try Advisor.profile(storeAt: URL(fileURLWithPath: options.analyze.store), workload: workload,
                                         options: options.analyze.analysisOptions, progress: progress.update)
        } catch WorkloadError.noStatementAnalysable(let reasons) {
            // A gate that cannot check any statement fails (issue 39: a hot statement it could not plan or time
            // fails the gate, and here that is every one); analyze calls the same input unusable (exit 2).
            progress.finish()
            let first = reasons.first.map { ": the first \($0)" } ?? ""
            console.out("FAIL none of the workload's \(Figures.counted(reasons.count, "statement")) can be checked on this store\(sanitized(first))\n"
                        + "indexadvisor check: 1 failure, 0 warnings in \(Figures.counted(reasons.count, "statement")) (\(reasons.count) could not be timed)\n")
            return ExitCode.checkFailed
        }
        progress.finish()
        try RunWatch.current?.check()
        RenderObserver.notify(result)
        if let output = options.analyze.output { try write(ReportFormat.json.render(result), to: output) }
        let problems = CheckEvaluator.evaluate(result, baseline: baseline, thresholds: options.thresholds)
        let failures = problems.filter(\.isFailure)
        let github = console.isGitHubActions
        var lines: [String] = []
        // -q keeps a CI log to its verdict: failures and the summary line, no WARN lines (never a failure).
        for problem in problems where problem.isFailure || !options.analyze.quiet {
            let text = sanitized(problem.message)
            if github {
                lines.append("::\(problem.isFailure ? "error" : "warning") title=indexadvisor \(problem.kind.rawValue)::\(text)")
            } else {
                lines.append("\(problem.isFailure ? "FAIL" : "WARN") \(text)")
            }
        }
        // Every statement checked, those that could not be timed too: their failures are counted above (a
        // breaking helper read "3 failures … in 1 statement" for a workload of three, two interrupted).
        let untimed = result.statements.filter { $0.error != nil }.count
        // And those set aside as the workload was read (too long to read, or refused by SQLite): a hot one fails too.
        let setAside = result.workload.setAside?.count ?? 0
        let notChecked = (untimed > 0 ? ["\(untimed) could not be timed"] : []) + (setAside > 0 ? ["\(setAside) set aside as the workload was read"] : [])
        let checked = "\(Figures.counted(result.statements.count + setAside, "statement"))\(notChecked.isEmpty ? "" : " (\(notChecked.joined(separator: ", ")))")"
        // Failures per statement can be several (a scan and a sort): say how many statements they are in (a
        // new user read "9 failures … in 9 statements" as every statement failing, where 6 did).
        let failing = Set(failures.map(\.statement)).count
        let inStatements = failing < failures.count ? " (\(Figures.counted(failing, "statement")))" : ""
        lines.append("indexadvisor check: \(Figures.counted(failures.count, "failure"))\(inStatements), \(Figures.counted(problems.count - failures.count, "warning")) in \(checked) (thresholds: \(Int(options.thresholds.minimumShare * 100)) % of workload time\(options.thresholds.minimumCount.map { " or ×\($0)" } ?? ""), at least \(Figures.duration(options.thresholds.minimumSeconds)); slower than baseline by \(options.thresholds.slowdownFactor)×\(baseline == nil ? ", no baseline" : ""))")
        console.out(lines.joined(separator: "\n") + "\n")
        for warning in result.warnings where !options.analyze.quiet {
            console.error("indexadvisor: warning: \(sanitized(warning.text))\n")
        }
        if options.analyze.verbose, let stages = result.method.stageSeconds {
            console.error(StageBreakdown.text(stages, total: result.tool.analysisSeconds))
        }
        return failures.isEmpty ? ExitCode.success : ExitCode.checkFailed
    }

    static func workload(_ options: WorkloadOptions, console: Console) throws {
        let inputs = (try? WorkloadDiscovery.inputs(options.files.map { URL(fileURLWithPath: $0) }).map(\.url.path)) ?? []
        if let output = options.output, (options.files + inputs).map(canonicalPath).contains(canonicalPath(output)) || isModelSource(output, models: options.sources) {
            throw UsageError("--output \(output) is one of the workload files or --source files: choose another file", command: "workload")
        }
        try checkOutput(options.output, console: console, command: "workload")
        let scan = options.sources.isEmpty ? nil : try readSource(options.sources, command: "workload", quiet: false, summary: false, console: console)
        var workload = options.files.isEmpty ? nil : try WorkloadLoader.read(options.files.map { URL(fileURLWithPath: $0) }, format: options.workloadFormat)
        if let scan { workload = SourceWorkload.merge(scan, into: workload) }
        guard let workload else { return }
        let summary = WorkloadListing(workload)
        var text = options.format == .json ? try summary.json() : summary.text(top: options.top)
        if options.format == .text, !workload.sourceSites.isEmpty {
            var lines = ["", "Fetch sites in the Swift source (--source):"]
            for site in workload.sourceSites {
                let what = site.untranslatedReason.map { "not translated: " + $0 }
                    ?? "\(site.seenInLog == true ? "in the log" : "×\(site.frequency)") \(site.statementID.map { "[\($0)] " } ?? "")\(site.sql ?? "")"
                // A file's name is the user's: a newline or an escape sequence in it must not reach the terminal raw.
                lines.append("  \(sanitized(site.location)) \(site.form.displayName)\(site.isCount ? " (count)" : ""): \(sanitized(what))")
            }
            text += lines.joined(separator: "\n") + "\n"
        }
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
        // Every report file is checked before the store is built, so that a target that cannot be written
        // (a directory named demo.sql) stops the demo in a moment, not after the analysis with some written.
        for format in ReportFormat.allCases {
            try AtomicFile.checkWritable(outputDirectory.appendingPathComponent("demo." + format.fileExtension).path)
        }
        if let keep = options.keepDirectory {
            directory = URL(fileURLWithPath: keep, isDirectory: true)
            try makeDirectory(directory, option: "--keep")
            for name in ["notes.sqlite", "notes.sqlite-wal", "notes.sqlite-journal", "notes-workload.log", "Note.swift", "NotesApp"]
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
        let modelFile = directory.appendingPathComponent("Note.swift")
        try NotesDemo.modelSource.write(to: modelFile, atomically: true, encoding: .utf8)
        let built = Date().timeIntervalSince(started)
        let workload = try WorkloadLoader.load([log])
        let analysed = try Advisor.analyze(storeAt: store, workload: workload, progress: progress.update)
        progress.finish()
        // The demo's own model, read as --model reads an app's, so its key paths are the model's.
        let result = ModelMapping.apply(ModelSource(files: ["Note.swift"], classes: ModelSourceReader.parse(NotesDemo.modelSource, file: "Note.swift")), to: analysed)
        RenderObserver.notify(result)
        // Every format from this one result.
        var written: [String] = []
        for format in ReportFormat.allCases {
            let file = outputDirectory.appendingPathComponent("demo." + format.fileExtension)
            try write(format.render(result), to: file.path)
            written.append(file.path)
        }

        var lines = ["indexadvisor demo: \(Figures.count(options.notes)) notes (\(ByteCountText.format(result.store.bytes))) built in \(Figures.duration(built)), analysed in \(Figures.duration(result.tool.analysisSeconds))."]
        let totals = result.totals
        lines.append("Workload time \(Figures.duration(totals.totalSecondsBefore)) → \(Figures.duration(totals.totalSecondsAfter)) (reads and writes, count × median); \(Figures.counted(result.recommendations.count, "index", plural: "indexes")) recommended:")
        for recommendation in result.recommendations {
            // The same words as the reports' summary line: what it is charged with the whole set in place
            // (new-user trial: the console printed the final timing, the report another, for one index).
            lines.append("  \(recommendation.rank). \(result.summaryDeclaration(for: recommendation)) — \(result.chargeText(for: recommendation))")
        }
        lines.append("Reports: " + written.joined(separator: ", "))
        if options.keepDirectory != nil {
            // The notes app's source too, so that --source can be tried on the same store (new-user trial).
            let app = directory.appendingPathComponent("NotesApp", isDirectory: true)
            for (path, text) in NotesDemo.appSource {
                let file = app.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(text, to: file.path)
            }
            lines.append("Store, workload, model and app source kept: \(store.path), \(log.path), \(modelFile.path), \(app.path)")
            lines.append("Try: indexadvisor analyze \(store.path) --workload \(log.path) --model \(modelFile.path) --format html --output report.html")
            lines.append("Or, from the app's source: indexadvisor analyze \(store.path) --source \(app.path)")
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
