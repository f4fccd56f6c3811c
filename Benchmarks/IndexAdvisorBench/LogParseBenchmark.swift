import Foundation
import IndexAdvisor

/// `log-parse`: reading a large Core Data SQL debug log, against `grep -c 'CoreData: sql:'` over the same
/// file. The parser runs in a child process so that its peak memory is its own.
struct LogParseBenchmark: Benchmark {
    let name = "log-parse"
    let summary = "Parse a generated Core Data SQL debug log (--log-mb, default 500; --quick: 50) vs grep -c; peak RSS"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let megabytes = context.integer("--log-mb", context.quick ? 50 : 500)
        let file = context.directory.appendingPathComponent("coredata-sqldebug.log")
        context.say("generating a \(megabytes) MB log")
        let generationStart = DispatchTime.now().uptimeNanoseconds
        let generated = try CoreDataLogGenerator.write(bytes: megabytes << 20, to: file)
        let generationSeconds = Double(DispatchTime.now().uptimeNanoseconds - generationStart) / 1e9
        defer { try? FileManager.default.removeItem(at: file) }

        context.say("timing grep -c 'CoreData: sql:' (\(context.samples) samples after a warm-up)")
        var grepCount = 0
        let grep = try measure(samples: context.samples) {
            grepCount = Int(try Self.output(of: "/usr/bin/env", ["grep", "-c", "CoreData: sql:", file.path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        context.say("timing the parser in a child process")
        var runs: [ParseRun] = []
        _ = try ParseRun.child(context.executable, file: file, maxBytes: nil)
        for _ in 0..<context.samples { runs.append(try ParseRun.child(context.executable, file: file, maxBytes: nil)) }
        let tenth = try ParseRun.child(context.executable, file: file, maxBytes: (megabytes << 20) / 10)

        let ours = TimingSamples(name: "indexadvisor log reader (in the child, file open to workload built)", seconds: runs.map(\.seconds))
        let grepTimes = TimingSamples(name: "grep -c 'CoreData: sql:' (whole process)", seconds: grep)
        let childTimes = TimingSamples(name: "indexadvisor log reader (whole child process)", seconds: runs.map(\.wallSeconds))
        let peak = runs.map(\.peakBytes).max() ?? 0
        let ratio = ours.median / grepTimes.median
        var result = BenchmarkResult()
        result.ratios.append(Ratio(name: "log-parse: parser / grep -c", value: ratio, meaning: "median time, ours ÷ grep's (lower is better)",
                                   target: "≤ 4", met: ratio <= 4))
        result.ratios.append(Ratio(name: "log-parse: peak RSS, whole log ÷ first tenth", value: Double(peak) / Double(max(1, tenth.peakBytes)),
                                   meaning: "about 1 when memory does not grow with the log", target: nil, met: nil))
        result.timings = [grepTimes, ours, childTimes]
        let first = runs.first
        let mb = Double(generated.bytes) / 1_048_576
        result.figures = [
            ("log size", String(format: "%.0f MB, %@ lines, %@ with `CoreData: sql:` (generated in %.1f s)", mb,
                                Figures.count(generated.lines), Figures.count(generated.sqlLines), generationSeconds)),
            ("parser throughput", String(format: "%.0f MB/s (grep: %.0f MB/s)", mb / ours.median, mb / grepTimes.median)),
            ("peak RSS of the parser", String(format: "%.1f MB for the whole log (target < 100 MB); %.1f MB for its first tenth",
                                              Double(peak) / 1_048_576, Double(tenth.peakBytes) / 1_048_576)),
            ("grep count", Figures.count(grepCount)),
            ("parser counts", "\(Figures.count(first?.lines ?? 0)) lines, \(Figures.count(first?.statements ?? 0)) statements, "
                + "\(Figures.count(first?.distinct ?? 0)) distinct, \(Figures.count(first?.skipped ?? 0)) skipped"),
        ]
        if grepCount != generated.sqlLines || first?.statements != generated.sqlLines || first?.lines != generated.lines {
            result.notes.append("COUNTS DIFFER: generated \(generated.sqlLines) sql lines in \(generated.lines) lines; grep \(grepCount); parser \(first?.statements ?? -1) statements in \(first?.lines ?? -1) lines")
        } else {
            result.notes.append("grep, the generator and the parser agree on the number of statements (\(Figures.count(grepCount))) and the parser read every line.")
        }
        return result
    }

    /// The standard output of a command that must succeed.
    static func output(of executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One parse in a child process (`indexadvisor-bench --child parse-log FILE [--max-bytes N]`).
struct ParseRun: Codable {
    var seconds: Double
    var wallSeconds: Double = 0
    var peakBytes: Int
    var lines: Int
    var statements: Int
    var distinct: Int
    var skipped: Int

    static func child(_ executable: URL, file: URL, maxBytes: Int?) throws -> ParseRun {
        let start = DispatchTime.now().uptimeNanoseconds
        var arguments = ["--child", "parse-log", file.path]
        if let maxBytes { arguments += ["--max-bytes", String(maxBytes)] }
        let text = try LogParseBenchmark.output(of: executable.path, arguments)
        var run = try JSONDecoder().decode(ParseRun.self, from: Data(text.utf8))
        run.wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return run
    }

    /// The child's work: read the log (all of it, or its first `maxBytes` bytes) and print the figures as JSON.
    static func runInChild(_ arguments: [String]) throws {
        guard let path = arguments.first else { throw BenchmarkError("parse-log needs a file") }
        let maxBytes = arguments.firstIndex(of: "--max-bytes").flatMap { Int(arguments[$0 + 1]) }
        let start = DispatchTime.now().uptimeNanoseconds
        let workload: Workload
        if let maxBytes {
            // The same readers as WorkloadLoader, over a prefix of the file.
            var builder = WorkloadBuilder()
            let file = try ChunkedFileReader(path: path)
            var reader = CoreDataLogReader(file: URL(fileURLWithPath: path).lastPathComponent)
            var splitter = LineSplitter()
            var read = 0
            try file.forEachChunk { chunk in
                guard read < maxBytes else { return }
                let part = UnsafeBufferPointer(rebasing: chunk[0..<min(chunk.count, maxBytes - read)])
                read += part.count
                splitter.feed(part) { reader.line($0, cut: $1, into: &builder) }
            }
            splitter.finish { reader.line($0, cut: $1, into: &builder) }
            reader.finish(into: &builder)
            workload = builder.build()
        } else {
            workload = try WorkloadLoader.read([URL(fileURLWithPath: path)])
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let run = ParseRun(seconds: seconds, peakBytes: Machine.peakResidentBytes(), lines: workload.diagnostics.linesRead,
                           statements: workload.diagnostics.statementsRead, distinct: workload.statements.count,
                           skipped: workload.diagnostics.skippedCount)
        print(String(decoding: try JSONEncoder().encode(run), as: UTF8.self))
    }
}
