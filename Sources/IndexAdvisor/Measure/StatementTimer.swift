import Foundation

/// Why a statement could not be timed.
public enum MeasurementError: Error, Sendable, CustomStringConvertible {
    /// One execution ran longer than the statement timeout and was interrupted.
    case timedOut(seconds: Double, sql: String)
    /// Every execution failed; the first failure is kept.
    case failed(SQLiteError)

    public var description: String {
        switch self {
        case .timedOut(let seconds, let sql):
            return "interrupted after \(String(format: "%.1f", seconds)) s (--statement-timeout): \(SQLText.oneLine(sql, limit: 120))"
        case .failed(let error):
            return error.description
        }
    }
}

/// Times statements on the snapshot: a discarded warm-up execution, then `repeats` runs, each long
/// enough for the clock (at least `minimumRunSeconds`), every execution stepping through every row.
/// Writes run inside a savepoint that is rolled back, so the snapshot's rows never change.
package struct StatementTimer {
    package let connection: SQLiteConnection
    /// Runs per statement (the median is over these).
    package var repeats = 7
    /// A run repeats the statement until it has taken at least this long, in seconds.
    package var minimumRunSeconds = 0.002
    /// The most executions in one run.
    package var maximumExecutionsPerRun = 200
    /// One execution longer than this, in seconds, is interrupted.
    package var statementTimeout = 10.0

    package init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Times `sql` with the bound-value `samples` (used in turn; an empty list binds nothing).
    /// - Parameter isWrite: run each execution inside `SAVEPOINT … ROLLBACK TO` so nothing is kept.
    /// - Throws: ``MeasurementError`` when an execution times out, or every execution fails.
    package func time(_ sql: String, samples: [[SQLValue]], isWrite: Bool) throws -> Timing {
        let statement = try connection.prepareResolvingStandIns(sql)
        let savepoint = isWrite ? try connection.prepare("SAVEPOINT indexadvisor_measure") : nil
        let rollback = isWrite ? try connection.prepare("ROLLBACK TO indexadvisor_measure") : nil
        let release = isWrite ? try connection.prepare("RELEASE indexadvisor_measure") : nil
        let bindings = samples.isEmpty ? [[]] : samples
        var next = 0
        var failures = 0
        var firstFailure: SQLiteError?
        var rows = 0
        var executions = 0

        /// One execution; returns its duration in nanoseconds, or nil when it failed.
        func execute() throws -> UInt64? {
            let values = bindings[next % bindings.count]
            next += 1
            try statement.bind(values)
            if let savepoint { try savepoint.run() }
            defer {
                if let rollback, let release {
                    _ = try? rollback.run()
                    _ = try? release.run()
                }
            }
            let start = DispatchTime.now().uptimeNanoseconds
            connection.statementDeadline = start + UInt64(statementTimeout * 1e9)
            defer { connection.statementDeadline = nil }
            do {
                var count = 0
                while try statement.step() { count += 1 }
                let elapsed = DispatchTime.now().uptimeNanoseconds - start
                rows += isWrite ? connection.changes : count
                executions += 1
                return elapsed
            } catch let error as SQLiteError {
                statement.reset()
                if error.code == 9 { throw MeasurementError.timedOut(seconds: statementTimeout, sql: sql) }
                failures += 1
                if firstFailure == nil { firstFailure = error }
                return nil
            }
        }

        // Warm-up: loads the pages this statement touches, and tells how long one execution takes.
        var single: UInt64?
        for _ in 0..<min(bindings.count, 3) where single == nil {
            single = try execute()
        }
        guard let warm = single else { throw MeasurementError.failed(firstFailure ?? SQLiteError(extendedCode: 1, message: "no execution succeeded", sql: sql)) }
        rows = 0
        executions = 0
        let perRun = max(1, min(maximumExecutionsPerRun, Int((minimumRunSeconds * 1e9) / Double(max(warm, 1))) + 1))
        let runs = warm > 500_000_000 ? min(3, repeats) : repeats
        var samplesSeconds: [Double] = []
        for _ in 0..<runs {
            var total: UInt64 = 0
            var succeeded = 0
            for _ in 0..<perRun {
                if let elapsed = try execute() {
                    total += elapsed
                    succeeded += 1
                }
            }
            if succeeded > 0 { samplesSeconds.append(Double(total) / Double(succeeded) / 1e9) }
        }
        guard !samplesSeconds.isEmpty else {
            throw MeasurementError.failed(firstFailure ?? SQLiteError(extendedCode: 1, message: "no execution succeeded", sql: sql))
        }
        return Timing.from(samples: samplesSeconds, executionsPerRun: perRun,
                           rows: executions > 0 ? Double(rows) / Double(executions) : 0, failures: failures)
    }
}
