/// Reviews the store's own indexes: redundant ones (a left prefix of another index, or a duplicate),
/// and ones no statement of the workload used. Indexes that enforce a constraint, and the ones Core
/// Data creates for relationships and entity hierarchies (`<TABLE>_<COLUMN>_INDEX`), are never
/// proposed for dropping.
enum ExistingIndexReview {
    static func review(schema: Schema, indexesUsed: Set<String>, sizes: [String: Int64]) -> [ExistingIndexFinding] {
        var findings: [ExistingIndexFinding] = []
        for table in schema.tables {
            for index in table.indexes {
                let caveat = caveat(for: index, schema: schema)
                if let wider = table.indexes.first(where: { other in
                    other.name != index.name && index.partialPredicate == nil && other.partialPredicate == nil
                        && index.columns.count <= other.columns.count
                        && zip(index.columns, other.columns).allSatisfy { IndexCandidate.sameKey($0, $1) }
                        && (index.columns.count < other.columns.count || index.name > other.name || other.isUnique)
                        && !(index.isUnique && !other.isUnique)
                }) {
                    findings.append(ExistingIndexFinding(
                        kind: .redundant, index: index.name, table: table.name, columns: index.columnNames,
                        supersededBy: wider.name, bytes: sizes[index.name],
                        dropSQL: caveat == nil ? "DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))" : nil,
                        caveat: caveat))
                } else if !indexesUsed.contains(index.name.lowercased()), index.origin == .createIndex {
                    findings.append(ExistingIndexFinding(
                        kind: .unusedInWorkload, index: index.name, table: table.name, columns: index.columnNames,
                        supersededBy: nil, bytes: sizes[index.name], dropSQL: nil,
                        caveat: caveat ?? "no statement of this workload used it; a workload is a sample, so check the app's other paths before dropping it"))
                }
            }
        }
        return findings
    }

    static func caveat(for index: Index, schema: Schema) -> String? {
        if index.origin != .createIndex { return "it enforces a \(index.origin == .primaryKey ? "PRIMARY KEY" : "UNIQUE") constraint" }
        if index.isUnique { return "it is UNIQUE: dropping it drops the uniqueness rule" }
        if schema.coreData != nil, index.name.uppercased().hasSuffix("_INDEX"), !index.name.hasPrefix("Z_") {
            return "Core Data creates it for a relationship or an entity hierarchy; the model cannot drop it"
        }
        return nil
    }
}
