/// Proposes candidate indexes for one statement's access to one table, from the shape SQLite reported.
///
/// Column order follows SQLite's rules for using an index (https://sqlite.org/optoverview.html): the
/// equality columns first (`=`, `IN`, `IS`, `IS NULL`; most selective first, by measured distinct
/// counts), then the ORDER BY columns in the statement's order and directions (all-descending becomes
/// all-ascending: SQLite scans an index backwards), or else one range column (`<`, `>`, a LIKE/GLOB prefix).
/// Single-column candidates compete too, and an `IS NOT NULL` filter gets a partial index on
/// `column IS NOT NULL` (a plain index cannot be driven by `IS NOT NULL` without statistics). Sorts under
/// a collation no index can carry contribute no columns. Also proposed: a partial index `WHERE flag = v`
/// when every observed execution binds the same value to a skewed column of at most 8 values; a covering
/// variant when the statement reads at most 3 more columns; and, across statements on one table, orders
/// that put their common equality columns first so one index can serve several. The what-if planner
/// and measurement decide.
package struct CandidateGenerator {
    package let schema: Schema
    package var statistics: ColumnStatisticsReader
    /// At most this many key columns per candidate.
    package var maximumColumns = 6
    /// An index led by an equality on a column whose values each match more than this share of the rows
    /// (a flag, a status with a few values) reads a large part of the table per lookup; such candidates
    /// are set aside unless they are partial indexes.
    package var poorLeadingShare = 0.25
    /// A column is skewed, and a constant filter on it worth a partial index, when one value (a default: 0,
    /// `'closed'`, a status most rows reach) holds at least this share of its rows. Values spread evenly over a
    /// few groups (seven line numbers, a week's days) are a key column: one literal in the workload is then
    /// likely one of many the app binds, and an index holding only its rows serves that one value.
    package var skewedShare = 0.5
    /// A column wider than this on average, in bytes, is not a covering column (unless the table is small).
    package var maximumCoveringWidth = 64.0
    /// Candidates not proposed, with the reason.
    package private(set) var setAside: [(IndexCandidate, RejectionReason)] = []
    /// The equality columns and the sort-or-range tail of each statement's main candidate, per table.
    private var shapes: [(table: String, equalities: [IndexColumn], tail: [IndexColumn])] = []

    package init(schema: Schema, statistics: ColumnStatisticsReader) {
        self.schema = schema
        self.statistics = statistics
    }

    /// Candidates for one statement's access to one table; `observed` are the statement's observed
    /// bound-value tuples (for constant-filter partial indexes), `samples` the values it is timed with
    /// (for the share of rows a flag's bound value matches).
    ///
    /// A table under ``PlanFinding/smallTableRows`` rows gets candidates only as part of a join (`inJoin`):
    /// scanning it alone is cheap, but an index on it can let the planner start a join there (``JoinSets``).
    package mutating func candidates(for access: TableAccess, observed: [[SQLValue]] = [], samples: [[SQLValue]] = [],
                                     inJoin: Bool = false) -> [IndexCandidate] {
        guard let table = schema.table(named: access.table), table.isIndexable,
              inJoin || table.rowCount >= PlanFinding.smallTableRows else { return [] }
        // The terms inside an OR's branches are not terms every row matches: no key of the whole access
        // holds them; each branch gets keys of its own (``addOrBranches(_:table:samples:to:)``).
        let keys = accessKeys(table: table, access: access.withoutOrBranches, samples: samples)
        var result: [IndexCandidate] = []
        addOrBranches(access, table: table, samples: samples, to: &result)
        addKeyOrders(keys, to: &result)
        addNotNullPartials(keys, to: &result)
        addConstantFilterPartials(keys, observed: observed, to: &result)
        addSentinelPartials(keys, observed: observed, to: &result)
        addCovering(keys, to: &result)
        addEntityLed(keys, to: &result)
        return result
    }

    /// For an OR across columns (``TableAccess/orBranches``): each branch's plain key orders, as SQLite
    /// plans the branch (its terms alone). A MULTI-INDEX OR needs one for every branch (optoverview.html#or_optimizations),
    /// so these are tried together as a set (``JoinSets``); a branch an existing index serves adds none.
    private mutating func addOrBranches(_ access: TableAccess, table: Table, samples: [[SQLValue]], to result: inout [IndexCandidate]) {
        for branch in access.orBranches ?? [] {
            addKeyOrders(accessKeys(table: table, access: access.orBranch(branch), samples: samples), to: &result)
        }
    }

    /// The access's key columns: its equality columns (most selective first), its sort columns and its range column.
    private mutating func accessKeys(table: Table, access: TableAccess, samples: [[SQLValue]]) -> AccessKeys {
        // On a Core Data or SwiftData entity table, `Z_ENT` and `Z_OPT` are Core Data's bookkeeping, not
        // attributes: no model can declare an index on them, and Core Data keeps its own `Z_ENT` index.
        // (`Z_ENT` comes back only as the leading column on a hierarchy table, ``addEntityLed(_:to:)``.)
        var keys = AccessKeys(table: table, access: access, isEntityTable: schema.coreData?.rootEntity(ofTable: table.name) != nil)
        // Equality columns, one entry per column, most selective first.
        for constraint in access.constraints where constraint.op.isEquality && keys.isIndexable(constraint.column) && keys.isModelColumn(constraint.column) {
            if !keys.equalities.contains(where: { $0.column.sqlFolded == constraint.column.sqlFolded }) {
                keys.equalities.append(constraint)
            }
        }
        keys.matched = keys.equalities.map { matchedShare($0, table: table, samples: samples) }
        keys.lookedUp = keys.equalities.map { lookedUpShares($0, table: table, samples: samples) }
        keys.equalityColumns = zip(keys.equalities, keys.matched).enumerated()
            .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
            .map { keys.key($0.element.0) }
        keys.equalityNames = Set(keys.equalityColumns.compactMap { $0.name?.sqlFolded })
        keys.sortColumns = sortColumns(keys)
        // An all-descending sort is served by the ascending key scanned backwards, and by the key in its own
        // direction, which reads forwards (a backward scan steps through each page's cells in reverse and
        // moves to the previous leaf by its parent): both compete (lang_createindex.html, "DESC").
        let sortTerms = access.orderBy.filter { !keys.equalityNames.contains($0.column.sqlFolded) }
        if !keys.sortColumns.isEmpty, !sortTerms.isEmpty, sortTerms.allSatisfy(\.isDescending) {
            keys.descendingSort = keys.sortColumns.map {
                IndexColumn(name: $0.name, expression: $0.expression, isDescending: !$0.isDescending, collation: $0.collation)
            }
        }
        keys.range = rangeColumn(keys)
        return keys
    }

    /// The share of rows the statement's equality on this column matches: from the values it binds when
    /// the column has few values (a skewed flag: `is_favorite = 1` may match 5 %, not 50 %), else on average.
    private mutating func matchedShare(_ constraint: ColumnConstraint, table: Table, samples: [[SQLValue]]) -> Double {
        guard let columnStatistics = statistics.statistics(table: table, columns: [constraint.column]) else { return 1 }
        if constraint.op == .isNull { return columnStatistics.nullFraction }
        if let parameter = constraint.parameter, !samples.isEmpty,
           let shares = statistics.valueShares(table: table, column: constraint.column) {
            // A value the snapshot lacks (a row already deleted, a key not yet written) is taken to be as rare
            // as the rarest value the column holds, not rarer: the snapshot is one moment of the app's data,
            // and a column of seven even values must not lead a key for a value it happens not to hold.
            let absent = shares.count >= 2 ? shares.values.min() ?? 0 : 0
            let values = samples.compactMap { $0[safe: parameter - 1] }
            if !values.isEmpty { return values.reduce(0) { $0 + (shares[$1] ?? absent) } / Double(values.count) }
        }
        return columnStatistics.matchedFraction
    }

    /// The least and most of the shares ``matchedShare(_:table:samples:)`` averages, and the value that
    /// matches most; nil when it did not count the values one by one (no value sets, or too many values).
    private mutating func lookedUpShares(_ constraint: ColumnConstraint, table: Table, samples: [[SQLValue]]) -> LookedUpShares? {
        guard constraint.op != .isNull, let parameter = constraint.parameter, !samples.isEmpty,
              let shares = statistics.valueShares(table: table, column: constraint.column) else { return nil }
        let absent = shares.count >= 2 ? shares.values.min() ?? 0 : 0
        let values = Array(Set(samples.compactMap { $0[safe: parameter - 1] }))
        let matched = values.map { ($0, shares[$0] ?? absent) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.sqlLiteral < $1.0.sqlLiteral }
        guard let heaviest = matched.first, let least = matched.last else { return nil }
        return LookedUpShares(least: least.1, most: heaviest.1, heaviest: heaviest.0, values: matched.count)
    }

    /// True when one of `terms` (WHERE terms on `table` an index search left to be checked row by row)
    /// keeps at most half the rows it is checked on, as far as the data tells: an index that also resolves
    /// it reads at most half as many. An equality's share is ``matchedShare(_:table:samples:)``'s (a flag's
    /// `is_deleted = 0` that 98 % of rows match throws nothing away); a range's or a LIKE's is not
    /// estimated, and counts.
    package mutating func discardsRows(_ terms: [ColumnConstraint], table name: String, samples: [[SQLValue]]) -> Bool {
        guard let table = schema.table(named: name) else { return false }
        return terms.contains { term in
            !term.op.isEquality || matchedShare(term, table: table, samples: samples) <= 0.5
        }
    }

    /// The ORDER BY columns after the equality columns, in the statement's directions (all-descending becomes
    /// all-ascending); none when a term cannot be served by any index.
    private func sortColumns(_ keys: AccessKeys) -> [IndexColumn] {
        let access = keys.access, table = keys.table
        guard !access.orderBy.isEmpty, access.orderBy.allSatisfy({ $0.hasIndexableCollation }) else { return [] }
        var terms = access.orderBy
        // Index entries end with the rowid, so a trailing rowid term in the same direction as the term
        // before it is served already; in the other direction it must be an explicit key column.
        var explicitRowid: IndexColumn?
        if terms.count >= 2, let last = terms.last, last.column.sqlFolded == keys.rowid || last.column.sqlFolded == "rowid" {
            terms.removeLast()
            if last.isDescending != terms.last!.isDescending {
                if let alias = table.rowidAlias {
                    explicitRowid = IndexColumn(name: alias.name, isDescending: last.isDescending)
                } else {
                    terms = []  // a bare rowid cannot be an index key
                }
            }
        }
        guard !terms.isEmpty, terms.allSatisfy({ keys.isIndexable($0.column) }) else { return [] }
        let remaining = terms.filter { !keys.equalityNames.contains($0.column.sqlFolded) }
        let flip = remaining.allSatisfy(\.isDescending)
        var columns = remaining.map { term in
            IndexColumn(name: table.column(named: term.column)?.name ?? term.column,
                        isDescending: flip ? false : term.isDescending, collation: term.collation)
        }
        if let explicitRowid, !columns.isEmpty {
            columns.append(IndexColumn(name: explicitRowid.name, isDescending: flip ? !explicitRowid.isDescending : explicitRowid.isDescending))
        }
        return columns
    }

    /// One range column: the most selective of the ranges and prefix matches, else the rowid alias when it
    /// is ranged over after equalities.
    private mutating func rangeColumn(_ keys: AccessKeys) -> IndexColumn? {
        let access = keys.access, table = keys.table
        var ranges: [IndexColumn] = []
        for constraint in access.constraints where keys.isIndexable(constraint.column) && !keys.equalityNames.contains(constraint.column.sqlFolded) {
            switch constraint.op {
            case .greaterThan, .greaterOrEqual, .lessThan, .lessOrEqual:
                ranges.append(keys.key(constraint))
            case .glob:
                ranges.append(keys.key(constraint, collation: "BINARY"))
            case .like:
                // SQLite's default LIKE ignores ASCII case; only a NOCASE index can serve its prefix.
                ranges.append(keys.key(constraint, collation: "NOCASE"))
            default:
                continue
            }
        }
        let range = ranges.max { a, b in
            let da = statistics.statistics(table: table, columns: [a.name ?? ""])?.distinctValues ?? 0
            let db = statistics.statistics(table: table, columns: [b.name ?? ""])?.distinctValues ?? 0
            return da < db
        }
        // The rowid is a key column too: `id <= ?` on an INTEGER PRIMARY KEY alias can end a compound key
        // (`thread, kind, id`), which reads only the rows in range (lang_createtable.html#rowid).
        if range == nil, !keys.equalities.isEmpty, let alias = table.rowidAlias,
           access.constraints.contains(where: { [.greaterThan, .greaterOrEqual, .lessThan, .lessOrEqual].contains($0.op)
               && ($0.column.sqlFolded == alias.name.sqlFolded || $0.column.sqlFolded == "rowid") }) {
            return IndexColumn(name: alias.name)
        }
        return range
    }

    /// Appends the candidate on `columns` (duplicates dropped, at most ``maximumColumns``) to `result`, unless
    /// it is there already, an existing index serves it, or it is an all-equality index led by a poor column
    /// (then it is set aside, with the reason).
    mutating func add(_ columns: [IndexColumn], predicate: String? = nil, keys: AccessKeys, to result: inout [IndexCandidate]) {
        var unique: [IndexColumn] = []
        for column in columns where !unique.contains(where: { $0.name?.sqlFolded == column.name?.sqlFolded }) {
            unique.append(column)
        }
        guard !unique.isEmpty else { return }
        let table = keys.table
        let candidate = IndexCandidate(table: table.name, columns: Array(unique.prefix(maximumColumns)), partialPredicate: predicate)
        guard !result.contains(where: { $0.key == candidate.key }),
              !table.indexes.contains(where: { candidate.isServed(by: $0) }) else { return }
        // Only all-equality candidates: a flag followed by sort or range columns (`is_deleted, hostname`)
        // keeps rows in the order the statement needs and is measured like any other.
        if predicate == nil, unique.allSatisfy({ keys.equalityNames.contains(($0.name ?? "").sqlFolded) }),
           let leading = unique.first?.name,
           let position = keys.equalities.firstIndex(where: { $0.column.sqlFolded == leading.sqlFolded }),
           let leadingStatistics = statistics.statistics(table: table, columns: [leading]) {
            let share = keys.matched[position]
            if share > poorLeadingShare {
                if !setAside.contains(where: { $0.0.key == candidate.key }) {
                    setAside.append((candidate, .poorLeadingColumn(column: leading, distinctValues: leadingStatistics.distinctValues, share: share,
                                                                    lookedUp: keys.lookedUp[position])))
                }
                return
            }
        }
        result.append(candidate)
    }

    /// The plain orders: equalities then sort, then range, equalities alone, with one less selective
    /// equality column left out, and each column alone.
    private mutating func addKeyOrders(_ keys: AccessKeys, to result: inout [IndexCandidate]) {
        let equalityColumns = keys.equalityColumns, sortColumns = keys.sortColumns, range = keys.range
        if !sortColumns.isEmpty { add(equalityColumns + sortColumns, keys: keys, to: &result) }
        if !keys.descendingSort.isEmpty { add(equalityColumns + keys.descendingSort, keys: keys, to: &result) }
        // A sort with mixed directions (`priority DESC, due`) needs a DESC key column, which a model cannot
        // declare; the same key ascending still serves the equality and the sort's first term (SQLite scans it
        // backwards and sorts only the right part: "USE TEMP B-TREE FOR RIGHT PART OF ORDER BY", eqp.html).
        if sortColumns.contains(where: \.isDescending) {
            add(equalityColumns + sortColumns.map { IndexColumn(name: $0.name, expression: $0.expression, isDescending: false, collation: $0.collation) },
                keys: keys, to: &result)
        }
        if let range { add(equalityColumns + [range], keys: keys, to: &result) }
        add(equalityColumns, keys: keys, to: &result)
        // Without one of the less selective equality columns (a low-value one, such as Core Data's Z_ENT
        // on a hierarchy table, may only widen the index).
        if equalityColumns.count >= 2 {
            for left in equalityColumns.indices.dropFirst() {
                var fewer = equalityColumns
                fewer.remove(at: left)
                if !sortColumns.isEmpty { add(fewer + sortColumns, keys: keys, to: &result) }
                if let range { add(fewer + [range], keys: keys, to: &result) }
            }
        }
        // Without the join's columns: the table can drive the join as its outer loop, by its own equalities
        // then the sort or the range (a new user's pinned posts joined to their authors, `ORDER BY score DESC
        // LIMIT 10`: `(isPinned, score)` reads ten entries in order, where every key led by the join column
        // `authorId` serves only the inner loop and left the sort).
        let own = equalityColumns.filter { !keys.joinColumns.contains($0.name?.sqlFolded ?? "") }
        if own.count < equalityColumns.count {
            if !sortColumns.isEmpty { add(own + sortColumns, keys: keys, to: &result) }
            if let range { add(own + [range], keys: keys, to: &result) }
            if !own.isEmpty { add(own, keys: keys, to: &result) }
        }
        for column in equalityColumns { add([column], keys: keys, to: &result) }
        if let range { add([range], keys: keys, to: &result) }
        if let first = sortColumns.first { add([first], keys: keys, to: &result) }
    }

    /// Covering: the statement's other columns after the key, when there are few; and the access's shape
    /// recorded for ``sharedOrderCandidates(excluding:)``. Not on a Core Data or SwiftData entity table: a
    /// model declares indexes on its attributes (`#Index`), and Core Data's fetches read `Z_OPT` and every
    /// attribute, so a covering index there is one no model can declare (and a migration may drop).
    private mutating func addCovering(_ keys: AccessKeys, to result: inout [IndexCandidate]) {
        let table = keys.table
        let main = keys.equalityColumns + keys.tail
        guard !main.isEmpty else { return }
        let keyNames = Set(main.compactMap { $0.name?.sqlFolded })
        let extra = keys.access.readColumns.filter { name in
            !keyNames.contains(name.sqlFolded) && name.sqlFolded != keys.rowid && table.column(named: name) != nil
        }
        // No wide text or blob column rides along: a copy of every note's body grows the store by the
        // table's size for a saving a narrower index mostly gives too (on a small table, the copy under
        // 1 MiB, it may). Without it the index does not cover the statement, so there is no covering form.
        let narrow = extra.allSatisfy { name in
            let width = statistics.averageWidth(table: table, column: name)
            return width <= maximumCoveringWidth || width * Double(table.rowCount) <= 1_048_576
        }
        // Not when the key and the extra columns are every column: that index is a second copy of the table.
        let tableColumns = table.columns.filter { !$0.isRowidAlias && !$0.isHidden }.count
        // On a Core Data or SwiftData entity table only model attributes ride along (never Z_ENT or Z_OPT):
        // then a model can declare the covering key too (a new user's MAX(ZHEARTRATE) per workout read every
        // sample row through Core Data's relationship index; (ZWORKOUT, ZHEARTRATE) took it 27 → 10 ms by hand).
        // A fetch reads every column, so it gets no covering form (over 3 extra columns).
        let declarable = !keys.isEntityTable || extra.allSatisfy(keys.isModelColumn)
        if declarable, narrow, (1...3).contains(extra.count), main.count + extra.count <= maximumColumns, main.count + extra.count < tableColumns {
            add(main + extra.map { IndexColumn(name: table.column(named: $0)?.name ?? $0) }, keys: keys, to: &result)
        }
        shapes.append((table.name, keys.equalityColumns, keys.tail))
    }

    /// A fetch of one sub-entity on a table an entity hierarchy shares (`Z_ENT = 5`): without statistics
    /// SQLite prefers Core Data's own `Z_ENT` index to an index that leads with a range or a less certain
    /// column, so each plain candidate also comes with `Z_ENT` as its leading equality column.
    private mutating func addEntityLed(_ keys: AccessKeys, to result: inout [IndexCandidate]) {
        guard keys.isEntityTable, (schema.coreData?.entities(inTable: keys.table.name).count ?? 0) > 1,
              let entity = keys.access.constraints.first(where: { $0.op == .equal && $0.column.sqlFolded == "z_ent" }) else { return }
        for candidate in result where candidate.partialPredicate == nil && candidate.columns.count < maximumColumns {
            add([keys.key(entity)] + candidate.columns, keys: keys, to: &result)
        }
    }

    /// An index on each filtered expression (`lower(name)`, `json_extract(doc, '$.k')`), on its own.
    package func expressionCandidates(for filters: [ExpressionFilter]) -> [IndexCandidate] {
        filters.compactMap { filter in
            // `!=` cannot drive an index search (optoverview.html#where_clause): the term gets a partial index instead.
            guard filter.op != .notEqual, let table = schema.table(named: filter.table), table.isIndexable, table.rowCount >= PlanFinding.smallTableRows else { return nil }
            let candidate = IndexCandidate(table: table.name, columns: [IndexColumn(name: nil, expression: filter.expression)])
            return table.indexes.contains { candidate.isServed(by: $0) } ? nil : candidate
        }
    }

    /// Orders that let statements on one table share an index: for two statements whose equality columns
    /// overlap, the common columns first, then the rest of one statement's equalities and its tail.
    package mutating func sharedOrderCandidates(excluding existing: Set<String>) -> [IndexCandidate] {
        var result: [IndexCandidate] = []
        var keys = existing
        // Each distinct shape once, grouped by table, each with its equality names: the pairs are compared
        // within a table only (with thousands of statements, every pair of every shape took minutes).
        var seen = Set<String>()
        var byTable: [String: [(table: String, equalities: [IndexColumn], tail: [IndexColumn], names: Set<String>)]] = [:]
        var unique: [(table: String, equalities: [IndexColumn], tail: [IndexColumn], names: Set<String>)] = []
        for shape in shapes {
            let key = IndexCandidate(table: shape.table, columns: shape.equalities + [IndexColumn(name: nil, expression: "|")] + shape.tail).key
            guard seen.insert(key).inserted else { continue }
            let entry = (table: shape.table, equalities: shape.equalities, tail: shape.tail,
                         names: Set(shape.equalities.compactMap { $0.name?.sqlFolded }))
            unique.append(entry)
            byTable[shape.table.sqlFolded, default: []].append(entry)
        }
        for a in unique {
            for b in byTable[a.table.sqlFolded] ?? [] {
                let bNames = b.names
                let common = a.equalities.filter { bNames.contains(($0.name ?? "").sqlFolded) }
                guard !common.isEmpty, common.count < b.equalities.count || !b.equalities.starts(with: common, by: IndexCandidate.sameKey) else { continue }
                let commonNames = Set(common.compactMap { $0.name?.sqlFolded })
                let columns = common + b.equalities.filter { !commonNames.contains(($0.name ?? "").sqlFolded) } + b.tail
                let candidate = IndexCandidate(table: b.table, columns: Array(columns.prefix(maximumColumns)))
                let key = candidate.key
                guard !keys.contains(key), let table = schema.table(named: b.table),
                      !table.indexes.contains(where: { candidate.isServed(by: $0) }) else { continue }
                keys.insert(key)
                result.append(candidate)
            }
        }
        return result
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
