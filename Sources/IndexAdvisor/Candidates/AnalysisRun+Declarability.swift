import Foundation

/// Which candidates a model can declare, on Core Data and SwiftData stores.
extension AnalysisRun {
    /// True when the recommended set may hold `candidate`: on a Core Data or SwiftData entity table, an
    /// index `#Index` can declare (``SwiftDataCode/isDeclarable(_:)``), one that leads with `Z_ENT` on a
    /// table several entities share (``leadsWithEntityColumn(_:)``), or, when the model declares the table's
    /// entity through Core Data (``AnalysisOptions/coreDataEntities``), any fetch index
    /// (``AlternativeShipping/isFetchIndex(_:)``: descending elements, a partial-index predicate); on any
    /// other table, every form. The other forms on entity tables compete as ``alternatives``.
    func isModelDeclarable(_ candidate: IndexCandidate) -> Bool {
        guard let coreData = schema.coreData, coreData.rootEntity(ofTable: candidate.table) != nil else { return true }
        if SwiftDataCode.isDeclarable(candidate) || leadsWithEntityColumn(candidate) { return true }
        return AlternativeShipping.isFetchIndex(candidate)
            && coreData.entities(inTable: candidate.table).contains { options.coreDataEntities.contains($0.name) }
    }

    /// True when `candidate` is `Z_ENT` followed by model attributes, on a table an entity hierarchy shares:
    /// the form a fetch of one sub-entity needs while Core Data's own `Z_ENT` index is there (issue 15).
    func leadsWithEntityColumn(_ candidate: IndexCandidate) -> Bool {
        guard candidate.columns.count >= 2, candidate.columns.first?.name?.sqlFolded == "z_ent",
              (schema.coreData?.entities(inTable: candidate.table).count ?? 0) > 1 else { return false }
        return SwiftDataCode.isDeclarable(IndexCandidate(table: candidate.table, columns: Array(candidate.columns.dropFirst()),
                                                         partialPredicate: candidate.partialPredicate))
    }

    /// The note on a recommendation that leads with `Z_ENT` (``leadsWithEntityColumn(_:)``): why, and how to ship it.
    func entityColumnNote(for candidate: IndexCandidate) -> [PickNote] {
        guard leadsWithEntityColumn(candidate) else { return [] }
        let entities = schema.coreData?.entities(inTable: candidate.table).map(\.name) ?? []
        let own = schema.table(named: candidate.table)?.indexes.filter { $0.columnNames.first?.sqlFolded == "z_ent" }.map(\.name) ?? []
        return [.entityLeads(table: candidate.table, entities: entities, coreDataIndexes: own)]
    }
}
