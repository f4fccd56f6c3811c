import IndexAdvisor

/// The commands that take options: each has its own options type (``AnalyzeOptions`` for `analyze`, …).
enum CommandName: String, CaseIterable, Sendable {
    case analyze, check, render, workload, demo
}

/// One option of the command line, declared once in ``CommandOption/table``: its names, the name of its
/// value in help, its help text, and which commands accept it and where each keeps its value. The parser,
/// the help text's option lists and the "did you mean" suggestions are all read from the table, so an option
/// is added, renamed or documented in one place.
struct CommandOption {
    /// The long name, `--workload`.
    let name: String
    /// The one-letter name, `-w`, if any.
    let shortName: String?
    /// What the value is called in help (`FILE|FOLDER`); nil for a flag, which takes no value.
    let valueName: String?
    /// The help text, one paragraph (wrapped when printed).
    let help: String
    /// Help for one command instead of `help`, where the option means something narrower there.
    let helpByCommand: [CommandName: String]
    /// True when the option may be given more than once, each value kept.
    let isRepeatable: Bool
    /// Where each accepting command keeps the value.
    let setters: OptionSetters

    /// The option's names, long first.
    var names: [String] { [name] + (shortName.map { [$0] } ?? []) }

    /// True when `command` accepts the option.
    func accepts(_ command: CommandName) -> Bool { setters.accepts(command) }

    /// The help text for `command`.
    func help(for command: CommandName) -> String { helpByCommand[command] ?? help }
}

/// The name an option was given by, and the command being read: what a usage error names.
struct OptionUse {
    /// As typed: `-f`, or `--format` (also for `--format=json`).
    var typed: String
    /// The option's long name.
    var name: String
    var command: CommandName

    /// A usage error for this command.
    func error(_ message: String) -> UsageError {
        UsageError(message, command: command.rawValue)
    }
}

/// Turns an option's text into its value, or a usage error saying what it must be.
struct ValueParser<Value> {
    let parse: (_ text: String, _ use: OptionUse) throws -> Value
}

/// Sets an option's value in one command's options.
typealias OptionSetter<Options> = (_ options: inout Options, _ text: String, _ use: OptionUse) throws -> Void

/// An option's setter per command; nil where the command does not accept it.
struct OptionSetters {
    var analyze: OptionSetter<AnalyzeOptions>?
    var check: OptionSetter<CheckOptions>?
    var render: OptionSetter<RenderOptions>?
    var workload: OptionSetter<WorkloadOptions>?
    var demo: OptionSetter<DemoOptions>?

    func accepts(_ command: CommandName) -> Bool {
        switch command {
        case .analyze: analyze != nil
        case .check: check != nil
        case .render: render != nil
        case .workload: workload != nil
        case .demo: demo != nil
        }
    }
}

/// Where a command keeps an option's value.
enum OptionTarget<Stored> {
    /// In ``AnalyzeOptions``: for `analyze`, and for `check` through ``CheckOptions/analyze``.
    case analysis(WritableKeyPath<AnalyzeOptions, Stored>)
    /// In ``AnalyzeOptions``, for `analyze` only: what `check` has no use for (`--format`, `--model`: its
    /// verdict is lines and its `--output` is always JSON), so it must not accept it and ignore it.
    case analyzeOnly(WritableKeyPath<AnalyzeOptions, Stored>)
    /// In ``CheckOptions``, for `check` only.
    case check(WritableKeyPath<CheckOptions, Stored>)
    case render(WritableKeyPath<RenderOptions, Stored>)
    case workload(WritableKeyPath<WorkloadOptions, Stored>)
    case demo(WritableKeyPath<DemoOptions, Stored>)
}

extension CommandOption {
    /// An option with one value; given again, the last value counts.
    static func single<Value>(_ name: String, _ shortName: String? = nil, value valueName: String, _ parser: ValueParser<Value>,
                              help: String, helpByCommand: [CommandName: String] = [:],
                              into targets: OptionTarget<Value>...) -> CommandOption {
        CommandOption(name: name, shortName: shortName, valueName: valueName, help: help, helpByCommand: helpByCommand,
                      isRepeatable: false, setters: setters(targets) { stored, text, use in stored = try parser.parse(text, use) })
    }

    /// An option that may be repeated: every value is appended, in order (`--workload a --workload b`).
    static func repeated<Value>(_ name: String, _ shortName: String? = nil, value valueName: String, _ parser: ValueParser<Value>,
                                help: String, helpByCommand: [CommandName: String] = [:],
                                into targets: OptionTarget<[Value]>...) -> CommandOption {
        CommandOption(name: name, shortName: shortName, valueName: valueName, help: help, helpByCommand: helpByCommand,
                      isRepeatable: true, setters: setters(targets) { stored, text, use in stored.append(try parser.parse(text, use)) })
    }

    /// A flag: present means true. An inline value, `--quiet=false`, is a usage error ("--quiet takes no
    /// value"), never ignored.
    static func flag(_ name: String, _ shortName: String? = nil, help: String, helpByCommand: [CommandName: String] = [:],
                     into targets: OptionTarget<Bool>...) -> CommandOption {
        CommandOption(name: name, shortName: shortName, valueName: nil, help: help, helpByCommand: helpByCommand,
                      isRepeatable: false, setters: setters(targets) { stored, _, _ in stored = true })
    }

    /// The setters that apply `update` to the value each target keeps.
    private static func setters<Stored>(_ targets: [OptionTarget<Stored>],
                                        _ update: @escaping (inout Stored, String, OptionUse) throws -> Void) -> OptionSetters {
        func setter<Options>(_ path: WritableKeyPath<Options, Stored>) -> OptionSetter<Options> {
            { options, text, use in try update(&options[keyPath: path], text, use) }
        }
        var setters = OptionSetters()
        for target in targets {
            switch target {
            case .analysis(let path):
                setters.analyze = setter(path)
                let analyze: WritableKeyPath<CheckOptions, AnalyzeOptions> = \.analyze
                setters.check = setter(analyze.appending(path: path))
            case .analyzeOnly(let path): setters.analyze = setter(path)
            case .check(let path): setters.check = setter(path)
            case .render(let path): setters.render = setter(path)
            case .workload(let path): setters.workload = setter(path)
            case .demo(let path): setters.demo = setter(path)
            }
        }
        return setters
    }
}

extension ValueParser where Value == String {
    /// A path: a file or a folder. Not empty: `URL(fileURLWithPath: "")` is the current directory, so
    /// `--workload ''` read every log in it and `--temp-dir ''` put the snapshot there.
    static var text: ValueParser { path("a path") }

    /// A path, `what` in the error for an empty one ("a file name", "a directory").
    static func path(_ what: String) -> ValueParser {
        ValueParser { text, use in
            if text.isEmpty { throw use.error(CommandLineParser.emptyPath(use.name, needs: what)) }
            return text
        }
    }
}

extension ValueParser where Value == Int {
    /// A whole number in `range`.
    static func integer(in range: ClosedRange<Int>) -> ValueParser {
        ValueParser { text, use in
            guard let number = Int(text), range.contains(number) else {
                throw use.error("\(use.typed) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
    }
}

extension ValueParser {
    /// The same value, for an option kept as an optional (nil until given).
    var optional: ValueParser<Value?> { map { $0 } }

    /// This parser's value, converted.
    func map<Result>(_ transform: @escaping (Value) -> Result) -> ValueParser<Result> {
        ValueParser<Result> { text, use in transform(try parse(text, use)) }
    }

    /// The value `read` finds in the text; when it finds none, a usage error with `message`.
    static func choice(_ read: @escaping (String) -> Value?, else message: @escaping (_ text: String, _ use: OptionUse) -> String) -> ValueParser {
        ValueParser { text, use in
            guard let value = read(text) else { throw use.error(message(text, use)) }
            return value
        }
    }
}

extension ValueParser where Value == Double {
    /// Seconds, above 0 and at most a day.
    static var seconds: ValueParser {
        ValueParser { text, use in
            guard let number = Double(text), number.isFinite, number > 0, number <= 86_400 else {
                throw use.error("\(use.typed) must be a number of seconds above 0, not '\(text)'")
            }
            return number
        }
    }

    /// A statement timeout: at least 10 ms (a shorter one stops every execution, and the report's figures are
    /// then the timeout's, not the statements': a breaking helper's `1e-9` printed "1 ns" for everything), at
    /// most a day.
    static var statementTimeout: ValueParser {
        ValueParser { text, use in
            guard let number = Double(text), number.isFinite, number >= 0.01, number <= 86_400 else {
                throw use.error("\(use.typed) must be a number of seconds from 0.01 to 86400, not '\(text)'")
            }
            return number
        }
    }
}
