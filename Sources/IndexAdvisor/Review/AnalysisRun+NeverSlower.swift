import Foundation

/// The invariant where the headline's figures are (issue 38): the advice is never recommended under a headline
/// that calls it slower than the store as it is, by the run's own final timings.
///
/// Issue 39, hostile round 7, F3: at a load of 11 a report printed "Workload time 840.8 ms → 1.41 s (1.7×
/// slower): 1 index to add". The index took an UPDATE's trigger scan away (−1.01 s by SQLite's counters) and
/// added an INSERT's upkeep (+0.48 s by them, +1.0 s by the clock). Neither earlier rule caught it: the
/// selector's check and the give-up rule read the clock at its best, the quartiles furthest apart, and the
/// INSERT's timing as the store is, taken under load minutes before, had a p75 of 20.8 µs beside a median of
/// 4.0 µs. That let the clock's best case call the index's upkeep 712 ms *faster*, so the set "paid".
extension AnalysisRun {
    /// One analysed statement's final timings: its executions per workload, whether it writes, and its timing as
    /// the store is and with the advice in place.
    struct FinalTiming {
        var weight: Double
        var isWrite: Bool
        var before: Timing
        var after: Timing
    }

    /// The advice's final figures: the workload's seconds as the headline sums them (count × median of every
    /// analysed statement, as the store is and with the advice), and the clock's figures of the statements it
    /// changes at the clock's best for it (``SelectionTrace/ClockFigures``).
    struct FinalFigures: Equatable {
        var beforeSeconds = 0.0
        var afterSeconds = 0.0
        var clock = SelectionTrace.ClockFigures()

        init<S: Sequence>(_ timings: S) where S.Element == FinalTiming {
            for timing in timings {
                beforeSeconds += timing.weight * timing.before.medianSeconds
                afterSeconds += timing.weight * timing.after.medianSeconds
                if timing.after != timing.before { clock.add(before: timing.before, after: timing.after, weight: timing.weight, isWrite: timing.isWrite) }
            }
        }

        /// True when the advice loses by these figures under `policy`: the headline would call it slower
        /// (``Figures/callsSlower(_:_:)``), or, decided on the counters, even the clock's best case for it loses
        /// (``SelectionPolicy/clockOverrules(_:)``).
        func loses(under policy: SelectionPolicy) -> Bool {
            Figures.callsSlower(beforeSeconds, afterSeconds) || policy.clockOverrules(clock)
        }
    }

    /// What the final figures decide (``judgeFinalState(_:policy:timeAgain:)``).
    enum FinalStateVerdict {
        /// They do not lose: the advice stands on them.
        case stands
        /// They lost, and timed again they do not: the advice stands on these timings (before, after), which the
        /// report prints.
        case standsTimedAgain([Int: (before: Timing, after: Timing)])
        /// They lose, timed again too: every pick is given up; the workload's seconds as they last measured.
        case givesUp(beforeSeconds: Double, afterSeconds: Double)
    }

    /// The verdict on the final state `timings` (by profile position) under `policy`: when its figures lose
    /// (``FinalFigures/loses(under:)``), each statement the advice changes (its timing after differs from its
    /// timing before) is timed again by `timeAgain`, both sides back to back, and judged on those figures (nil:
    /// no time to; a nil timing: that statement's first timings stand).
    static func judgeFinalState(_ timings: [Int: FinalTiming], policy: SelectionPolicy,
                                timeAgain: ((Int) throws -> (before: Timing, after: Timing)?)?) throws -> FinalStateVerdict {
        let first = FinalFigures(timings.values)
        guard first.loses(under: policy) else { return .stands }
        guard let timeAgain else { return .givesUp(beforeSeconds: first.beforeSeconds, afterSeconds: first.afterSeconds) }
        var again = timings
        var timed: [Int: (before: Timing, after: Timing)] = [:]
        for position in timings.keys.sorted() where timings[position]!.after != timings[position]!.before {
            guard let timing = try timeAgain(position) else { continue }
            timed[position] = timing
            again[position]?.before = timing.before
            again[position]?.after = timing.after
        }
        let second = FinalFigures(again.values)
        return second.loses(under: policy) ? .givesUp(beforeSeconds: second.beforeSeconds, afterSeconds: second.afterSeconds) : .standsTimedAgain(timed)
    }

    /// After the final timings (``timeFinalState(planner:droppedTables:)``): when the advice's figures lose, each
    /// statement it changes is timed again, with the advice and as the store is, back to back (the picks hidden
    /// and the store's indexes the selection took out shown, then the other way round), and judged on those
    /// figures, which the report then prints; when they still lose, every pick is given up
    /// (``judgeFinalState(_:policy:timeAgain:)``, ``giveUpEveryPick(planner:beforeSeconds:afterSeconds:)``).
    /// Past the time budget the figures at hand decide.
    /// - Throws: ``StoreError`` when the snapshot's indexes cannot be hidden or shown again, or a timing fails
    ///   on a full or failing folder.
    mutating func keepFinalStateNoSlower(planner: QueryPlanner) throws {
        guard !picks.isEmpty else { return }
        var timings: [Int: FinalTiming] = [:]
        for (position, profile) in profiles.enumerated() where profile.isUsable {
            guard let before = profile.timingBefore else { continue }
            timings[position] = FinalTiming(weight: profile.weight, isWrite: profile.isWrite, before: before, after: profile.timingAfter ?? before)
        }
        let final = snapshot.heldDrops, store = picks.map(\.name)
        let (snapshot, profiles, count) = (self.snapshot, self.profiles, self.profiles.count)
        let run = self
        let timeAgain: (Int) throws -> (before: Timing, after: Timing)? = { position in
            run.report("final timings again", position, count)
            try snapshot.holdDrops(final)
            let after = try run.timeAgain(profiles[position])
            try snapshot.holdDrops(store)
            defer { try? snapshot.holdDrops(final) }
            let before = try run.timeAgain(profiles[position])
            guard let before, let after else { return nil }
            return (before, after)
        }
        let verdict = try Self.judgeFinalState(timings, policy: SelectionPolicy(options: options), timeAgain: isOverBudget ? nil : timeAgain)
        try snapshot.holdDrops(final)
        switch verdict {
        case .stands:
            return
        case .standsTimedAgain(let timed):
            for (position, timing) in timed {
                profiles[position].timingBefore = timing.before
                profiles[position].timingAfter = timing.after
                profiles[position].current = timing.after
            }
        case .givesUp(let before, let after):
            try giveUpEveryPick(planner: planner, beforeSeconds: before, afterSeconds: after)
        }
    }

    /// Gives up every pick: the snapshot is the store as it is again (the picks hidden for good, as candidates left
    /// out are, and the store's indexes the selection took out shown), each statement's final plan and time are
    /// its own as the store is, and each pick is rejected with the clock's reason and the workload's figures
    /// (`beforeSeconds` → `afterSeconds`, ``RejectionReason/setSlowerByTheClock(beforeSeconds:afterSeconds:byCounters:)``), which the
    /// ``AnalysisWarning/decidedByTheClock(choices:load:cores:)`` warning lists when the counters decide. The
    /// alternatives, measured on top of the picks, go with them.
    private mutating func giveUpEveryPick(planner: QueryPlanner, beforeSeconds: Double, afterSeconds: Double) throws {
        let names = picks.map(\.name)
        try snapshot.holdDrops(names)
        snapshot.abandonHidden(names)
        let reason = RejectionReason.setSlowerByTheClock(beforeSeconds: beforeSeconds, afterSeconds: afterSeconds,
                                                        byCounters: decidesOnCounters)
        rejected += picks.map { rejection($0.measured.candidate, score: $0.score, reason: reason) }
        picks = []
        alternatives = []
        alternativeCandidates = []
        removedStoreIndexes = []
        for profile in profiles where profile.isUsable {
            profile.planAfter = (try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)) ?? profile.planBefore
            profile.timingAfter = profile.timingBefore
            profile.current = profile.timingBefore
            profile.currentPlan = profile.planAfter
        }
    }
}
