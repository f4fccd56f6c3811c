import Foundation
import CSQLite
import IndexAdvisor

/// `fidelity`: is each statement's time, as the advisor reports it, the time of that statement? On the
/// advice benchmark's stores, every statement the advisor timed is timed again independently — a plain
/// loop over `sqlite3_prepare_v2`/`sqlite3_bind`/`sqlite3_step` on its own connection to a copy of the
/// store, with exactly the texts, values and weights the report lists (`timedExecutions`) — before the
/// advice and with it applied. The ratio advisor ÷ independent should be 0.5–2 for every statement that
/// takes over 50 µs. Timing only: it never fails the run.
struct FidelityBenchmark: Benchmark {
    let name = "fidelity"
    let summary = "Each statement's time as the advisor reports it ÷ an independent sqlite3_step loop over the same texts and values, before and after the advice"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let directory = context.directory.appendingPathComponent("fidelity")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stores = try AdviceStores.all(in: directory, scale: context.quick ? 0.1 : 1.0, seed: UInt64(context.integer("--seed", 7)))
            .filter { store in context.options["--stores"].map { $0.split(separator: ",").contains(Substring(store.name)) } ?? true }
        var result = BenchmarkResult()
        var lines = ["## Timing fidelity: advisor ÷ independent loop", "",
                     "Independent: each listed execution run on its own connection to a copy of the store, repeated until a run takes at least 20 ms, weighted like the advisor's figure; the median of 5 runs. Writes each run inside BEGIN … ROLLBACK. Rows marked † take over 50 µs and fall outside 0.5–2×.", "",
                     "| store | statement | before: advisor | independent | ratio | VM steps: advisor / independent | after: advisor | independent | ratio | VM steps: advisor / independent |",
                     "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        var outside = 0, checked = 0, stepMismatches = 0
        for store in stores {
            let workloadURL = directory.appendingPathComponent("\(store.name).sql")
            try Data(store.workloadSQL.utf8).write(to: workloadURL)
            var options = AnalysisOptions()
            options.temporaryDirectory = directory
            options.sampleRows = nil  // the figures must be the store's, not a sample's
            let analysis = try Advisor.analyze(storeAt: store.url, workload: try WorkloadLoader.load([workloadURL]), options: options)
            let copy = directory.appendingPathComponent("\(store.name)-copy.sqlite")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: store.url, to: copy)
            let loop = try IndependentLoop(path: copy.path)
            var before: [String: Double] = [:]
            var beforeSteps: [String: Double] = [:]
            for statement in analysis.statements {
                guard let executions = statement.timedExecutions, statement.timingBefore != nil else { continue }
                before[statement.id] = loop.time(executions, isWrite: statement.kind.isWrite)
                beforeSteps[statement.id] = loop.lastSteps
            }
            for sql in analysis.recommendations.map(\.sql) + analysis.indexesToDrop.compactMap(\.dropSQL) { loop.execute(sql) }
            // As the advisor's snapshot after each build: the new pages in the database file, not the WAL.
            loop.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            for (position, statement) in analysis.statements.enumerated() {
                guard let executions = statement.timedExecutions, let advisorBefore = statement.timingBefore?.medianSeconds,
                      let independentBefore = before[statement.id] else { continue }
                let advisorAfter = statement.timingAfter?.medianSeconds
                let independentAfter = advisorAfter == nil ? nil : loop.time(executions, isWrite: statement.kind.isWrite)
                func steps(_ timing: Timing?, _ independent: Double?) -> String {
                    guard let advisor = timing?.vmStepsPerExecution, let independent, independent > 0 else { return "–" }
                    if abs(advisor - independent) > 0.01 * independent { stepMismatches += 1 }
                    return String(format: "%.0f / %.0f", advisor, independent)
                }
                let stepsBefore = steps(statement.timingBefore, beforeSteps[statement.id])
                let stepsAfter = independentAfter == nil ? "–" : steps(statement.timingAfter, loop.lastSteps)
                func cell(_ advisor: Double, _ independent: Double?) -> (String, String, String) {
                    guard let independent, independent > 0 else { return (Figures.duration(advisor), "–", "–") }
                    let ratio = advisor / independent
                    let flagged = max(advisor, independent) > 50e-6 && (ratio < 0.5 || ratio > 2)
                    if max(advisor, independent) > 50e-6 { checked += 1; if flagged { outside += 1 } }
                    return (Figures.duration(advisor), Figures.duration(independent), String(format: "%.2f", ratio) + (flagged ? " †" : ""))
                }
                let b = cell(advisorBefore, independentBefore)
                let a = advisorAfter.map { cell($0, independentAfter) } ?? ("–", "–", "–")
                lines.append("| \(store.name) | S\(position + 1) \(statement.kind.rawValue) | \(b.0) | \(b.1) | \(b.2) | \(stepsBefore) | \(a.0) | \(a.1) | \(a.2) | \(stepsAfter) |")
                if independentBefore > 0 {
                    let ratio = advisorBefore / independentBefore
                    result.ratios.append(Ratio(name: "\(store.name) S\(position + 1) before: advisor / independent", value: ratio,
                                               meaning: "the advisor's time ÷ a plain step loop over the same texts and values", target: "0.5–2 above 50 µs", met: nil))
                }
            }
            try? FileManager.default.removeItem(at: copy)
        }
        lines.append("")
        lines.append("\(checked - outside) of \(checked) figures over 50 µs within 0.5–2×; \(stepMismatches) VM-step counts differ by more than 1 % (the same count means the same statement did the same work: the advisor timed what the app runs).")
        result.sections = [lines.joined(separator: "\n")]
        result.figures.append(("fidelity: figures over 50 µs within 0.5–2×", "\(checked - outside) of \(checked)"))
        return result
    }
}

/// A plain timing loop on its own connection: no part of the advisor's timer.
final class IndependentLoop {
    private var db: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw NSError(domain: "fidelity", code: 1, userInfo: [NSLocalizedDescriptionKey: "cannot open \(path)"])
        }
    }

    deinit { sqlite3_close_v2(db) }

    func execute(_ sql: String) { sqlite3_exec(db, sql, nil, nil, nil) }

    /// VM steps per execution (weighted) in the last call to ``time(_:isWrite:)``.
    private(set) var lastSteps = 0.0

    /// The weighted mean seconds per execution: the median of 5 runs after a warm-up, each run repeating
    /// the executions until it has taken 20 ms. Nil when a text does not prepare or nothing ran.
    func time(_ executions: [TimedExecution], isWrite: Bool) -> Double? {
        var statements: [OpaquePointer] = []
        defer { statements.forEach { sqlite3_finalize($0) } }
        for execution in executions {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, execution.sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
            statements.append(statement)
        }
        let totalWeight = executions.reduce(0) { $0 + $1.weight }
        guard totalWeight > 0 else { return nil }
        func pass() -> Double {
            var weighted = 0.0
            var steps = 0.0
            for (statement, execution) in zip(statements, executions) {
                sqlite3_reset(statement)
                for (index, value) in execution.values.enumerated() { bind(value, at: Int32(index + 1), to: statement) }
                if isWrite { sqlite3_exec(db, "BEGIN", nil, nil, nil) }
                var start = timespec(), end = timespec()
                clock_gettime(CLOCK_MONOTONIC, &start)
                while sqlite3_step(statement) == SQLITE_ROW {}
                clock_gettime(CLOCK_MONOTONIC, &end)
                steps += Double(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1)) * execution.weight
                if isWrite { sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
                weighted += (Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9) * execution.weight
            }
            lastSteps = steps / totalWeight
            return weighted / totalWeight
        }
        let warm = pass()
        let passes = max(1, min(2_000, Int((0.02 / max(warm * Double(executions.count), 1e-9)).rounded(.up))))
        var runs: [Double] = []
        for _ in 0..<5 {
            var sum = 0.0
            for _ in 0..<passes { sum += pass() }
            runs.append(sum / Double(passes))
        }
        return runs.sorted()[2]
    }

    private func bind(_ value: SQLValue, at index: Int32, to statement: OpaquePointer) {
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .real(let number): sqlite3_bind_double(statement, index, number)
        case .text(let text): sqlite3_bind_text(statement, index, text, -1, ia_sqlite_transient())
        case .blob(let bytes): _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), ia_sqlite_transient()) }
        }
    }
}
