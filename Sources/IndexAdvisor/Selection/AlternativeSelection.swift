/// An index form no model can declare (partial, expression, covering or descending) that the second search
/// of the selector (``AnalysisRun/selectIndexes()``) added on top of the recommended set of a Core Data or
/// SwiftData store: shown beside the recommendations as an alternative, with its figures measured with the
/// recommended set in place.
enum AlternativeSelection {
    struct Choice {
        var measured: MeasuredCandidate
        var score: CandidateScore
    }
}
