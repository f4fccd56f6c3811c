/// The wall clock's veto on a pick chosen on SQLite's work counters (issue 15: the advice must not
/// contradict the report's own figures).
///
/// The counters price a step and a page (``CounterCost``); they do not see what a step costs inside, such as
/// the key comparisons of an insert into an index on long text under `COLLATE NOCASE`. A new user's event
/// log had `payload COLLATE NOCASE` recommended for one `LIKE 'ABC%'` read against 2,000 inserts: 9.7 ms
/// saved, 124.5 ms of writes added, by the report's own wall-clock figures. A pick whose timings, read in
/// its favour, still show a loss is not kept: the reads' saving is taken at its most (each user's time
/// before at its upper quartile, after at its lower) and the writes' cost at its least (after at the lower
/// quartile, before at the upper, never below zero), so that a difference inside the runs' spread never
/// vetoes a pick and the same input keeps the same advice.
struct ClockCheck {
    /// The reads' saving at its most and the writes' added time at its least, frequency-weighted, in
    /// seconds per workload, from `changes` (the pick's users and its table's writes, timed with and
    /// without it); `weight` gives a statement's executions by profile position.
    static func bounds(_ changes: [TimingChange], weight: (Int) -> Double) -> (readsSavedAtMost: Double, writesAddedAtLeast: Double) {
        var reads = 0.0, writes = 0.0
        for change in changes {
            if change.isUser {
                reads += (change.before.p75Seconds - change.after.p25Seconds) * weight(change.position)
            } else {
                writes += max(0, change.after.p25Seconds - change.before.p75Seconds) * weight(change.position)
            }
        }
        return (reads, writes)
    }

    /// True when the writes' least cost exceeds the reads' most saving by at least `minimumBenefit` seconds
    /// per workload (what a pick must save to be worth a schema change).
    static func showsLoss(_ changes: [TimingChange], weight: (Int) -> Double, minimumBenefit: Double) -> Bool {
        let (reads, writes) = bounds(changes, weight: weight)
        return writes - reads >= minimumBenefit
    }

    /// How much cheaper than before the counters price a statement the pick serves, at most: the largest
    /// before ÷ after of ``CounterCost`` over `changes`' users (1 when none was counted).
    static func countedSpeedup(_ changes: [TimingChange]) -> Double {
        changes.filter(\.isUser).compactMap { change -> Double? in
            guard let before = change.before.counters.map(CounterCost.seconds),
                  let after = change.after.counters.map(CounterCost.seconds) else { return nil }
            return after > 0 ? before / after : .infinity
        }.max() ?? 1
    }

    /// The counters' resolution: ``CounterCost``'s prices came within 2× of the wall clock over the
    /// statements they were fitted to, so a statement priced less than 2× cheaper may not be faster at all
    /// (the demo's `(folderID, isArchived, isPinned, updatedAt)`: 12 % fewer VM steps on its fetch, 2.06 →
    /// 2.04 ms by the clock, while three writes became 1.2–1.6× slower).
    static let countersResolution = 2.0

    /// True when a pick chosen on the counters is one the wall clock does not bear out: no statement it
    /// serves is priced ``countersResolution`` times cheaper, none is measurably faster by the clock
    /// (``Timing/isSlower(than:)``, on `changes`' wall-clock figures), and it costs something: a statement it
    /// serves is measurably slower, or a write (only when `countsWrite` counts it, as the score does) is
    /// measurably slower or does more work by the counters. Such a pick adds time for a saving no measurement
    /// shows. The cost is also read from the counters, which the machine's load does not move: with the
    /// clock alone, a write's 1.2× slowdown inside one busy timing's spread kept the demo's marginal pick in
    /// two of eight runs (a breaking helper), recommended with a net loss.
    static func isUnconfirmedMarginal(_ changes: [TimingChange], countsWrite: ((TimingChange) -> Bool)?) -> Bool {
        let faster = changes.contains { $0.isUser && $0.before.isSlower(than: $0.after) }
        let slowerRead = changes.contains { $0.isUser && $0.after.isSlower(than: $0.before) }
        let costsWrites = changes.contains { change in
            guard !change.isUser, countsWrite?(change) ?? true else { return false }
            if change.after.isSlower(than: change.before) { return true }
            guard let after = change.after.counters, let before = change.before.counters else { return false }
            return CounterCost.seconds(after) > CounterCost.seconds(before) * 1.01
        }
        return countedSpeedup(changes) < countersResolution && !faster && (slowerRead || costsWrites)
    }
}
