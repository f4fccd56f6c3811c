import Foundation

/// The method section's words: how the store was sampled and timed, where bound values came from and the
/// thresholds, from ``MethodSummary``'s fields and the store's (sampled tables, `sqlite_stat1`). Markdown,
/// HTML and the JSON report's `method.description` print the same paragraph.
extension AnalysisResult {
    /// The method in one paragraph; for a result read back from a JSON report made before the fields
    /// existed, the paragraph it gave.
    public var methodText: String {
        guard let version = method.sqliteVersion else { return method.description ?? "" }
        let statistics = store.hasStatistics ? "with the store's sqlite_stat1" : "no sqlite_stat1, as the store"
        return sampleMethod + timingMethod
            + " on a private snapshot of the store (SQLite \(version), \(statistics))\(foreignKeyMethod)\(recursiveTriggerMethod); the snapshot is in WAL mode whatever the store's, so that a timed write pays for its B-tree work and not for a rollback journal made and deleted around each statement. "
            + "Each value set is planned and timed as the app's own text, literals in place. "
            + "Bound values: the workload's own (up to 32 distinct sets chosen over the whole input: the first, the heaviest keys by rows reported or counted here, the most frequent, and an even spread of the rest, each weighted by the executions it stands for), "
            + "or up to \(method.bindingSamples) drawn from the data (at least 3; fewer for slow statements, so that a pass takes about 50 ms; seed \(method.seed)): "
            + "whole rows, so values that belong together stay together; an IN list of distinct existing values; a range from a drawn row's value to the value 1 % of the table's rows later in the column's order (10 to 1,000 rows); a LIKE pattern from an existing value's first three characters. "
            + "A write's keys (primary and unique, of one column or several) get a value no row has where a row already holds them (always for drawn values, never for an UPDATE's own): one column of the key, past its largest value (for a unique expression over text, then a text like the row's with its leading characters or its JSON document's values drawn again, until the expression's value is one no row has); an UPDATE's or DELETE's own WHERE keys that match no row (rows the app creates before it changes them) are an existing row's that the write changes (drawn among those that meet its other conditions, whose values stay the app's), so that the write and its triggers do their work; "
            + "an upsert, INSERT OR REPLACE or OR IGNORE keeps the app's own key, so its conflict path is timed, and every other drawn set is an existing row's. "
            + "Writes run inside a savepoint that is rolled back. "
            + chargeMethod + loadMethod
            + "\(ReportThresholds.noise) \(ReportThresholds.schemaChange(share: method.minimumBenefitShare ?? AnalysisOptions().minimumBenefitShare))"
    }

    /// How the summary's charges are made (``FinalCharges``); empty for reports without them.
    private var chargeMethod: String {
        guard finalCharges != nil else { return "" }
        return "What the summary charges each index and drop is its part of the whole advice's change, each statement timed as the store is and with all of the advice: a read's change goes to the indexes its final plan uses, a write's to the indexes and drops that change its work, by the extra work SQLite's work counters showed each adding when it was measured, scaled to the change the clock measured (what no counted work explains is left uncharged), so that the charges add up to the headline. Beside each write figure: its spread (the figure with the statements' timings at their quartiles) and SQLite's counters' own figure, which is the same on every run. An index's own table is from when it was chosen, with only the indexes above it built. "
    }

    /// How busy the machine was while the figures were taken; empty when the system did not say.
    private var loadMethod: String {
        guard let load = method.machineLoad else { return "" }
        // A report edited to 0 cores says no cores and judges nothing (hostile round 7, F10).
        let cores = load.cores > 0 ? ", on \(Figures.counted(load.cores, "core"))" : ""
        let figures = "The machine's one-minute load average was \(String(format: "%.1f", load.atStart)) as the analysis began and at most \(String(format: "%.1f", load.highest)) during it\(cores)"
        guard load.wasBusy, load.cores > 0 else { return figures + ". " }
        let decided = method.decidesOnCounters == true ? "; the choices were decided on the counters, which it does not move" : ""
        return figures + ": the machine was busy, so the wall-clock figures include other processes' time and can differ between runs of the same input\(decided). "
    }

    /// How a sample was taken and what its figures mean; empty when nothing was sampled.
    private var sampleMethod: String {
        guard !store.sampledTables.isEmpty else { return "" }
        let tables = store.sampledTables.map { table in
            "\(table.table), about 1 row in \(table.step) (\(Figures.count(table.sampledRows)) of \(Figures.count(table.rows)) rows): index sizes × \(String(format: "%.2f", table.sizeFactor)), build times × \(String(format: "%.2f", table.buildFactor))"
        }.joined(separator: "; ")
        return "Measured on a deterministic sample: \(tables). Plans are the store's. Index sizes and build times are scaled to the store's rows: an index holds one entry per row, so its size grows with the rows (× rows ÷ sampled rows), and building it sorts them (× rows ÷ sampled rows × ln rows ÷ ln sampled rows). Statement and workload times are the sample's, not scaled: a scan's time grows with the table and an index search's barely, so no one factor is right; they compare plans, not the store's absolute times. "
    }

    /// How each statement's time was taken.
    private var timingMethod: String {
        switch method.costSource ?? .wallClock {
        case .wallClock:
            let decided = method.decidesOnCounters != true ? "" : "Which candidate wins, whether a pick saves enough and how many drawn values are timed are decided on SQLite's work counters of the same runs (VM steps and page lookups, priced at \(CounterCost.prices)), which the machine's load does not move, so the same input gives the same advice; the figures shown are wall-clock. Candidates are screened on one pass each, without a warm-up (the counters need no more; a read that looks up more pages than SQLite's page cache holds gets a second pass, whose misses tell a working set that fits the cache from one that misses it on every pass); a recommended index is then timed again in full with the other picks in place, so only the rejected candidates' figures are one pass's. "
            return decided + "Each time is the median of up to \(method.repeats) runs (5 when one pass over the statement's bound values takes over 50 ms, 3 over 250 ms), stopping early once at least 5 runs (2 over 50 ms) lie within 10 % of their median (each timing gives its count), after a warm-up pass (discarded, unless it read over \(StatementTimer.uncachedPassFactor) times as many pages as SQLite's page cache holds: then no run can find its pages cached either, and the warm-up is the first run), each run repeating the statement for at least \(Figures.whole(method.minimumRunSeconds * 1000, .towardZero)) ms and stepping through every row (an execution under 2 ms that the scheduler preempted, which then holds another process's time slice, is run again, up to twice),"
        case .sqliteCounters:
            return "Each time is SQLite's own work counters for one pass over the statement's bound values, priced at \(CounterCost.prices) (--cost counters: the same figures on every run, not wall-clock time; index build times are still wall-clock),"
        }
    }

    /// How foreign keys were treated: said only when enforced, since SQLite's default is off.
    private var foreignKeyMethod: String {
        guard let enforcement = method.foreignKeyEnforcement else { return "" }
        let why = switch enforcement {
        case .workloadPragma: "the workload turns them on"
        case .declaredAction: "a foreign key declares an ON DELETE or ON UPDATE action, which only enforcement carries out"
        }
        return ", with foreign keys enforced as the app's connections enforce them (\(why)), so a parent's delete is planned and timed with its searches of the child rows"
    }

    /// Said only when the workload turned recursive triggers on (SQLite's default is off).
    private var recursiveTriggerMethod: String {
        method.recursiveTriggers == true
            ? ", with recursive triggers on as the workload's PRAGMA recursive_triggers sets them, so a REPLACE is planned and timed with the DELETE triggers of the rows it replaces"
            : ""
    }
}
