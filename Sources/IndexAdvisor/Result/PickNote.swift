/// What else to know about a recommended index (``Recommendation/notes``): the fact and its data, without
/// the words, which are the renderers' (``text``). In the JSON report each note is its words, as before.
public enum PickNote: Sendable, Equatable {
    /// `Z_ENT` leads it: `table` holds several `entities` and its statements fetch one; `coreDataIndexes` are
    /// Core Data's own `Z_ENT` indexes on the table.
    case entityLeads(table: String, entities: [String], coreDataIndexes: [String])
    /// A key column most writes to its table change.
    case churn(ColumnChurn)
    /// A write to its table (`statement`, `S2`, with its SQL) was not timed on the snapshot, with the error:
    /// the write cost is a lower bound.
    case untimedWrite(statement: String, sql: String, error: String)
    /// `failures` executions of a write to its table (`statement`, with its SQL) failed on the snapshot.
    case failedWrites(failures: Int, statement: String, sql: String)
    /// A key column belongs to a sub-entity of `entity`, so `#Index<entity>` cannot declare it.
    case subEntityColumn(entity: String)
    /// Kept for the join of `statement` (`S2`) together with `index`, the set's last-built index, which
    /// carries the join's saving; `changedPlanAlone` when building this one first already changed the plan.
    case keptForJoin(statement: String, index: String, changedPlanAlone: Bool)
    /// A note read back from a JSON report (its words).
    case other(String)

    /// The same note with every name in it passed through `rename`: for renaming an index throughout a result.
    func renamingNames(_ rename: (String) -> String) -> PickNote {
        switch self {
        case .entityLeads(let table, let entities, let indexes):
            return .entityLeads(table: rename(table), entities: entities.map(rename), coreDataIndexes: indexes.map(rename))
        case .churn(let churn): return .churn(churn.renaming(rename))
        case .untimedWrite(let statement, let sql, let error):
            return .untimedWrite(statement: rename(statement), sql: rename(sql), error: rename(error))
        case .failedWrites(let failures, let statement, let sql):
            return .failedWrites(failures: failures, statement: rename(statement), sql: rename(sql))
        case .subEntityColumn(let entity): return .subEntityColumn(entity: rename(entity))
        case .keptForJoin(let statement, let index, let alone):
            return .keptForJoin(statement: statement, index: rename(index), changedPlanAlone: alone)
        case .other(let text): return .other(rename(text))
        }
    }
}
