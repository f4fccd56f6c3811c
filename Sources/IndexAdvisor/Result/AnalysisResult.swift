/// Everything one analysis found, measured and recommends. Every report format (Markdown, JSON, SQL,
/// SwiftData code) renders this value and computes nothing of its own. Times are in seconds, sizes in
/// bytes. Encoded as JSON it is the versioned machine-readable report (`schemaVersion`).
public struct AnalysisResult: Sendable, Codable {
    /// Bumped whenever a field changes meaning or is removed.
    public static let currentSchemaVersion = 1

    public var schemaVersion = AnalysisResult.currentSchemaVersion
    public var tool: ToolInfo
    public var store: StoreSummary
    public var workload: WorkloadSummary
    public var method: MethodSummary
    /// One entry per distinct analysed statement, in workload order.
    public var statements: [StatementReport]
    /// Indexes to add, in the order the advice built them, which is the migration's: each the best one with the
    /// earlier ones in place, a pick revised for the statements left to it last, and a partial index after
    /// the full one on its key (``IndexOrder/migrationOrder(_:key:isPartial:movesWith:)``). Among indexes the
    /// planner rates equal, SQLite takes the one created last, so the order is part of the advice.
    public var recommendations: [Recommendation]
    /// On a Core Data or SwiftData store: index forms no model can declare (partial, expression,
    /// covering, descending), measured with ``recommendations`` in place and shown beside them; nil on
    /// plain SQLite stores, where every form competes in ``recommendations``.
    public var alternatives: [AlternativeIndex]? = nil
    /// Candidates that were measured and not chosen, with the reason.
    public var rejectedCandidates: [RejectedCandidate]
    /// Findings about the store's existing indexes.
    public var existingIndexes: [ExistingIndexFinding]
    /// Uniqueness rules checked against the data.
    public var uniqueness: [UniquenessFinding]
    /// Changes to statements or statistics that no plain index makes, each measured.
    public var queryAdvice: [QueryAdvice] = []
    /// Findings from the schema and the data alone, when no workload was given.
    public var schemaReview: [SchemaFinding] = []
    /// How to capture a workload (Markdown lines), when none was given.
    public var captureHint: [String] = []
    /// Workload-wide totals, frequency-weighted.
    public var totals: Totals
    /// The change ``totals`` show, split between the recommendations and the drops, measured with the whole
    /// set in place (``FinalCharges``); nil in reports made before it was kept.
    public var finalCharges: FinalCharges? = nil
    /// Problems met on the way that did not stop the analysis, each a fact the renderers word on one line.
    public var warnings: [AnalysisWarning]
    /// Where the Swift names came from when the app's model source was read (`--model`); absent when
    /// they were recovered from the store alone (and may be guessed, see ``Recommendation/keyPathsAreGuessed``).
    public var model: ModelSummary? = nil
    /// Every fetch site the app's Swift source holds (`--source`), in file and line order: its location,
    /// form, frequency, the SQL it became and that statement's id, or why it could not be translated.
    /// Absent without `--source`.
    public var sourceSites: [FetchSite]? = nil
}

/// The tool and library that produced a result.
public struct ToolInfo: Sendable, Codable {
    public var name: String
    public var version: String
    /// The SQLite library the plans and timings come from, e.g. "3.40.1".
    public var sqliteVersion: String
    /// ISO 8601 time the analysis finished.
    public var generatedAt: String
    /// Wall time of the whole analysis, in seconds.
    public var analysisSeconds: Double
}

/// What the store is.
public struct StoreSummary: Sendable, Codable {
    /// The store's file name (no directory, so reports can be shared).
    public var fileName: String
    /// Bytes of the store file plus its `-wal`.
    public var bytes: Int64
    /// How the private snapshot was taken (`immutable` or `private-copy`).
    public var snapshotMethod: String
    public var snapshotSeconds: Double
    public var isCoreData: Bool
    public var isCloudKitSynced: Bool
    /// True when the store has `sqlite_stat1` rows; plans and timings use exactly what the store has.
    public var hasStatistics: Bool
    /// Tables measured on a deterministic sample of their rows (empty when none was).
    public var sampledTables: [SampledTable]
    public var tables: [TableSummary]
    /// The model the store caches (`Z_MODELCACHE`), read without Core Data, or why it gave none; absent
    /// when the store has no such table (and in reports made before it was read). Its names, with their
    /// case, name the columns when no `--model` is given.
    public var cachedModel: StoreModelCache.Outcome? = nil
    /// Where the key paths the result prints got their spelling (``KeyPathSpelling``), when the store is an
    /// entity store; absent in reports made before it was kept.
    public var keyPathSpellings: [KeyPathSpelling]? = nil
}

/// One table of the store.
public struct TableSummary: Sendable, Codable {
    public var name: String
    /// The Core Data entities stored in the table (root first), empty for other stores.
    public var entities: [String]
    /// Rows in the store.
    public var rows: Int
    /// Rows kept in the measured sample, when the table was sampled.
    public var sampledRows: Int?
    public var columns: Int
    public var indexes: [IndexSummary]
    /// Statistics of the columns the workload filters or sorts on.
    public var columnStatistics: [ColumnStatistics]
}

/// One existing index.
public struct IndexSummary: Sendable, Codable {
    public var name: String
    public var columns: [String]
    public var isUnique: Bool
    public var partialPredicate: String?
    /// Bytes, from the `dbstat` virtual table.
    public var bytes: Int64?
}

/// What was read from the workload.
public struct WorkloadSummary: Sendable, Codable {
    public var files: [String]
    public var linesRead: Int
    public var statementsRead: Int
    public var distinctStatements: Int
    /// Distinct statements that were planned and measured.
    public var analysedStatements: Int
    /// Lines or statements set aside, by reason.
    public var skipped: [String: Int]
    public var skippedExamples: [String]
    /// Housekeeping statements seen (transactions, pragmas), set aside.
    public var housekeepingStatements: Int
    /// Each file's format and why it was chosen (detected from a line, or forced), its encoding and line
    /// ends. Filled by ``AnalysisResult/describingWorkload(_:)``; absent in reports made before it existed.
    public var formats: [WorkloadFormatChoice]? = nil
    /// What the observed times are made of (SQLite's time or Core Data's total), in words.
    public var observedTimeMeans: String? = nil
    /// The statements set aside as the workload was read (too long to read, or refused by SQLite), with the
    /// executions each stands for: `check` fails a hot one. Nil when there were none, and in older reports.
    public var setAside: [SetAsideStatement]? = nil
}

/// How the figures were measured.
public struct MethodSummary: Sendable, Codable {
    /// Runs per statement; the reported time is their median.
    public var repeats: Int
    /// Each run lasts at least this long (repeating the statement), in seconds.
    public var minimumRunSeconds: Double
    /// Distinct sets of bound values per statement.
    public var bindingSamples: Int
    public var statementTimeoutSeconds: Double
    public var seed: UInt64
    /// "time" (wall clock) or "counters" (SQLite's work counters priced in seconds); nil in reports
    /// written before it was kept, which were all wall-clock.
    public var costSource: CostSource? = nil
    /// Where the analysis spent its wall-clock time: each stage in order, then the activities across
    /// stages (candidate index builds, timing reads, timing writes). Nil in reports made before it existed.
    public var stageSeconds: [StageTime]? = nil
    /// True when the wall-clock analysis decided its choices on SQLite's work counters of the same runs
    /// (``AnalysisOptions/decideOnCounters``); nil in reports made before it was kept.
    public var decidesOnCounters: Bool? = nil
    /// The SQLite library the snapshot was planned and timed with, e.g. `3.40.1`; nil in older reports.
    public var sqliteVersion: String? = nil
    /// Why foreign keys were enforced on the snapshot; nil when they were not (SQLite's default: off).
    public var foreignKeyEnforcement: ForeignKeyEnforcement? = nil
    /// True when the workload's last `PRAGMA recursive_triggers` turned them on, and the snapshot ran with them
    /// on; nil when it did not (SQLite's default: off).
    public var recursiveTriggers: Bool? = nil
    /// ``AnalysisOptions/minimumBenefitShare`` (0…1); nil in older reports.
    public var minimumBenefitShare: Double? = nil
    /// The machine's load average during the analysis; nil where the system does not say, and in older reports.
    public var machineLoad: MachineLoadFigures? = nil
    /// The method in one paragraph, as a JSON report carries it: the renderers' words for the fields above
    /// (``AnalysisResult/methodText``), set when the JSON report is written; read back from a report, the
    /// paragraph it gave. Nil in a result the advisor just made.
    public var description: String? = nil
}

/// Why an analysis enforced foreign keys on its snapshot (foreignkeys.html#fk_enable: they are off unless a
/// connection turns them on).
public enum ForeignKeyEnforcement: String, Sendable, Codable {
    /// The workload's last `PRAGMA foreign_keys` turns them on.
    case workloadPragma = "workload-pragma"
    /// No pragma in the workload, but a foreign key declares an `ON DELETE` or `ON UPDATE` action, which
    /// only enforcement carries out.
    case declaredAction = "declared-action"
}

/// One execution a statement was timed with.
public struct TimedExecution: Sendable, Codable, Equatable {
    /// The text prepared: the app's statement with its literals in place.
    public var sql: String
    /// Values bound to the text's own `?` placeholders, in order.
    public var values: [SQLValue]
    /// Executions of the workload it stands for, relative to the others (the timing is the weighted mean).
    public var weight: Double
}

/// One analysed statement, before and after the recommended indexes.
public struct StatementReport: Sendable, Codable {
    /// The fingerprint id.
    public var id: String
    /// The statement as the app issued it (first occurrence).
    public var sql: String
    /// The statement's fingerprint form: literals replaced by `?` (each value set is planned and timed
    /// as the app's own text, its literals in place).
    public var parameterizedSQL: String
    /// Distinct value sets the workload showed for it, counted exactly up to 4,096 (that figure means
    /// "4,096 or more"); nil when it showed none (values were drawn).
    public var valueSetsSeen: Int? = nil
    /// Value sets it was timed with (observed or drawn).
    public var valueSetsTimed: Int? = nil
    /// Of ``valueSetsTimed``, those of an UPDATE or DELETE timed on an existing row's keys in place of the
    /// workload's, which match no row of the snapshot; nil when none was.
    public var valueSetsOnExistingRows: Int? = nil
    /// Of ``valueSetsTimed``, those of an UPDATE or DELETE timed on the workload's own keys although they match
    /// no row of the snapshot, no existing row standing in: those executions change no row. Nil when none was.
    public var valueSetsChangingNoRow: Int? = nil
    /// The IN-list lengths (values per list) the workload showed, shortest first, when it showed more than
    /// one: each is timed as its own text, weighted by its executions. Nil otherwise.
    public var inListLengthsSeen: [Int]? = nil
    /// Exactly what was timed, so any figure can be checked by hand (`sqlite3` shell, `.timer on`): each
    /// execution's text as run (the app's literals in place), the values bound to its own placeholders,
    /// and the share of the workload's executions it stands for. Empty in reports made before it was kept.
    public var timedExecutions: [TimedExecution]? = nil
    public var kind: StatementKind
    /// Executions in the workload (weighted).
    public var count: Int
    public var tables: [String]
    /// Equality, range and sort columns as SQLite's planner reported them, e.g. `ZNOTE: ZFOLDERID =, ZISARCHIVED =; ORDER BY ZUPDATEDAT DESC`.
    public var shapeSummary: String?
    /// Where the timed bound values came from.
    public var bindingSource: String

    /// "observed (40 distinct value sets, 12 timed)", with the IN-list lengths seen and timed when there were
    /// several ("observed (20 distinct value sets in IN lists of 3–20 values, 6 lengths; 12 timed, of all 6
    /// lengths)"), or the source alone when counts are unknown.
    public var boundValuesSummary: String {
        guard let timed = valueSetsTimed else { return bindingSource }
        if let seen = valueSetsSeen {
            let counted = seen >= ValueSetTally.distinctLimit ? "\(Figures.count(seen)) or more" : Figures.count(seen)
            if let lengths = inListLengthsSeen, let shortest = lengths.first, let longest = lengths.last, lengths.count > 1 {
                let timedLengths = Set((timedExecutions ?? []).map { WorkloadStatement.inListValues(in: $0.sql) }).intersection(lengths).count
                let of = timedLengths == lengths.count ? "of all \(lengths.count) lengths" : "of \(timedLengths) of the \(lengths.count) lengths"
                return "\(bindingSource) (\(counted) distinct value sets in IN lists of \(shortest)–\(longest) values, \(lengths.count) lengths; \(Figures.count(timed)) timed, \(of))"
            }
            return "\(bindingSource) (\(counted) distinct value set\(seen == 1 ? "" : "s"), \(Figures.count(timed)) timed)"
        }
        return "\(bindingSource) (\(Figures.count(timed)) value set\(timed == 1 ? "" : "s") timed)"
    }
    public var planBefore: QueryPlan?
    public var planAfter: QueryPlan?
    public var timingBefore: Timing?
    public var timingAfter: Timing?
    /// `count × median` before and after, in seconds.
    public var weightedSecondsBefore: Double
    public var weightedSecondsAfter: Double
    /// Durations the log reported for this statement, if any.
    public var observedTiming: ObservedTiming?
    /// Rows the log reported for the last execution (`… for N rows`), if any.
    public var observedRows: Int?
    /// Names of the recommended indexes the statement uses after the change.
    public var usesRecommendations: [String]
    /// Why the statement got no index, or what else to know (unindexable sort, stand-ins used).
    public var notes: [StatementNote]
    /// Set when the statement could not be analysed (does not prepare, timed out); one line.
    public var error: String?
    /// True when ``error`` says an execution ran past `--statement-timeout` (the timer's words for it, which a
    /// report read back keeps): the statement took at least the timeout an execution and was not timed.
    public var timedOut: Bool { error?.contains("--statement-timeout") ?? false }
    /// Executions that failed on the device (a `CoreData: error:` right after the statement in the log),
    /// and the first error, e.g. `SQLite error code:1, 'no such table: ZRECIPE'`. Absent when none did.
    public var deviceFailures: Int? = nil
    public var deviceError: String? = nil
    /// Where the app's Swift source issues it (`NotesList.swift:42`), from `--source`; absent without one.
    public var sourceLocations: [String]? = nil
    /// True when only the Swift source showed it (no log did): its count is the sites' frequencies, its
    /// values were drawn from the data. Absent when a log or script showed it.
    public var sourceOnly: Bool? = nil

    /// True when the plan before had a full table scan, temp B-tree or automatic index.
    public var isFlagged: Bool { planBefore?.hasProblem ?? false }
}

/// A key column of a recommended index.
public struct RecommendedColumn: Sendable, Codable, Equatable {
    public var name: String
    public var isDescending: Bool
    public var collation: String
    /// The Swift key path (`\.folderID`) for SwiftData, when the table is an entity's; never for Core Data's
    /// own columns (``isCoreDataColumn(_:)``).
    public var keyPath: String?

    /// True for a column Core Data keeps for itself, no property of the model: `Z_PK`, `Z_ENT`, `Z_OPT`
    /// (every `Z_` name).
    public static func isCoreDataColumn(_ name: String) -> Bool { name.uppercased().hasPrefix("Z_") }
}

/// An index to add, with everything measured about it.
public struct Recommendation: Sendable, Codable {
    public var rank: Int
    public var name: String
    public var table: String
    public var columns: [RecommendedColumn]
    public var partialPredicate: String?
    /// `CREATE INDEX IF NOT EXISTS …`, identifiers quoted.
    public var sql: String
    /// The Core Data entity (model) the table stores, when it is a Core Data store.
    public var entity: String?
    /// `#Index<Note>([\.folderID, \.isArchived, \.updatedAt])`, when the index can be declared in SwiftData.
    public var swiftDataIndex: String?
    /// True when the key paths were recovered from column names and may need correcting.
    public var keyPathsAreGuessed: Bool
    /// Wall time of `CREATE INDEX` on the snapshot, in seconds (what a migration pays). When the table was
    /// measured on a sample, the time scaled to the store's rows (see ``sampleScale``).
    public var buildSeconds: Double
    /// Size of the built index, in bytes (`dbstat`). When the table was measured on a sample, the size
    /// scaled to the store's rows (see ``sampleScale``).
    public var bytes: Int64
    /// Frequency-weighted read time saved, in seconds per workload.
    public var readSecondsSaved: Double
    /// Frequency-weighted write time added, in seconds per workload.
    public var writeSecondsAdded: Double
    public var netSecondsSaved: Double
    /// What is known of ``readSecondsSaved`` and ``writeSecondsAdded`` when a statement they count was stopped
    /// at the timeout (``FigureBound``); nil when they were measured, and in reports made before it was kept.
    public var readSecondsSavedBound: FigureBound? = nil
    public var writeSecondsAddedBound: FigureBound? = nil
    /// When the index's table was measured on a sample: the factor its size was multiplied by (store rows
    /// ÷ sampled rows); the build time was multiplied by that × ln(rows) ÷ ln(sampled rows). Absent when
    /// the table was measured whole.
    public var sampleScale: Double? = nil
    /// The build time and size measured on the sample, before scaling; absent when not sampled.
    public var sampleBuildSeconds: Double? = nil
    public var sampleBytes: Int64? = nil
    /// The statements that use it, with their times without and with it.
    public var effects: [StatementEffect]
    /// Statistics of the key columns (prefixes), for judging selectivity.
    public var columnStatistics: [ColumnStatistics]
    /// What else to know (e.g. a key column most writes change); in the JSON report, each in words.
    public var notes: [PickNote] = []
    /// Where the app's model already declares this index (`Note.swift:14`), when `--model` found the same
    /// `#Index` there: the model has it, the store does not (SwiftData creates indexes with new stores only).
    public var declaredInModel: String? = nil
    /// The Core Data fetch index that declares it, when its entity is a Core Data model's (read with
    /// `--model` or found with `--source`), or when no model said which framework declares the entity;
    /// nil for a SwiftData `@Model` class's, and when it cannot be declared.
    public var fetchIndex: CoreDataFetchIndex? = nil
    /// On a Core Data / SwiftData entity table, what the model declares for it, or why it is SQL only, in the
    /// words the other formats print (``AnalysisResult/modelDeclarationText(for:)``): written by the JSON
    /// report for its readers; the renderers work it out from the fields again.
    public var modelDeclaration: String? = nil
}

/// An index form no model can declare, measured on a Core Data or SwiftData store with the recommended
/// set in place: what it adds on top of that set, and how an app would ship it.
public struct AlternativeIndex: Sendable, Codable {
    /// The index's name, in the store's convention (`Z_Message_destructionDate_partial`).
    public var name: String
    /// The entity table it is on.
    public var table: String
    /// Key columns, with key paths where the model names them.
    public var columns: [RecommendedColumn]
    /// The `WHERE` of a partial index, identifiers quoted (`"ZDESTRUCTIONDATE" IS NOT NULL`).
    public var partialPredicate: String?
    /// `CREATE INDEX IF NOT EXISTS …`, identifiers quoted.
    public var sql: String
    /// The Core Data entity the table stores.
    public var entity: String?
    /// Frequency-weighted read time it saves with the recommended set in place, in seconds per workload.
    public var readSecondsSaved: Double
    /// Frequency-weighted write time it adds, in seconds per workload.
    public var writeSecondsAdded: Double
    /// Read time saved less write time added, in seconds per workload.
    public var netSecondsSaved: Double
    /// What is known of ``readSecondsSaved`` and ``writeSecondsAdded`` (``Recommendation/readSecondsSavedBound``).
    public var readSecondsSavedBound: FigureBound? = nil
    public var writeSecondsAddedBound: FigureBound? = nil
    /// Size of the built index, in bytes (`dbstat`), and its build time in seconds; on a sampled table
    /// scaled to the store as ``Recommendation/bytes`` and ``Recommendation/buildSeconds`` are.
    public var bytes: Int64
    public var buildSeconds: Double
    /// The statements that use it, with their times without and with it.
    public var effects: [StatementEffect]
    /// Existing indexes (not backing a UNIQUE constraint) on its key column that no final plan uses: with
    /// this form in place they only cost writes.
    public var replaces: [String]
    /// How an app ships it: a Core Data fetch index with `partialIndexPredicate` where that expresses it,
    /// otherwise SQL the app runs, with the caveat that a migration can drop an index the model lacks; in
    /// the JSON report, in words.
    public var howToShip: ShippingAdvice
}

/// How one statement's time changed with one index, measured when the index was chosen.
public struct StatementEffect: Sendable, Codable {
    public var statementID: String
    public var count: Int
    public var before: Timing
    public var after: Timing
    /// True when the difference is beyond the noise (interquartile ranges apart, ≥ 5 %).
    public var isSignificant: Bool
    /// The statement's plan that `before` was timed with: the indexes chosen earlier in place, this one not
    /// yet built. Nil when the plan did not change (a write) and in reports made before it was kept.
    public var planBefore: QueryPlan? = nil
    /// The statement's plan that `after` was timed with, this index built. Nil as for ``planBefore``.
    public var planAfter: QueryPlan? = nil
}

/// A measured candidate that was not recommended. (Its JSON form, with `reason` in words and `kind`, is
/// in Render/RejectionReasonText.swift.)
public struct RejectedCandidate: Sendable {
    public var sql: String
    public var table: String
    /// Key columns with `DESC` and `COLLATE` where they apply.
    public var columns: [String]
    public var partialPredicate: String?
    public var readSecondsSaved: Double
    public var writeSecondsAdded: Double
    /// What is known of ``readSecondsSaved`` and ``writeSecondsAdded`` (``Recommendation/readSecondsSavedBound``).
    public var readSecondsSavedBound: FigureBound? = nil
    public var writeSecondsAddedBound: FigureBound? = nil
    /// Why it was not recommended; ``reason`` is the same in words.
    public var rejection: RejectionReason
    /// The statements (ids) whose plan used it and that it made measurably faster when it was measured,
    /// with that change: what a statement's "no index recommended" note names instead of saying that no
    /// candidate helped. Not in the JSON report (the notes carry it in words).
    public var speedups: [StatementEffect] = []
    /// On an entity table whose every key column is a property: the entity and the key as its property names
    /// (`["folder", "updatedAt DESC"]`), how the reports name it beside the model's other names.
    public var entity: String? = nil
    public var properties: [String]? = nil
}

/// A finding about an index the store already has. (Its JSON form, with `caveat` in words and
/// `caveatKinds`, is in Render/DropCaveatText.swift.)
public struct ExistingIndexFinding: Sendable {
    public enum Kind: String, Sendable, Codable {
        /// Its key columns are a left prefix of another index's (or the same): the other serves its lookups.
        case redundant
        /// No statement of the workload used it. A workload is a sample: check before dropping.
        case unusedInWorkload = "unused-in-workload"
        /// The planner uses it, and a statement that uses it is measurably faster without it (for example a
        /// flag index SQLite prefers without `sqlite_stat1`), while none gets measurably slower.
        case misused
        /// Statements of the workload used it before the advice, and every one of them uses another index
        /// instead once the advice is built (``supersededBy``: a recommended index, or one of the store's when the
        /// selection took this one out): that index serves its lookups, so it only costs writes (issue 15:
        /// existing indexes judged against the final set).
        case replaced = "replaced-by-recommendation"
        /// Statements use it, but what it costs the table's writes exceeds what it saves them, as the
        /// selection priced its removal (a move of the one search, DESIGN-selection.md) and the review measured it.
        case costly = "costs-more-than-it-saves"
    }

    public var kind: Kind
    public var index: String
    public var table: String
    public var columns: [String]
    /// The index that makes it redundant.
    public var supersededBy: String?
    public var bytes: Int64?
    /// `DROP INDEX IF EXISTS …`, when dropping is advised.
    public var dropSQL: String?
    /// Why dropping is not advised, when it is not (unique constraint, owned by Core Data…); empty when it is.
    /// ``caveat`` is the same in words.
    public var caveats: [DropCaveat] = []
    /// Frequency-weighted write time saved by dropping it, in seconds, counting only writes measurably
    /// faster or slower without it (runs with and without it alternate; without = dropped in a savepoint).
    public var writeSecondsSaved: Double = 0
    /// Frequency-weighted read time lost by dropping it, in seconds (statements measurably slower without it).
    public var readSecondsAdded: Double = 0
    /// The statements timed without it: `before` with the index, `after` without.
    public var effects: [StatementEffect] = []
    /// Frequency-weighted read time saved by dropping it, in seconds (statements measurably faster without
    /// it: the planner misuses it). Nil in reports made before it was measured.
    public var readSecondsSaved: Double? = nil

    /// What was found, in a few words, with the superseding index's name formatted by `name` (for a code
    /// span in Markdown, a `<code>` element in HTML; the caller escapes the rest).
    public func findingText(name: (String) -> String = { $0 }) -> String {
        switch kind {
        case .redundant: return "redundant: a left prefix of \(supersededBy.map(name) ?? "another index")"
        case .unusedInWorkload: return "unused by this workload"
        case .misused: return "misused: statements that use it are faster without it"
        case .replaced: return "replaced: every statement that used it uses \(supersededBy.map(name) ?? "a recommended index") instead"
        case .costly: return "costs more than it saves: its upkeep on writes exceeds the read time it saves"
        }
    }
}

/// Workload totals, frequency-weighted, in seconds.
public struct Totals: Sendable, Codable {
    public var readSecondsBefore: Double
    public var readSecondsAfter: Double
    public var writeSecondsBefore: Double
    public var writeSecondsAfter: Double
    /// Full scans of tables of at least ``PlanFinding/smallTableRows`` rows (``PlanFinding/isFullScan``: a
    /// filtered full index scan too), one per plan row, across statements.
    public var fullScansBefore: Int
    public var fullScansAfter: Int
    public var tempBTreeSortsBefore: Int
    public var tempBTreeSortsAfter: Int
    /// True when tables were measured on a sample (`store.sampledTables`): every time in the report —
    /// statement timings, these totals, read and write seconds — is the sample's, not scaled (a scan's time
    /// grows with the table, an index search's barely, so no one factor is right). Absent otherwise.
    public var timesFromSample: Bool? = nil

    public var totalSecondsBefore: Double { readSecondsBefore + writeSecondsBefore }
    public var totalSecondsAfter: Double { readSecondsAfter + writeSecondsAfter }

    /// How many plan rows of `statements` (the analysed ones) flag `kind` as a problem
    /// (``PlanFinding/isProblem``), in the plan `plan` picks: what ``fullScansBefore`` and the other counts are.
    /// `.fullTableScan` counts every full scan (``PlanFinding/isFullScan``), a filtered full index scan too.
    static func count(_ kind: PlanFinding.Kind, in statements: [StatementReport], _ plan: (StatementReport) -> QueryPlan?) -> Int {
        statements.reduce(0) { $0 + (plan($1)?.findings.filter { kind == .fullTableScan ? $0.isFullScan : $0.kind == kind && $0.isProblem }.count ?? 0) }
    }
}

/// How the app's model source (`--model`) named the store's tables and columns.
public struct ModelSummary: Sendable, Codable {
    /// The Swift files read, by file name (no directory, so reports can be shared).
    public var files: [String]
    /// One entry per model class matched to a table of the store.
    public var entities: [ModelEntityMapping]
    /// What could not be matched (a table whose entity has no class, a column no property maps to), one line each.
    public var notes: [String]
    /// The option the model came from: `--source` when only the app's source gave it; nil for `--model`
    /// (and in reports written before the field existed).
    public var option: String?
    /// The store's indexes the model declares, by Core Data's name for each (``ModelStoreIndex``): what to
    /// remove from the model when the advice drops one. Absent in reports made before it was kept.
    public var storeIndexes: [ModelStoreIndex]? = nil

    public init(files: [String], entities: [ModelEntityMapping], notes: [String], option: String? = nil) {
        self.files = files
        self.entities = entities
        self.notes = notes
        self.option = option
    }
}

/// One model class and the table that stores it.
public struct ModelEntityMapping: Sendable, Codable {
    /// The class name, which is the entity name (`@Model final class Note` → `Note`).
    public var entity: String
    /// The store table holding the entity's rows (`ZNOTE`).
    public var table: String
    /// Where the class is declared: `Note.swift:12`.
    public var declaredAt: String
    /// Store column → Swift property, for every stored property of the class.
    public var properties: [PropertyMapping]
    /// The path of the file that declares the class, as found under the `--model`/`--source` argument
    /// (`App/Models/Note.swift`); absent in reports made before it was kept.
    public var path: String? = nil
    /// What declares the entity: a SwiftData `@Model` class (`swiftData`), an `NSManagedObject` subclass
    /// with its entity in a Core Data model or not (`coreData`), a Core Data model alone (`coreDataModel`),
    /// or only the store's cached model (`storeModel`, which does not say which framework); absent in
    /// reports made before it was kept.
    public var framework: ModelClass.Framework? = nil
    /// Where the `NSManagedObject` subclass is declared, when the entity is also in a Core Data model.
    public var classLocation: String? = nil

    public init(entity: String, table: String, declaredAt: String, properties: [PropertyMapping], path: String? = nil,
                framework: ModelClass.Framework? = nil) {
        self.entity = entity
        self.table = table
        self.declaredAt = declaredAt
        self.properties = properties
        self.path = path
        self.framework = framework
    }
}

/// One stored property and its column.
public struct PropertyMapping: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// An attribute: column `Z` + the upper-cased stored name.
        case attribute
        /// A to-one relationship: column `Z` + the upper-cased name, holding the destination row's `Z_PK`.
        case toOneRelationship = "to-one-relationship"
    }

    /// The store column, e.g. `ZFOLDERID`.
    public var column: String
    /// The Swift property, e.g. `folderID`.
    public var property: String
    public var kind: Kind
    /// The `originalName:` the property declares, when it names the column.
    public var originalName: String?

    public init(column: String, property: String, kind: Kind, originalName: String? = nil) {
        self.column = column
        self.property = property
        self.kind = kind
        self.originalName = originalName
    }
}
