import Foundation

/// One benchmark of `indexadvisor-bench`. Add a file with a type conforming to this and list it in
/// `registry` (main.swift).
protocol Benchmark {
    /// A short name, matched by `--filter`.
    var name: String { get }
    /// One line saying what is measured.
    var summary: String { get }
    /// Measures, and returns what goes into the report.
    func run(_ context: BenchmarkContext) throws -> BenchmarkResult
}

/// What a benchmark run may use.
struct BenchmarkContext {
    /// Timed samples per measurement (after one discarded warm-up).
    var samples: Int
    /// Smaller inputs, for a quick check.
    var quick: Bool
    /// `--name value` options not consumed by the runner (e.g. `--log-mb`).
    var options: [String: String]
    /// A private directory, removed when the run ends.
    var directory: URL
    /// The benchmark executable, to run measurements in a child process.
    var executable: URL
    /// Progress lines on stderr.
    var say: (String) -> Void

    /// The integer option `name`, or `fallback`.
    func integer(_ name: String, _ fallback: Int) -> Int {
        options[name].flatMap(Int.init) ?? fallback
    }
}

/// A ratio of two measurements taken in the same run (the figure that travels between machines).
struct Ratio {
    var name: String
    var value: Double
    /// e.g. "ours / grep (lower is better)".
    var meaning: String
    /// The requirement it is checked against, e.g. "≤ 4".
    var target: String?
    var met: Bool?
}

/// The samples of one timed measurement, in seconds.
struct TimingSamples {
    var name: String
    var seconds: [Double]

    var sorted: [Double] { seconds.sorted() }
    var median: Double {
        let values = sorted
        guard !values.isEmpty else { return 0 }
        return values.count % 2 == 1 ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2
    }
    var minimum: Double { sorted.first ?? 0 }
    var maximum: Double { sorted.last ?? 0 }
}

/// What a benchmark reports.
struct BenchmarkResult {
    var ratios: [Ratio] = []
    var timings: [TimingSamples] = []
    /// Other figures, as label and value (e.g. peak memory).
    var figures: [(String, String)] = []
    var notes: [String] = []
    /// Markdown sections of the benchmark's own (tables), placed after the ratios.
    var sections: [String] = []
    /// Extra figures for the JSON report.
    var details: [String: Any] = [:]
    /// Deterministic checks that failed (a full scan left that the advice should remove, a changed
    /// recommendation set): the run exits 1. Never a raw timing.
    var failures: [String] = []
}

/// Runs `body` once to warm up (discarded), then `samples` times; the durations in seconds.
func measure(samples: Int, _ body: () throws -> Void) rethrows -> [Double] {
    try body()
    var durations: [Double] = []
    for _ in 0..<samples {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        durations.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return durations
}

/// Why a benchmark could not run.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
