import Foundation

/// What kind of statement a workload entry is, from its first keyword.
public enum StatementKind: String, Sendable, Codable, CaseIterable {
    case select, insert, update, delete
    /// `BEGIN`, `COMMIT`, `ROLLBACK`, `SAVEPOINT`, `RELEASE`, `END`.
    case transaction
    /// `PRAGMA …`.
    case pragma
    /// `CREATE`, `DROP`, `ALTER`, `ANALYZE`, `VACUUM`, `REINDEX`, `ATTACH`, `DETACH`.
    case schema
    case other

    /// True for statements that read rows (`SELECT`, `VALUES`, `WITH … SELECT`).
    public var isRead: Bool { self == .select }
    /// True for `INSERT`, `UPDATE`, `DELETE` (every index on the written table is maintained by each).
    public var isWrite: Bool { self == .insert || self == .update || self == .delete }
    /// True for the statements the advisor plans and measures.
    public var isAnalysed: Bool { isRead || isWrite }
}

/// A statement's identity in a workload: its text with literals and bound values replaced by `?`, IN
/// lists of any length collapsed, white space and keyword case normalised; `id` is a 64-bit FNV-1a hash of it.
public struct Fingerprint: Hashable, Sendable, Codable {
    /// 16 lower-case hex digits.
    public var id: String
    /// The normalised text the id is computed from.
    public var text: String
}

/// Where in an input file a statement was seen (1-based, inclusive lines).
public struct SourceRange: Hashable, Sendable, Codable {
    public var file: String
    public var firstLine: Int
    public var lastLine: Int
}

/// Observed durations of one statement, in seconds.
public struct ObservedTiming: Sendable, Codable, Equatable {
    /// How many executions reported a duration.
    public var count: Int
    /// Their sum, in seconds.
    public var totalSeconds: Double
    /// The median of a uniform sample of the durations (at most `sampleLimit` kept, by reservoir
    /// sampling with a fixed seed), in seconds; exact up to `sampleLimit` executions.
    public var medianSeconds: Double

    static let sampleLimit = 256
}

/// One distinct statement of a workload (all occurrences that share a fingerprint).
public struct WorkloadStatement: Sendable, Codable {
    public var fingerprint: Fingerprint
    /// A runnable form of the statement: the first occurrence with its literals replaced by `?` parameters.
    public var sql: String
    /// The first occurrence as the app issued it (literals in place), for reports.
    public var text: String
    /// A later occurrence whose literals may be of a syntax this SQLite lacks (a digit separator, `1_000`, from
    /// SQLite 3.46), when the first occurrence's are not: it is prepared too, since the runnable form binds the
    /// literal and would parse (a breaking helper's `a = 3` ×1 then `a = 1_0` ×500 passed `check`). Nil otherwise.
    public var literalSyntaxText: String? = nil
    /// One entry per parameter of `sql`: the literal it replaced in the first occurrence, or nil for a
    /// placeholder the app bound itself. Used for values the source did not show.
    public var literalValues: [SQLValue?]
    public var kind: StatementKind
    /// Occurrences, each weighted by its `-- freq: N` (1 when not given).
    public var count: Int
    /// The number of parameters in `sql`.
    public var parameterCount: Int
    /// Parameter values seen (literals in a `.sql` file, bind lines in a log), at most 256 distinct tuples,
    /// each of `parameterCount` values, counted over the whole input (``ValueSetTally``: exact counts while
    /// they fit, then a uniform reservoir), the first occurrence's first. Empty when the source gave no
    /// values; the advisor then draws them from the data, and times a selection of these otherwise
    /// (``ValueSetSelection``).
    public var observedBindings: [[SQLValue]]
    /// The statement as occurrences with another number of parameters ran it, one per number (an `IN` list
    /// or a multi-row `VALUES` of another length: the fingerprint is the same, the text is not), at most
    /// ``WorkloadBuilder/variantLimit``. A tuple of ``observedBindings`` whose length is not
    /// ``parameterCount`` is one of these texts' (``form(forParameterCount:)``).
    public var variants: [StatementVariant] = []
    /// How many of the workload's executions each tuple of ``observedBindings`` stands for: its count, plus
    /// for tuples seen once an even share of the executions whose tuples were not kept.
    public var observedBindingWeights: [Double] = []
    /// The most rows the source reported for an execution with each tuple (nil: none reported).
    public var observedBindingRows: [Int?] = []
    /// Distinct value tuples seen in all, counted exactly up to 4,096 (``ValueSetTally/distinctLimit``):
    /// that figure means "4,096 or more".
    public var distinctValueSets = 0
    /// The observed time: durations reported by the source, when there were any. From a Core Data log,
    /// per execution, SQLite's time (`sql connection fetch time`, `sql execution time`) when the log gave
    /// it, else Core Data's `total fetch execution time` / `total count request execution time` (how many
    /// executions fell back to it: ``observedTotalFallbacks``); from the recorder, the time in SQLite.
    public var observedTiming: ObservedTiming?
    /// Rows reported by the source (`… for N rows`), the last value seen.
    public var observedRows: Int?
    /// The Core Data entity named by a fetch annotation, when the log had one.
    public var entityName: String?
    /// Where the statement was seen (at most 8 ranges).
    public var sources: [SourceRange]
    /// The tables the statement names, as written (a lexical scan of its FROM, JOIN, INTO and UPDATE
    /// targets; aliases such as Core Data's `t0`, common table expressions and Core Data's `_Z_intarrayN`
    /// key lists excluded). Empty when it names none.
    public var tables: [String] = []
    /// For an UPDATE, the columns its SET clause assigns, as written.
    public var updatedColumns: [String] = []
    /// True for Core Data's own bookkeeping (key allocation in `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`,
    /// the schema table): recognised and set aside like pragmas, never analysed.
    public var isHousekeeping = false
    /// The query plan the device printed for the statement (`-com.apple.CoreData.SQLDebug 4`), the last one
    /// seen: SQLite's detail rows in order, e.g. `SEARCH t0 USING INDEX ZNOTE_ZFOLDER_INDEX (ZFOLDER=?)`.
    public var devicePlan: [String]? = nil
    /// When the statement's first execution ended, when the source said (the recorder's JSON Lines).
    public var firstSeen: Date? = nil
    /// When the statement's last execution ended, when the source said.
    public var lastSeen: Date? = nil

    /// Core Data's `sql connection fetch time` / `sql execution time` alone: the time inside SQLite, for
    /// the executions that logged one.
    public var observedConnectionTiming: ObservedTiming? = nil
    /// Core Data's `total fetch execution time` / `total count request execution time` alone: SQLite's time
    /// plus Core Data's own work on the rows, for the executions that logged one.
    public var observedTotalTiming: ObservedTiming? = nil
    /// Executions whose observed time is Core Data's total, because the log gave no SQLite time for them.
    public var observedTotalFallbacks = 0
    /// Executions that failed on the device: a `CoreData: error:` came right after the statement.
    public var deviceFailures = 0
    /// The first of those errors, e.g. `SQLite error code:1, 'no such table: ZRECIPE'`.
    public var deviceError: String? = nil
    /// Where the app's Swift source issues the statement (`NotesList.swift:42`), from `--source`: every fetch
    /// site whose translation is this statement.
    public var sourceLocations: [String] = []
    /// True when only the Swift source (`--source`) showed the statement, no log: its count is the sites'
    /// frequencies, and it has no observed times or values.
    public var isFromSourceOnly = false

    static let bindingLimit = ValueSetTally.trackLimit
    static let sourceLimit = 8
}

/// How one input file was read: its format and why, its text encoding and line ends.
public struct WorkloadFormatChoice: Sendable, Codable, Equatable {
    public var file: String
    public var format: WorkloadFormat
    /// Why this format: the line that decided it (`line 2,101 carries 'CoreData: sql:'`), that no
    /// line did, or that `--workload-format` forced it.
    public var reason: String
    /// True when the format was forced rather than detected.
    public var forced: Bool
    /// `UTF-8`, or `UTF-8 with a byte-order mark (removed)`.
    public var encoding: String
    /// The line ends of the first line: `LF`, `CRLF`, `CR`, or `none` (a single line).
    public var lineEnds: String

    public init(file: String, format: WorkloadFormat, reason: String, forced: Bool, encoding: String, lineEnds: String) {
        self.file = file
        self.format = format
        self.reason = reason
        self.forced = forced
        self.encoding = encoding
        self.lineEnds = lineEnds
    }

    /// One line: `notes.log: Core Data log (line 3 carries 'CoreData: sql:')`.
    public var summary: String {
        var text = "\(file): \(format.displayName) (\(reason))"
        if encoding != "UTF-8" || (lineEnds != "LF" && lineEnds != "none") { text += "; \(encoding), \(lineEnds) line ends" }
        return text
    }
}

/// Counts of what was read from the workload inputs, and what was set aside and why.
public struct WorkloadDiagnostics: Sendable, Codable, Equatable {
    public var files: [String] = []
    /// How each file's format was chosen, in reading order.
    public var formats: [WorkloadFormatChoice] = []
    public var linesRead = 0
    public var statementsRead = 0
    /// Lines or statements set aside, by reason (e.g. "not a Core Data line": 12).
    public var skipped: [String: Int] = [:]
    /// The first few set-aside items, each as "file:line: reason".
    public var examples: [String] = []
    /// The statements among the skipped ones set aside unread or refused by SQLite, each with its executions:
    /// `check` fails a hot one (``SetAsideStatement``). At most ``SetAsideStatement/limit``, the heaviest.
    public var setAside: [SetAsideStatement] = []

    /// Counts one item set aside for `reason`; `location` ("file:line") is only built for the first few.
    /// At most ``reasonLimit`` distinct reasons are kept (garbage input can make every statement's first
    /// word a new one); later new reasons are counted under ``otherReasons``.
    mutating func skip(_ reason: String, at location: @autoclosure () -> String) {
        var reason = reason
        if skipped[reason] == nil, skipped.count >= Self.reasonLimit { reason = Self.otherReasons }
        skipped[reason, default: 0] += 1
        if examples.count < 10 { examples.append("\(location()): \(reason)") }
    }

    static let reasonLimit = 50
    static let otherReasons = "other reasons (more than 50 kinds)"

    /// Total items set aside.
    public var skippedCount: Int { skipped.values.reduce(0, +) }
}

/// The statements an app issues, aggregated by fingerprint, in order of first appearance.
public struct Workload: Sendable, Codable {
    public var statements: [WorkloadStatement]
    public var diagnostics: WorkloadDiagnostics
    /// Every fetch site `--source` found, translated or not, each with the statement it became.
    public var sourceSites: [FetchSite] = []
    /// What `PRAGMA foreign_keys` said on the app's connections when `IndexAdvisorRecorder` attached (the JSON
    /// Lines header's `foreign_keys`): true when one of them enforced them. A pragma the workload itself holds
    /// comes after it. Nil when no recording said.
    public var recordedForeignKeys: Bool? = nil

    public init(statements: [WorkloadStatement], diagnostics: WorkloadDiagnostics) {
        self.statements = statements
        self.diagnostics = diagnostics
    }

    /// Statements the advisor plans and measures (reads and writes that are not Core Data's bookkeeping).
    public var analysedStatements: [WorkloadStatement] { statements.filter { $0.kind.isAnalysed && !$0.isHousekeeping } }
}

/// A statement's text as an occurrence with its own number of parameters ran it (``WorkloadStatement/variants``).
public struct StatementVariant: Sendable, Codable, Equatable {
    /// The occurrence with its literals replaced by `?` parameters.
    public var sql: String
    /// One entry per parameter of `sql`: the literal it replaced, or nil for a placeholder the app bound.
    public var literalValues: [SQLValue?]

    public init(sql: String, literalValues: [SQLValue?]) {
        self.sql = sql
        self.literalValues = literalValues
    }
}

extension WorkloadStatement {
    /// The text and literal pattern of a value set of `count` parameters: the statement's own, or the
    /// variant's with that many (an IN list of another length); the statement's own when none has.
    public func form(forParameterCount count: Int) -> StatementVariant {
        if count != parameterCount, let variant = variants.first(where: { $0.literalValues.count == count }) { return variant }
        return StatementVariant(sql: sql, literalValues: literalValues)
    }

    /// The values of `sql`'s `IN (…)` lists, summed: 3 for `a IN (?, ?, ?)` and for `a IN (1, 2, 3)`; a
    /// subquery's `IN (SELECT …)` counts none; 0 without a list.
    public static func inListValues(in sql: String) -> Int {
        let tokens = SQLTokenList(sql)
        var total = 0
        var index = 0
        while index + 2 < tokens.count {
            guard tokens.isWord(index, "IN"), tokens.text(at: index + 1) == "(",
                  !tokens.isWord(index + 2, "SELECT"), !tokens.isWord(index + 2, "WITH"), !tokens.isWord(index + 2, "VALUES"),
                  tokens.text(at: index + 2) != ")" else {
                index += 1
                continue
            }
            var cursor = index + 2, depth = 0, values = 1
            while cursor < tokens.count {
                let text = tokens.text(at: cursor)
                if text == "(" { depth += 1 } else if text == ")" { if depth == 0 { break }; depth -= 1 } else if text == ",", depth == 0 { values += 1 }
                cursor += 1
            }
            total += values
            index = cursor + 1
        }
        return total
    }

    /// The IN-list lengths (``inListValues(in:)``) the workload showed for the statement, shortest first:
    /// its own text's and each variant's; empty when its text has no IN list of parameters.
    public var inListLengths: [Int] {
        let own = Self.inListValues(in: sql)
        guard own > 0 || variants.contains(where: { Self.inListValues(in: $0.sql) > 0 }) else { return [] }
        return Array(Set([own] + variants.map { Self.inListValues(in: $0.sql) })).sorted()
    }
}

