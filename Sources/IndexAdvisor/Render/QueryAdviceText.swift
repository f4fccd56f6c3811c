/// The words of a ``QueryAdviceFinding``, as every report prints a query advice, and its JSON form.
extension QueryAdvice: Codable {
    /// One or two sentences: what is wrong and what to do.
    public var advice: String {
        switch finding {
        case .collationSort(let column, let collation):
            return "ORDER BY \(column) COLLATE \(collation) cannot use an index: the collation exists only on the app's connection. Sorted with a binary comparator (SwiftData: `SortDescriptor(\\.property, comparator: .lexical)`; Core Data: `compare:`) and with an index on \(column), measured here, it returns rows in order."
        case .caseInsensitiveLike(let column, let pattern, let prefix):
            return "\(column) LIKE '\(pattern)' ignores case, so SQLite cannot use a BINARY index on \(column) for the prefix. `GLOB '\(prefix)*'` (or `\(column) >= '\(prefix)' AND \(column) < …`) can; an index on \(column) COLLATE NOCASE is the alternative that keeps LIKE."
        case .substringSearch(let table, let search):
            let what: String
            // Core Data's words only for Core Data's search (a new user's GRDB store read "Core Data's CONTAINS[cd]").
            var coreData = false
            switch search {
            case .leadingWildcard(let column, let op): what = "\(column) \(op) with a leading wildcard"
            case .functions(let functions):
                what = functions.joined(separator: ", ")
                coreData = functions.contains { $0.hasPrefix("NSCoreData") }
            }
            let normalised = coreData
                ? "; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can."
                : "."
            return "\(table) is searched by substring (\(what)), which no B-tree index can serve: SQLite reads every row. A full-text index (an FTS5 table over the searched text, queried with MATCH) can\(normalised)"
        case .orAcrossColumns(let table, let columns):
            return "The filter ORs conditions on \(columns.joined(separator: ", ")) of \(table): SQLite can only avoid reading every row with an index on each (it then runs a MULTI-INDEX OR), or you can split it into a UNION of lookups."
        case .subquery:
            return "A correlated or IN subquery reads its whole table for each outer row. An index on the subquery's filter columns, or rewriting it as a JOIN, avoids the repeated scans."
        case .statistics(let change):
            return Self.words(change)
        case .mixedSortDirections(let table, let columns):
            return "The index on \(table)(\(columns.joined(separator: ", "))) mixes directions to serve an ORDER BY that does. If one direction would do for the app (e.g. both DESC), an index in one direction serves it (SQLite reads it backwards for the other), and any model can declare that one."
        case .other(let advice, _):
            return advice
        }
    }

    /// What the change does to the results, when it is not strictly equivalent.
    public var caveat: String? {
        switch finding {
        case .collationSort(let column, _):
            return "rows then come in byte order (upper case before lower case, no locale rules); sort for display in the app if that matters; the index on \(column) is part of this change"
        case .caseInsensitiveLike:
            return "GLOB is case-sensitive: equivalent only when the stored values and the pattern have one case (e.g. lower-case hashes)"
        case .orAcrossColumns:
            return "each index adds write time; compare with the write costs in this report before adding them"
        case .statistics(let change):
            return change.isFaster ? nil : "made slower by the statistics advised for the rest of the workload"
        case .substringSearch, .subquery, .mixedSortDirections:
            return nil
        case .other(_, let caveat):
            return caveat
        }
    }

    /// The statistics advice: the statement's plan and time with statistics, then the workload's.
    private static func words(_ change: StatisticsChange) -> String {
        let plans = "without statistics \(change.planWithout), with them \(change.planWith)"
        let times = "\(Figures.duration(change.secondsWithout)) → \(Figures.duration(change.secondsWith))"
        let how = change.isCoreData
            ? "In Core Data, add the store with `NSSQLiteAnalyzeOption` (it runs ANALYZE); SwiftData has no such option, so an index is the fix there"
            : "Run `ANALYZE` once (and again after large changes to the data); the statistics measured here are exactly the ones it writes"
        let slower = change.slowerStatements
        let workload = "Across the workload, statistics save \(Figures.duration(change.workloadNetSeconds)) net per workload: \(change.fasterStatements.joined(separator: ", ")) faster"
            + (slower.isEmpty ? ", none measurably slower." : "; slower: " + slower.map { "\($0.statement) \(Figures.duration($0.beforeSeconds)) → \(Figures.duration($0.afterSeconds))" }.joined(separator: ", ") + ".")
        return change.isFaster
            ? "With ANALYZE statistics SQLite plans it differently (\(plans)) and it takes \(times). \(workload) \(how)."
            : "With ANALYZE statistics SQLite would plan it differently (\(plans)) and it would take \(times): slower. \(workload)"
    }

    private enum CodingKeys: String, CodingKey {
        case kind, statementID, advice, timing, rewrite, rewriteTiming, rewritePlan, caveat
    }

    /// Read back from a JSON report: the advice in its words.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try container.decode(Kind.self, forKey: .kind), statementID: try container.decode(String.self, forKey: .statementID),
                  finding: .other(advice: try container.decode(String.self, forKey: .advice),
                                  caveat: try container.decodeIfPresent(String.self, forKey: .caveat)),
                  timing: try container.decodeIfPresent(Timing.self, forKey: .timing),
                  rewrite: try container.decodeIfPresent(String.self, forKey: .rewrite),
                  rewriteTiming: try container.decodeIfPresent(Timing.self, forKey: .rewriteTiming),
                  rewritePlan: try container.decodeIfPresent(QueryPlan.self, forKey: .rewritePlan))
    }

    /// In a JSON report: the fields it always had, the advice and caveat in words.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeFields([.kind: kind, .statementID: statementID, .advice: advice, .timing: timing, .rewrite: rewrite,
                                    .rewriteTiming: rewriteTiming, .rewritePlan: rewritePlan, .caveat: caveat])
    }
}
