/// What a move was found to be worth: the statements whose plan it changes (measured before and after),
/// and the writes whose plan it leaves but whose upkeep it changes.
package struct MovePrice: Sendable {
    package var move: Move
    package var target: IndexConfiguration
    /// Statements measured before and after the move: those whose plan it changes, and, once it is
    /// confirmed (measured in place), the writes whose upkeep it changes.
    package var changed: [Int: (before: MeasuredCost, after: MeasuredCost)] = [:]
    /// Writes whose plan it leaves: the upkeep it adds to each per execution, in seconds (negative: saves).
    package var upkeep: [Int: Double] = [:]
    /// Frequency-weighted seconds the changed statements save (negative: lose), as the policy decides.
    package var planSaving = 0.0
    /// Frequency-weighted seconds of upkeep added (negative: saved).
    package var upkeepAdded = 0.0
    /// Statements measurably faster, and slower, after the move.
    package var faster: [Int] = []
    package var slower: [Int] = []
    /// Statements the counters call measurably cheaper after the move and the wall clock slower beyond its
    /// noise (``SelectionPolicy/clockVetoes(before:after:)``), and the frequency-weighted seconds the counters
    /// would have saved on them beyond what the clock let count: the clock's veto, which a verdict names.
    package var slowerByTheClock: [Int] = []
    package var vetoedSaving = 0.0
    /// True when part of the upkeep is estimated (each index's upkeep measured alone, added up) rather than
    /// measured with the move in place.
    package var estimated = false
    /// Frequency-weighted seconds gained (statements faster, upkeep saved) and lost (statements slower,
    /// upkeep added), each ≥ 0; and how many times faster its best statement got.
    package var gain = 0.0
    package var loss = 0.0
    package var speedup = 1.0

    package var net: Double { planSaving - upkeepAdded }
}

/// Why a priced move was not taken, or was undone.
package enum MoveVerdict: Sendable, Equatable {
    case taken
    /// Its plans did not change: the planner does not use what it builds.
    case unused
    /// It saves less than the minimum net of writes.
    case belowMinimum(net: Double, minimum: Double)
    /// Its writes' upkeep costs more than it saves.
    case costOutweighsSaving(net: Double)
    /// It makes these statements measurably slower and does not save the minimum.
    case slower([Int])
    /// It would pass a limit of the policy (new indexes, per table, bytes).
    case limit(String)
    /// Measured with it in place, it saved less than priced (or nothing).
    case notConfirmed(net: Double, minimum: Double)
    /// Decided on the counters, its saving is inside their resolution (``SelectionPolicy/countersResolution``).
    case insideResolution(gain: Double, loss: Double, minimum: Double)
    /// Decided on the counters, it costs more than it saves by the wall clock even at the clock's best for it
    /// (``SelectionTrace/ClockFigures``), in frequency-weighted seconds per workload.
    case costsMoreByTheClock(readsSavedAtMost: Double, writesAddedAtLeast: Double)
    /// Decided on the counters, which call these statements measurably cheaper with it, the wall clock times
    /// them slower beyond its noise, and without that veto the move would have saved the minimum: the clock's
    /// verdict, not the counters' (issue 39, F6).
    case slowerByTheClock([Int])
    /// Another move was taken in its round.
    case outranked
}

/// Each round of the selection: the moves priced, the one taken and why the others were not. Every "why
/// not chosen" in a report is read from it.
package struct SelectionTrace: Sendable {
    package struct Round: Sendable {
        package var state: IndexConfiguration
        package var minimum: Double
        package var priced: [(MovePrice, MoveVerdict)] = []
        package var taken: MovePrice?
    }

    package var rounds: [Round] = []
    /// True when the chosen set measured slower than the store as it is and the selection gave it up.
    package var gaveUpSlowerSet = false
    /// What the wall clock says of a change beyond the runs' spread (each side's quartiles), in
    /// frequency-weighted seconds per workload: the most its reads save and the least its writes add.
    package struct ClockFigures: Sendable, Equatable {
        package var readsSavedAtMost = 0.0
        package var writesAddedAtLeast = 0.0

        /// True when even the reads' best case does not pay for the writes' least upkeep.
        package var isLoss: Bool { readsSavedAtMost < writesAddedAtLeast }

        package init() {}

        /// From each statement's timing before and after the change.
        package init(_ timings: [Int: (Timing, Timing)], statements: [CostStatement]) {
            for (s, (before, after)) in timings {
                add(before: before, after: after, weight: statements[s].weight, isWrite: statements[s].isWrite)
            }
        }

        /// Counts one statement's change (`weight`: its executions per workload): a write's least added
        /// upkeep, a read's most saved time, in seconds.
        package mutating func add(before: Timing, after: Timing, weight: Double, isWrite: Bool) {
            if isWrite {
                writesAddedAtLeast += weight * (after.p25Seconds - before.p75Seconds)
            } else {
                readsSavedAtMost += weight * (before.p75Seconds - after.p25Seconds)
            }
        }
    }


    /// The sets the search took as one move (a join's lookups, an OR's branches), in the order taken.
    package var takenSets: [[IndexCandidate]] {
        rounds.compactMap { round in
            guard case .addSet(let members)? = round.taken?.move else { return nil }
            return members
        }
    }

    /// The last verdict on a move that adds `candidate` (alone or in a set), else on any move that builds it
    /// (a replacement), with its price; nil when no such move was priced.
    package func lastVerdict(building candidate: IndexCandidate) -> (MovePrice, MoveVerdict)? {
        func builds(_ move: Move) -> Bool { move.builds.contains { $0.key == candidate.key } }
        func adds(_ move: Move) -> Bool {
            switch move {
            case .add, .addSet: return builds(move)
            default: return false
            }
        }
        for round in rounds.reversed() {
            if let found = round.priced.last(where: { adds($0.0.move) }) { return found }
        }
        for round in rounds.reversed() {
            if let found = round.priced.last(where: { builds($0.0.move) }) { return found }
        }
        return nil
    }

    /// The move that took out `member`, if one did.
    package func removal(of member: Member) -> MovePrice? {
        rounds.compactMap(\.taken).last { $0.move.takesOut == member }
    }
}

extension SelectionTrace {
    /// Each round as lines: the state, the minimum, every move priced with its net saving (seconds) and
    /// verdict, and the one taken.
    package var lines: [String] {
        var out: [String] = []
        for (number, round) in rounds.enumerated() {
            out.append("round \(number + 1): from \(round.state), minimum \(round.minimum) s")
            for (price, verdict) in round.priced {
                out.append("  \(price.move): net \(price.net) s (plans \(price.planSaving), upkeep \(price.upkeepAdded)\(price.estimated ? ", estimated" : "")) faster \(price.faster) slower \(price.slower): \(verdict)")
            }
            if let taken = round.taken { out.append("  taken: \(taken.move), net \(taken.net) s") }
        }
        if gaveUpSlowerSet { out.append("the set measured slower than the start: given up") }
        return out
    }
}
