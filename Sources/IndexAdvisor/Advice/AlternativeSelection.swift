/// Chooses, on a Core Data or SwiftData store, the index forms no model can declare that are worth showing
/// beside the recommended set: partial, expression, covering or descending indexes (issue 15).
///
/// The candidates were measured like every other one, and re-measured whenever a pick changed the
/// statements they serve, so their figures are gains *with the recommended set in place*. A form is shown
/// when it saves measurably (`CandidateScore.hasSignificantGain`) and at least `minimumBenefit` seconds per
/// workload net of its write cost. Of the forms that serve the same statements, the one that saves most is
/// shown, or, within 10 % of it, the one ``TieBreak`` prefers; then the next statements' forms, greedily,
/// each statement served by at most one shown form.
enum AlternativeSelection {
    struct Choice {
        var measured: MeasuredCandidate
        var score: CandidateScore
    }

    /// At most `limit` alternatives, best first.
    static func choose(from candidates: [MeasuredCandidate], profiles: [StatementProfile], minimumBenefit: Double,
                       limit: Int = 5) -> [Choice] {
        var pool = candidates.map { Choice(measured: $0, score: CandidateScore($0, profiles: profiles)) }
            .filter { $0.score.hasSignificantGain && !$0.score.hasSignificantLoss && $0.score.netSeconds >= minimumBenefit }
        var chosen: [Choice] = []
        while chosen.count < limit, let leader = pool.max(by: { ($0.score.netSeconds, $1.measured.candidate.key) < ($1.score.netSeconds, $0.measured.candidate.key) }) {
            let near = pool.filter { $0.score.netSeconds >= leader.score.netSeconds * 0.9 && Set($0.measured.users) == Set(leader.measured.users) }
            let best = near.min { TieBreak.prefers($0.measured, $1.measured) { profiles[$0].weight } } ?? leader
            chosen.append(best)
            let served = Set(best.measured.users)
            pool.removeAll { !served.isDisjoint(with: $0.measured.users) }
        }
        return chosen
    }
}
