import Foundation
import IndexAdvisor

/// What `indexadvisor workload` prints: what was read and set aside (the library's ``WorkloadSummary``, the
/// same facts an analysis's report gives), and the statements captured, by fingerprint, with their counts
/// and share of the observed time — before any store is analysed.
struct WorkloadListing: Encodable {
    /// One fingerprint.
    struct Statement: Encodable {
        var fingerprint: String
        var kind: String
        /// False for statements the advisor sets aside (transactions, pragmas, Core Data's bookkeeping).
        var analysed: Bool
        var housekeeping: Bool
        var count: Int
        /// Durations the source reported: how many executions had one, their sum and median (seconds).
        var observedExecutions: Int?
        var observedSeconds: Double?
        var medianSeconds: Double?
        /// Of the observed time of all statements, the part this one took (0…1).
        var timeShare: Double?
        var rows: Int?
        var tables: [String]
        var updatedColumns: [String]
        var sql: String
        /// The first occurrence as the app issued it, literals in place: what `analyze --workload` reads back
        /// and times (SQLite plans `LIMIT 20` differently from `LIMIT ?`).
        var text: String
        /// The tuples of values seen, one value per `?` of `sql` (literals and bound values alike), and how
        /// many executions each stands for: read back, they are the value sets timed.
        var samples: [[SQLValue]]
        var sampleWeights: [Double]
        var entity: String?
        var devicePlan: [String]?
        /// Core Data's two times, each alone: SQLite's (`sql connection fetch time`, `sql execution time`)
        /// and the total (`total fetch execution time`, `total count request execution time`), in seconds.
        var connectionExecutions: Int?
        var connectionSeconds: Double?
        var connectionMedianSeconds: Double?
        var totalFetchExecutions: Int?
        var totalFetchSeconds: Double?
        var totalFetchMedianSeconds: Double?
        /// Executions whose observed time is the total, the log giving no SQLite time for them.
        var observedFromTotalFetch: Int
        /// Executions that failed on the device (a `CoreData: error:` right after the statement), and the first error.
        var deviceFailures: Int
        var deviceError: String?
        var boundValueSamples: Int
        /// Where it was seen: `file:first-last`.
        var seen: [String]
    }

    /// What the document is, so that `analyze --workload` reads it back as a workload (``WorkloadListingReader``).
    var about = WorkloadListingReader.marker.description
    var version = 1
    /// What was read, as the analysis's report gives it (its keys are this document's top-level keys).
    var summary: WorkloadSummary
    var observedSeconds: Double
    var statements: [Statement]
    var writes: [TableWrites]
    var transactions: TransactionCounts

    var files: [String] { summary.files }
    var formats: [WorkloadFormatChoice] { summary.formats ?? [] }
    var observedTimeMeans: String { summary.observedTimeMeans ?? "" }
    var linesRead: Int { summary.linesRead }
    var statementsRead: Int { summary.statementsRead }
    var distinctStatements: Int { summary.distinctStatements }
    var analysedStatements: Int { summary.analysedStatements }
    var skipped: [String: Int] { summary.skipped }
    var skippedExamples: [String] { summary.skippedExamples }

    private enum CodingKeys: String, CodingKey {
        case about, version, observedSeconds, statements, writes, transactions
    }

    /// The summary's keys and this listing's own, in one object.
    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(about, forKey: .about)
        try container.encode(version, forKey: .version)
        try container.encode(observedSeconds, forKey: .observedSeconds)
        try container.encode(statements, forKey: .statements)
        try container.encode(writes, forKey: .writes)
        try container.encode(transactions, forKey: .transactions)
    }

    init(_ workload: Workload) {
        summary = WorkloadSummary(workload, analysedStatements: workload.analysedStatements.count)
        let total = workload.statements.reduce(0) { $0 + ($1.observedTiming?.totalSeconds ?? 0) }
        observedSeconds = total
        statements = workload.statements.map { statement in
            let timing = statement.observedTiming
            return Statement(
                fingerprint: statement.fingerprint.id, kind: statement.kind.rawValue,
                analysed: statement.kind.isAnalysed && !statement.isHousekeeping, housekeeping: statement.isHousekeeping,
                count: statement.count, observedExecutions: timing?.count, observedSeconds: timing?.totalSeconds,
                medianSeconds: timing?.medianSeconds, timeShare: timing.flatMap { total > 0 ? $0.totalSeconds / total : nil },
                rows: statement.observedRows, tables: statement.tables, updatedColumns: statement.updatedColumns,
                sql: statement.sql, text: statement.text, samples: Self.samples(of: statement).map(\.values),
                sampleWeights: Self.samples(of: statement).map(\.weight), entity: statement.entityName, devicePlan: statement.devicePlan,
                connectionExecutions: statement.observedConnectionTiming?.count, connectionSeconds: statement.observedConnectionTiming?.totalSeconds,
                connectionMedianSeconds: statement.observedConnectionTiming?.medianSeconds,
                totalFetchExecutions: statement.observedTotalTiming?.count, totalFetchSeconds: statement.observedTotalTiming?.totalSeconds,
                totalFetchMedianSeconds: statement.observedTotalTiming?.medianSeconds, observedFromTotalFetch: statement.observedTotalFallbacks,
                deviceFailures: statement.deviceFailures, deviceError: statement.deviceError,
                boundValueSamples: statement.observedBindings.count,
                seen: statement.sources.map { "\($0.file):\($0.firstLine)" + ($0.lastLine > $0.firstLine ? "-\($0.lastLine)" : "") })
        }
        // The most observed time first, then the most executed; ties keep the order of appearance.
        statements = statements.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if (x.observedSeconds ?? -1) != (y.observedSeconds ?? -1) { return (x.observedSeconds ?? -1) > (y.observedSeconds ?? -1) }
            if x.count != y.count { return x.count > y.count }
            return a.offset < b.offset
        }.map(\.element)
        writes = workload.writesByTable
        transactions = workload.transactions
    }

    /// The value tuples of `statement` that fill its `sql` (tuples of an IN list of another length are its
    /// variants' and are left out), with the executions each stands for.
    static func samples(of statement: WorkloadStatement) -> [(values: [SQLValue], weight: Double)] {
        statement.observedBindings.enumerated().compactMap { offset, values in
            guard values.count == statement.parameterCount else { return nil }
            let weights = statement.observedBindingWeights
            return (values, weights.indices.contains(offset) ? weights[offset] : 1)
        }
    }

    /// A versioned JSON document (keys sorted).
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// A plain-text report: the counts, the reasons lines were skipped, the statements (the `top` most
    /// observed time first; 0 for all), the writes per table and the transactions.
    func text(top: Int) -> String {
        var lines: [String] = []
        lines.append("Read \(IndexAdvisorCommand.sanitized(files.joined(separator: ", "))): \(Figures.counted(linesRead, "line")), \(Figures.counted(statementsRead, "statement"))"
                     + " (\(Figures.count(distinctStatements)) distinct, \(Figures.count(analysedStatements)) to analyse).")
        for choice in formats {
            lines.append("Format: \(IndexAdvisorCommand.sanitized(choice.summary)).")
        }
        let skippedTotal = skipped.values.reduce(0, +)
        if skippedTotal > 0 {
            lines.append("Skipped, by reason (\(Figures.count(skippedTotal)) in all):")
            for (reason, count) in skipped.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                lines.append("  \(pad(Figures.count(count), 9))  \(IndexAdvisorCommand.sanitized(reason))")
            }
            if let example = skippedExamples.first { lines.append("  first: \(IndexAdvisorCommand.sanitized(example))") }
        }
        if observedSeconds > 0 {
            lines.append("Observed time: \(Figures.duration(observedSeconds)) over \(Figures.counted(statements.reduce(0) { $0 + ($1.observedExecutions ?? 0) }, "execution")): \(observedTimeMeans).")
        } else if !statements.isEmpty {
            // Say why the time columns are empty, and how to fill them.
            lines.append("No observed times (time, share and median show –): the input carries none. Core Data's SQL debug output has them where it prints 'sql connection fetch time' / 'total fetch execution time' lines, the recorder always records them, .sql files have none; analyze measures every statement itself either way.")
        }
        if !statements.isEmpty {
            lines.append("")
            let shown = top > 0 ? Array(statements.prefix(top)) : statements
            var rows = [["#", "count", "time", "share", "median", "kind", "use", "tables", "statement"]]
            for (offset, statement) in shown.enumerated() {
                rows.append([
                    String(offset + 1), Figures.count(statement.count),
                    statement.observedSeconds.map(Figures.duration) ?? "–",
                    statement.timeShare.map { String(format: "%.1f%%", $0 * 100) } ?? "–",
                    statement.medianSeconds.map(Figures.duration) ?? "–",
                    statement.kind, statement.analysed ? "analyse" : (statement.housekeeping ? "bookkeeping" : "set aside"),
                    statement.tables.isEmpty ? "–" : IndexAdvisorCommand.sanitized(statement.tables.joined(separator: ", ")),
                    Self.abbreviated(statement.sql),
                ])
            }
            lines += table(rows, rightAligned: [0, 1, 2, 3, 4])
            if shown.count < statements.count {
                lines.append("… and \(Figures.count(statements.count - shown.count)) more (--top 0 lists all)")
            }
            for (offset, statement) in statements.enumerated() where statement.deviceFailures > 0 {
                lines.append("Failed on the device: #\(offset + 1), \(Figures.counted(statement.deviceFailures, "execution")) of \(Figures.count(statement.count)): \(IndexAdvisorCommand.sanitized(statement.deviceError ?? "error"))")
            }
            let plans = statements.filter { $0.devicePlan != nil }.count
            if plans > 0 { lines.append("Plans printed by the device (SQLDebug 4): \(Figures.counted(plans, "statement")); see --format json.") }
        }
        if !writes.isEmpty {
            lines.append("")
            lines.append("Writes per table (executions):")
            let width = writes.map(\.table.count).max() ?? 0
            for table in writes {
                var parts: [String] = []
                if table.inserts > 0 { parts.append(Figures.counted(table.inserts, "insert")) }
                if table.updates > 0 { parts.append(Figures.counted(table.updates, "update")) }
                if table.deletes > 0 { parts.append(Figures.counted(table.deletes, "delete")) }
                var line = "  \(IndexAdvisorCommand.sanitized(table.table.padding(toLength: width, withPad: " ", startingAt: 0)))  \(parts.joined(separator: ", "))"
                if !table.updatedColumns.isEmpty {
                    let columns = table.updatedColumns.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                    line += "; updated columns: " + IndexAdvisorCommand.sanitized(columns.map { "\($0.key) \(Figures.count($0.value))" }.joined(separator: ", "))
                }
                lines.append(line)
            }
        }
        if transactions != TransactionCounts() {
            lines.append("Transactions: \(Figures.counted(transactions.begins, "begin")), \(Figures.counted(transactions.commits, "commit")), "
                         + "\(Figures.counted(transactions.rollbacks, "rollback")), \(Figures.counted(transactions.savepoints, "savepoint statement")).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `sql` on one line (runs of white space as one space), cut to 100 characters.
    static func abbreviated(_ sql: String, limit: Int = 100) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        return IndexAdvisorCommand.sanitized(shortened(words.joined(separator: " "), limit: limit))
    }

    /// `flat` in at most `limit` characters, shortened in the middle so that what tells statements apart
    /// stays: the verb, then `FROM …` and `WHERE …` (a Core Data fetch lists every column before its FROM,
    /// so cutting the end made different fetches look the same). The column list goes first, then the
    /// middle of a long FROM (its joins), then the end of the WHERE.
    static func shortened(_ flat: String, limit: Int) -> String {
        guard flat.count > limit else { return flat }
        guard let anchor = flat.range(of: " FROM ", options: .caseInsensitive) ?? flat.range(of: " WHERE ", options: .caseInsensitive) else {
            return String(flat.prefix(limit / 2)) + "…" + String(flat.suffix(limit - limit / 2 - 1))
        }
        let offset = flat.distance(from: flat.startIndex, to: anchor.lowerBound)
        let head = String(flat.prefix(offset))
        var tail = String(flat.dropFirst(offset))
        let verb = String(head.prefix { $0 != " " })
        // The head keeps at least its first 24 characters (the verb and its first columns).
        let headKeep = min(head.count, 24)
        let room = limit - headKeep - (head.count > headKeep ? 2 : 0)
        if tail.count > room {
            // Keep WHERE: cut the middle of FROM's joins, then the end of the WHERE.
            if let whereRange = tail.range(of: " WHERE ", options: .caseInsensitive), whereRange.lowerBound > tail.startIndex {
                let whereOffset = tail.distance(from: tail.startIndex, to: whereRange.lowerBound)
                let from = String(tail.prefix(whereOffset))
                var condition = String(tail.dropFirst(whereOffset))
                let fromRoom = max(16, room - condition.count - 1)
                let shownFrom = from.count <= fromRoom ? from : String(from.prefix(fromRoom - 1)) + "…"
                if shownFrom.count + condition.count > room { condition = String(condition.prefix(max(8, room - shownFrom.count - 1))) + "…" }
                tail = shownFrom + condition
            } else {
                tail = String(tail.prefix(room - 1)) + "…"
            }
        }
        guard head.count + tail.count > limit else { return head + tail }
        let headRoom = limit - tail.count - 2
        // Cut the column list after a whole word (at a space), never inside a name.
        var kept = String(head.prefix(max(verb.count, headRoom)))
        if let space = kept.lastIndex(of: " "), kept.distance(from: kept.startIndex, to: space) >= verb.count { kept = String(kept[..<space]) }
        return kept + " …" + tail
    }

    /// Rows as columns separated by two spaces; the last column is not padded.
    private func table(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let columns = rows.first?.count ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                if i == columns - 1 { return cell }
                return rightAligned.contains(i) ? pad(cell, widths[i]) : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
