/// Measured execution time of one statement: the distribution of per-execution times over several runs.
///
/// Each run executes the statement `executionsPerRun` times (stepping through every row, each time with
/// the next set of bound values) and divides the elapsed monotonic time by that count; quartiles are
/// taken over the runs. All times are in seconds.
public struct Timing: Sendable, Codable, Equatable {
    public var medianSeconds: Double
    public var p25Seconds: Double
    public var p75Seconds: Double
    public var minSeconds: Double
    public var maxSeconds: Double
    /// Runs measured after the warm-up pass (which is the first of them when it read far more pages than
    /// SQLite's page cache holds: ``StatementTimer/warmUpIsARun(misses:cachePages:)``).
    public var runs: Int
    public var executionsPerRun: Int
    /// Rows returned (reads) or changed (writes) per execution, averaged.
    public var rowsPerExecution: Double
    /// Executions that failed (e.g. a drawn value broke a UNIQUE constraint), not counted in the times.
    public var failures: Int
    /// Every run's time per execution, in seconds, in the order measured.
    public var runSeconds: [Double] = []
    /// SQLite virtual machine steps per execution, averaged (`SQLITE_STMTSTATUS_VM_STEP`): the same on
    /// every run with the same plan, data and values. Nil in reports written before it was kept.
    public var vmStepsPerExecution: Double? = nil
    /// Page-cache lookups per execution, averaged (`SQLITE_DBSTATUS_CACHE_HIT` + `_MISS`). Nil as above.
    public var pageLookupsPerExecution: Double? = nil
    /// Pages read from outside SQLite's page cache per execution, as the counters price them
    /// (``WorkCounters/uncachedPages``). Nil as above.
    public var uncachedPagesPerExecution: Double? = nil
    /// True when the statement is a write, timed inside a savepoint that is rolled back (its pages are
    /// priced as changed pages, ``CounterCost``). Nil in reports written before it was kept.
    public var isWrite: Bool? = nil
    /// Where the seconds come from: "time" (wall clock) or "counters" (``CounterCost``). Nil in reports
    /// written before it was kept, which were all wall-clock.
    public var costSource: CostSource? = nil
    /// Executions run again because the scheduler preempted them (``StatementTimer/preemptionProbe``), over
    /// the warm-up and every run; nil when none was (and in reports written before it was kept).
    public var preemptedRetries: Int? = nil
    /// True when one execution ran past the statement timeout (`--statement-timeout`) and was stopped: every
    /// quantile is then the timeout, a lower bound on the statement's time, not a measurement of it
    /// (``stopped(atSeconds:isWrite:)``). Nil otherwise, and in reports written before it was kept.
    public var isLowerBound: Bool? = nil

    /// The timing of a statement one execution of which ran past `seconds` and was stopped: `seconds` per
    /// execution as a lower bound (``isLowerBound``), no runs, no counters. A statement too slow to time as
    /// the store is is the one that most needs an index; with this it can still be compared with what a
    /// candidate measures.
    package static func stopped(atSeconds seconds: Double, isWrite: Bool) -> Timing {
        var timing = Timing.from(samples: [seconds], executionsPerRun: 1, rows: 0, failures: 0, source: .wallClock)
        timing.runs = 0
        timing.runSeconds = []
        timing.isWrite = isWrite
        timing.isLowerBound = true
        return timing
    }

    /// The same timing priced by SQLite's work counters (``CounterCost``), every quantile equal: what the
    /// selection decides on, so that its choices do not follow the machine's load. Self when it already is
    /// a counters timing or the counters are missing.
    package var decisionView: Timing {
        guard costSource != .sqliteCounters, let counters else { return self }
        return Timing.from(samples: [CounterCost.seconds(counters)], executionsPerRun: executionsPerRun,
                           rows: rowsPerExecution, failures: failures, counters: counters, source: .sqliteCounters)
    }

    /// The work counters kept with this timing; nil when it has none.
    public var counters: WorkCounters? {
        guard let steps = vmStepsPerExecution, let pages = pageLookupsPerExecution else { return nil }
        return WorkCounters(vmSteps: steps, pageLookups: pages, isWrite: isWrite ?? false, uncachedPages: uncachedPagesPerExecution ?? 0)
    }

    /// Total executions timed.
    public var sampleSize: Int { runs.saturatingProduct(executionsPerRun) }

    /// The interquartile range, in seconds: the spread used to decide whether a difference is real.
    public var spreadSeconds: Double { p75Seconds - p25Seconds }

    /// True when `other` is faster beyond the noise: its upper quartile is below this timing's lower
    /// quartile and the medians differ by at least 5 %.
    public func isSlower(than other: Timing) -> Bool {
        other.p75Seconds < p25Seconds && other.medianSeconds < medianSeconds * 0.95
    }

    static func from(samples: [Double], executionsPerRun: Int, rows: Double, failures: Int,
                     counters: WorkCounters? = nil, source: CostSource? = nil) -> Timing {
        let sorted = samples.sorted()
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let position = q * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down))
            let upper = min(sorted.count - 1, lower + 1)
            let fraction = position - Double(lower)
            return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
        }
        return Timing(medianSeconds: quantile(0.5), p25Seconds: quantile(0.25), p75Seconds: quantile(0.75),
                      minSeconds: sorted.first ?? 0, maxSeconds: sorted.last ?? 0, runs: sorted.count,
                      executionsPerRun: executionsPerRun, rowsPerExecution: rows, failures: failures, runSeconds: samples,
                      vmStepsPerExecution: counters?.vmSteps, pageLookupsPerExecution: counters?.pageLookups,
                      uncachedPagesPerExecution: counters?.uncachedPages,
                      isWrite: counters?.isWrite,
                      costSource: source)
    }
}
