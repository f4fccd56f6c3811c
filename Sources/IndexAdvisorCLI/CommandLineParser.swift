import IndexAdvisor

/// Parses `indexadvisor` arguments (without the program name) into a ``Command``. Options take their
/// value as `--name value` or `--name=value`; `-h`/`--help` and `--version` work anywhere.
public enum CommandLineParser {
    public static func parse(_ arguments: [String]) throws -> Command {
        if arguments.contains("--version") { return .version }
        guard let first = arguments.first else { return .help(topic: nil) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            return .help(topic: nil)
        case "help":
            return .help(topic: rest.first)
        case "analyze":
            if rest.contains("-h") || rest.contains("--help") { return .help(topic: "analyze") }
            return .analyze(try parseAnalyze(rest))
        case "check":
            if rest.contains("-h") || rest.contains("--help") { return .help(topic: "check") }
            return .check(try parseCheck(rest))
        case "workload":
            if rest.contains("-h") || rest.contains("--help") { return .help(topic: "workload") }
            return .workload(try parseWorkload(rest))
        case "demo":
            if rest.contains("-h") || rest.contains("--help") { return .help(topic: "demo") }
            return .demo(try parseDemo(rest))
        case "render":
            if rest.contains("-h") || rest.contains("--help") { return .help(topic: "render") }
            return .render(try parseRender(rest))
        default:
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'; a command comes first (analyze, check, render, workload, demo)") }
            throw UsageError("unknown command '\(first)'\(suggestion(for: first, among: ["analyze", "check", "render", "workload", "demo", "help"])); the commands are analyze, check, render, workload and demo")
        }
    }

    static func parseCheck(_ arguments: [String]) throws -> CheckOptions {
        var options = CheckOptions()
        var rest: [String] = []
        var reader = OptionReader(arguments: arguments, command: "check")
        while let (name, inlineValue) = reader.next() {
            switch name {
            case "--baseline": options.baseline = try reader.value(for: "--baseline", inlineValue)
            case "--min-share":
                let text = try reader.value(for: "--min-share", inlineValue)
                guard let share = Double(text), share >= 0, share <= 1 else {
                    throw UsageError("--min-share must be a share from 0 to 1 (0.05 = 5 % of workload time), not '\(text)'", command: "check")
                }
                options.thresholds.minimumShare = share
            case "--min-count": options.thresholds.minimumCount = try reader.integer(for: "--min-count", inlineValue, in: 1...Int.max)
            case "--slowdown":
                let text = try reader.value(for: "--slowdown", inlineValue)
                guard let factor = Double(text), factor >= 1, factor.isFinite else {
                    throw UsageError("--slowdown must be a factor of at least 1 (1.5 = 50 % slower), not '\(text)'", command: "check")
                }
                options.thresholds.slowdownFactor = factor
            case nil:
                // After `--`, a file name may start with `-`: keep the `--` for the analyze options' reader.
                if reader.sawEndOfOptions, !rest.contains("--") { rest.append("--") }
                rest.append(inlineValue!)
            default:
                rest.append(name!)
                if let inlineValue { rest[rest.count - 1] += "=" + inlineValue }
            }
        }
        options.analyze = try parseAnalyze(rest, command: "check")
        return options
    }

    static func parseAnalyze(_ arguments: [String], command: String = "analyze") throws -> AnalyzeOptions {
        var options = AnalyzeOptions()
        var reader = OptionReader(arguments: arguments, command: command)
        var positionals: [String] = []
        while let (name, inlineValue) = reader.next() {
            guard let name else {
                positionals.append(inlineValue!)
                continue
            }
            switch name {
            case "--workload", "-w":
                options.workloads.append(try reader.value(for: name, inlineValue))
            case "--workload-format":
                options.workloadFormat = try workloadFormat(try reader.value(for: name, inlineValue), command: command)
            case "--format", "-f":
                options.format = try reader.format(for: name, inlineValue)
            case "--output", "-o": options.output = try reader.value(for: name, inlineValue)
            case "--model", "-m": options.models.append(try reader.value(for: name, inlineValue))
            case "--source": options.sources.append(try reader.value(for: name, inlineValue))
            case "--quiet", "-q": options.quiet = true
            case "--verbose": options.verbose = true
            case "--repeats": options.repeats = try reader.integer(for: name, inlineValue, in: 1...1000)
            case "--cost":
                let value = try reader.value(for: name, inlineValue)
                guard let source = CostSource(rawValue: value) else {
                    throw UsageError("--cost takes time or counters, not '\(value)'", command: command)
                }
                options.costSource = source
            case "--samples": options.bindingSamples = try reader.integer(for: name, inlineValue, in: 1...1000)
            case "--statement-timeout": options.statementTimeout = try reader.seconds(for: name, inlineValue)
            case "--busy-timeout": options.busyTimeout = try reader.seconds(for: name, inlineValue)
            case "--max-indexes": options.maxIndexes = try reader.integer(for: name, inlineValue, in: 0...1000)
            case "--max-indexes-per-table": options.maxIndexesPerTable = try reader.integer(for: name, inlineValue, in: 0...1000)
            case "--time-budget": options.timeBudget = try reader.seconds(for: name, inlineValue)
            case "--max-candidates": options.maxCandidates = try reader.integer(for: name, inlineValue, in: 1...10_000)
            case "--sample-rows":
                let rows = try reader.integer(for: name, inlineValue, in: 0...Int.max)
                options.sampleRows = rows == 0 ? nil : rows
            case "--max-index-bytes": options.maxIndexBytes = Int64(try reader.integer(for: name, inlineValue, in: 0...Int.max))
            case "--seed": options.seed = UInt64(try reader.integer(for: name, inlineValue, in: 0...Int.max))
            case "--temp-dir": options.temporaryDirectory = try reader.value(for: name, inlineValue)
            case "--unique":
                let value = try reader.value(for: name, inlineValue)
                do {
                    options.uniqueRules.append(try UniqueRule(parsing: value))
                } catch {
                    throw UsageError("--unique: \(error)", command: command)
                }
            default:
                throw unknownOption(name, command: command, known: Self.analyzeOptions + (command == "check" ? ["--baseline", "--min-share", "--min-count", "--slowdown"] : []))
            }
        }
        guard let store = positionals.first else {
            if !options.sources.isEmpty {
                throw UsageError("\(command) needs the store file: indexadvisor \(command) STORE --source FOLDER", command: command)
            }
            throw UsageError("\(command) needs the store file: indexadvisor \(command) STORE --workload FILE", command: command)
        }
        if positionals.count > 1 {
            throw UsageError("\(command) takes one store; unexpected '\(positionals[1])'", command: command)
        }
        options.store = store
        return options
    }

    static func parseRender(_ arguments: [String]) throws -> RenderOptions {
        var options = RenderOptions()
        var reader = OptionReader(arguments: arguments, command: "render")
        var positionals: [String] = []
        while let (name, inlineValue) = reader.next() {
            guard let name else {
                positionals.append(inlineValue!)
                continue
            }
            switch name {
            case "--format", "-f": options.format = try reader.format(for: name, inlineValue)
            case "--output", "-o": options.output = try reader.value(for: name, inlineValue)
            case "--model", "-m": options.models.append(try reader.value(for: name, inlineValue))
            case "--check": options.check = true
            default: throw unknownOption(name, command: "render", known: ["--format", "--output", "--model", "--check"])
            }
        }
        guard let report = positionals.first else {
            throw UsageError("render needs a JSON report: indexadvisor render REPORT.json --format html", command: "render")
        }
        if positionals.count > 1 {
            throw UsageError("render takes one report; unexpected '\(positionals[1])'", command: "render")
        }
        options.report = report
        return options
    }

    static func parseWorkload(_ arguments: [String]) throws -> WorkloadOptions {
        var options = WorkloadOptions()
        var reader = OptionReader(arguments: arguments, command: "workload")
        while let (name, inlineValue) = reader.next() {
            guard let name else {
                options.files.append(inlineValue!)
                continue
            }
            switch name {
            case "--workload", "-w": options.files.append(try reader.value(for: name, inlineValue))
            case "--workload-format": options.workloadFormat = try workloadFormat(try reader.value(for: name, inlineValue), command: "workload")
            case "--format", "-f":
                let value = try reader.value(for: name, inlineValue)
                guard let format = WorkloadSummaryFormat(rawValue: value.lowercased()) else {
                    throw UsageError("--format must be text or json, not '\(value)'", command: "workload")
                }
                options.format = format
            case "--output", "-o": options.output = try reader.value(for: name, inlineValue)
            case "--top": options.top = try reader.integer(for: name, inlineValue, in: 0...1_000_000)
            case "--source": options.sources.append(try reader.value(for: name, inlineValue))
            default: throw unknownOption(name, command: "workload", known: ["--workload", "--workload-format", "--format", "--output", "--top", "--source"])
            }
        }
        if options.files.isEmpty && options.sources.isEmpty {
            throw UsageError("workload needs at least one file: indexadvisor workload FILE…", command: "workload")
        }
        return options
    }

    static let analyzeOptions = ["--workload", "--workload-format", "--format", "--output", "--model", "--source", "--quiet", "--verbose", "--repeats", "--cost", "--samples", "--statement-timeout", "--busy-timeout", "--max-indexes", "--max-indexes-per-table", "--max-candidates", "--time-budget", "--sample-rows", "--max-index-bytes", "--seed", "--temp-dir", "--unique"]

    /// "unknown option '--wokload' for analyze (did you mean --workload?)": the nearest known option within
    /// two edits, when there is one.
    static func unknownOption(_ name: String, command: String, known: [String]) -> UsageError {
        UsageError("unknown option '\(name)' for \(command)\(suggestion(for: name, among: known))", command: command)
    }

    /// " (did you mean X?)" for the known word nearest to `word` (letter case ignored) within two edits, else "".
    static func suggestion(for word: String, among known: [String]) -> String {
        func distance(_ a: String, _ b: String) -> Int {
            let a = Array(a), b = Array(b)
            guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
            var previous = Array(0...b.count)
            for i in 1...a.count {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in 1...b.count {
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return previous[b.count]
        }
        let nearest = known.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        return nearest.flatMap { $0.1 <= 2 ? " (did you mean \($0.0)?)" : nil } ?? ""
    }

    /// The `--workload-format` value.
    static func workloadFormat(_ value: String, command: String) throws -> WorkloadFormat {
        guard let format = WorkloadFormat(rawValue: value) else {
            throw UsageError("--workload-format must be one of \(WorkloadFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(value)'", command: command)
        }
        return format
    }

    static func parseDemo(_ arguments: [String]) throws -> DemoOptions {
        var options = DemoOptions()
        var reader = OptionReader(arguments: arguments, command: "demo")
        while let (name, inlineValue) = reader.next() {
            guard let name else { throw UsageError("demo takes no arguments; unexpected '\(inlineValue!)'", command: "demo") }
            switch name {
            case "--notes": options.notes = try reader.integer(for: name, inlineValue, in: 1_000...10_000_000)
            case "--output-dir": options.outputDirectory = try reader.value(for: name, inlineValue)
            case "--keep": options.keepDirectory = try reader.value(for: name, inlineValue)
            case "--seed": options.seed = UInt64(try reader.integer(for: name, inlineValue, in: 0...Int.max))
            case "--quiet", "-q": options.quiet = true
            default: throw unknownOption(name, command: "demo", known: ["--notes", "--output-dir", "--keep", "--seed", "--quiet"])
            }
        }
        return options
    }
}

/// Walks arguments, splitting `--name=value`.
struct OptionReader {
    var arguments: [String]
    let command: String
    private var position = 0
    /// True once `--` was read: every argument after it is a file name, even one that starts with `-`
    /// (POSIX utility convention, guideline 10).
    private(set) var sawEndOfOptions = false

    init(arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    /// The next option name and its inline value, or (nil, positional) for a positional argument.
    mutating func next() -> (String?, String?)? {
        guard position < arguments.count else { return nil }
        var argument = arguments[position]
        position += 1
        if argument == "--", !sawEndOfOptions {
            sawEndOfOptions = true
            guard position < arguments.count else { return nil }
            argument = arguments[position]
            position += 1
        }
        if sawEndOfOptions || argument == "-" || !argument.hasPrefix("-") { return (nil, argument) }
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        return (argument, nil)
    }

    mutating func value(for name: String, _ inline: String?) throws -> String {
        if let inline { return inline }
        guard position < arguments.count else { throw UsageError("\(name) needs a value", command: command) }
        let value = arguments[position]
        position += 1
        return value
    }

    mutating func format(for name: String, _ inline: String?) throws -> ReportFormat {
        let value = try value(for: name, inline)
        guard let format = ReportFormat(argument: value) else {
            throw UsageError("\(name) must be md, json, sql, html or swift, not '\(value)'", command: command)
        }
        return format
    }

    mutating func integer(for name: String, _ inline: String?, in range: ClosedRange<Int>) throws -> Int {
        let text = try value(for: name, inline)
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return number
    }

    mutating func seconds(for name: String, _ inline: String?) throws -> Double {
        let text = try value(for: name, inline)
        guard let number = Double(text), number.isFinite, number > 0, number <= 86_400 else {
            throw UsageError("\(name) must be a number of seconds above 0, not '\(text)'", command: command)
        }
        return number
    }
}
