/// Where the cost of a statement execution comes from.
///
/// Reports give costs in seconds either way. Wall-clock time is what an app's user waits for, but on a
/// shared machine two runs of the same statement differ by more than two good indexes do; SQLite's own
/// counters give the same figure on a busy and an idle machine, so a decision based on them repeats.
public enum CostSource: String, Sendable, Codable, CaseIterable {
    /// Monotonic wall-clock time: the median of several timed runs after a warm-up (the default).
    case wallClock = "time"
    /// SQLite's deterministic work counters, priced at fixed nanoseconds each (``CounterCost``): virtual
    /// machine steps (`sqlite3_stmt_status(…, SQLITE_STMTSTATUS_VM_STEP, …)`, c3ref/c_stmtstatus_counter.html)
    /// and page-cache lookups (`sqlite3_db_status(…, SQLITE_DBSTATUS_CACHE_HIT`/`_MISS`, …)`,
    /// c3ref/c_dbstatus_options.html). One pass per statement; every run of the same analysis on the same
    /// store gives the same figures, whatever else the machine is doing.
    case sqliteCounters = "counters"
}

/// The price of SQLite's work counters in seconds, for ``CostSource/sqliteCounters``.
public enum CounterCost {
    /// Nanoseconds charged per virtual machine step. Fitted, with ``nanosecondsPerPage``, to wall-clock
    /// medians of the demo workload on a 2-core x86-64 Linux machine (SQLite 3.40.1): full scans, index
    /// searches and inserts came within 2× of their measured times; large temp B-tree sorts are
    /// underpriced (the sorter's comparisons are not steps).
    public static let nanosecondsPerStep = 50.0
    /// Nanoseconds charged per page lookup (finding the page, then a binary search or a walk of its cells).
    public static let nanosecondsPerPage = 250.0

    /// `vmSteps × 50 ns + pageLookups × 250 ns`, in seconds.
    public static func seconds(vmSteps: Double, pageLookups: Double) -> Double {
        (vmSteps * nanosecondsPerStep + pageLookups * nanosecondsPerPage) / 1e9
    }
}
