/// Proposes candidate indexes for one statement's access to one table, from the shape SQLite reported.
///
/// Column order follows SQLite's rules for using an index (https://sqlite.org/optoverview.html): the
/// equality columns first (`=`, `IN`, `IS`, `IS NULL`; most selective first, by measured distinct
/// counts), then the ORDER BY columns in the statement's order and directions (all-descending becomes
/// all-ascending: SQLite scans an index backwards), or else one range column (`<`, `>`, a LIKE/GLOB prefix).
/// Single-column candidates compete too, and an `IS NOT NULL` filter gets a partial index on
/// `column IS NOT NULL` (a plain index cannot be driven by `IS NOT NULL` without statistics). Sorts under
/// a collation no index can carry contribute no columns. The what-if planner and measurement decide.
package struct CandidateGenerator {
    package let schema: Schema
    package var statistics: ColumnStatisticsReader
    /// At most this many key columns per candidate.
    package var maximumColumns = 6
    /// An index led by an equality on a column whose values each match more than this share of the rows
    /// (a flag, a status with a few values) reads a large part of the table per lookup; such candidates
    /// are set aside unless they are partial indexes.
    package var poorLeadingShare = 0.25
    /// Candidates not proposed, with the reason.
    package private(set) var setAside: [(IndexCandidate, String)] = []

    package init(schema: Schema, statistics: ColumnStatisticsReader) {
        self.schema = schema
        self.statistics = statistics
    }

    package mutating func candidates(for access: TableAccess) -> [IndexCandidate] {
        guard let table = schema.table(named: access.table), !table.isVirtual else { return [] }
        let rowid = table.rowidAlias?.name.lowercased()
        func isIndexable(_ column: String) -> Bool {
            !column.isEmpty && column.lowercased() != "rowid" && column.lowercased() != rowid && table.column(named: column) != nil
        }
        func key(_ constraint: ColumnConstraint, collation: String? = nil) -> IndexColumn {
            IndexColumn(name: table.column(named: constraint.column)?.name ?? constraint.column,
                        collation: collation ?? constraint.collation)
        }

        // Equality columns, one entry per column, most selective first.
        var equalities: [ColumnConstraint] = []
        for constraint in access.constraints where constraint.op.isEquality && isIndexable(constraint.column) {
            if !equalities.contains(where: { $0.column.lowercased() == constraint.column.lowercased() }) {
                equalities.append(constraint)
            }
        }
        let matched = equalities.map { constraint -> Double in
            guard let statistics = statistics.statistics(table: table, columns: [constraint.column]) else { return 1 }
            return constraint.op == .isNull ? statistics.nullFraction : statistics.matchedFraction
        }
        let equalityColumns = zip(equalities, matched).enumerated()
            .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
            .map { key($0.element.0) }
        let equalityNames = Set(equalityColumns.compactMap { $0.name?.lowercased() })

        // Sort columns, unless a term cannot be served by any index.
        var sortColumns: [IndexColumn] = []
        if !access.orderBy.isEmpty, access.orderBy.allSatisfy({ $0.hasIndexableCollation }) {
            var terms = access.orderBy
            // Index entries end with the rowid, so a trailing rowid term in the same direction as the term
            // before it is served already; in the other direction it must be an explicit key column.
            var explicitRowid: IndexColumn?
            if terms.count >= 2, let last = terms.last, last.column.lowercased() == rowid || last.column.lowercased() == "rowid" {
                terms.removeLast()
                if last.isDescending != terms.last!.isDescending {
                    if let alias = table.rowidAlias {
                        explicitRowid = IndexColumn(name: alias.name, isDescending: last.isDescending)
                    } else {
                        terms = []  // a bare rowid cannot be an index key
                    }
                }
            }
            if !terms.isEmpty, terms.allSatisfy({ isIndexable($0.column) }) {
                let remaining = terms.filter { !equalityNames.contains($0.column.lowercased()) }
                let flip = remaining.allSatisfy(\.isDescending)
                sortColumns = remaining.map { term in
                    IndexColumn(name: table.column(named: term.column)?.name ?? term.column,
                                isDescending: flip ? false : term.isDescending, collation: term.collation)
                }
                if let explicitRowid, !sortColumns.isEmpty {
                    sortColumns.append(IndexColumn(name: explicitRowid.name, isDescending: flip ? !explicitRowid.isDescending : explicitRowid.isDescending))
                }
            }
        }

        // One range column: the most selective of the ranges and prefix matches.
        var ranges: [IndexColumn] = []
        for constraint in access.constraints where isIndexable(constraint.column) && !equalityNames.contains(constraint.column.lowercased()) {
            switch constraint.op {
            case .greaterThan, .greaterOrEqual, .lessThan, .lessOrEqual:
                ranges.append(key(constraint))
            case .glob:
                ranges.append(key(constraint, collation: "BINARY"))
            case .like:
                // SQLite's default LIKE ignores ASCII case; only a NOCASE index can serve its prefix.
                ranges.append(key(constraint, collation: "NOCASE"))
            default:
                continue
            }
        }
        let range = ranges.max { a, b in
            let da = statistics.statistics(table: table, columns: [a.name ?? ""])?.distinctValues ?? 0
            let db = statistics.statistics(table: table, columns: [b.name ?? ""])?.distinctValues ?? 0
            return da < db
        }

        var result: [IndexCandidate] = []
        func add(_ columns: [IndexColumn], predicate: String? = nil) {
            var unique: [IndexColumn] = []
            for column in columns where !unique.contains(where: { $0.name?.lowercased() == column.name?.lowercased() }) {
                unique.append(column)
            }
            guard !unique.isEmpty else { return }
            let candidate = IndexCandidate(table: table.name, columns: Array(unique.prefix(maximumColumns)), partialPredicate: predicate)
            guard !result.contains(where: { $0.key == candidate.key }),
                  !table.indexes.contains(where: { candidate.isServed(by: $0) }) else { return }
            // Only all-equality candidates: a flag followed by sort or range columns (`is_deleted, hostname`)
            // keeps rows in the order the statement needs and is measured like any other.
            if predicate == nil, unique.allSatisfy({ equalityNames.contains(($0.name ?? "").lowercased()) }),
               let leading = unique.first?.name,
               let leadingStatistics = statistics.statistics(table: table, columns: [leading]),
               leadingStatistics.matchedFraction > poorLeadingShare {
                if !setAside.contains(where: { $0.0.key == candidate.key }) {
                    setAside.append((candidate, String(format: "not measured: its leading column %@ has %d distinct values, so each lookup matches about %.0f%% of the rows (a partial index on the value the app filters for serves it better)", leading, leadingStatistics.distinctValues, leadingStatistics.matchedFraction * 100)))
                }
                return
            }
            result.append(candidate)
        }

        if !sortColumns.isEmpty { add(equalityColumns + sortColumns) }
        if let range { add(equalityColumns + [range]) }
        add(equalityColumns)
        // Without one of the less selective equality columns (a low-value one, such as Core Data's Z_ENT
        // on a hierarchy table, may only widen the index).
        if equalityColumns.count >= 2 {
            for left in equalityColumns.indices.dropFirst() {
                var fewer = equalityColumns
                fewer.remove(at: left)
                if !sortColumns.isEmpty { add(fewer + sortColumns) }
                if let range { add(fewer + [range]) }
            }
        }
        for column in equalityColumns { add([column]) }
        if let range { add([range]) }
        if let first = sortColumns.first { add([first]) }
        for constraint in access.constraints where constraint.op == .isNotNull && isIndexable(constraint.column) {
            let column = key(constraint)
            add(equalityColumns + [column], predicate: "\(SQLIdentifier.quote(column.name ?? constraint.column)) IS NOT NULL")
            add([column], predicate: "\(SQLIdentifier.quote(column.name ?? constraint.column)) IS NOT NULL")
        }
        return result
    }
}
