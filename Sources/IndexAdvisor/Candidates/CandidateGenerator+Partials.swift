/// The partial-index candidates (partialindex.html): an index that holds only the rows a term every execution
/// carries keeps, when they are a small share of the table.
extension CandidateGenerator {
    /// How many of a statement's plain keys an expression term's partial index is tried with.
    static let expressionPartialKeys = 2

    /// The value every one of `observed` (a statement's bound-value tuples) binds to `parameter` (1-based), when
    /// they all bind the same non-NULL value; nil otherwise: only then is a term on it one every execution carries.
    static func constantValue(of parameter: Int?, in observed: [[SQLValue]]) -> SQLValue? {
        guard let parameter, let value = observed.first?[safe: parameter - 1], !value.isNull,
              observed.allSatisfy({ $0[safe: parameter - 1] == value }) else { return nil }
        return value
    }

    /// `x IS NOT NULL` alone cannot drive a plain index without statistics, but a partial index on it can;
    /// when the statement also sorts or ranges on x, the plain index serves it already.
    mutating func addNotNullPartials(_ keys: AccessKeys, to result: inout [IndexCandidate]) {
        let ordered = Set(([keys.sortColumns.first, keys.range].compactMap { $0?.name?.sqlFolded }))
        // Only equality columns that narrow the rows go before it: a flag that is 0 on nearly every row
        // (`ZISOBFUSCATED = 0`) adds a key column and nothing the predicate has not already selected.
        let narrowing = zip(keys.equalities, keys.matched).filter { $0.1 <= poorLeadingShare }.map { keys.key($0.0) }
        for constraint in keys.access.constraints where constraint.op == .isNotNull && keys.isIndexable(constraint.column)
            && !ordered.contains(constraint.column.sqlFolded) {
            let column = keys.key(constraint)
            let predicate = "\(SQLIdentifier.quote(column.name ?? constraint.column)) IS NOT NULL"
            if !narrowing.isEmpty {
                add(narrowing + [column], predicate: predicate, keys: keys, to: &result)
            }
            add([column], predicate: predicate, keys: keys, to: &result)
        }
    }

    /// A flag the app always filters with the same value (at most 8 distinct values, one of which holds at least
    /// ``skewedShare`` of the rows), when that value is a rare one (at most ``poorLeadingShare`` of the rows):
    /// index only the rows it wants. A partial index on the common value holds nearly the whole table and
    /// saves nothing a full index on the same key does not (partialindex.html).
    mutating func addConstantFilterPartials(_ keys: AccessKeys, observed: [[SQLValue]], to result: inout [IndexCandidate]) {
        let table = keys.table
        for constraint in keys.equalities where constraint.op == .equal {
            guard let first = Self.constantValue(of: constraint.parameter, in: observed),
                  let columnStatistics = statistics.statistics(table: table, columns: [constraint.column]),
                  columnStatistics.distinctValues <= 8, columnStatistics.mostCommonShare >= skewedShare,
                  let share = statistics.valueShares(table: table, column: constraint.column)?[first], share <= poorLeadingShare else { continue }
            let rest = keys.equalityColumns.filter { $0.name?.sqlFolded != constraint.column.sqlFolded } + keys.tail
            let predicate = "\(SQLIdentifier.quote(table.column(named: constraint.column)?.name ?? constraint.column)) = \(first.sqlLiteral)"
            add(rest.isEmpty ? [keys.key(constraint)] : rest, predicate: predicate, keys: keys, to: &result)
            // And without the join's columns, for the table as the join's outer loop (``addKeyOrders(_:to:)``).
            let own = rest.filter { !keys.joinColumns.contains($0.name?.sqlFolded ?? "") }
            if own.count < rest.count, !own.isEmpty { add(own, predicate: predicate, keys: keys, to: &result) }
        }
    }

    /// A sentinel the app always excludes (`parent_id != 0`, `status != 'done'` with one observed value): when the
    /// excluded value holds most rows and what is left is a small share (at most ``poorLeadingShare``), a partial
    /// index `WHERE col != v` holds only those rows; keyed by the access's other columns, else by the column.
    /// `!=` cannot drive an index search (optoverview.html#where_clause), so no full index serves it.
    mutating func addSentinelPartials(_ keys: AccessKeys, observed: [[SQLValue]], to result: inout [IndexCandidate]) {
        let table = keys.table
        for constraint in keys.access.constraints where constraint.op == .notEqual && keys.isIndexable(constraint.column) {
            guard let value = Self.constantValue(of: constraint.parameter, in: observed),
                  let columnStatistics = statistics.statistics(table: table, columns: [constraint.column]),
                  let share = statistics.share(of: value, table: table, column: constraint.column),
                  1 - share - columnStatistics.nullFraction <= poorLeadingShare else { continue }
            let column = keys.key(constraint)
            let predicate = "\(SQLIdentifier.quote(column.name ?? constraint.column)) != \(value.sqlLiteral)"
            let rest = keys.equalityColumns + keys.tail
            add(rest.isEmpty ? [column] : rest, predicate: predicate, keys: keys, to: &result)
            if !rest.isEmpty { add([column], predicate: predicate, keys: keys, to: &result) }
        }
    }

    /// A term on an expression compared with a literal (`(flags & 2) != 0`, `lower(kind) = 'draft'`) that holds a
    /// small share of the rows (at most ``poorLeadingShare``, counted on the sample): a partial index `WHERE` that
    /// term (partialindex.html: the statement's term implies the index's predicate when it is the same
    /// expression), keyed by the first two of `keyed` (the statement's plain candidates on the table, its main
    /// orders first), else by the column the expression reads.
    /// `observed`: the statement's bound-value tuples; a parameter every one binds to the same value stands for it.
    package mutating func expressionPartials(for filters: [ExpressionFilter], keyed: [IndexCandidate],
                                             observed: [[SQLValue]] = []) -> [IndexCandidate] {
        var result: [IndexCandidate] = []
        for filter in filters where filter.op == .notEqual || filter.op == .equal {
            guard let literal = filter.literal ?? Self.constantValue(of: filter.parameter, in: observed)?.sqlLiteral,
                  let table = schema.table(named: filter.table), table.isIndexable, table.rowCount >= PlanFinding.smallTableRows else { continue }
            let predicate = "(\(filter.expression)) \(filter.op == .equal ? "=" : "!=") \(literal)"
            guard let share = statistics.share(matching: predicate, table: table), share <= poorLeadingShare else { continue }
            var keys = keyed.filter { $0.table.sqlFolded == table.name.sqlFolded && $0.partialPredicate == nil }.map(\.columns)
            if keys.isEmpty, let column = table.columns.first(where: { filter.expression.contains(SQLIdentifier.quote($0.name)) }) {
                keys = [[IndexColumn(name: column.name)]]
            }
            for columns in keys.prefix(Self.expressionPartialKeys) {
                let candidate = IndexCandidate(table: table.name, columns: columns, partialPredicate: predicate)
                if !result.contains(where: { $0.key == candidate.key }), !table.indexes.contains(where: { candidate.isServed(by: $0) }) {
                    result.append(candidate)
                }
            }
        }
        return result
    }
}
