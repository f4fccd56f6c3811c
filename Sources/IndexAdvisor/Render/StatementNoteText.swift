/// The words of a ``StatementNote``, as the Markdown and HTML reports print them under a statement, and the
/// JSON report's `notes` holds them.
extension StatementNote: Codable {
    public var text: String {
        switch self {
        case .shapeUnreadable(let error):
            return "its shape could not be read (\(error)); it is timed but gets no candidates"
        case .shapeReadWithout(let parts, let tooMany):
            return "its shape was read without \(parts.map(Self.describe).joined(separator: " and ")): "
                + (tooMany ? "the statement has more parameters than SQLite allows once its literals are parameters"
                    : "the virtual tables that give shapes refuse \(parts.count == 1 ? "it" : "them")")
                + "; its plans and times are the whole statement's"
        case .collationSort(let column, let collation, let reason):
            return "ORDER BY \(column) COLLATE \(collation): \(reason). Sort with a binary comparator instead (in SwiftData, `SortDescriptor(…, comparator: .lexical)`; in Core Data, `compare:`)."
        case .coreDataStringSearch(let table, let function, let cost):
            return "\(table) is filtered with \(function) (Core Data's CONTAINS/LIKE/MATCHES with [c]/[d] options): a substring or case-insensitive search that no B-tree index can serve.\(Self.describe(cost)) Keep a normalised copy of the text and match it with BEGINSWITH, or use full-text search (FTS5)."
        case .functionOnColumn(let table, let function, let cost):
            return "\(table) is filtered through \(function)(…) on a column: an index on the column cannot serve it.\(Self.describe(cost)) For substring search use full-text search (FTS5); for case-insensitive matching, a NOCASE column or index."
        case .leadingWildcard(let column, let op, let pattern, let cost):
            return "\(column) \(op) '\(pattern)' starts with a wildcard: a substring search that no B-tree index can serve, so SQLite reads every row.\(Self.describe(cost)) Full-text search (an FTS5 table over \(column)) serves it."
        case .standIns(let names):
            return "timed with stand-ins for \(names.joined(separator: ", ")), which only the app's own connection registers; their cost here approximates the real one"
        case .noRecommendation(let reason): return reason.text
        case .other(let text): return text
        }
    }

    /// How a part of a statement set aside for its shape (see `MirrorText`) is named in its note.
    static func describe(_ part: String) -> String {
        switch part {
        case "RETURNING": return "its RETURNING clause (it only reads the rows written)"
        case "ON CONFLICT": return "its ON CONFLICT clause (the columns its DO UPDATE sets count as updated)"
        default: return "all but the first items of \(part)"
        }
    }

    /// ` It takes 1.2 ms per execution here, ×40 in the workload.`, or nothing when it was not timed.
    private static func describe(_ cost: StatementCost?) -> String {
        cost.map { " It takes \(Figures.duration($0.secondsPerExecution)) per execution here, ×\(Figures.count($0.count)) in the workload." } ?? ""
    }

    /// Read back from a JSON report: the note in its words.
    public init(from decoder: Decoder) throws {
        self = .other(try decoder.singleValueContainer().decode(String.self))
    }

    /// In a JSON report: the note in its words.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension NoRecommendationReason {
    /// The reason in words.
    public var text: String {
        switch self {
        case .notAnalysed:
            return "not analysed for indexes: the check command times the store as it is; analyze proposes and measures indexes"
        case .alternativeHelps(let number, let table, let columns, let predicate, let before, let after):
            let change = before.flatMap { before in after.map { " (\(Figures.duration(before)) → \(Figures.duration($0)))" } } ?? ""
            return "no index the model can declare helps it; alternative A\(number) on \(table) (\(columns.joined(separator: ", "))\(predicate.map { " WHERE " + $0 } ?? "")) does\(change): see the alternatives"
        case .candidatesUnmeasured(let unmeasured, let maxCandidates, let budget):
            let limit = budget.map { "--time-budget \($0) s or --max-candidates \(maxCandidates)" } ?? "--max-candidates \(maxCandidates)"
            return "no index recommended among the candidates measured; \(unmeasured) more that SQLite's planner would use for it \(unmeasured == 1 ? "was" : "were") not measured (\(limit); see rejected candidates)"
        case .shapeUnreadable:
            return "no index recommended: its shape could not be read (see above), so no candidate could be proposed for it"
        case .smallTable(let table, let rows):
            return "no index recommended: \(table) has only \(rows) row\(rows == 1 ? "" : "s"), so a scan is cheap"
        case .statisticsSuffice:
            return "no index recommended: ANALYZE statistics let SQLite use the existing indexes well (see the query advice)"
        case .slowAsWritten:
            return "no index recommended: what makes it slow is in the statement itself (see the notes above)"
        case .nothingToIndex:
            return "no index recommended: it filters and sorts on nothing an index can serve (it reads the whole table by design)"
        case .existingIndexesCover:
            return "no index recommended: no candidate could be proposed for it, since an index on each of its filter and sort columns exists already"
        case .virtualTableSearch(let tables, let shadow, let othersCovered):
            func names(_ list: [String]) -> String { list.map { "`\($0)`" }.joined(separator: ", ") }
            var parts: [String] = []
            if !tables.isEmpty {
                parts.append("it searches \(names(tables)), \(tables.count == 1 ? "a virtual table whose" : "virtual tables whose") own module answers the search (no index can serve \(tables.count == 1 ? "it" : "them"))")
            }
            if !shadow.isEmpty {
                parts.append("it reads \(names(shadow)), \(shadow.count == 1 ? "a table" : "tables") that a virtual table's module keeps for itself (its shadow \(shadow.count == 1 ? "table" : "tables")), where an index is the module's to make, not the app's")
            }
            return "no index recommended: " + parts.joined(separator: ", and ")
                + (othersCovered ? ", and an index exists already on each of its other filter and sort columns" : "")
        case .unindexableTerms(let terms):
            return "no index recommended: none of its terms can use an index (\(terms.isEmpty ? "no filter or sort" : terms.joined(separator: ", "))), so it reads the table whatever the indexes"
        case .noCandidateHelped:
            return "no index recommended: no candidate was used by the planner or made it measurably faster (see rejected candidates)"
        case .rejectedCandidateHelps(let table, let columns, let predicate, let before, let after, let reason):
            return "no index recommended: the candidate \(table)(\(columns.joined(separator: ", ")))\(predicate.map { " WHERE " + $0 } ?? "") made it faster "
                + "(\(Figures.duration(before)) → \(Figures.duration(after)) per execution) but was not recommended: \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason) (see rejected candidates)"
        }
    }
}
