import IndexAdvisor

/// Parses `indexadvisor` arguments (without the program name) into a ``Command``; every option comes from
/// ``CommandOption/table``. Options take their value as `--name value` or `--name=value`; the argument after
/// an option that takes a value is its value whatever it looks like (as POSIX `getopt` reads it), so
/// `--output --version` writes to a file named `--version`. `--` ends the options. `-h`/`--help` and
/// `--version` count only where an option name may stand: before the command, or among its options.
public enum CommandLineParser {
    /// The names that ask for help.
    static let helpNames = ["-h", "--help"]
    /// The name that asks for the version.
    static let versionName = "--version"

    /// The command `arguments` ask for.
    /// - Throws: ``UsageError`` for an unknown command or option, a missing or malformed value, or a
    ///   missing or extra operand.
    public static func parse(_ arguments: [String]) throws -> Command {
        guard let first = arguments.first else { return .help(topic: nil) }
        let rest = Array(arguments.dropFirst())
        if helpNames.contains(first) { return .help(topic: nil) }
        if first == versionName { return .version }
        if let name = flagWithValue(first) { throw UsageError("\(name) takes no value") }
        if first == "help" { return .help(topic: rest.first) }
        guard let command = CommandName(rawValue: first) else {
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'; a command comes first (analyze, check, render, workload, demo)") }
            throw UsageError("unknown command '\(first)'\(suggestion(for: first, among: CommandName.allCases.map(\.rawValue) + ["help"])); the commands are analyze, check, render, workload and demo")
        }
        switch command {
        case .analyze:
            return try read(rest, for: command, into: AnalyzeOptions(), setter: \.analyze, operand: store(\.store, command: command), finish: requireStore(command))
                .command(Command.analyze)
        case .check:
            return try read(rest, for: command, into: CheckOptions(), setter: \.check, operand: store(\.analyze.store, command: command), finish: requireStore(command))
                .command(Command.check)
        case .render:
            return try read(rest, for: command, into: RenderOptions(), setter: \.render, operand: { options, text, index in
                guard index == 0 else { throw UsageError("render takes one report; unexpected '\(text)'", command: "render") }
                if text.isEmpty { throw UsageError(emptyPath("render", needs: "a JSON report"), command: "render") }
                options.report = text
            }, finish: { _, operands in
                if operands == 0 { throw UsageError("render needs a JSON report: indexadvisor render REPORT.json --format html", command: "render") }
            }).command(Command.render)
        case .workload:
            return try read(rest, for: command, into: WorkloadOptions(), setter: \.workload, operand: { options, text, _ in
                if text.isEmpty { throw UsageError(emptyPath("workload", needs: "a file or folder"), command: "workload") }
                options.files.append(text)
            }, finish: { options, _ in
                if options.files.isEmpty && options.sources.isEmpty { throw UsageError("workload needs at least one file: indexadvisor workload FILE…, or the app's Swift source: --source PATH", command: "workload") }
            }).command(Command.workload)
        case .demo:
            return try read(rest, for: command, into: DemoOptions(), setter: \.demo, operand: { _, text, _ in
                throw UsageError("demo takes no arguments; unexpected '\(text)'", command: "demo")
            }, finish: { _, _ in }).command(Command.demo)
        }
    }

    /// What reading a command's arguments gave: its options, or a request for help or the version.
    private enum Reading<Options> {
        case options(Options)
        case help(CommandName)
        case version

        func command(_ make: (Options) -> Command) -> Command {
            switch self {
            case .options(let options): make(options)
            case .help(let command): .help(topic: command.rawValue)
            case .version: .version
            }
        }
    }

    /// Reads `arguments` (after the command's name) into `initial`: each option through its setter for this
    /// command (`setter`), each operand through `operand` with its position among the operands, then
    /// `finish` with the options and the number of operands.
    private static func read<Options>(_ arguments: [String], for command: CommandName, into initial: Options,
                                      setter: KeyPath<OptionSetters, OptionSetter<Options>?>,
                                      operand: (inout Options, String, Int) throws -> Void,
                                      finish: (Options, Int) throws -> Void) throws -> Reading<Options> {
        let accepted = CommandOption.options(of: command)
        var options = initial
        var operands = 0
        var endOfOptions = false
        var position = 0
        while position < arguments.count {
            let argument = arguments[position]
            position += 1
            if argument == "--", !endOfOptions {
                // POSIX utility convention, guideline 10: every argument after it is an operand, even one
                // that starts with `-`.
                endOfOptions = true
                continue
            }
            if endOfOptions || argument == "-" || !argument.hasPrefix("-") {
                try operand(&options, argument, operands)
                operands += 1
                continue
            }
            if helpNames.contains(argument) { return .help(command) }
            if argument == versionName { return .version }
            if let name = flagWithValue(argument) { throw UsageError("\(name) takes no value", command: command.rawValue) }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = accepted.first(where: { $0.names.contains(name) }), let set = option.setters[keyPath: setter] else {
                if command == .check, let reason = notForCheck(name) { throw UsageError(reason, command: command.rawValue) }
                throw unknownOption(name, command: command.rawValue, known: accepted.map(\.name))
            }
            let use = OptionUse(typed: name, name: option.name, command: command)
            // `--quiet=false` used to turn the flag on: a flag's value is refused, never ignored.
            if option.valueName == nil && inline != nil { throw use.error("\(name) takes no value") }
            var text = inline ?? ""
            if option.valueName != nil && inline == nil {
                guard position < arguments.count else { throw use.error("\(name) needs a value") }
                text = arguments[position]
                position += 1
            }
            try set(&options, text, use)
        }
        try finish(options, operands)
        return .options(options)
    }

    /// "--workload needs a path, not an empty string": an empty path would silently mean the current
    /// directory, so every path-valued option and operand refuses it (as `--output ""` always was).
    static func emptyPath(_ who: String, needs what: String) -> String {
        "\(who) needs \(what), not an empty string"
    }

    /// Why `check` refuses an `analyze` option it has no use for, or nil: a CI step that passes
    /// `--format md -o plans.md` must hear that the file will be JSON, not find out later.
    static func notForCheck(_ name: String) -> String? {
        switch name {
        case "--format", "-f": "\(name) is not an option of check: its verdict is printed as lines, and --output writes its JSON report (render it in another format with indexadvisor render)"
        case "--model", "-m": "\(name) is not an option of check: it names no key paths (give --model to indexadvisor render with its --output report)"
        default: nil
        }
    }

    /// `--help` for `--help=…`, `--version` for `--version=…`: these take no value; nil for anything else.
    private static func flagWithValue(_ argument: String) -> String? {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return nil }
        let name = String(argument[..<equals])
        return helpNames.contains(name) || name == versionName ? name : nil
    }

    /// The operand of `analyze` and `check`: one store, kept at `path`.
    private static func store<Options>(_ path: WritableKeyPath<Options, String>, command: CommandName) -> (inout Options, String, Int) throws -> Void {
        { options, text, index in
            guard index == 0 else { throw UsageError("\(command.rawValue) takes one store; unexpected '\(text)'", command: command.rawValue) }
            if text.isEmpty { throw UsageError(emptyPath(command.rawValue, needs: "the store file"), command: command.rawValue) }
            options[keyPath: path] = text
        }
    }

    /// `analyze` and `check` need their store.
    private static func requireStore<Options>(_ command: CommandName) -> (Options, Int) throws -> Void {
        { _, operands in
            if operands == 0 { throw UsageError("\(command.rawValue) needs the store file: indexadvisor \(command.rawValue) STORE --workload FILE", command: command.rawValue) }
        }
    }

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
}
