/// One sentence a report would print that its own measurements contradict, or that it prints without
/// the fact that would make it true. ``ReportChecker`` finds them.
public struct ReportFinding: Sendable, Equatable, CustomStringConvertible {
    /// What kind of sentence is false.
    public enum Kind: KebabCaseKind {
        /// A recommendation's section shows a plan "with it" that does not use it, or its statement's final
        /// plan uses another index, with no note saying which later pick took the statement over.
        case planWithoutIndex
        /// A statement an index claims to serve uses another index (or none) in the final plans, and the
        /// claim is not qualified.
        case claimNotInFinalPlan
        /// A time printed beside a plan that cannot take that long: a full scan of a large table faster
        /// than reading its rows allows, or the same plan timed 20× apart in two places.
        case timingAgainstPlan
        /// Two identical plans presented as a before and an after, or as a change with statistics.
        case identicalPlansAsChange
        /// A figure printed as `0 s` (a table cell), which reads as measured when it was not.
        case unmeasuredAsZero
        /// An `#Index` whose columns a `#Unique` rule or an existing index already leads with.
        case duplicateIndex
        /// A threshold the text names ("worth a schema change") that the method section does not explain.
        case unexplainedThreshold
        /// "within the noise" for two timings whose runs are apart, or whose medians are 2× or more apart.
        case noiseAgainstRuns
        /// A sentence about an index that does not exist ("LIKE against a BINARY index" with no index).
        case missingIndex
        /// Query-side advice that names no statement of the report (its heading would print no label).
        case adviceWithoutStatement
        /// A headline total, or a statement's weighted time, that is not what the statements' own times add
        /// up to (executions × median, summed over the analysed statements).
        case totalsAgainstStatements
        /// A statement's list of the recommended indexes it uses is not what its final plan uses (the statements
        /// table and "final plan uses …" sentences are printed from the list).
        case usesAgainstPlan
        /// A recommendation's figures come from plans that use an index that is neither the store's nor a
        /// recommendation above it (one dropped or replaced later): they are not what it saves with the ones
        /// above it built, as the report says.
        case measuredBesideOtherIndex
        /// A timing whose median, quartiles, extremes or run count are not what its own runs give (or, on
        /// SQLite's counters, not their price): figures no measurement makes.
        case runsAgainstSummary
        /// A recommendation whose own figures make a statement it serves measurably slower and lose more
        /// than they save, with no note that it was kept with another index for a join: "recommended"
        /// beside a loss.
        case recommendedAtALoss
        /// The headline's read or write change is not what the recommendations and drops are charged summed
        /// (with what no index explains), a charge is not its statements' final changes split as the rule
        /// says, or a summary line prints other figures than its charge (``FinalCharges``).
        case chargesAgainstHeadline
        /// A figure measured with only part of the advice in place (an index's own table, from when it was
        /// chosen) printed without saying so, where the summary's figures are with the whole set.
        case partialSetUnlabelled
        /// On a Core Data / SwiftData store, formats that disagree on whether the model can declare an index
        /// (one calls it SQL only, another tells to declare it), or a key path for a column Core Data keeps for
        /// itself (`\.z_ent`), or key paths marked guessed that the model gives.
        case declarationAgainstFormats
        /// A headline that calls the advice slower than the store as it is ("1.7× slower") above indexes it
        /// recommends: the run's own measurement says the set does not pay (issue 38; issue 39, F3).
        case slowerHeadlineRecommended
        /// A figure of SQLite's counters printed beside a charge whose words ("adds", "saves") give it the other
        /// sign than the counters' own (issue 39, F3: "adds 570.5 ms of writes (…; SQLite's counters: 533.2 ms)"
        /// beside a headline giving them as −533.2 ms).
        case countersAgainstCharge
    }

    /// What kind of sentence is false.
    public var kind: Kind
    /// One line: where, what the report says, and what its data say instead.
    public var message: String

    /// A finding of `kind`, with its one-line `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `kind: message`, as `render --check` prints it.
    public var description: String { "\(kind.rawValue): \(message)" }
}
