import Foundation

/// How the analysis sees a timing when it decides, and the threshold a schema change must clear.
extension AnalysisRun {
    /// True when the selection decides on SQLite's counters while the figures are wall-clock.
    var decidesOnCounters: Bool { options.decideOnCounters && options.costSource == .wallClock }

    /// The timer that screens candidates (issue 18). When the choice is made on SQLite's counters, which one
    /// pass gives exactly, a candidate is timed on one pass, without a warm-up, instead of up to
    /// ``AnalysisOptions/repeats`` runs: the repeats only narrow a wall-clock figure the decision does not read.
    /// A pick is timed again in full with the picks in place (``reprofile(table:index:)``), so every figure
    /// of the advice is a full median; only the rejected candidates' figures are one pass's.
    var screeningTimer: StatementTimer {
        guard decidesOnCounters else { return timer }
        var screening = timer
        screening.repeats = 0
        return screening
    }

    /// A timing as the selection sees it: priced by SQLite's counters when ``AnalysisOptions/decideOnCounters``.
    func decision(_ timing: Timing) -> Timing {
        options.decideOnCounters ? timing.decisionView : timing
    }

    /// Which writes' added wall-clock time a reported score counts: with decisions on the counters, only
    /// the writes the counters show doing measurably more work with the index; else all.
    var countsWrite: ((TimingChange) -> Bool)? {
        guard options.decideOnCounters, options.costSource == .wallClock else { return nil }
        return { [self] change in decision(change.after).isSlower(than: decision(change.before)) }
    }

    /// ``minimumBenefit`` in the selection's terms (``decision(_:)``).
    var decisionMinimumBenefit: Double { minimumBenefit(seenThrough: decision) }

    /// The smallest frequency-weighted saving, in seconds, worth recommending an index (a schema change) for:
    /// `minimumBenefitShare` of the workload's measured time with the indexes chosen so far, and at least 1 ms.
    var minimumBenefit: Double { minimumBenefit(seenThrough: { $0 }) }
    /// ``minimumBenefit`` with each statement's timing seen through `view`.
    func minimumBenefit(seenThrough view: (Timing) -> Timing) -> Double {
        let total = profiles.filter(\.isUsable).reduce(0) { $0 + $1.weight * (($1.current ?? $1.timingBefore).map(view)?.medianSeconds ?? 0) }
        return max(AnalysisOptions.minimumBenefitFloorSeconds, total * options.minimumBenefitShare)
    }

    /// "S3" for the statement with fingerprint `id` (its position in the report).
    func label(of id: String) -> String {
        profiles.firstIndex { $0.statement.fingerprint.id == id }.map { "S\($0 + 1)" } ?? id
    }

    func rejection(_ candidate: IndexCandidate, score: CandidateScore?, reason: RejectionReason) -> RejectedCandidate {
        var rejected = RejectedCandidate(sql: candidate.createSQL(name: indexName(for: candidate, taken: [])), table: candidate.table,
                          columns: candidate.columns.map { $0.displayName + ($0.isDescending ? " DESC" : "") + ($0.collation.uppercased() == "BINARY" ? "" : " COLLATE " + $0.collation) },
                          partialPredicate: candidate.partialPredicate, readSecondsSaved: score?.readSecondsSaved ?? 0,
                          writeSecondsAdded: score?.writeSecondsAdded ?? 0,
                          readSecondsSavedBound: score?.readBound.stored, writeSecondsAddedBound: score?.writeBound.stored, rejection: reason)
        rejected.speedups = (score?.effects ?? []).filter { $0.isSignificant && $0.planAfter != nil && $0.after.medianSeconds < $0.before.medianSeconds }
        // On an entity table, its key as the model's names too, as the rest of the report names the entity's indexes.
        if let entity = schema.coreData?.rootEntity(ofTable: candidate.table)?.name {
            let (columns, _) = recommendedColumns(candidate, naming: SwiftDataNaming(schema: schema))
            let properties = zip(columns, candidate.columns).compactMap { column, key in
                column.keyPath.map { String($0.dropFirst(2)) + (key.isDescending ? " DESC" : "") + (key.collation.uppercased() == "BINARY" ? "" : " COLLATE " + key.collation) }
            }
            if properties.count == candidate.columns.count {
                rejected.entity = entity
                rejected.properties = properties
            }
        }
        return rejected
    }
}
