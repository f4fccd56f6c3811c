import Foundation
import IndexAdvisorBenchKit

// indexadvisor-bench: benchmarks for indexadvisor, as ratios measured side by side in one run.
//
//   swift run -c release indexadvisor-bench [--filter NAME]… [--samples N] [--quick] [--output FILE.md]
//                                           [--log-mb N] [--lookups N] [--seed N] [--rounds N] [--stores a,b]
//                                           [--keep-stores DIR] [--rows N] [--cases DIR] [--pairs DIR] [--stability-runs N] [--write-runs N] [--search-width N] [--search-depth N] [--list]
//
// Writes FILE.md (default reports/benchmarks.md) and the same figures as FILE.json. Exits 1 when a
// benchmark fails or a deterministic check fails (never on a timing).
//
// To add a benchmark: a file with a type conforming to `Benchmark`, listed here.
let registry: [any Benchmark] = [
    AdviceBenchmark(),
    PairsBenchmark(),
    FidelityBenchmark(),
    ScaleBenchmark(),
    SpeedBenchmark(),
    LogParseBenchmark(),
    RecorderOverheadBenchmark(),
    WriteStabilityBenchmark(),
]

func say(_ text: String) {
    FileHandle.standardError.write(Data("indexadvisor-bench: \(text)\n".utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child" {
    // Measurements that must run in their own process.
    do {
        switch arguments.dropFirst().first {
        case "parse-log": try ParseRun.runInChild(Array(arguments.dropFirst(2)))
        case "analyze": try ChildAnalysis.runInChild(Array(arguments.dropFirst(2)))
        case "check-pairs":
            // `--child check-pairs [DIR [SCALE [KEEP]]]`: builds every pair under DIR (default Benchmarks/Pairs) at
            // SCALE (default a twentieth) of its size and prepares each statement with drawn values; no advisor runs.
            // With KEEP, the stores stay in that folder.
            let rest = Array(arguments.dropFirst(2))
            let root = URL(fileURLWithPath: rest.first ?? "Benchmarks/Pairs")
            let scale = rest.count > 1 ? Double(rest[1]) ?? 0.05 : 0.05
            let keep = rest.count > 2 ? URL(fileURLWithPath: rest[2]) : nil
            let scratch = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("check-pairs-\(getpid())")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { if keep == nil { try? FileManager.default.removeItem(at: scratch) } }
            var problems: [String] = []
            for (kind, folder) in PairFiles.folders(under: root) {
                do {
                    let pair = try PairFiles.load(folder, kind: kind, into: scratch, scale: scale)
                    let found = pair.problems()
                    problems += found
                    print("\(kind.rawValue)/\(pair.name): \(pair.statements.count) statements\(found.isEmpty ? "" : ", \(found.count) problems")")
                } catch {
                    problems.append("\(folder.lastPathComponent): \(error)")
                }
            }
            for problem in problems { print(problem) }
            exit(problems.isEmpty ? 0 : 1)
        case "generate-log":
            // For profiling the parser by hand: `--child generate-log FILE MEGABYTES`.
            let rest = Array(arguments.dropFirst(2))
            guard rest.count == 2, let megabytes = Int(rest[1]) else { throw BenchmarkError("generate-log FILE MEGABYTES") }
            let summary = try CoreDataLogGenerator.write(bytes: megabytes << 20, to: URL(fileURLWithPath: rest[0]))
            print("\(summary.bytes) bytes, \(summary.lines) lines, \(summary.sqlLines) with CoreData: sql:")
        default: throw BenchmarkError("unknown child task \(arguments.dropFirst().first ?? "")")
        }
        exit(0)
    } catch {
        say("child: \(error)")
        exit(1)
    }
}

var filters: [String] = []
var samples = 5
var quick = false
var output = "reports/benchmarks.md"
var options: [String: String] = [:]
var index = 0
while index < arguments.count {
    let argument = arguments[index]
    func value() -> String {
        index += 1
        guard index < arguments.count else { say("\(argument) needs a value"); exit(2) }
        return arguments[index]
    }
    switch argument {
    case "--filter": filters.append(value())
    case "--samples":
        guard let number = Int(value()), number >= 1 else { say("--samples needs a whole number ≥ 1"); exit(2) }
        samples = number
    case "--quick": quick = true
    case "--output": output = value()
    case "--list":
        for benchmark in registry { print("\(benchmark.name)\t\(benchmark.summary)") }
        exit(0)
    case "-h", "--help":
        print("usage: indexadvisor-bench [--filter NAME]… [--samples N] [--quick] [--output FILE.md] [--log-mb N] [--lookups N] [--seed N] [--rounds N] [--stores a,b] [--keep-stores DIR] [--rows N] [--cases DIR] [--pairs DIR] [--stability-runs N] [--write-runs N] [--search-width N] [--search-depth N] [--list]")
        exit(0)
    default:
        guard argument.hasPrefix("--") else { say("unexpected argument \(argument)"); exit(2) }
        options[argument] = value()
    }
    index += 1
}

if Machine.isDebugBuild {
    say("warning: this is a debug build; times are not meaningful (use swift run -c release indexadvisor-bench)")
}
let selected = registry.filter { benchmark in filters.isEmpty || filters.contains { benchmark.name.contains($0) } }
guard !selected.isEmpty else {
    say("no benchmark matches \(filters); the benchmarks are \(registry.map(\.name).joined(separator: ", "))")
    exit(2)
}
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("indexadvisor-bench-\(getpid())")
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
} catch {
    say("cannot create \(directory.path): \(error)")
    exit(1)
}
defer { try? FileManager.default.removeItem(at: directory) }
let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
let context = BenchmarkContext(samples: samples, quick: quick, options: options, directory: directory,
                               executable: URL(fileURLWithPath: executable.path), say: say)
var results: [(any Benchmark, BenchmarkResult)] = []
var failed = false
for benchmark in selected {
    say("\(benchmark.name): \(benchmark.summary)")
    do {
        let result = try benchmark.run(context)
        results.append((benchmark, result))
        for ratio in result.ratios { say(String(format: "  %@ = %.2f", ratio.name, ratio.value)) }
    } catch {
        say("\(benchmark.name) failed: \(error)")
        failed = true
    }
}
let command = "swift run -c release indexadvisor-bench " + arguments.joined(separator: " ")
let date = Date()
let report = BenchmarkReport.markdown(results: results, command: command.trimmingCharacters(in: .whitespaces), samples: samples, date: date)
for failure in results.flatMap({ $0.1.failures }) {
    say("check failed: \(failure)")
    failed = true
}
do {
    let markdown = URL(fileURLWithPath: output)
    try FileManager.default.createDirectory(at: markdown.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(report.utf8).write(to: markdown, options: .atomic)
    let json = markdown.deletingPathExtension().appendingPathExtension("json")
    try BenchmarkReport.json(results: results, command: command.trimmingCharacters(in: .whitespaces), samples: samples, date: date)
        .write(to: json, options: .atomic)
    say("report written to \(output) and \(json.path)")
} catch {
    say("cannot write \(output): \(error)")
    failed = true
}
print(report)
try? FileManager.default.removeItem(at: directory)
exit(failed ? 1 : 0)
