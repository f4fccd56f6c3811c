/// What a measured candidate is worth against the timings under the indexes chosen so far.
struct CandidateScore {
    /// Frequency-weighted change in the time of the statements that use the candidate, in seconds:
    /// positive when they got measurably faster, negative when some got measurably slower.
    var readSecondsSaved: Double = 0
    /// Frequency-weighted time added to writes on the table that do not use the candidate, in seconds.
    /// Counted even when inside the noise: every write pays to maintain every index.
    var writeSecondsAdded: Double = 0
    var effects: [StatementEffect] = []

    var netSeconds: Double { readSecondsSaved - writeSecondsAdded }
    var hasSignificantGain: Bool { effects.contains { $0.isSignificant && $0.after.medianSeconds < $0.before.medianSeconds } }
    var hasSignificantLoss: Bool { effects.contains { $0.isSignificant && $0.after.medianSeconds > $0.before.medianSeconds } }

    /// Scores `measured` against each profile's `current` timing.
    init(_ measured: MeasuredCandidate, profiles: [StatementProfile]) {
        let users = Set(measured.users)
        for position in Set(measured.users + measured.writes).sorted() {
            let profile = profiles[position]
            guard let current = measured.writesBefore[position] ?? profile.current, let after = measured.after[position] else { continue }
            let faster = current.isSlower(than: after)
            let slower = after.isSlower(than: current)
            effects.append(StatementEffect(statementID: profile.statement.fingerprint.id, count: profile.statement.count,
                                           before: current, after: after, isSignificant: faster || slower))
            let delta = (current.medianSeconds - after.medianSeconds) * profile.weight
            if users.contains(position) {
                if faster || slower { readSecondsSaved += delta }
            } else if profile.isWrite, delta < 0 {
                writeSecondsAdded -= delta
            }
        }
    }
}

/// Greedy selection by net benefit, re-measured after each pick (https://sqlite.org/queryplanner.html
/// explains why one index changes what the next is worth): pick the candidate that saves the most
/// frequency-weighted time net of write cost, build it for real, update the statements it changed,
/// re-measure the candidates that touch the same statements or table against the new state, repeat
/// until nothing measurably helps or a budget is reached.
struct IndexSelection {
    struct Pick {
        var measured: MeasuredCandidate
        var score: CandidateScore
        var name: String
    }

    var picks: [Pick] = []
    var rejected: [(MeasuredCandidate, CandidateScore?, String)] = []
}
