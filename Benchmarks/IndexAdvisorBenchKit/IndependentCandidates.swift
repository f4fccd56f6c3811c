/// The benchmark's own candidate indexes, generated from each statement's columns (``StatementColumns``)
/// with no code of the advisor's: for each table access, every single column; every ordered pair;
/// equality–equality–sort and equality–equality–range triples; the access's equality columns followed by
/// its sort (and by its range); a `DESC` variant of each key whose column the statement sorts descending;
/// an expression key for each function term; and for each literal WHERE term the access carries, partial
/// variants of its keys with that term as the predicate (https://sqlite.org/partialindex.html). At most
/// ``Limits`` of each. `.expert`'s proposals and the removal of each existing index that backs no UNIQUE
/// constraint join them in ``OptimumSearch``.
package enum IndependentCandidates {
    /// The caps of the space, stated in the report.
    package struct Limits: Sendable {
        /// Key columns at most.
        package var maxColumns = 4
        /// Triples per access at most.
        package var maxTriples = 24
        /// Partial variants per access at most.
        package var maxPartials = 16
        /// Candidates per table at most (in generation order: singles, full keys, pairs, triples, expressions, partials).
        package var maxPerTable = 60

        package init() {}
    }

    /// One key column: its name, direction and collation.
    struct Column: Hashable {
        var name: String
        var descending = false
        var collation: String?

        var sql: String {
            SQLQuote.identifier(name) + (collation.map { " COLLATE \($0)" } ?? "") + (descending ? " DESC" : "")
        }
    }

    /// `CREATE INDEX` statements for `accesses`, each once by key, named `bench_<n>` in generation order.
    package static func generate(for accesses: [TableAccess], limits: Limits = Limits()) -> [String] {
        var byTable: [String: [String]] = [:]
        var order: [String] = []
        var seen = Set<String>()
        for access in accesses {
            for (key, predicate) in keys(for: access, limits: limits) {
                let body = "ON \(SQLQuote.identifier(access.table)) (\(key))" + (predicate.map { " WHERE \($0)" } ?? "")
                let normal = ChangeSet.key("CREATE INDEX x " + body)
                guard seen.insert(normal).inserted else { continue }
                if byTable[access.table] == nil { order.append(access.table) }
                guard byTable[access.table, default: []].count < limits.maxPerTable else { continue }
                byTable[access.table, default: []].append(body)
            }
        }
        var creates: [String] = []
        for table in order {
            for body in byTable[table] ?? [] { creates.append("CREATE INDEX \(SQLQuote.identifier("bench_\(creates.count + 1)")) \(body)") }
        }
        return creates
    }

    /// The keys (column lists as SQL) of one access, with the partial predicate of the partial variants.
    static func keys(for access: TableAccess, limits: Limits) -> [(String, String?)] {
        let sorts = access.orderBy
        func variants(_ name: String) -> [Column] {
            guard let sort = sorts.first(where: { $0.column == name }) else { return [Column(name: name)] }
            let asSorted = Column(name: name, descending: sort.isDescending, collation: sort.collation)
            var list = [asSorted]
            if sort.isDescending { list.append(Column(name: name, collation: sort.collation)) }
            if sort.collation != nil { list.append(Column(name: name, descending: sort.isDescending)) }
            return list
        }
        let columns = access.columns
        var keys: [[Column]] = []
        func add(_ key: [Column]) {
            guard !key.isEmpty, key.count <= limits.maxColumns, Set(key.map { $0.name.lowercased() }).count == key.count,
                  !keys.contains(key) else { return }
            keys.append(key)
        }
        // Singles, with each sorted column's own direction.
        for name in columns { for column in variants(name) { add([column]) } }
        // The access's equality columns, then its sort, then its range (the shape a real fix takes).
        let equality = access.equality.map { Column(name: $0) }
        let sorted = sorts.map { Column(name: $0.column, descending: $0.isDescending, collation: $0.collation) }
        add(equality + sorted)
        add(equality + sorted.map { Column(name: $0.name, descending: !$0.descending, collation: $0.collation) })
        for range in access.range { add(equality + [Column(name: range)]) }
        add(equality + access.groupBy.map { Column(name: $0) })
        add(access.groupBy.map { Column(name: $0) })
        // Ordered pairs.
        for a in columns { for b in columns where a != b { for first in variants(a) { for second in variants(b) { add([first, second]) } } } }
        // Equality–equality–sort and equality–equality–range triples.
        var triples = 0
        for a in access.equality { for b in access.equality where a != b {
            for third in sorted + access.range.map({ Column(name: $0) }) where triples < limits.maxTriples {
                let before = keys.count
                add([Column(name: a), Column(name: b), third])
                if keys.count > before { triples += 1 }
            }
        } }
        // Equality then every sort term (a sort of two columns after an equality).
        if sorted.count >= 2 { for a in access.equality { add([Column(name: a)] + sorted) } }
        var result: [(String, String?)] = keys.map { ($0.map(\.sql).joined(separator: ", "), nil) }
        for expression in access.expressions { result.append((expression, nil)) }
        // Partial variants: the key without the predicate's column, under each literal term.
        var partials = 0
        for term in access.literalTerms {
            // An equality term fixes its column, so the key leaves it out; any other term (`IS NOT NULL`,
            // `!= 0`, `(bits & 4) != 0`) keeps the column where the key has it.
            let words = SQLWords.split(term)
            let isEquality = words.count == 3 && words[0].kind == .identifier && (words[1].isSymbol("=") || words[1].isSymbol("==") || words[1].isKeyword("IS"))
            let termColumns = isEquality ? Set([words[0].value.lowercased()]) : []
            var done = Set<String>()
            for key in keys where partials < limits.maxPartials {
                let rest = key.filter { !termColumns.contains($0.name.lowercased()) }
                let sql = rest.map(\.sql).joined(separator: ", ")
                guard !rest.isEmpty, done.insert(sql).inserted else { continue }
                result.append((sql, term))
                partials += 1
            }
        }
        return result
    }
}
