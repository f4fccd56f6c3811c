import Foundation
/// Values derived from an ``AnalysisResult`` that several formats print. They are defined once here so
/// that the Markdown, HTML, SQL and Swift renderers show the same figure for the same fact, and none of
/// them derives anything on its own. Times are in seconds, sizes in bytes.
/// Our own prose marks code with backticks (the advice texts): its parts in order, each flagged as code or
/// not, for each format to escape and mark up in its own way.
func backtickSpans(_ text: String) -> [(text: String, isCode: Bool)] {
    text.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part in
        (String(part), index % 2 == 1 && !part.isEmpty)
    }
}

extension WorkloadSummary {
    /// What the workload's observed times are made of, for the reports to print; nil when it reported none
    /// (or the report predates the field).
    var observedTimesText: String? {
        observedTimeMeans.flatMap { $0 == Workload.noObservedTimes ? nil : $0 }
    }
}

extension StoreSummary {
    /// Whether the store has `sqlite_stat1`, and what that means for the plans ("as on the device" only
    /// for a Core Data store, whose app runs on one).
    public var statisticsFact: String {
        if hasStatistics { return "has sqlite_stat1 (kept as is)" }
        return "no sqlite_stat1 (plans are chosen from the schema alone, " + (isCoreData ? "as on the device)" : "as in the app)")
    }
}

extension AnalysisResult {
    /// The label each statement has in every report, by statement id: `S1`, `S2`, … in workload order.
    public var statementLabels: [String: String] {
        Dictionary(statements.enumerated().map { ($1.id, "S\($0 + 1)") }, uniquingKeysWith: { first, _ in first })
    }

    /// What the statements table's Before and After columns are, and why an After time can differ a little
    /// from the With-it time an index's own table shows: they are two measurements, taken at different
    /// points of the analysis. Empty when nothing is recommended.
    public var statementsTimingNote: String {
        let sample = isSampled ? "Every time here was measured on the sample (\(sampleScope)) and is not scaled to the store. " : ""
        guard !recommendations.isEmpty else { return sample.trimmingCharacters(in: .whitespaces) }
        return sample + "Before: as the store is. After: every statement timed again with all the advice in place, in one final pass; "
            + "the tables of each index above were timed when that index was picked, so the two can differ within the runs' spread."
    }

    /// True when tables were measured on a sample of their rows: times are the sample's, index sizes and
    /// build times scaled to the store (see ``Recommendation/sampleScale``).
    public var isSampled: Bool { !store.sampledTables.isEmpty }

    /// The sampled tables, e.g. `ZNOTE: 1 row in 7`.
    public var sampleScope: String {
        store.sampledTables.map { "\($0.table): 1 row in \($0.step)" }.joined(separator: ", ")
    }

    /// Put after a time: ` on the sample (ZNOTE: 1 row in 7)`, or nothing when nothing was sampled.
    public var timeScope: String { isSampled ? " on the sample (\(sampleScope))" : "" }

    /// Where the build times and sizes of the recommendations apply, with the store's size: `on this store
    /// (2.7 MiB)`, or, when any was scaled from a sample, `on the whole store (2.7 GiB; scaled from the sample)`.
    public var buildScope: String {
        recommendations.contains { $0.sampleScale != nil }
            ? "on the whole store (\(ByteCountText.format(store.bytes)); scaled from the sample)"
            : "on this store (\(ByteCountText.format(store.bytes)))"
    }

    /// `about ` when the build times and sizes were scaled from a sample (estimates, not measurements).
    public var buildEstimate: String { recommendations.contains { $0.sampleScale != nil } ? "about " : "" }

    /// The label of the statement with `id` (`S3`), or the id itself when no statement has it.
    public func label(ofStatement id: String) -> String {
        statements.firstIndex { $0.id == id }.map { "S\($0 + 1)" } ?? id
    }

    /// The statement with fingerprint `id`, if the result has it.
    public func statement(withID id: String) -> StatementReport? {
        statements.first { $0.id == id }
    }

    /// The write-time saving of dropping `finding`'s index as a report prints it: a duration, or why there
    /// is none, never a 0 that was not measured: no write to its table in the workload, or writes the review
    /// did not time because it keeps the index whatever they cost (a UNIQUE or constraint index, Core Data's
    /// own; a breaking helper's UNIQUE index read "no write to its table" beside 200 inserts into it).
    public func writeSavingText(of finding: ExistingIndexFinding) -> String {
        if writesTimed(of: finding) {
            guard finding.writeSecondsSaved != 0 else { return Figures.measured(0) }
            let saving = BoundedFigure(finding.writeSecondsSaved, FigureBound.sum(dropSavingEffects(of: finding).map(\.weightedSaving.bound)))
            return Figures.measured(saving) + " (" + Self.spreadAndCounters(dropSavingRange(of: finding), counters: nil, signed: false, bound: saving.bound) + ")"
        }
        let written = statements.contains { statement in
            statement.kind.isWrite && statement.tables.contains { $0.sqlFolded == finding.table.sqlFolded }
        }
        return written ? "not measured (kept whatever its table's writes cost, so they were not timed without it)"
            : "not measured (no write to its table)"
    }

    /// The write time saved by dropping `finding`'s index with the timings of the writes it counts (those
    /// measurably faster without it) at the quartiles that make it least and most: its spread.
    func dropSavingRange(of finding: ExistingIndexFinding) -> ClosedRange<Double> {
        let counted = dropSavingEffects(of: finding)
        let low = counted.reduce(0) { $0 + Double($1.count) * max(0, $1.before.p25Seconds - $1.after.p75Seconds) }
        let high = counted.reduce(0) { $0 + Double($1.count) * ($1.before.p75Seconds - $1.after.p25Seconds) }
        return min(low, high, finding.writeSecondsSaved)...max(low, high, finding.writeSecondsSaved)
    }

    /// The writes whose time the drop of `finding`'s index saves (``ExistingIndexFinding/writeSecondsSaved``):
    /// those measurably faster without it.
    func dropSavingEffects(of finding: ExistingIndexFinding) -> [StatementEffect] {
        finding.effects.filter { effect in
            statement(withID: effect.statementID)?.kind.isWrite == true && effect.isSignificant && effect.after.medianSeconds < effect.before.medianSeconds
        }
    }

    /// How the existing-index review measured an index's drop, for the table's footnote: with every
    /// recommendation built and no other drop made, so a figure of part of the advice.
    public var dropMeasurementNote: String {
        "Write time saved: frequency-weighted, measured by dropping the index on the snapshot for real and building it again, between two timings as it is (pooled), with every recommended index built and no other drop made (the summary's charge is with all of them made), the spread beside it from the runs' quartiles; differences inside the noise count as 0."
    }

    /// True when a write to `finding`'s table was timed without the index (its effects also hold reads).
    public func writesTimed(of finding: ExistingIndexFinding) -> Bool {
        finding.effects.contains { statement(withID: $0.statementID)?.kind.isWrite == true }
    }

    /// Existing indexes the review advises dropping (each has a `DROP INDEX IF EXISTS` statement).
    public var indexesToDrop: [ExistingIndexFinding] {
        existingIndexes.filter { $0.dropSQL != nil }
    }

    /// Seconds that building every recommended index took on this store: what a migration that adds
    /// them pays, once, on a store of this size.
    public var migrationBuildSeconds: Double {
        recommendations.reduce(0) { $0 + $1.buildSeconds }
    }

    /// Bytes the recommended indexes add to the store.
    public var migrationBytes: Int64 {
        recommendations.saturatingSum(\.bytes)
    }

    /// The share (0…1) of the workload's weighted time before the change that `statement` takes;
    /// 0 when the workload took no measurable time.
    public func shareOfWorkloadTime(_ statement: StatementReport) -> Double {
        totals.totalSecondsBefore > 0 ? statement.weightedSecondsBefore / totals.totalSecondsBefore : 0
    }

    /// The share as a report prints it: a percentage (``Figures/percent(_:)-(BoundedFigure)``: `≥ 28 %`, `not
    /// known` between lower bounds), or "not timed" for a statement that has no time before (it failed or was
    /// interrupted), whose 0 s is no share of anything.
    public func shareText(_ statement: StatementReport) -> String {
        statement.timingBefore == nil ? "not timed" : Figures.percent(boundedShare(statement))
    }

    /// True when the Swift names of recommendations come from the app's model source (`--model`) for
    /// every recommendation that has an entity.
    public var keyPathsComeFromModel: Bool {
        model != nil && !recommendations.contains { $0.entity != nil && $0.keyPathsAreGuessed }
    }
}

/// A statement an index was chosen for whose final plan uses another recommended index (or none): a later
/// pick took it over, so the figures measured when this index was chosen no longer describe its final plan.
public struct Takeover: Sendable, Equatable {
    /// The statement's fingerprint id.
    public var statementID: String
    /// The recommended indexes its final plan uses instead (empty when it uses none of them).
    public var indexes: [String]
}

extension AnalysisResult {
    /// The statements `recommendation` claims to speed up (measurably faster when it was chosen), and its
    /// main statement (whose plans its section shows, even when its change was inside the noise), whose final
    /// plan does not use it, each with the recommended indexes that plan uses instead.
    public func takeovers(of recommendation: Recommendation) -> [Takeover] {
        let claimed = recommendation.claimedStatementIDs
        let main = recommendation.mainEffect.map(\.statementID).flatMap { claimed.contains($0) ? nil : $0 }
        return (claimed + (main.map { [$0] } ?? [])).compactMap { id in
            guard let statement = statement(withID: id), statement.error == nil,
                  !statement.usesRecommendations.contains(where: { $0.sqlFolded == recommendation.name.sqlFolded }) else { return nil }
            return Takeover(statementID: id, indexes: statement.usesRecommendations)
        }
    }

    /// "S10's final plan uses `b` (index 2) instead of this one, a pick that took it over: …", the note a
    /// recommendation's section prints for a takeover; code marked with backticks for each format to render.
    public func takeoverSentence(_ takeover: Takeover) -> String {
        let label = label(ofStatement: takeover.statementID)
        guard !takeover.indexes.isEmpty else {
            return "\(label)'s final plan uses none of the recommended indexes: its figures here are from when this index was chosen."
        }
        let names = takeover.indexes.map { name in
            "`\(name)`" + (recommendations.first { $0.name.sqlFolded == name.sqlFolded }.map { " (index \($0.rank))" } ?? "")
        }
        return "\(label)'s final plan uses \(names.joined(separator: " and ")) instead of this one, a pick that took it over: its figures here are from when this index was chosen."
    }

    /// The `#Unique` rule proposed for the data whose unique index serves every lookup `recommendation` does
    /// (its key columns, ascending and binary, are a left prefix of the rule's columns): declaring both would
    /// give the store two indexes for one job. Nil when there is none.
    public func uniqueRule(covering recommendation: Recommendation) -> UniquenessFinding? {
        guard recommendation.partialPredicate == nil,
              recommendation.columns.allSatisfy({ !$0.isDescending && $0.collation.uppercased() == "BINARY" }) else { return nil }
        let columns = recommendation.columns.map { $0.name.sqlFolded }
        return uniqueness.first { finding in
            finding.isProposedForModel && finding.violatingRows == 0 && finding.table.sqlFolded == recommendation.table.sqlFolded
                && finding.columns.count >= columns.count && Array(finding.columns.map(\.sqlFolded).prefix(columns.count)) == columns
        }
    }

    /// The `#Index` line to declare for `recommendation`: its ``Recommendation/swiftDataIndex``, unless a
    /// proposed `#Unique` rule's index already serves it (``uniqueRule(covering:)``).
    public func indexDeclaration(for recommendation: Recommendation) -> String? {
        uniqueRule(covering: recommendation) == nil && !isCoreDataEntity(recommendation.entity) ? recommendation.swiftDataIndex : nil
    }

    /// What the summary lists `recommendation` as: its `#Index` line; on a Core Data / SwiftData store whose
    /// proposed `#Unique` rule serves it (``uniqueRule(covering:)``), that rule, which the SQL migration ships
    /// instead of it; otherwise `sql` (default: its `CREATE INDEX`).
    public func summaryDeclaration(for recommendation: Recommendation, sql: String? = nil) -> String {
        if let declared = indexDeclaration(for: recommendation) { return declared }
        if store.isCoreData, let rule = uniqueRule(covering: recommendation).flatMap(modelRuleText(for:)) { return rule }
        if isCoreDataEntity(recommendation.entity), let index = fetchIndexDeclaration(for: recommendation) {
            return "fetch index \(index.name) on \(index.entity)(\(index.elements.map { $0.property + ($0.isAscending ? "" : " DESC") }.joined(separator: ", ")))"
                + (index.partialIndexPredicate.map { " where \($0)" } ?? "")
        }
        return sql ?? recommendation.sql
    }

    /// The recommendations whose `#Index` lines the Swift code declares (``indexDeclaration(for:)``).
    public var declaredIndexRecommendations: [Recommendation] {
        recommendations.map { recommendation in
            var declared = recommendation
            declared.swiftDataIndex = indexDeclaration(for: recommendation)
            return declared
        }
    }
}

extension AnalysisResult {
    /// The summary's words for `recommendation`'s effect: its main statement's change (`S3 27.5 ms → 596.7 µs
    /// per execution (46× faster)`), then every read it makes measurably slower (`; makes S7 slower: 103.2 ms
    /// → 158.1 ms (1.5× slower)`), so that a regression is not left to the index's own table (a new user's
    /// workout store: an index on the start date made a search that ran ×10 1.5× slower, and only its table
    /// said so). Nil when the index has no effect.
    public func effectSummary(of recommendation: Recommendation) -> String? {
        guard let main = recommendation.mainEffect else { return nil }
        let takenOver = takeovers(of: recommendation).contains { $0.statementID == main.statementID }
        var text = "\(label(ofStatement: main.statementID)) \(Figures.duration(main.before.medianSeconds)) → \(Figures.duration(main.after.medianSeconds)) per execution (\(Figures.change(of: main))\(takenOver ? "; a later pick took it over" : ""))"
        let slowed = recommendation.effects.filter { effect in
            effect.statementID != main.statementID && effect.isSignificant && effect.after.medianSeconds > effect.before.medianSeconds
                && statement(withID: effect.statementID)?.kind.isRead == true
        }
        if !slowed.isEmpty {
            text += "; makes " + slowed.map { "\(label(ofStatement: $0.statementID)) slower: \(Figures.duration($0.before.medianSeconds)) → \(Figures.duration($0.after.medianSeconds)) (\(Figures.change(of: $0)))" }.joined(separator: ", ")
        }
        return text
    }
}

extension Recommendation {
    /// The statements this index was measured to speed up when it was chosen (significantly faster).
    public var claimedStatementIDs: [String] {
        effects.filter { $0.isSignificant && $0.after.medianSeconds < $0.before.medianSeconds }.map(\.statementID)
    }

    /// The plans the main statement's figures were timed with: without this index (the earlier picks built)
    /// and with it. Reports made before these plans were kept fall back to the statement's own plans, as
    /// the store has it and in the final state. Captions say which they are.
    public func mainPlans(in result: AnalysisResult) -> (before: QueryPlan?, beforeCaption: String, after: QueryPlan?, afterCaption: String)? {
        guard let main = mainEffect, let statement = result.statement(withID: main.statementID) else { return nil }
        guard let before = main.planBefore, let after = main.planAfter else {
            return (statement.planBefore, "Plan before (as the store is)", statement.planAfter, "Plan after (all the advice in place)")
        }
        let earlier = rank == 1 ? "" : (rank == 2 ? " (index 1 built)" : " (indexes 1–\(rank - 1) built)")
        return (before, "Plan without it" + earlier, after, "Plan with it")
    }
}

extension Recommendation {
    /// The effect with the largest frequency-weighted saving (`count × (before − after)`) among the
    /// statements whose plan with the index uses it: the statement this index is mainly for. A write whose
    /// plan does not use the index is never it, however its time moved (on a busy machine an INSERT's
    /// microseconds can fall by more than a lookup saves). Reports made before plans were kept per effect
    /// choose among all effects. Nil when it has no effect.
    public var mainEffect: StatementEffect? {
        let keptPlans = effects.contains { $0.planAfter != nil }
        return (keptPlans ? userEffects : effects).max { a, b in
            Double(a.count) * (a.before.medianSeconds - a.after.medianSeconds) < Double(b.count) * (b.before.medianSeconds - b.after.medianSeconds)
        }
    }

    /// The effects on statements whose plan with this index uses it (empty in reports made before plans
    /// were kept per effect).
    public var userEffects: [StatementEffect] {
        effects.filter { effect in effect.planAfter?.indexesUsed.contains { $0.sqlFolded == name.sqlFolded } ?? false }
    }

    /// The key columns as SQL shows them: `ZFOLDERID, ZUPDATEDAT DESC`, with ` WHERE …` for a partial index.
    public var columnList: String {
        columns.map { $0.name + ($0.collation.uppercased() == "BINARY" ? "" : " COLLATE " + $0.collation) + ($0.isDescending ? " DESC" : "") }
            .joined(separator: ", ") + (partialPredicate.map { " WHERE " + $0 } ?? "")
    }
}

extension RejectedCandidate {
    /// `TABLE(col, col DESC) WHERE …`.
    public var displayName: String {
        table + "(" + columns.joined(separator: ", ") + ")" + (partialPredicate.map { " WHERE " + $0 } ?? "")
    }

    /// How the rejected-candidates tables name it: on a Core Data or SwiftData store, an entity table's key as
    /// the model's names (`Note(folder, updatedAt DESC)`), as the rest of the report names the entity's
    /// indexes and rules; otherwise, and for a key with a column no property maps (`Z_ENT`), ``displayName``.
    func modelDisplayName(onCoreDataStore isCoreData: Bool) -> String {
        guard isCoreData, let entity, let properties, properties.count == columns.count else { return displayName }
        return entity + "(" + properties.joined(separator: ", ") + ")" + (partialPredicate.map { " WHERE " + $0 } ?? "")
    }

    /// True when the candidate has a read saving or a write cost to show (false for a candidate set aside
    /// before measurement, and for one whose every difference was inside the noise), or one that is not known
    /// (measured against a statement stopped at the timeout: its 0 is no measurement).
    public var hasFigures: Bool {
        readSecondsSaved != 0 || writeSecondsAdded != 0 || !boundedReadSaving.bound.isExact || !boundedWriteCost.bound.isExact
    }
}

extension QueryAdvice.Kind {
    /// The heading every format gives this kind of query-side advice.
    public var title: String {
        switch self {
        case .collationSort: return "sort under a collation no index carries"
        case .caseInsensitiveLike: return "case-insensitive LIKE, which no BINARY index serves"
        case .substringSearch: return "substring search no B-tree serves"
        case .orAcrossColumns: return "OR across different columns"
        case .subquery: return "subquery that re-scans its table"
        case .statistics: return "plan changes with statistics"
        case .mixedSortDirections: return "mixed sort directions"
        }
    }
}

extension QueryAdvice {
    /// "S3 12.4 ms → 0.02 ms with the rewrite (620× faster)", or the time as it is when nothing was run instead.
    public func measuredLine(label: String) -> String {
        guard let timing else { return label }
        guard let rewriteTiming else { return "\(label) \(Figures.duration(timing.medianSeconds)) per execution as it is" }
        let significant = timing.isSlower(than: rewriteTiming) || rewriteTiming.isSlower(than: timing)
        return "\(label) \(Figures.duration(timing.medianSeconds)) → \(Figures.duration(rewriteTiming.medianSeconds)) per execution with the change (\(Figures.change(timing, rewriteTiming, significant: significant)))"
    }
}

extension SchemaFinding.Kind {
    /// The order in which every format lists a schema review's findings.
    public static let reportOrder: [SchemaFinding.Kind] = [.redundantIndex, .unindexedReference, .identityColumn, .tableWithoutIndex,
                                                          .hierarchyIndex, .uniqueRule, .noStatistics]

    /// The heading every format gives this kind of finding.
    public var title: String {
        switch self {
        case .redundantIndex: return "Redundant indexes"
        case .unindexedReference: return "References without an index"
        case .identityColumn: return "Identity-like columns without a unique rule"
        case .tableWithoutIndex: return "Large tables without an index"
        case .hierarchyIndex: return "Core Data hierarchy indexes"
        case .uniqueRule: return "Unique rules"
        case .noStatistics: return "Statistics"
        }
    }
}

extension SchemaMeasurement {
    /// "with the index 2.1 µs, without 6.3 ms", with "(within the noise)" when the runs overlap.
    public var comparisonText: String {
        "with the index \(Figures.duration(withIndex.medianSeconds)), without \(Figures.duration(withoutIndex.medianSeconds))\(isSignificant ? "" : " (within the noise)")"
    }
}

extension AnalysisResult {
    /// The schema review's findings grouped by kind, in ``SchemaFinding/Kind/reportOrder``, kinds without
    /// a finding left out: the order every format lists them in.
    var schemaReviewByKind: [(kind: SchemaFinding.Kind, findings: [SchemaFinding])] {
        SchemaFinding.Kind.reportOrder.compactMap { kind in
            let findings = schemaReview.filter { $0.kind == kind }
            return findings.isEmpty ? nil : (kind, findings)
        }
    }

    /// The schema review (a run without a workload) as plain lines, for the formats that can only carry it
    /// as comments (SQL, Swift): a heading, then per kind its findings, each with its measurements and, for
    /// `format` (`.sql` or `.swift`), the statement or `#Unique` line to consider, indented. Empty without a review.
    public func schemaReviewNotes(for format: ReportFormat) -> [String] {
        guard !schemaReview.isEmpty else { return [] }
        var lines = ["Schema review, from the schema and the data only (no workload was given, so nothing here is applied; check each against your app first):"]
        for (kind, findings) in schemaReviewByKind {
            lines.append("\(kind.title):")
            for finding in findings {
                lines.append("  \(finding.table)\(finding.columns.isEmpty ? "" : " (" + finding.columns.joined(separator: ", ") + ")"): \(finding.advice)")
                for measurement in finding.measurements { lines.append("    \(measurement.operation): \(measurement.comparisonText)") }
                let snippet = format == .swift ? finding.swiftDataUnique : finding.sql
                if let snippet { lines += snippet.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 } }
            }
        }
        return lines
    }

    /// The query-side advice as plain lines, for the formats that can only carry it as comments (SQL,
    /// Swift): a heading line, then per advice its statement, kind and advice, the measured times, and the
    /// rewrite indented. Empty when there is none.
    public var queryAdviceNotes: [String] {
        guard !queryAdvice.isEmpty else { return [] }
        var lines = ["Query-side advice (not applied here; the Markdown and HTML reports show plans and spreads):"]
        for advice in queryAdvice {
            let label = label(ofStatement: advice.statementID)
            lines.append("\(label), \(advice.kind.title): \(advice.advice)")
            lines.append("  " + advice.measuredLine(label: label) + ".")
            if let caveat = advice.caveat { lines.append("  Caveat: \(caveat)") }
            if let rewrite = advice.rewrite {
                lines += rewrite.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            }
        }
        return lines
    }
}

extension Recommendation {
    /// "Cardinality (sampled 14,285 rows): (ZFOLDERID): 12 distinct, 0 % NULL; (ZFOLDERID, ZISARCHIVED): 24
    /// distinct", each column name passed through `column` (each format's escaping); nil without statistics.
    /// When the table was measured on a sample of the store (`result`'s ``StoreSummary/sampledTables``), the
    /// rows counted are the sample's and the line says so beside the store's rows: the distinct counts are
    /// the sample's, not the store's. For a partial index they are the rows it holds (``ColumnStatistics/rowFilter``).
    func cardinalityText(in result: AnalysisResult, column: (String) -> String) -> String? {
        guard let first = columnStatistics.first else { return nil }
        let parts = columnStatistics.map { statistics in
            "(\(statistics.columns.map(column).joined(separator: ", "))): \(Figures.count(statistics.distinctValues)) distinct"
                + (statistics.columns.count == 1 ? ", \(Figures.percent(statistics.nullFraction)) NULL" : "")
        }
        var rows = first.isSampled ? "sampled \(Figures.count(first.sampledRows)) rows" : "\(Figures.count(first.sampledRows)) rows"
        if let filter = first.rowFilter {
            // A partial index: the figures are for the rows it holds, not the table's.
            let tableRows = result.store.tables.first { $0.name.sqlFolded == table.sqlFolded }?.rows
            let of = first.isSampled ? "" : tableRows.map { " of the table's \(Figures.count($0))" } ?? ""
            rows = "the \(first.isSampled ? "sampled " : "")\(Figures.count(first.sampledRows)) rows it holds\(of), WHERE \(filter)"
        }
        if let sample = result.store.sampledTables.first(where: { $0.table.sqlFolded == table.sqlFolded }) {
            rows = first.rowFilter.map { filter in
                "on the sample, 1 row in \(sample.step): the \(first.isSampled ? "sampled " : "")\(Figures.count(first.sampledRows)) rows it holds there, WHERE \(filter)"
            } ?? "on the sample, 1 row in \(sample.step): \(first.isSampled ? "sampled " : "")\(Figures.count(first.sampledRows)) of the store's \(Figures.count(sample.rows)) rows"
        }
        return "Cardinality (\(rows)): " + parts.joined(separator: "; ")
    }

    /// `Built in 26.6 ms on this store (what a migration pays), 752.0 KiB`, or for a table measured on a
    /// sample, the store's estimate with what was measured and the factors.
    public var buildSentence: String {
        guard let scale = sampleScale, let sampleSeconds = sampleBuildSeconds, let sampleBytes else {
            return "Built in \(Figures.duration(buildSeconds)) on this store (what a migration pays), \(ByteCountText.format(bytes))"
        }
        return "Built in about \(Figures.duration(buildSeconds)) on the whole store (what a migration pays), about \(ByteCountText.format(bytes)): "
            + "scaled from \(Figures.duration(sampleSeconds)) and \(ByteCountText.format(sampleBytes)) on the sample, size × \(String(format: "%.2f", scale)) (rows), build time × \(String(format: "%.2f", sampleSeconds > 0 ? buildSeconds / sampleSeconds : scale)) (rows × log rows)"
    }
}

extension AnalysisResult {
    /// For a recommendation whose reads saved nothing measurable on the wall clock: the SQLite work counters
    /// it was chosen on (the selection decides on them, ``AnalysisOptions/decideOnCounters``), as "Chosen on
    /// SQLite's work counters: S3 23,227 → 20,375 VM steps per execution (12 % fewer); on the wall clock the
    /// difference was inside the noise." (or, medians 2× or more apart, "too spread to tell"). Nil when the
    /// wall clock measured a saving, or no user's counters fell.
    public func counterEvidence(for recommendation: Recommendation) -> String? {
        guard recommendation.readSecondsSaved <= 0 else { return nil }
        let fewer = recommendation.userEffects.compactMap { effect -> (StatementEffect, Double, Double)? in
            guard let before = effect.before.vmStepsPerExecution, let after = effect.after.vmStepsPerExecution, after < before else { return nil }
            return (effect, before, after)
        }
        guard let (effect, before, after) = fewer.max(by: { Double($0.0.count) * ($0.1 - $0.2) < Double($1.0.count) * ($1.1 - $1.2) }) else { return nil }
        let share = Figures.whole((before - after) / before * 100)
        // Medians 2× or more apart whose runs overlap are too spread to tell, not "inside the noise" (a
        // breaking helper's 109× change was printed beside those words).
        let (b, a) = (effect.before.medianSeconds, effect.after.medianSeconds)
        let clock = min(a, b) > 0 && max(a, b) >= 2 * min(a, b)
            ? "the medians were \(Figures.ratio(max(a, b), min(a, b))) apart but the runs overlapped: too spread to tell"
            : "the difference was inside the noise"
        return "Chosen on SQLite's work counters: \(label(ofStatement: effect.statementID)) \(Figures.count(Figures.whole(before))) → \(Figures.count(Figures.whole(after))) VM steps per execution (\(share) % fewer); on the wall clock \(clock)."
    }
}
