/// The order in which candidates are built and measured, so that a limited budget
/// (`--max-candidates`) cannot starve the obvious index of a hot statement.
///
/// Every statement's basic candidates (named key columns only, no predicate, each column one the
/// statement filters or sorts on: equality columns then the sort, equality then the range, the single
/// most selective equality column) come before any wider variant (covering columns, partial and
/// expression indexes, shared orders). Within each of the two tiers, statements take turns, the
/// statement that could save the most time first; each statement's candidates keep the generator's order.
enum CandidateOrder {
    struct Item {
        /// Position in the input.
        var index: Int
        /// The statement that proposed it (nil: proposed for several, e.g. a shared order).
        var proposer: Int?
        var isBasic: Bool
    }

    /// Input positions in measuring order. `potential(statement)` is the time the statement could save
    /// (its weight × its time as the store is), in seconds.
    static func order(_ items: [Item], potential: (Int) -> Double) -> [Int] {
        var result: [Int] = []
        for basic in [true, false] {
            var queues: [Int: [Int]] = [:]
            var statements: [Int] = []
            for item in items where item.isBasic == basic {
                let statement = item.proposer ?? Int.max
                if queues[statement] == nil { statements.append(statement) }
                queues[statement, default: []].append(item.index)
            }
            statements.sort { a, b in
                let pa = a == Int.max ? -1 : potential(a), pb = b == Int.max ? -1 : potential(b)
                return pa != pb ? pa > pb : a < b
            }
            var round = 0
            while true {
                var took = false
                for statement in statements where round < queues[statement]!.count {
                    result.append(queues[statement]![round])
                    took = true
                }
                if !took { break }
                round += 1
            }
        }
        return result
    }

    /// True when `candidate` is a basic candidate of the statement whose table access is `access`: named
    /// columns only, no predicate, every column one the statement filters or sorts on.
    static func isBasic(_ candidate: IndexCandidate, for access: TableAccess?) -> Bool {
        guard candidate.partialPredicate == nil, let access else { return false }
        let used = Set(access.constraints.map(\.column.sqlFolded) + access.orderBy.map(\.column.sqlFolded))
        return candidate.columns.allSatisfy { column in column.name.map { used.contains($0.sqlFolded) } ?? false }
    }
}
