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

    /// The counted reads' saving and writes' added work, frequency-weighted, in seconds per workload as
    /// ``CounterCost`` prices them, over `changes` (a write only when `countsWrite` counts it, as the score
    /// does; a write's saving is not counted against its upkeep).
    static func countedBounds(_ changes: [TimingChange], weight: (Int) -> Double,
                              countsWrite: ((TimingChange) -> Bool)?) -> (readsSaved: Double, writesAdded: Double) {
        var reads = 0.0, writes = 0.0
        for change in changes {
            guard let before = change.before.counters.map(CounterCost.seconds),
                  let after = change.after.counters.map(CounterCost.seconds) else { continue }
            if change.isUser {
                reads += (before - after) * weight(change.position)
            } else if countsWrite?(change) ?? true {
                writes += max(0, after - before) * weight(change.position)
            }
        }
        return (reads, writes)
    }

    /// True when a pick chosen on the counters saves too little for them to tell, by a fixed rule on the
    /// counters alone, so that the machine's load cannot decide it (issue 15: "choices inside the noise are
    /// settled by fixed rules"): no statement it serves is priced ``countersResolution`` times cheaper, nor
    /// timed that much faster by the wall clock with the runs apart; it costs counted work (a write it
    /// upkeeps, or a statement it serves, does more); and its counted saving falls short of
    /// `minimumBenefit` when read at the resolution's worst: the reads' saving divided by it and the writes'
    /// added work multiplied by it (``countedBounds(_:weight:countsWrite:)``).
    ///
    /// The demo's `(folderID, isArchived, isPinned, updatedAt)`: 12 % fewer VM steps on one fetch, 2.1 ms of
    /// reads saved against 1.0 ms of writes by the counters, 1.1 ms net beside a minimum of 1 ms. Decided on
    /// whether the clock happened to show the fetch faster, it was picked in about half of the runs.
    static func isInsideResolution(_ changes: [TimingChange], weight: (Int) -> Double,
                                   countsWrite: ((TimingChange) -> Bool)?, minimumBenefit: Double) -> Bool {
        let clockTells = changes.contains { $0.isUser && $0.before.p25Seconds >= $0.after.p75Seconds * countersResolution }
        let costsWork = changes.contains { change in
            guard change.isUser || (countsWrite?(change) ?? true),
                  let after = change.after.counters, let before = change.before.counters else { return false }
            return CounterCost.seconds(after) > CounterCost.seconds(before) * 1.01
        }
        guard countedSpeedup(changes) < countersResolution, !clockTells, costsWork else { return false }
        let counted = countedBounds(changes, weight: weight, countsWrite: countsWrite)
        return counted.readsSaved / countersResolution - counted.writesAdded * countersResolution < minimumBenefit
    }
}
