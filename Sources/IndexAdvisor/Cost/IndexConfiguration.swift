/// Which indexes are in place: the store's own, each kept or dropped, and the candidates added, in the
/// order a migration creates them. The one value that says "the state of indexes"; the selector moves from
/// one to the next, and ``SnapshotOracle`` brings the snapshot to any of them by the difference.
///
/// The order is part of the value: of two indexes SQLite's planner rates equal it takes the one created
/// last (where.c `whereLoopInsert`), so the added candidates are kept in the migration's order
/// (``IndexOrder/migrationOrder(_:key:isPartial:movesWith:)``: a partial index after the full one on its key).
package struct IndexConfiguration: Hashable, Sendable, CustomStringConvertible {
    /// The store's indexes dropped, by folded name.
    package private(set) var dropped: Set<String>
    /// The candidates added, in migration order.
    package private(set) var added: [IndexCandidate]

    package init(dropped: Set<String> = [], added: [IndexCandidate] = []) {
        self.dropped = dropped
        self.added = Self.ordered(added)
    }

    /// The store as it is: nothing dropped, nothing added.
    package static let store = IndexConfiguration()

    static func ordered(_ added: [IndexCandidate]) -> [IndexCandidate] {
        IndexOrder.migrationOrder(added, key: \.keyWithoutPredicate, isPartial: { $0.partialPredicate != nil })
    }

    package func contains(_ candidate: IndexCandidate) -> Bool { added.contains { $0.key == candidate.key } }
    package func isDropped(_ storeIndex: String) -> Bool { dropped.contains(storeIndex.sqlFolded) }

    package func adding(_ candidate: IndexCandidate) -> IndexConfiguration {
        guard !contains(candidate) else { return self }
        return IndexConfiguration(dropped: dropped, added: added + [candidate])
    }

    package func removing(_ candidate: IndexCandidate) -> IndexConfiguration {
        IndexConfiguration(dropped: dropped, added: added.filter { $0.key != candidate.key })
    }

    /// `replacement` in `candidate`'s place (the migration's order otherwise kept).
    package func replacing(_ candidate: IndexCandidate, with replacement: IndexCandidate) -> IndexConfiguration {
        guard let offset = added.firstIndex(where: { $0.key == candidate.key }), !contains(replacement) else {
            return removing(candidate).adding(replacement)
        }
        var list = added
        list[offset] = replacement
        return IndexConfiguration(dropped: dropped, added: list)
    }

    package func dropping(_ storeIndex: String) -> IndexConfiguration {
        IndexConfiguration(dropped: dropped.union([storeIndex.sqlFolded]), added: added)
    }

    package func restoring(_ storeIndex: String) -> IndexConfiguration {
        IndexConfiguration(dropped: dropped.subtracting([storeIndex.sqlFolded]), added: added)
    }

    /// The part of the configuration on `tables` (folded names): what can change the plan or the upkeep of a
    /// statement on them. `tableOf` gives a store index's table (folded).
    package func restricted(to tables: Set<String>, tableOf: (String) -> String?) -> IndexConfiguration {
        IndexConfiguration(dropped: dropped.filter { tableOf($0).map(tables.contains) ?? false },
                           added: added.filter { tables.contains($0.table.sqlFolded) })
    }

    /// Candidates added on `table` (folded or not).
    package func added(on table: String) -> [IndexCandidate] { added.filter { $0.table.sqlFolded == table.sqlFolded } }

    package var isStore: Bool { dropped.isEmpty && added.isEmpty }

    /// `+t(a, b) −name`, for traces and test messages.
    package var description: String {
        let adds = added.map { "+" + $0.table + "(" + $0.columns.map { $0.displayName + ($0.isDescending ? " DESC" : "") }.joined(separator: ", ") + ")"
            + ($0.partialPredicate.map { " WHERE " + $0 } ?? "") }
        let drops = dropped.sorted().map { "−" + $0 }
        return adds.isEmpty && drops.isEmpty ? "(the store as it is)" : (adds + drops).joined(separator: " ")
    }
}
