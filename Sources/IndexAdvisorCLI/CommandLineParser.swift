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
        case "workload":
            if rest.contains("-h") || rest.contains("--help") { return .help(topic: "workload") }
            return .workload(try parseWorkload(rest))
        case "demo":
            if rest.contains("-h") || rest.contains("--help") { return .help(topic: "demo") }
            return .demo(try parseDemo(rest))
        default:
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'; a command comes first (analyze, workload, demo)") }
            throw UsageError("unknown command '\(first)'; the commands are analyze, workload and demo")
        }
    }

    static func parseAnalyze(_ arguments: [String]) throws -> AnalyzeOptions {
        var options = AnalyzeOptions()
        var reader = OptionReader(arguments: arguments, command: "analyze")
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
                options.workloadFormat = try workloadFormat(try reader.value(for: name, inlineValue), command: "analyze")
            case "--format", "-f":
                let value = try reader.value(for: name, inlineValue)
                guard let format = ReportFormat(argument: value) else {
                    throw UsageError("--format must be md, json or sql, not '\(value)'", command: "analyze")
                }
                options.format = format
            case "--output", "-o": options.output = try reader.value(for: name, inlineValue)
            case "--quiet", "-q": options.quiet = true
            case "--repeats": options.repeats = try reader.integer(for: name, inlineValue, in: 1...1000)
            case "--samples": options.bindingSamples = try reader.integer(for: name, inlineValue, in: 1...1000)
            case "--statement-timeout": options.statementTimeout = try reader.seconds(for: name, inlineValue)
            case "--busy-timeout": options.busyTimeout = try reader.seconds(for: name, inlineValue)
            case "--max-indexes": options.maxIndexes = try reader.integer(for: name, inlineValue, in: 0...1000)
            case "--max-indexes-per-table": options.maxIndexesPerTable = try reader.integer(for: name, inlineValue, in: 0...1000)
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
                    throw UsageError("--unique: \(error)", command: "analyze")
                }
            default:
                throw UsageError("unknown option '\(name)' for analyze", command: "analyze")
            }
        }
        guard let store = positionals.first else {
            throw UsageError("analyze needs the store file: indexadvisor analyze STORE --workload FILE", command: "analyze")
        }
        if positionals.count > 1 {
            throw UsageError("analyze takes one store; unexpected '\(positionals[1])'", command: "analyze")
        }
        options.store = store
        if options.workloads.isEmpty {
            throw UsageError("analyze needs a workload: --workload FILE (a .sql file or a Core Data SQL debug log)", command: "analyze")
        }
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
            default: throw UsageError("unknown option '\(name)' for workload", command: "workload")
            }
        }
        if options.files.isEmpty {
            throw UsageError("workload needs at least one file: indexadvisor workload FILE…", command: "workload")
        }
        return options
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
            default: throw UsageError("unknown option '\(name)' for demo", command: "demo")
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

    init(arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    /// The next option name and its inline value, or (nil, positional) for a positional argument.
    mutating func next() -> (String?, String?)? {
        guard position < arguments.count else { return nil }
        let argument = arguments[position]
        position += 1
        if argument == "-" || !argument.hasPrefix("-") { return (nil, argument) }
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
