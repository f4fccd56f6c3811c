import Foundation

extension AnalysisRun {
    /// A name in the store's own convention: on an entity table of a store whose fetch indexes Core Data
    /// named (``StoreIndexConvention``), Core Data's name for a fetch index (`Z_<Entity>_by<Properties>`,
    /// `…Partial` for a partial one) when a fetch index can declare it; else SwiftData's
    /// `Z_<Entity>_SwiftDataIndexOnBinary…` when it can be an `#Index`; else `Z_<Entity>_…` or `idx_<table>_<columns>`.
    /// Every name in the store's schema (tables, views, indexes, triggers share one namespace), folded.
    var takenNames: Set<String> {
        Set(schema.tables.map(\.name.sqlFolded) + schema.views.map(\.name.sqlFolded) + schema.indexes.map(\.name.sqlFolded) + schema.triggerNames.map(\.sqlFolded))
    }

    func indexName(for candidate: IndexCandidate, taken: Set<String>, base fixed: String? = nil) -> String {
        if let fixed {
            var name = fixed
            var suffix = 2
            while taken.contains(name.sqlFolded) { name = "\(fixed)_\(suffix)"; suffix += 1 }
            return name
        }
        var base: String
        let columns = candidate.columns.map(\.displayName)
        if let entity = schema.coreData?.rootEntity(ofTable: candidate.table) {
            let naming = SwiftDataNaming(schema: schema)
            let properties = candidate.columns.map { column in
                column.name.map { naming.propertyName(forColumn: $0).name }
                    ?? column.displayName.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).joined(separator: "_")
            }
            if schema.indexConvention?.framework == .coreData, CoreDataFetchIndex.canDeclare(candidate) {
                // A Core Data app's store (its fetch indexes are `Z_Book_sortTitle`, none SwiftData's): not
                // `Z_Book_SwiftDataIndexOnBinary…`, which names an #Index the app has no way to declare.
                base = CoreDataFetchIndex.storeIndexName(entity: entity.name, name: CoreDataFetchIndex.name(for: properties)
                                                         + (candidate.partialPredicate == nil ? "" : "Partial"))
                var name = base
                var suffix = 2
                while taken.contains(name.sqlFolded) || picks.contains(where: { $0.name.sqlFolded == name.sqlFolded }) {
                    name = base + String(suffix)
                    suffix += 1
                }
                return name
            } else if SwiftDataCode.isDeclarable(candidate) {
                base = SwiftDataNaming.indexName(entity: entity.name, properties: properties)
            } else {
                base = "Z_\(entity.name)_" + properties.joined(separator: "_") + (candidate.partialPredicate == nil ? "" : "_partial")
            }
        } else {
            // Letters, digits and single underscores: `lower(t.name)` becomes `lower_name`.
            let words = ([candidate.table] + columns).flatMap { part in
                part.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
            }
            base = "idx_" + words.joined(separator: "_") + (candidate.partialPredicate == nil ? "" : "_partial")
        }
        if base.count > 120 { base = String(base.prefix(120)) }
        var name = base
        var suffix = 2
        while taken.contains(name.sqlFolded) || picks.contains(where: { $0.name.sqlFolded == name.sqlFolded }) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        return name
    }
}
