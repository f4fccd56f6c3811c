/// The rules one round of the greedy selection applies to the measured candidates (issue 15: picks must not
/// follow the noise; issue 22: each rule a method with a test). A candidate comes with its score against the
/// statements' current timings, every timing seen as the selection decides (``AnalysisOptions/decideOnCounters``).
struct SelectionRound {
    typealias Scored = (MeasuredCandidate, CandidateScore)

    /// Each statement's weight (executions in the workload), by profile position.
    let weights: [Double]
    /// Each statement's current timing as the selection sees it, by profile position: a write's time before a
    /// candidate when the candidate kept none of its own (``MeasuredCandidate/writesBefore``).
    let currentWrites: [Timing?]
    /// The smallest net saving worth a schema change, in seconds per workload (``AnalysisRun/minimumBenefit``).
    let minimumBenefit: Double
    /// Two candidates are equal when each is within this share of the other's saving (give or take spreads).
    static let equalShare = 0.9
    /// A statement is measurably slower with one candidate than another when its runs are apart and its
    /// median is more than this factor higher.
    static let slowerFactor = 1.1

    /// The frequency-weighted interquartile width of a candidate's reader timings, in seconds: how far its
    /// net benefit can move from one run to the next, so that a difference inside it is not a difference.
    func spread(_ candidate: Scored) -> Double {
        candidate.0.users.reduce(0) { sum, position in
            sum + (candidate.0.after[position].map { $0.p75Seconds - $0.p25Seconds } ?? 0) * weights[position]
        }
    }

    /// True when `other` measurably saves time, at least ``minimumBenefit``, at least `share` of what `top`
    /// saves (give or take both spreads), and serves every statement `top` serves.
    func isNear(_ other: Scored, to top: Scored, share: Double) -> Bool {
        other.1.hasSignificantGain && other.1.netSeconds >= minimumBenefit
            && other.1.netSeconds >= top.1.netSeconds * share - spread(top) - spread(other)
            && Set(other.0.users).isSuperset(of: top.0.users)
    }

    /// True when `other` is near `top` (``equalShare``) and no statement `top` serves is measurably slower
    /// with it (runs apart and more than ``slowerFactor``): equal as far as timing can tell.
    func isEqual(_ other: Scored, to top: Scored) -> Bool {
        isNear(other, to: top, share: Self.equalShare)
            && top.0.users.allSatisfy { position in
                guard let mine = other.0.after[position], let theirs = top.0.after[position] else { return false }
                return !isMeasurablySlower(mine, than: theirs)
            }
    }

    /// The fixed order of ``TieBreak`` between two candidates.
    func preferred(_ a: Scored, _ b: Scored) -> Bool {
        TieBreak.prefers(a.0, b.0, weights: { weights[$0] }, current: { currentWrites[$0] })
    }

    /// The frequency-weighted interquartile widths of a candidate's write timings, with and without it, in seconds.
    func writeSpread(_ candidate: MeasuredCandidate) -> Double {
        candidate.writes.reduce(0) { sum, position in
            let after = candidate.after[position].map { $0.p75Seconds - $0.p25Seconds } ?? 0
            let before = (candidate.writesBefore[position] ?? currentWrites[position]).map { $0.p75Seconds - $0.p25Seconds } ?? 0
            return sum + (after + before) * weights[position]
        }
    }

    /// True when `other` serves `top`'s statements, is measurably faster on them (more than ``slowerFactor``,
    /// runs apart) by at least ``minimumBenefit`` in all, slower on none, and its extra write time is not real
    /// (inside the writes' spreads): it replaces `top`. Between two indexes of one table the write figures are
    /// the noisy part (microseconds per insert), so a covering index that reads 4× faster must not lose to a
    /// narrower one on a write difference inside the noise; and two orders of the same equality columns differ
    /// by noise on microsecond lookups, which is why the gain must reach what a new index must save.
    func dominates(_ other: Scored, _ top: Scored) -> Bool {
        guard other.0.candidate.key != top.0.candidate.key, other.1.hasSignificantGain,
              Set(other.0.users).isSuperset(of: top.0.users) else { return false }
        var readGain = 0.0
        for position in top.0.users {
            guard let mine = other.0.after[position], let theirs = top.0.after[position] else { return false }
            if isMeasurablySlower(mine, than: theirs) { return false }
            if isMeasurablySlower(theirs, than: mine) {
                readGain += (theirs.medianSeconds - mine.medianSeconds) * weights[position]
            }
        }
        let writeExtra = other.1.writeSecondsAdded - top.1.writeSecondsAdded
        return readGain >= minimumBenefit && readGain > writeExtra - writeSpread(other.0) - writeSpread(top.0)
    }

    /// Runs apart (``Timing/isSlower(than:)``) and the median more than ``slowerFactor`` higher.
    func isMeasurablySlower(_ a: Timing, than b: Timing) -> Bool {
        a.isSlower(than: b) && a.medianSeconds > b.medianSeconds * Self.slowerFactor
    }
}
