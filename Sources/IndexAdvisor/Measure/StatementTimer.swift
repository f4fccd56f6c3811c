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
            return "interrupted after \(Figures.duration(seconds)) (--statement-timeout): \(SQLText.oneLine(sql, limit: 120))"
        case .failed(let error):
            return error.description
        }
    }
}

/// One execution to time: a statement's text and the values bound to its parameters.
///
/// A workload statement seen with different literals (`LIMIT 20`, `ZHANDLE = 'user42'`) is timed as the
/// app ran it: each literal set is its own text, since SQLite's planner reads literal values
/// (optoverview.html: a LIMIT, a constant compared with an indexed column, a LIKE pattern).
package struct Execution: Sendable, Hashable {
    package var sql: String
    package var values: [SQLValue]
    /// How many of the workload's executions this one stands for, relative to the others timed with it:
    /// a timing's per-execution figure is the weighted mean over its executions.
    package var weight: Double

    package init(sql: String, values: [SQLValue], weight: Double = 1) {
        self.sql = sql
        self.values = values
        self.weight = weight
    }
}

/// Times statements on the snapshot.
///
/// A *pass* executes the statement once with each set of bound values, in order, stepping through every
/// row. A discarded warm-up pass loads the pages and tells how long a pass takes; each timed *run* then
/// repeats the pass until it has taken at least `minimumRunSeconds`. Every run does the same work, so the
/// spread between runs is measurement noise, not the difference between a small and a large folder.
/// The reported time is per execution (run time / executions in the run). Slow statements get fewer runs
/// (5 when a pass takes over 50 ms, 3 over 250 ms), and the runs stop early once at least 5 of them (2 over
/// 50 ms: their median is then within 5 % of each) agree within ``agreement`` of their median. A warm-up pass of one run's length that read over
/// ``uncachedPassFactor`` times as many pages as SQLite's page cache holds is kept as the first run: no
/// later pass can find its pages cached either, so warming up changed nothing. Writes run inside a
/// savepoint that is rolled back, so the snapshot's rows never change.
///
/// With ``CostSource/sqliteCounters`` one pass is made and its SQLite work counters, priced by
/// ``CounterCost``, are the time: the same on every run.
package struct StatementTimer {
    package let connection: SQLiteConnection
    /// Runs per statement (the median is over these). 0 times one pass without a warm-up before it: its
    /// counters are exact, its wall-clock time one cold-or-warm sample.
    package var repeats = 7
    /// A run repeats the pass until it has taken at least this long, in seconds.
    package var minimumRunSeconds = 0.002
    /// The most executions in one run.
    package var maximumExecutionsPerRun = 2_000
    /// One execution longer than this, in seconds, is interrupted.
    package var statementTimeout = 10.0
    /// Wall-clock time or SQLite's counters.
    package var costSource = CostSource.wallClock
    /// With foreign keys enforced on the connection, each write defers their checks to the end of its
    /// savepoint's transaction, which is rolled back: the write still looks up the rows its keys refer to and
    /// carries out their actions, but a value drawn for it that refers to no row cannot make it fail
    /// (pragma.html#pragma_defer_foreign_keys).
    package var defersForeignKeys = false
    /// Where the time spent timing is added up, when one is given.
    package var clock: StageClock?
    /// Runs stop early once at least 5 of them (3 when a pass takes over 50 ms) lie within this share of
    /// their median (max − min): the median would not move by more than the noise the runs show.
    package var agreement = 0.10
    /// Counts the timing thread's involuntary context switches, read before and after each execution: an
    /// execution the scheduler preempted that took under ``preemptionRetryNanoseconds`` is run again
    /// (``Preemption``). On a busy machine a 30 µs write preempted once takes a time slice of another
    /// process, 100× its own time, and a few such executions moved a run's time 3–6×. Nil: no retries.
    package var preemptionProbe: (@Sendable () -> Int)? = Preemption.involuntarySwitches
    /// Retries of one preempted execution; the last attempt counts, preempted or not.
    static let preemptionRetries = 2
    /// Executions that took this long are not run again when preempted: about one time slice of Linux's
    /// scheduler, past which an execution is preempted on a busy machine whatever one does, and one
    /// preemption adds a share of its time, not a multiple of it.
    static let preemptionRetryNanoseconds: UInt64 = 2_000_000

    package init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// How many times the page cache's capacity a warm-up pass must read from outside it (page-cache misses)
    /// to count as a run: at 10×, a run could find at most a tenth of its pages still cached.
    static let uncachedPassFactor: Int64 = 10

    /// True when a warm-up pass that missed SQLite's page cache `misses` times, on a connection whose cache
    /// holds `cachePages` pages, is timed as the first run: its pages cannot stay cached for the next pass
    /// (the cache keeps the most recently used pages, and the pass reads ``uncachedPassFactor`` times as many).
    static func warmUpIsARun(misses: Int64, cachePages: Int64?) -> Bool {
        guard let cachePages, cachePages > 0 else { return false }
        return misses >= uncachedPassFactor * cachePages
    }

    /// Pages a pass read from outside SQLite's page cache, per execution of the pass, rounded to two
    /// significant figures, so that a few pages' difference does not change a figure the selection compares
    /// (``WorkCounters/uncachedPages``).
    ///
    /// - `steady`: the pass came right after a pass over the same executions (or read so many pages that
    ///   nothing it needs can still be cached, ``warmUpIsARun(misses:cachePages:)``). Every miss counts:
    ///   the cache keeps the most recently used pages, so a working set that fits misses none the second
    ///   time, and one just over the cache's capacity, read in the same order each pass, misses nearly all
    ///   of them every pass, not only the excess. On album-tracks a 672-page covering index missed 493
    ///   pages an execution in a 469-page cache, pass after pass, where a narrower one missed none (by
    ///   hand: `.stats on` in the sqlite3 shell), and the join was 15 % slower on it.
    /// - Otherwise (a first pass, after other statements ran): the misses up to the cache's size may be
    ///   pages that another statement pushed out, so only those beyond it (`misses` − `cachePages`) count.
    static func uncachedPages(misses: Int64, cachePages: Int64, executions: Int, steady: Bool = false) -> Double {
        let excess = Double(steady ? max(0, misses) : max(0, misses - max(0, cachePages)))
        guard excess > 0, executions > 0 else { return 0 }
        let scale = pow(10, (log10(excess)).rounded(.down) - 1)
        return (excess / scale).rounded() * scale / Double(executions)
    }

    /// True when a read's first pass may leave a different page cache than the next pass finds: it looked up
    /// at least as many pages as the cache holds (`lookups` ≥ `cachePages`), so its working set may not fit,
    /// and it was not so large that nothing could stay cached (``warmUpIsARun(misses:cachePages:)``). Only
    /// then does a second pass (``uncachedPages(misses:cachePages:executions:steady:)``) tell a working set
    /// that fits from one that thrashes; below, none of its pages can miss a second time.
    static func needsSteadyPass(lookups: Int64, misses: Int64, cachePages: Int64?) -> Bool {
        guard let cachePages, cachePages > 0 else { return false }
        return lookups >= cachePages && !warmUpIsARun(misses: misses, cachePages: cachePages)
    }

    /// True when `runs` lie within `share` of their median (max − min ≤ share × median).
    static func agree(_ runs: [Double], within share: Double) -> Bool {
        let sorted = runs.sorted()
        guard let low = sorted.first, let high = sorted.last else { return false }
        return high - low <= share * sorted[sorted.count / 2]
    }

    /// Times `sql` with the bound-value `samples` (an empty list binds nothing).
    /// - Throws: as ``time(_:isWrite:giveUpAboveSeconds:)``.
    package func time(_ sql: String, samples: [[SQLValue]], isWrite: Bool, giveUpAboveSeconds: Double? = nil) throws -> Timing {
        let executions = samples.isEmpty ? [Execution(sql: sql, values: [])] : samples.map { Execution(sql: sql, values: $0) }
        return try time(executions, isWrite: isWrite, giveUpAboveSeconds: giveUpAboveSeconds)
    }

    /// Times `executions` (each text is prepared once; a pass runs every execution in order).
    /// - Parameters:
    ///   - isWrite: run each execution inside `SAVEPOINT … ROLLBACK TO` so nothing is kept.
    ///   - giveUpAboveSeconds: when the warm-up pass is already slower than this per execution, return its
    ///     single measurement (runs = 1) instead of timing runs: the statement is not getting faster.
    /// - Throws: ``MeasurementError`` when an execution times out, or every execution fails; ``SQLiteError``
    ///   when a text does not prepare; ``StoreError/snapshotTimingFailed(directory:sql:error:)`` when an
    ///   execution fails because the snapshot's folder is full or failing (`SQLITE_FULL`, `SQLITE_IOERR`).
    package func time(_ executions: [Execution], isWrite: Bool, giveUpAboveSeconds: Double? = nil) throws -> Timing {
        precondition(!executions.isEmpty, "at least one execution to time")
        let started = DispatchTime.now().uptimeNanoseconds
        defer { clock?.addTiming(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, isWrite: isWrite) }
        var prepared: [String: SQLiteStatement] = [:]
        for execution in executions where prepared[execution.sql] == nil {
            prepared[execution.sql] = try connection.prepareResolvingStandIns(execution.sql)
        }
        let plan = executions.map { (prepared[$0.sql]!, $0.values, max(0, $0.weight)) }
        let savepoint = isWrite ? try connection.prepare("SAVEPOINT indexadvisor_measure") : nil
        // A savepoint that began the transaction ends with ROLLBACK, which commits nothing. ROLLBACK TO and
        // RELEASE would commit the emptied transaction, and in WAL mode a commit writes at least one frame
        // (page 1): with the snapshot's automatic checkpoints off, every timed write made the WAL one frame
        // longer, and each later write slower, by about 4 µs per 1,000 frames (an INSERT went from 33 µs to
        // 70 µs over 15,000 timed executions; by hand in the sqlite3 shell, 79 µs to 338 µs per rolled-back
        // INSERT after 32,000). Inside a transaction someone else opened (a drop measured in a savepoint),
        // only the timer's own savepoint is rolled back, and nothing is committed either.
        let endsTransaction = isWrite && connection.isAutocommit
        let rollback = isWrite ? try connection.prepare(endsTransaction ? "ROLLBACK" : "ROLLBACK TO indexadvisor_measure") : nil
        let release = isWrite && !endsTransaction ? try connection.prepare("RELEASE indexadvisor_measure") : nil
        let deferral = isWrite && defersForeignKeys ? try connection.prepare("PRAGMA defer_foreign_keys = ON") : nil
        var failures = 0
        var firstFailure: SQLiteError?
        var rows = 0
        var executionsDone = 0
        // Weighted sums over successful executions: steps, page lookups, and the weight they carried.
        var steps = 0.0, pages = 0.0, countedWeight = 0.0
        // Page-cache misses and page lookups of the successful executions so far (unweighted).
        var misses: Int64 = 0, lookups: Int64 = 0
        // Pages read from outside the cache (``uncachedPages(misses:cachePages:executions:steady:)``), summed over
        // the passes counted, each weighted by its executions' weight.
        var uncached = 0.0, uncachedWeight = 0.0
        let cachePages = connection.pageCacheCapacity() ?? 0  // read once per timing: PRAGMAs, off the executions
        // The counters are the same however often an execution runs: only the clock needs the retries.
        let probe = costSource == .wallClock ? preemptionProbe : nil
        var preemptedRetries = 0

        /// One execution; its duration in nanoseconds, or nil when it failed. An execution the scheduler
        /// preempted (``Preemption``) that took under ``preemptionRetryNanoseconds`` is run again, up to
        /// ``preemptionRetries`` times: its time was another process's as much as its own.
        func execute(_ statement: SQLiteStatement, _ values: [SQLValue], weight: Double) throws -> UInt64? {
            var attempt = 0
            while true {
                try statement.bind(values)
                if let savepoint { try savepoint.run() }
                if let deferral { _ = try deferral.run() }
                defer {
                    if let rollback {
                        _ = try? rollback.run()
                        if let release { _ = try? release.run() }
                    }
                }
                _ = statement.virtualMachineSteps(reset: true)
                _ = connection.pageLookups(reset: true)
                let switches = probe?() ?? 0
                let start = DispatchTime.now().uptimeNanoseconds
                connection.statementDeadline = start + UInt64(statementTimeout * 1e9)
                defer { connection.statementDeadline = nil }
                do {
                    var count = 0
                    while try statement.step() { count += 1 }
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start
                    if let probe, attempt < Self.preemptionRetries, elapsed < Self.preemptionRetryNanoseconds, probe() != switches {
                        attempt += 1
                        preemptedRetries += 1
                        continue
                    }
                    steps += Double(statement.virtualMachineSteps(reset: false)) * weight
                    let looked = connection.pageLookups(reset: false)
                    pages += Double(looked) * weight
                    lookups += looked
                    misses += connection.pageCacheMisses()
                    countedWeight += weight
                    rows += isWrite ? connection.changes : count
                    executionsDone += 1
                    return elapsed
                } catch let error as SQLiteError {
                    statement.reset()
                    if error.code == .interrupt { throw MeasurementError.timedOut(seconds: statementTimeout, sql: statement.sql) }
                    // The snapshot's folder is full or failing (a write's WAL frames, a sort's temporary file): the
                    // statement's cost cannot be measured there, and advice without it would be wrong. Not a
                    // measurement error a caller sets aside: the run stops.
                    if error.code == .full || error.code == .ioError {
                        throw StoreError.snapshotTimingFailed(directory: URL(fileURLWithPath: connection.path).deletingLastPathComponent().path,
                                                              sql: statement.sql, error: error)
                    }
                    failures += 1
                    if firstFailure == nil { firstFailure = error }
                    return nil
                }
            }
        }

        /// One pass over every execution: (weighted nanoseconds, successful executions, their weight, page-cache
        /// misses, page lookups). `steady`: it follows a pass over the same executions (a read's only:
        /// a write's rollback puts back the pages it changed, which the next write reads again).
        func pass(steady: Bool) throws -> (Double, Int, Double, Int64, Int64) {
            var total = 0.0
            var succeeded = 0
            var weight = 0.0
            let missesBefore = misses, lookupsBefore = lookups
            for (statement, values, share) in plan {
                if let elapsed = try execute(statement, values, weight: share) {
                    total += Double(elapsed) * share
                    succeeded += 1
                    weight += share
                }
            }
            let passMisses = misses - missesBefore
            let isSteady = !isWrite && (steady || Self.warmUpIsARun(misses: passMisses, cachePages: cachePages))
            uncached += Self.uncachedPages(misses: passMisses, cachePages: cachePages, executions: succeeded, steady: isSteady) * weight
            uncachedWeight += weight
            return (total, succeeded, weight, passMisses, lookups - lookupsBefore)
        }

        /// Forgets what the passes so far counted, for the passes that follow to stand alone.
        func resetCounted() {
            rows = 0
            executionsDone = 0
            failures = 0
            steps = 0
            pages = 0
            countedWeight = 0
            uncached = 0
            uncachedWeight = 0
        }

        /// The counters so far, per execution (weighted).
        func counted() -> WorkCounters? {
            countedWeight > 0 ? WorkCounters(vmSteps: steps / countedWeight, pageLookups: pages / countedWeight, isWrite: isWrite,
                                             uncachedPages: uncachedWeight > 0 ? uncached / uncachedWeight : 0) : nil
        }

        var (warmTotal, warmSucceeded, warmWeight, warmMisses, warmLookups) = try pass(steady: false)
        // One pass is the measurement (the counters, or screening): when the cache it left may not be the
        // one the next pass finds, a second pass, in the steady state, is (a working set that thrashes the
        // cache misses on every pass; ``uncachedPages(misses:cachePages:executions:steady:)``).
        if (costSource == .sqliteCounters || repeats == 0), !isWrite, warmSucceeded > 0,
           Self.needsSteadyPass(lookups: warmLookups, misses: warmMisses, cachePages: cachePages) {
            resetCounted()
            (warmTotal, warmSucceeded, warmWeight, warmMisses, warmLookups) = try pass(steady: true)
        }
        guard warmSucceeded > 0, warmWeight > 0 else {
            throw MeasurementError.failed(firstFailure ?? SQLiteError(extendedCode: .error, message: "no execution succeeded", sql: executions[0].sql))
        }
        let warmRows = Double(rows) / Double(max(1, executionsDone))
        if costSource == .sqliteCounters, let counters = counted() {
            return Timing.from(samples: [CounterCost.seconds(counters)],
                               executionsPerRun: warmSucceeded, rows: warmRows, failures: failures,
                               counters: counters, source: .sqliteCounters)
        }
        let perExecution = warmTotal / warmWeight / 1e9
        // `repeats` 0: the one pass is the measurement (screening, where the counters decide; issue 18).
        if repeats == 0 || giveUpAboveSeconds.map({ perExecution > $0 }) ?? false {
            return Timing.from(samples: [perExecution], executionsPerRun: warmSucceeded, rows: warmRows, failures: failures,
                               counters: counted(), source: .wallClock)
        }
        let passSeconds = warmTotal / warmWeight * Double(plan.count) / 1e9
        // What the warm-up measured, should every later run be cut off by the deadline.
        let warmUp = Timing.from(samples: [perExecution], executionsPerRun: warmSucceeded, rows: warmRows, failures: failures,
                                 counters: counted(), source: .wallClock)
        let passesPerRun = max(1, min(maximumExecutionsPerRun / plan.count, Int((minimumRunSeconds / max(passSeconds, 1e-9)).rounded(.up))))
        var runSeconds: [Double] = []
        if passesPerRun == 1, Self.warmUpIsARun(misses: misses, cachePages: cachePages) {
            // A pass that reads far more pages than SQLite's cache holds finds none of them there the next
            // time either: the warm-up was as warm as any run can be, so it is one (issue 18), and its
            // counters, rows and failures count with the runs'.
            runSeconds.append(perExecution)
        } else {
            resetCounted()
        }
        let runs = passSeconds > 0.25 ? min(3, repeats) : (passSeconds > 0.05 ? min(5, repeats) : repeats)
        // A sequential stop (issue 18): once enough runs agree closely, more of them would not move the median.
        // Over 50 ms a pass (the demo's full scans of 100,000 notes, a substring search) is long enough that
        // two runs within 10 % of each other settle it; a third cost the demo's baseline about 0.6 s.
        let enough = min(runs, passSeconds > 0.05 ? 2 : 5)
        var cutOff = false
        for _ in runSeconds.count..<max(runs, runSeconds.count) {
            if runSeconds.count >= enough, Self.agree(runSeconds, within: agreement) { break }
            var total = 0.0
            var weight = 0.0
            do {
                for _ in 0..<passesPerRun {
                    let (elapsed, _, share, _, _) = try pass(steady: true)
                    total += elapsed
                    weight += share
                }
            } catch MeasurementError.timedOut {
                cutOff = true
                // Every execution finished within the deadline once (the warm-up): a later run that a busy
                // moment pushes past it makes the statement slow, not a runaway. The runs finished so far are
                // the timing, or the warm-up when none is, so a hot statement near the deadline does not drop out
                // of the analysis in one run and count in the next.
                break
            }
            if weight > 0 { runSeconds.append(total / weight / 1e9) }
        }
        if runSeconds.isEmpty && cutOff { return warmUp }
        guard !runSeconds.isEmpty else {
            throw MeasurementError.failed(firstFailure ?? SQLiteError(extendedCode: .error, message: "no execution succeeded", sql: executions[0].sql))
        }
        var timing = Timing.from(samples: runSeconds, executionsPerRun: passesPerRun * plan.count,
                                 rows: executionsDone > 0 ? Double(rows) / Double(executionsDone) : 0, failures: failures,
                                 counters: counted(), source: .wallClock)
        timing.preemptedRetries = preemptedRetries > 0 ? preemptedRetries : nil
        return timing
    }
}
