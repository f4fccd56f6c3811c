/// The sentences that explain the thresholds a report's text names ("within the noise", "worth a schema
/// change"). The method section carries them, and ``ReportChecker`` requires that it does whenever the rest
/// of a report uses one of the phrases, so that no threshold is named without being explained.
public enum ReportThresholds {
    /// A phrase a report may use, and the words its method section must then contain.
    public struct Term: Sendable {
        /// What the report says, e.g. `worth a schema change`.
        public var phrase: String
        /// Words only the explaining sentence has.
        public var explainedBy: String
    }

    /// When a difference between two timings counts (``Timing/isSlower(than:)``).
    public static let noise = "A difference counts only when the runs' interquartile ranges are apart and the medians differ by at least 5 %; otherwise it is within the noise, or too spread to tell when the medians are 2× or more apart."

    /// Why a measured saving can be too small to recommend an index for.
    /// - Parameter share: ``AnalysisOptions/minimumBenefitShare`` (0…1).
    public static func schemaChange(share: Double) -> String {
        "An index is recommended only when its frequency-weighted saving, net of the write time it adds, is at least \(Figures.percent(share)) of the workload's measured time (with the indexes already chosen) and at least 1 ms: a smaller saving is not worth a schema change (a new model version and a migration)."
    }

    /// Every phrase the checker looks for.
    public static let terms: [Term] = [
        Term(phrase: "within the noise", explainedBy: "interquartile ranges are apart"),
        Term(phrase: "too spread to tell", explainedBy: "too spread to tell when the medians are 2× or more apart"),
        Term(phrase: "worth a schema change", explainedBy: "An index is recommended only when"),
    ]
}
