import Foundation
import IndexAdvisor

/// Issue 42, item 3: two runs on the same input charged the same index 11.4 ms and 5.4 ms of writes. Analyses
/// the demo store `--write-runs` times (default 2) on the wall clock, as `indexadvisor demo` does, and sets
/// each recommendation's write charge (``FinalCharges``) beside the others': the runs agree when their
/// stated spreads overlap. Reports the counters' figure too, which must be the same in every run. Never fails
/// on a timing; fails when the counters' figures of one index differ between runs (they do not depend on the
/// machine).
struct WriteStabilityBenchmark: Benchmark {
    let name = "write-stability"
    let summary = "Each index's write cost in repeated wall-clock analyses of the demo store: within the runs' stated spreads, and the counters' figure the same in each"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let directory = context.directory.appendingPathComponent("write-stability")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = directory.appendingPathComponent("notes.sqlite")
        let notes = context.quick ? 20_000 : context.integer("--rows", 100_000)
        try NotesDemo.makeStore(at: store, notes: notes)
        let workload = WorkloadLoader.parse(NotesDemo.workloadLog(), file: "notes-workload.log")
        let runs = max(2, context.integer("--write-runs", 2))
        var results: [AnalysisResult] = []
        for run in 1...runs {
            context.say("write-stability: analysis \(run) of \(runs) (\(notes) notes)")
            var options = AnalysisOptions()
            options.temporaryDirectory = directory
            results.append(try Advisor.analyze(storeAt: store, workload: workload, options: options))
        }
        var result = BenchmarkResult()
        var lines = ["## Write costs that hold still: \(runs) wall-clock analyses of the demo store (\(Figures.count(notes)) notes)", "",
                     "Each index's write charge with the whole set in place (the summary's figure), its spread (the writes' timings at their quartiles) and SQLite's counters' figure, run by run. The runs agree when every pair's spreads overlap.", "",
                     "| index | " + (1...runs).map { "run \($0): write (spread) · counters" }.joined(separator: " | ") + " | largest ÷ smallest | spreads overlap |",
                     "| --- | " + (1...runs).map { _ in "---" }.joined(separator: " | ") + " | ---: | --- |"]
        let names = results[0].recommendations.map(\.name).filter { name in results.allSatisfy { $0.recommendations.contains { $0.name == name } } }
        var agreeing = 0, within2x = 0
        func row(_ label: String, _ charges: [(Double, ClosedRange<Double>, Double?)]) {
            let figures = charges.map(\.0)
            let overlap = charges.indices.allSatisfy { a in
                charges.indices.allSatisfy { b in charges[a].1.overlaps(charges[b].1) }
            }
            let ratio = (figures.max() ?? 0) / max(figures.min() ?? 0, 1e-12)
            if overlap { agreeing += 1 }
            if ratio <= 2 { within2x += 1 }
            let cells = charges.map { "\(Figures.duration($0.0)) (\(Figures.duration($0.1.lowerBound))–\(Figures.duration($0.1.upperBound))) · \($0.2.map(Figures.duration) ?? "—")" }
            lines.append("| \(label) | " + cells.joined(separator: " | ") + " | \(String(format: "%.2f", ratio)) | \(overlap ? "yes" : "no") |")
        }
        for name in names {
            let charges = results.compactMap { run -> (Double, ClosedRange<Double>, Double?)? in
                guard let recommendation = run.recommendations.first(where: { $0.name == name }), let charge = run.charge(of: recommendation) else { return nil }
                return (charge.writeSecondsAdded, charge.writeSecondsRange, charge.writeCounterSeconds)
            }
            guard charges.count == runs else { continue }
            row("`\(name)`", charges)
            let counted = charges.compactMap(\.2)
            if counted.count == runs, let first = counted.first, counted.contains(where: { abs($0 - first) > 1e-9 * max(1, abs(first)) }) {
                result.failures.append("\(name): SQLite's counters charge it \(counted.map(Figures.duration).joined(separator: ", ")) in the \(runs) runs")
            }
        }
        // The headline's write change, with the spread the summary prints.
        let headline = results.map { run -> (Double, ClosedRange<Double>, Double?) in
            let parts = (run.finalCharges.map { $0.recommendations + $0.drops.map(\.charge) + [$0.uncharged] } ?? []).flatMap(\.writes)
            let low = parts.reduce(0) { $0 + $1.lowestSeconds }, high = parts.reduce(0) { $0 + $1.highestSeconds }
            return (run.totals.writeSecondsAfter - run.totals.writeSecondsBefore, min(low, high)...max(low, high), nil)
        }
        row("headline write change", headline)
        lines.append("")
        let sameSet = results.allSatisfy { $0.recommendations.map(\.name) == results[0].recommendations.map(\.name) }
        lines.append("\(agreeing) of \(names.count + 1) rows agree within their spreads; \(within2x) of \(names.count + 1) within 2× between the runs; the same recommendations in every run: \(sameSet ? "yes" : "no").")
        result.sections.append(lines.joined(separator: "\n"))
        result.figures.append(("rows agreeing within their spreads", "\(agreeing) of \(names.count + 1)"))
        result.figures.append(("rows within 2× between runs", "\(within2x) of \(names.count + 1)"))
        result.details["agreeing"] = agreeing
        result.details["rows"] = names.count + 1
        return result
    }
}
