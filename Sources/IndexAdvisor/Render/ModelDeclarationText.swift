/// Whether the model can declare a recommended index on a Core Data / SwiftData entity table, and if not
/// why, in the words every format prints: the Markdown and HTML sections, the Swift comments, the SQL
/// migration's header and comments, and the JSON report's `modelDeclaration` (hostile round 6, F9: the SQL
/// header said "Declare each as a fetch index" of a set whose `Z_ENT`-led indexes the Swift and Markdown
/// reports called SQL only).
///
/// `Z_ENT` is Core Data's entity column, no property: neither a fetch index nor `#Index` can hold it. A
/// fetch index declared on a sub-entity does not give the `Z_ENT`-led index either: Core Data builds it on
/// the sub-entity's properties alone, `CREATE INDEX Z_Cafe_byRoast ON ZPLACE (ZROAST COLLATE BINARY ASC)` for
/// the fetch index `byRoast` of `Cafe`, a sub-entity of `Place` (the indexes Apple's Core Data creates on
/// macOS, as recorded in the FreeCoreData port's tests, ashalkhakov/FreeCoreData Tests/FetchIndexTests.m).
public enum SQLOnlyReason: Sendable, Equatable {
    /// A key is `Z_ENT`, on a table an entity hierarchy shares.
    case entityColumn(table: String)
    /// A key is another of Core Data's own columns (`Z_OPT`, `Z_PK`).
    case coreDataColumn(String)
    /// A key is a property of a sub-entity other than `entity` and its parents.
    case subEntityColumn(entity: String)
    /// No property of the model read maps to these columns.
    case unmappedColumns([String])
    /// The index's form: a direction, collation, expression or predicate the model's index cannot state.
    case form
}

extension AnalysisResult {
    /// Why no model can declare `recommendation`, so that it ships as SQL only; nil when the model declares it
    /// (a fetch index, an `#Index`, a proposed uniqueness rule whose index serves it, or the model has it
    /// already), and for a table no entity is stored in.
    public func sqlOnlyReason(for recommendation: Recommendation) -> SQLOnlyReason? {
        guard store.isCoreData, let entity = recommendation.entity else { return nil }
        if uniqueRule(covering: recommendation) != nil || recommendation.declaredInModel != nil { return nil }
        if isCoreDataEntity(entity) ? fetchIndexDeclaration(for: recommendation) != nil : recommendation.swiftDataIndex != nil { return nil }
        if recommendation.columns.contains(where: { $0.name.uppercased() == "Z_ENT" }) { return .entityColumn(table: recommendation.table) }
        if let own = recommendation.columns.first(where: { RecommendedColumn.isCoreDataColumn($0.name) }) { return .coreDataColumn(own.name) }
        if recommendation.notes.contains(where: { note in
            if case .subEntityColumn = note { return true }
            return note.text.hasPrefix("a key column belongs to a sub-entity of ")
        }) {
            return .subEntityColumn(entity: entity)
        }
        let mappings = model?.entities.filter { $0.table.sqlFolded == recommendation.table.sqlFolded } ?? []
        if !mappings.isEmpty {
            let columns = Set(mappings.flatMap(\.properties).map(\.column.sqlFolded))
            let unmapped = recommendation.columns.map(\.name).filter { !columns.contains($0.sqlFolded) && !$0.contains("(") }
            if !unmapped.isEmpty { return .unmappedColumns(unmapped) }
        }
        return .form
    }

    /// `SQL only: …`, the reason in words for `recommendation`'s entity, then how to ship it; nil when the
    /// model declares it (``sqlOnlyReason(for:)``).
    public func sqlOnlyText(for recommendation: Recommendation) -> String? {
        guard let reason = sqlOnlyReason(for: recommendation), let entity = recommendation.entity else { return nil }
        let coreData = isCoreDataEntity(entity)
        let swiftData = isSwiftDataEntity(entity)
        let index = coreData ? "no fetch index" : swiftData ? "no #Index" : "neither a Core Data fetch index nor SwiftData's #Index"
        let why: String
        switch reason {
        case .entityColumn(let table):
            let subEntity = swiftData ? "" : " (\(coreData ? "one" : "a fetch index") declared on a sub-entity is built on the sub-entity's properties alone, without Z_ENT)"
            why = "Z_ENT, the column in which Core Data tells \(table)'s entities apart, is no property, so \(index) can hold it\(subEntity)"
        case .coreDataColumn(let column):
            why = "\(column), a column Core Data keeps for itself, is no property, so \(index) can hold it"
        case .subEntityColumn(let entity):
            why = "a key column is a property of another sub-entity than \(entity) and its parents, so \(index) of \(entity) can hold it"
        case .unmappedColumns(let columns):
            why = "no property of the model maps to \(Figures.listed(columns)), so \(index) can name \(columns.count == 1 ? "it" : "them")"
        case .form:
            why = coreData ? "no fetch index can state its form (a collation, an expression, or a partial predicate NSPredicate cannot write)"
                : swiftData ? "no #Index can state its form (a direction, a collation, an expression or a partial predicate)"
                : "neither a fetch index nor #Index can state its form (a collation, an expression, a partial predicate, or for #Index a direction)"
        }
        return "SQL only: \(why). Run its CREATE INDEX IF NOT EXISTS from the app each time the store opens, so that stores the app creates get it too: \(ShippingAdvice.unknownIndexFate)."
    }

    /// What the model declares for `recommendation`, in one sentence, for the JSON report's
    /// ``Recommendation/modelDeclaration`` (the renderers print the same facts in their own places): the
    /// fetch index, the `#Index` line, the uniqueness rule that serves it, that the model has it, or
    /// ``sqlOnlyText(for:)``. Nil off an entity table, and on a store that is not Core Data / SwiftData.
    public func modelDeclarationText(for recommendation: Recommendation) -> String? {
        guard store.isCoreData, let entity = recommendation.entity else { return nil }
        if let text = sqlOnlyText(for: recommendation) { return text }
        if let declared = recommendation.declaredInModel { return "Declared in the model already (\(declared)): the store lacks it, so run its CREATE INDEX." }
        if let unique = uniqueRule(covering: recommendation), let rule = modelRuleText(for: unique) {
            return "No index of its own: declare \(rule) instead, whose unique index serves the same lookups."
        }
        if isCoreDataEntity(entity), let index = fetchIndexDeclaration(for: recommendation) {
            return "Core Data: declare the fetch index \(index.name) of \(index.entity) in a new model version; Core Data names it \(index.storeIndexName) in the store, as the SQL migration does."
        }
        if let macro = recommendation.swiftDataIndex {
            let fetchIndex = isSwiftDataEntity(entity) ? nil : fetchIndexDeclaration(for: recommendation)
            return "SwiftData: declare \(macro) in a new VersionedSchema" + (fetchIndex.map { "; Core Data: the fetch index \($0.name) of \($0.entity)" } ?? "") + "."
        }
        return nil
    }

    /// The recommendations no model can declare (``sqlOnlyReason(for:)``), in the migration's order.
    public var sqlOnlyRecommendations: [Recommendation] {
        recommendations.filter { sqlOnlyReason(for: $0) != nil }
    }
}
