/// Chooses, on a Core Data or SwiftData store, the index forms no model can declare that are worth showing
/// beside the recommended set: partial, expression, covering or descending indexes (issue 15).
///
/// The candidates were measured like every other one, and re-measured whenever a pick changed the
/// statements they serve, so their figures are gains *with the recommended set in place*. A form is shown
/// when it saves measurably (`CandidateScore.hasSignificantGain`), makes no read measurably slower, and saves
/// at least `minimumBenefit` seconds per workload net of its write cost. Of the forms that serve the same statements, the one that saves most is
/// shown, or, within 10 % of it, the one ``TieBreak`` prefers; then the next statements' forms, greedily,
/// each statement served by at most one shown form.
enum AlternativeSelection {
    struct Choice {
        var measured: MeasuredCandidate
        var score: CandidateScore
    }

    /// At most `limit` alternatives, best first.
    /// - Parameter view: how the choice sees a timing (``Timing/decisionView`` to decide on SQLite's
    ///   counters); the returned scores are the timings as measured, for the report.
    static func choose(from candidates: [MeasuredCandidate], profiles: [StatementProfile], minimumBenefit: Double,
                       view: (Timing) -> Timing = { $0 }, countsWrite: ((TimingChange) -> Bool)? = nil, limit: Int = 5) -> [Choice] {
        var pool = candidates.map { (measured: $0, decided: CandidateScore($0, profiles: profiles, view: view)) }
            .filter { $0.decided.hasSignificantGain && !slowsARead($0.decided, profiles: profiles) && $0.decided.netSeconds >= minimumBenefit }
        var chosen: [Choice] = []
        while chosen.count < limit, let leader = pool.max(by: { ($0.decided.netSeconds, $1.measured.candidate.key) < ($1.decided.netSeconds, $0.measured.candidate.key) }) {
            let near = pool.filter { $0.decided.netSeconds >= leader.decided.netSeconds * 0.9 && Set($0.measured.users) == Set(leader.measured.users) }
            let best = near.min { TieBreak.prefers($0.measured, $1.measured) { profiles[$0].weight } } ?? leader
            chosen.append(Choice(measured: best.measured, score: CandidateScore(best.measured, profiles: profiles, countsWrite: countsWrite)))
            let served = Set(best.measured.users)
            pool.removeAll { !served.isDisjoint(with: $0.measured.users) }
        }
        return chosen
    }

    /// True when `score` has a read measurably slower. A write is always slower with one more index to
    /// maintain, and that cost is in the net saving already: excluding a form for it too left out every
    /// form whose table is written (a held-out Core Data store's descending fetch index, 48× faster on its
    /// list fetch, was not shown because its flag updates were 3.1× slower).
    static func slowsARead(_ score: CandidateScore, profiles: [StatementProfile]) -> Bool {
        let reads = Set(profiles.filter(\.isRead).map(\.statement.fingerprint.id))
        return score.effects.contains { $0.isSignificant && $0.after.medianSeconds > $0.before.medianSeconds && reads.contains($0.statementID) }
    }
}
