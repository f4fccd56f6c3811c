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
    /// True when part of the upkeep is estimated (each index's upkeep measured alone, added up) rather than
    /// measured with the move in place.
    package var estimated = false

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

    /// The last verdict on a move that builds `candidate`, and its price (nil when no such move was priced).
    package func lastVerdict(building candidate: IndexCandidate) -> (MovePrice, MoveVerdict)? {
        for round in rounds.reversed() {
            if let found = round.priced.last(where: { $0.0.move.builds.contains { $0.key == candidate.key } }) { return found }
        }
        return nil
    }

    /// The move that took out `member`, if one did.
    package func removal(of member: Member) -> MovePrice? {
        rounds.compactMap(\.taken).last { $0.move.takesOut == member }
    }
}
