/// Every threshold the selection decides by, in one place, each with its name and its reason. The help
/// text and the report's method section print them from ``documented``.
package struct SelectionPolicy: Sendable, Equatable {
    /// Decide on SQLite's work counters (``Timing/decisionView``) where they agree in direction with the
    /// wall clock; where the clock says the opposite beyond its noise, the clock decides.
    package var decidesOnCounters = true
    /// A move is taken only when it saves at least this share of the workload's time as it stands
    /// (frequency-weighted, net of writes): a schema change is not free.
    package var minimumBenefitShare = 0.005
    /// …and at least this many seconds per workload, whatever its size.
    package var minimumBenefitFloorSeconds = 0.001
    /// Two moves whose net savings are within this share of the better one's are a tie, broken by fewer
    /// bytes added, then fewer key columns, then the candidates' order: the measurements cannot tell them apart.
    package var tieShare = 0.05
    /// At most this many new indexes in all, and per table.
    package var maxNewIndexes = 12
    package var maxIndexesPerTable = 6
    /// New indexes together take at most this many bytes (nil: no limit).
    package var maxIndexBytes: Int64?
    /// Join pairs tried per statement, and replacements per index, at most: a bound on a round's moves.
    package var maxPairsPerStatement = 16
    /// SQLite's work counters priced by ``CounterCost`` came within this factor of the wall clock on the
    /// statements the prices were fitted to: a statement priced less than this many times cheaper may not be
    /// faster at all. A move decided on the counters must clear the minimum at that worst: its gains divided
    /// by the factor, its losses multiplied by it; unless one statement is this many times faster (by the
    /// counters or by the clock with its runs apart), or it costs no counted work at all.
    package var countersResolution = 2.0
    package var maxReplacementsPerIndex = 8
    /// Taking out a store index that no statement of the workload uses must save at least this share of the
    /// workload's time as the store is: a workload is a sample, and such an index may serve statements it
    /// does not show, so the evidence must be more than a saving at the edge of the noise.
    package var unusedIndexRemovalShare = 0.02

    package init() {}

    /// The policy an analysis's options give.
    package init(options: AnalysisOptions) {
        decidesOnCounters = options.decideOnCounters || options.costSource == .sqliteCounters
        minimumBenefitShare = options.minimumBenefitShare
        minimumBenefitFloorSeconds = AnalysisOptions.minimumBenefitFloorSeconds
        maxNewIndexes = options.maxNewIndexes
        maxIndexesPerTable = options.maxIndexesPerTable
        maxIndexBytes = options.maxIndexBytes
    }

    /// The seconds a timing counts for in a decision: its counters' price, or its wall-clock median.
    package func seconds(_ timing: Timing) -> Double {
        decidesOnCounters ? timing.decisionView.medianSeconds : timing.medianSeconds
    }

    /// What one execution saves going from `before` to `after`, in seconds (negative: slower). The counters'
    /// difference, unless the wall clock says the opposite beyond its noise (its runs apart, ``Timing/isSlower(than:)``):
    /// then the clock's. On the clock alone, its difference.
    package func saving(before: Timing, after: Timing) -> Double {
        let clocked = before.medianSeconds - after.medianSeconds
        guard decidesOnCounters else { return clocked }
        let counted = seconds(before) - seconds(after)
        let clockSlower = after.isSlower(than: before), clockFaster = before.isSlower(than: after)
        if counted > 0, clockSlower { return clocked }
        if counted < 0, clockFaster { return clocked }
        return counted
    }

    /// Seconds per execution that a write whose plan stays the same pays more going from `before` to `after`:
    /// the upkeep of the indexes a move adds (negative: of the ones it takes out). On the counters, their
    /// difference: the clock never decides an upkeep. A write that keeps its plan does the same work plus the
    /// new index's, so a clock calling it faster with one more index to maintain is a busy machine's noise;
    /// counting that as a saving let the load choose between candidates with no warning (hostile round 6, F7:
    /// an INSERT timed faster with one index gave it the table's last slot over the one the counters favour).
    /// A read's change is ``saving(before:after:)``'s, where the clock may overrule both ways, since the
    /// counters underprice what is not VM steps (a temp B-tree sort). On the clock alone, its difference.
    package func upkeep(before: Timing, after: Timing) -> Double {
        decidesOnCounters ? seconds(after) - seconds(before) : after.medianSeconds - before.medianSeconds
    }

    /// True when the wall clock says the opposite of the counters beyond its noise for a change from `before`
    /// to `after`: the case ``saving(before:after:)`` gives to the clock, and the selector measures again first.
    package func clockContradicts(before: Timing, after: Timing) -> Bool {
        guard decidesOnCounters else { return false }
        let counted = seconds(before) - seconds(after)
        return (counted > 0 && after.isSlower(than: before)) || (counted < 0 && before.isSlower(than: after))
    }

    /// True when the wall clock overrules the counters on a whole move or set: decided on the counters, its
    /// figures (``SelectionTrace/ClockFigures``) lose even at the clock's best for it (the reads' quartiles
    /// furthest apart, the writes' closest). The figures printed are the clock's: a pick chosen on the
    /// counters was recommended under a headline calling the set slower (issue 39, F3). On the clock alone
    /// the net saving already decides.
    package func clockOverrules(_ clock: SelectionTrace.ClockFigures) -> Bool {
        decidesOnCounters && clock.isLoss
    }

    /// True when `after` is measurably faster than `before` as the decision sees them: on the clock, its runs
    /// apart and ≥ 5 % faster; on the counters, ≥ 5 % cheaper with the clock not saying the opposite, and either
    /// reading fewer pages, or losing a step of its plan (`simpler`: a temp B-tree sort or a scan gone), or
    /// confirmed by the clock, or ``countersResolution`` times cheaper: a change in VM steps alone over the same
    /// pages and the same plan steps (a filter checked in the key instead of the row read anyway) is what the
    /// counters price least well.
    package func isImprovement(before: Timing, after: Timing, simpler: Bool = false) -> Bool {
        guard decidesOnCounters else { return before.isSlower(than: after) }
        guard before.decisionView.isSlower(than: after.decisionView), !after.isSlower(than: before) else { return false }
        let pages = (before.pageLookupsPerExecution ?? 0, after.pageLookupsPerExecution ?? 0)
        let clockConfirms = before.costSource != .sqliteCounters && before.isSlower(than: after)
        return pages.0 > pages.1 * 1.05 || simpler || clockConfirms || seconds(before) >= seconds(after) * countersResolution
    }

    /// True when the counters call `after` measurably cheaper than `before` (≥ 5 %) and the wall clock calls it
    /// slower beyond its noise: ``isImprovement(before:after:simpler:)`` is then false by the clock's veto, not
    /// by the counters, and the choice made on it is the clock's (issue 39, F6: a rejection said "no statement
    /// got measurably faster by SQLite's work counters" beside an UPDATE they put 20,051 → 59 VM steps).
    package func clockVetoes(before: Timing, after: Timing) -> Bool {
        decidesOnCounters && before.costSource != .sqliteCounters
            && before.decisionView.isSlower(than: after.decisionView) && after.isSlower(than: before)
    }

    /// True when `after` is measurably slower than `before` as the decision sees them.
    package func isSlowdown(before: Timing, after: Timing) -> Bool {
        isImprovement(before: after, after: before)
    }

    /// True when a move that gains `gain` and loses `loss` seconds (frequency-weighted, both ≥ 0), with its
    /// best statement `speedup` times faster, clears `minimum` as the decision can tell it
    /// (``countersResolution``).
    package func clears(gain: Double, loss: Double, speedup: Double, minimum: Double) -> Bool {
        guard gain - loss >= minimum else { return false }
        guard decidesOnCounters, loss > 0, speedup < countersResolution else { return true }
        return gain / countersResolution - loss * countersResolution >= minimum
    }

    /// How many times faster `after` is than `before`, as the counters price them or as the clock tells with
    /// its runs apart, whichever is more.
    package func speedup(before: Timing, after: Timing) -> Double {
        let counted = seconds(after) > 0 ? seconds(before) / seconds(after) : .infinity
        let clocked = after.p75Seconds > 0 && before.p25Seconds > after.p75Seconds ? before.p25Seconds / after.p75Seconds : 1
        return max(counted, clocked)
    }

    /// The smallest net saving a move must reach when the workload costs `workloadSeconds` as it stands.
    package func minimumGain(workloadSeconds: Double) -> Double {
        max(minimumBenefitFloorSeconds, workloadSeconds * minimumBenefitShare)
    }

    /// Each threshold with its value and reason, for `indexadvisor help analyze` and the report's method.
    package var documented: [(name: String, value: String, reason: String)] {
        [("minimum benefit", "\(minimumBenefitShare * 100) % of the workload's time, at least \(minimumBenefitFloorSeconds * 1000) ms",
          "a move is taken only when it saves this much net of writes: a smaller saving is not \"worth a schema change\""),
         ("counters' resolution", "\(countersResolution)×",
          "a move decided on the counters must save the minimum with its gains divided and its losses multiplied by it"),
         ("tie", "savings apart by less than the minimum (× the counters' resolution) or \(Int(tieShare * 100)) % of the work their statements still do",
          "the difference would not be a move of its own; fewer sorts and scans left win, then fewer indexes, the more selective leading column, fewer bytes, fewer key columns"),
         ("decision", decidesOnCounters ? "SQLite's work counters, the clock where it says the opposite beyond its noise (a statement's change, or a move's or the set's net even at the clock's best for it)" : "the wall clock",
          "counters repeat on a busy machine; the clock is what the figures are"),
         ("store indexes", "taken out only when no statement gets slower; one no statement uses must save \(unusedIndexRemovalShare * 100) % of the workload",
          "the store's indexes were made for statements a workload may not show"),
         ("limits", "\(maxNewIndexes) new indexes, \(maxIndexesPerTable) per table" + (maxIndexBytes.map { ", \($0) bytes" } ?? ""),
          "bounds on a schema change's size; every index must still pay for itself")]
    }
}
