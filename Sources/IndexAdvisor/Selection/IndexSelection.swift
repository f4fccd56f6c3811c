/// What a measured candidate is worth against the timings under the indexes chosen so far.
struct CandidateScore {
    /// Frequency-weighted change in the time of the statements that use the candidate, in seconds: positive
    /// when they got faster, negative when they got slower, each statement's change counted whether or not
    /// it is beyond the noise (their plan uses the index, so the change is the index's).
    var readSecondsSaved: Double = 0
    /// Frequency-weighted time added to writes on the table that do not use the candidate, in seconds.
    /// Counted even when inside the noise: every write pays to maintain every index.
    var writeSecondsAdded: Double = 0
    /// What is known of ``readSecondsSaved`` and ``writeSecondsAdded``: a statement stopped at the timeout on
    /// either side makes them bounds, or leaves them not known (``FigureBound``).
    var readBound: FigureBound = .exact
    var writeBound: FigureBound = .exact
    var effects: [StatementEffect] = []

    var netSeconds: Double { readSecondsSaved - writeSecondsAdded }
    var hasSignificantGain: Bool { effects.contains { $0.isSignificant && $0.after.medianSeconds < $0.before.medianSeconds } }
    var hasSignificantLoss: Bool { effects.contains { $0.isSignificant && $0.after.medianSeconds > $0.before.medianSeconds } }

    /// Scores `measured` against each profile's `current` timing, every timing seen through `view` (for
    /// example ``Timing/decisionView``).
    init(_ measured: MeasuredCandidate, profiles: [StatementProfile], view: (Timing) -> Timing = { $0 },
         countsWrite: ((TimingChange) -> Bool)? = nil) {
        let users = Set(measured.users)
        let changes = Set(measured.users + measured.writes).sorted().compactMap { position -> TimingChange? in
            guard let current = measured.writesBefore[position] ?? profiles[position].current,
                  let after = measured.after[position] else { return nil }
            return TimingChange(position: position, before: view(current), after: view(after), planBefore: nil, planAfter: nil,
                                isUser: users.contains(position))
        }
        self.init(changes: changes, profiles: profiles, countsWrite: countsWrite)
    }

    /// Scores timing changes: statements whose plan uses the index count as reads saved (or lost, when
    /// slower), beyond the noise or not; other writes to the table count as write time added. A write that
    /// does not use the index cannot get faster from it, so its "faster" is noise and not shown as significant.
    ///
    /// A user's change inside the noise still counts: the planner chose another plan for it because of the
    /// index, so what it costs or saves is the index's. Left out, a join that an index on `s(grp)` turned
    /// from a scan and a sort into a walk of the index with a lookup per row, 4.7 % slower on SQLite's counters
    /// (under the 5 % a difference needs), cost 178.6 ms at ×100 that the pick's "saves 143.2 ms" did not
    /// show, and the workload got slower with the advice (a breaking helper, checked with `.stats on`).
    ///
    /// `countsWrite`, when given, decides which writes' added time counts (for example only those SQLite's
    /// counters show doing more work: an UPDATE that changes none of the index's columns does not touch it,
    /// and its wall-clock difference is the machine's).
    init(changes: [TimingChange], profiles: [StatementProfile], countsWrite: ((TimingChange) -> Bool)? = nil) {
        for change in changes {
            let profile = profiles[change.position]
            let faster = change.before.isSlower(than: change.after)
            let slower = change.after.isSlower(than: change.before)
            // A write slower by the clock that `countsWrite` leaves out is not shown as significant either:
            // the report said "1.4× slower" beside an "adds" figure without it (a breaking helper).
            let counted = change.isUser || (countsWrite?(change) ?? true)
            let significant = change.isUser ? (faster || slower) : slower && counted
            effects.append(StatementEffect(statementID: profile.statement.fingerprint.id, count: profile.statement.count,
                                           before: change.before, after: change.after, isSignificant: significant,
                                           planBefore: change.isUser ? change.planBefore : nil,
                                           planAfter: change.isUser ? change.planAfter : nil))
            let delta = (change.before.medianSeconds - change.after.medianSeconds) * profile.weight
            let deltaBound = FigureBound.of(rising: FigureBound(change.before), falling: FigureBound(change.after))
            if change.isUser {
                readSecondsSaved += delta
                readBound = readBound.adding(deltaBound)
            } else if profile.isWrite, delta < 0, counted {
                writeSecondsAdded -= delta
                writeBound = writeBound.adding(deltaBound.negated)
            }
        }
    }
}

/// One statement's timing before and after a change of indexes.
struct TimingChange {
    var position: Int
    var before: Timing
    var after: Timing
    var planBefore: QueryPlan?
    /// The plan `after` was timed with (nil when not planned again).
    var planAfter: QueryPlan?
    /// True when the statement's plan changed (it uses the new index); false for writes whose plan did not.
    var isUser: Bool
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
        /// Set when the index was kept as part of a join's set and built before the index whose build
        /// changed the join's plan (``JoinSets``).
        var neededBy: JoinSets.Need? = nil
    }

    var picks: [Pick] = []
    var rejected: [(MeasuredCandidate, CandidateScore?, String)] = []
}
