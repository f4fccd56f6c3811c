import Foundation

/// Puts the app's own Swift names (read with ``ModelSourceReader`` from `--model`) into an
/// ``AnalysisResult``, in place of the names recovered from the store. A step between the analysis and the
/// renderers: it maps names and measures nothing.
///
/// A table's entity is the class of the same name (Core Data's `Z_PRIMARYKEY` holds the entity names;
/// SwiftData names entities after their classes). A column maps to the stored property whose Core Data
/// column it is: `Z` + the upper-cased stored name, where `originalName:` gives the stored name (the column
/// of the property's own name is accepted too, for stores already migrated). To-one relationships are
/// columns holding the destination's `Z_PK`; to-many relationships have no column.
///
/// With every column of a recommendation mapped, its key paths are the model's (not guessed), its
/// `#Index` line is rebuilt, and its SwiftData-convention index name follows the property names — renamed
/// everywhere the result mentions it. A `#Index` or `#Unique` the model already declares is marked as such
/// and left out of the code to paste. What cannot be mapped keeps the store's names and is listed in
/// ``ModelSummary/notes``.
public enum ModelMapping {
    public static func apply(_ source: ModelSource, to input: AnalysisResult, option: String = "--model") -> AnalysisResult {
        var result = input
        var notes: [String] = []
        var entities: [ModelEntityMapping] = []
        let modelNames = Set(source.classes.map(\.className))
        if source.classes.isEmpty {
            notes.append("no @Model class (or NSManagedObject subclass) found in \(source.files.joined(separator: ", "))")
        }
        guard result.store.isCoreData else {
            notes.append("the store is not a Core Data / SwiftData store, so its columns are not named after the model")
            result.model = ModelSummary(files: source.files, entities: [], notes: notes, option: option == "--model" ? nil : option)
            return result
        }

        // Column → property, per table (upper-cased column names).
        var mappings: [String: [String: (property: ModelProperty, owner: ModelClass)]] = [:]
        var rootClass: [String: ModelClass] = [:]
        for table in result.store.tables where !table.entities.isEmpty {
            let used = columnsMentioned(in: result, table: table.name)
            var classes: [ModelClass] = []
            for entity in table.entities {
                let candidates = source.classes.filter { $0.entity == entity }
                // Several versions of a class (one per VersionedSchema): the one that names most of the columns used.
                let ranked = candidates.enumerated().map { (score: score($1, used, modelNames), order: $0, model: $1) }
                guard let best = ranked.max(by: { ($0.score, $0.order) < ($1.score, $1.order) })?.model else {
                    if entity == table.entities.first {
                        notes.append("no class \(entity) in the model source: key paths on \(table.name) stay as recovered from the store")
                    }
                    continue
                }
                classes.append(best)
            }
            guard let root = classes.first(where: { $0.entity == table.entities.first }) else { continue }
            rootClass[table.name.uppercased()] = root
            var map: [String: (ModelProperty, ModelClass)] = [:]
            var listed: [PropertyMapping] = []
            for owner in classes {
                for property in owner.properties {
                    guard let kind = kind(of: property, modelNames: modelNames) else { continue }
                    let column = property.columnName
                    if map[column] == nil {
                        map[column] = (property, owner)
                        listed.append(PropertyMapping(column: column, property: property.name, kind: kind, originalName: property.originalName))
                    }
                    let own = "Z" + property.name.uppercased()
                    if map[own] == nil { map[own] = (property, owner) }
                }
            }
            mappings[table.name.uppercased()] = map
            var mapping = ModelEntityMapping(entity: root.entity, table: table.name, declaredAt: root.location, properties: listed,
                                             path: root.path, framework: root.framework)
            mapping.classLocation = root.classLocation
            entities.append(mapping)
            // Sub-entities are listed too (their properties under the root's): the reports say where each is declared.
            for owner in classes where owner.className != root.className {
                var sub = ModelEntityMapping(entity: owner.entity, table: table.name, declaredAt: owner.location, properties: [],
                                             path: owner.path, framework: owner.framework)
                sub.classLocation = owner.classLocation
                entities.append(sub)
            }
            for column in used where map[column.uppercased()] == nil && !column.uppercased().hasPrefix("Z_") {
                notes.append("\(table.name).\(column): no stored property of \(root.entity) maps to it (Z + the upper-cased name or originalName)")
            }
        }

        result.rejectedCandidates = renamingRejected(result.rejectedCandidates, properties: mappings.mapValues { $0.mapValues(\.property.name) })

        // Recommendations: key paths, #Index, SwiftData index names.
        var renames: [(from: String, to: String)] = []
        var takenNames = Set(result.store.tables.flatMap { $0.indexes.map { $0.name.uppercased() } } + result.recommendations.map { $0.name.uppercased() })
        for position in result.recommendations.indices {
            var recommendation = result.recommendations[position]
            guard let entity = recommendation.entity, let map = mappings[recommendation.table.uppercased()],
                  let root = rootClass[recommendation.table.uppercased()] else { continue }
            let oldProperties = recommendation.columns.compactMap { $0.keyPath.map { String($0.dropFirst(2)) } }
            var mapped = true
            // Only a property's column can be a guess: Core Data's own (`Z_ENT`) has no key path at all, and the
            // model mapping every other column means the key paths are the model's (hostile round 6, F9).
            var guessed = false
            var fromOtherClass = false
            // The recommendation's entity (a sub-entity when every statement it serves fetches one) and the
            // classes it inherits from declare the key paths it may name.
            let lineage = Set([root.className] + (source.classes.first { $0.entity == entity }.map { source.lineage(of: $0).map(\.className) } ?? []))
            for index in recommendation.columns.indices {
                let column = recommendation.columns[index].name
                if RecommendedColumn.isCoreDataColumn(column) {
                    recommendation.columns[index].keyPath = nil
                    mapped = false
                } else if let (property, owner) = map[column.uppercased()] {
                    recommendation.columns[index].keyPath = "\\." + property.name
                    fromOtherClass = fromOtherClass || !lineage.contains(owner.className)
                } else {
                    mapped = false
                    guessed = guessed || recommendation.columns[index].keyPath != nil
                }
            }
            recommendation.keyPathsAreGuessed = guessed
            // What declares the entity decides the code: #Index in a @Model class, a fetch index in a Core Data
            // model, both when only the store's cached model knows the entity.
            let owner = source.classes.first { $0.entity == entity } ?? root
            let macro = fromOtherClass ? nil : SwiftDataCode.indexMacro(entity: entity, columns: recommendation.columns,
                                                                        partialPredicate: recommendation.partialPredicate)
            recommendation.swiftDataIndex = owner.framework.isCoreData ? nil : macro
            let properties = recommendation.columns.compactMap { $0.keyPath.map { String($0.dropFirst(2)) } }
            if fromOtherClass {
                recommendation.notes.append(.subEntityColumn(entity: entity))
            }
            // A partial index is never the model's full fetch index on the same properties (hostile round 6, F3),
            // nor one with a key no property gives (`Z_ENT`, recordedAt) the model's on recordedAt alone (F9).
            if properties.count != recommendation.columns.count {
                recommendation.declaredInModel = nil
            } else if owner.framework.isCoreData, recommendation.partialPredicate == nil {
                let elements = recommendation.columns.map { !$0.isDescending }
                if let declared = source.lineage(of: owner).lazy.compactMap({ model in
                    model.fetchIndexes.first { $0.elements.map(\.property) == properties && $0.elements.map(\.isAscending) == elements }.map { (model, $0) }
                }).first {
                    recommendation.declaredInModel = declared.1.line.map { "\(declared.0.file):\($0)" } ?? "\(declared.0.file) (fetch index \(declared.1.name))"
                }
            } else if let declared = root.indexes.first(where: { $0.properties == properties }) {
                recommendation.declaredInModel = "\(root.file):\(declared.line)"
            }
            // A fetch index declares what #Index does and, for a Core Data entity, descending elements and a
            // partial-index predicate too (the selection let those forms in: AnalysisOptions.coreDataEntities).
            // A to-one relationship compared with a value (`"ZPARENTSITE" = 7`, a primary key) has no NSPredicate
            // form (the predicate compares it with an object); `!= nil` it has.
            let predicate = recommendation.partialPredicate.map { sql in
                AlternativeShipping.fetchIndexPredicate(sql) { column in
                    guard let (property, _) = map[column.uppercased()] else { return nil }
                    let isRelationship = ModelMapping.kind(of: property, modelNames: modelNames) == .toOneRelationship
                    return isRelationship && !sql.hasSuffix(" IS NOT NULL") ? nil : property.name
                }
            }
            let fetchIndexForm = owner.framework.isCoreData && mapped && !fromOtherClass && predicate != .some(nil)
                && recommendation.columns.allSatisfy { $0.collation.uppercased() == "BINARY" && !$0.name.uppercased().hasPrefix("Z_") }
            // Named the way SwiftData names an #Index, or, for a Core Data entity, the way Core Data names a
            // fetch index (`Z_<Entity>_<name>`): follow the model's spelling.
            var finalName = recommendation.name
            let isSwiftDataNamed = oldProperties.count == recommendation.columns.count
                && [oldProperties, properties].contains { names in
                    [entity, root.entity].contains { recommendation.name == SwiftDataNaming.indexName(entity: $0, properties: names) }
                }
            // A form only a fetch index declares was named after the store's columns (`Z_Reminder_snoozeduntil_partial`).
            let isFetchIndexNamed = macro == nil && fetchIndexForm && recommendation.name.hasPrefix("Z_\(root.entity)_")
            // Named as Core Data names a fetch index (`Z_Book_byReadStateSort`, the analysis's name on a store
            // whose indexes Core Data named, or a report mapped before), after the store's spelling or the model's.
            let partial = predicate == nil ? "" : "Partial"
            let isCoreDataNamed = oldProperties.count == recommendation.columns.count && [oldProperties, properties].contains { names in
                [entity, root.entity].contains { CoreDataFetchIndex.isStoreName(recommendation.name, entity: $0, name: CoreDataFetchIndex.name(for: names) + partial) }
            }
            // A Core Data entity's, or one only the store's cached model knows on a store whose indexes Core Data named.
            let coreDataForm = owner.framework.isCoreData || owner.framework == .storeModel && result.store.indexConvention?.framework == .coreData
            if mapped, macro != nil && isSwiftDataNamed || isFetchIndexNamed || isCoreDataNamed && (coreDataForm || macro != nil) {
                // SwiftData's name keeps the entity it was given (the root's or the sub-entity's).
                let named = [oldProperties, properties].contains { recommendation.name == SwiftDataNaming.indexName(entity: entity, properties: $0) } ? entity : root.entity
                var name = SwiftDataNaming.indexName(entity: named, properties: properties)
                if coreDataForm {
                    let base = CoreDataFetchIndex.name(for: properties) + partial
                    var typed = base
                    var suffix = 2
                    // The recommendation's own name is not another index's: a name already in this form (a
                    // report mapped by `analyze --model`, then rendered with `--model` again) keeps it, so the
                    // SQL of one and the model code of the other name the same index (issue 41, item 2).
                    let own = recommendation.name.uppercased()
                    func isTaken(_ typed: String) -> Bool {
                        let store = CoreDataFetchIndex.storeIndexName(entity: entity, name: typed).uppercased()
                        return store != own && takenNames.contains(store)
                    }
                    while isTaken(typed) {
                        typed = base + String(suffix)
                        suffix += 1
                    }
                    name = CoreDataFetchIndex.storeIndexName(entity: entity, name: typed)
                }
                if name != recommendation.name && (name.uppercased() == recommendation.name.uppercased() || !takenNames.contains(name.uppercased())) {
                    renames.append((recommendation.name, name))
                    takenNames.insert(name.uppercased())
                    finalName = name
                }
            }
            // A Core Data model that has no property for a column declares no fetch index on it: a guessed name
            // would be code that fails (`no property shelfmark`) beside a header that calls it a guess (F9).
            if macro != nil && owner.framework != .swiftData && !(guessed && owner.framework.isCoreData) || fetchIndexForm {
                let prefix = "Z_\(entity)_"
                let typed = finalName.hasPrefix(prefix) && finalName.count > prefix.count ? String(finalName.dropFirst(prefix.count)) : finalName
                recommendation.fetchIndex = CoreDataFetchIndex(entity: entity, name: typed, elements: zip(properties, recommendation.columns).map {
                    CoreDataFetchIndex.Element(property: $0, isAscending: !$1.isDescending)
                }, partialIndexPredicate: predicate ?? nil)
            } else {
                recommendation.fetchIndex = nil
            }
            result.recommendations[position] = recommendation
        }
        for rename in renames { result.renameIndex(rename.from, to: rename.to) }

        // Uniqueness: #Unique from the model's names; rules the model already declares are not proposed again.
        for position in result.uniqueness.indices {
            var finding = result.uniqueness[position]
            guard let map = mappings[finding.table.uppercased()], let root = rootClass[finding.table.uppercased()] else { continue }
            let properties = finding.columns.compactMap { map[$0.uppercased()]?.property.name }
            guard properties.count == finding.columns.count else { continue }
            if let declared = root.uniques.first(where: { Set($0.properties) == Set(properties) }) {
                if finding.origin == .proposed {
                    finding.swiftDataUnique = nil
                    finding.coreDataConstraint = nil
                    finding.coreDataEntity = nil
                    finding.modelDeclaresAt = declared.line > 0 ? "\(root.file):\(declared.line)" : root.file
                }
            } else if finding.isProposedForModel, properties.allSatisfy(SwiftDataCode.isSwiftIdentifier), SwiftDataCode.isSwiftIdentifier(root.entity) {
                // A Core Data model declares it as a uniqueness constraint; a @Model class with #Unique; an entity
                // only the store's cache knows, either way, unless the store's index names are Core Data's.
                let coreDataOnly = root.framework.isCoreData || root.framework == .storeModel && result.store.indexConvention?.framework == .coreData
                finding.swiftDataUnique = coreDataOnly ? nil : "#Unique<\(root.entity)>([\(properties.map { "\\." + $0 }.joined(separator: ", "))])"
                finding.coreDataConstraint = nil
                finding.coreDataEntity = nil
                if root.framework != .swiftData {
                    // The entity that declares the constraint has every property: the root's, or the sub-entity
                    // that owns the most derived of them (its lineage holds the others).
                    let owners = finding.columns.compactMap { map[$0.uppercased()]?.owner }
                    let deepest = owners.max { source.lineage(of: $0).count < source.lineage(of: $1).count } ?? root
                    let lineage = Set(source.lineage(of: deepest).map(\.className))
                    if owners.allSatisfy({ lineage.contains($0.className) }) {
                        finding.coreDataConstraint = properties
                        finding.coreDataEntity = deepest.entity
                    }
                }
            }
            result.uniqueness[position] = finding
        }
        result.model = ModelSummary(files: source.files, entities: entities, notes: notes, option: option == "--model" ? nil : option)
        result.model?.storeIndexes = ModelStoreIndex.declared(in: source, store: result.store)
        return result
    }

    /// `input` with the names of the model the store caches (``StoreSummary/cachedModel``, `Z_MODELCACHE`)
    /// mapped as `--model` maps the app's, when it has one and no other model was applied; else `input`.
    /// The reports then say the names came from the store's own model.
    public static func applyStoreModel(to input: AnalysisResult) -> AnalysisResult {
        guard input.model == nil, let document = input.store.cachedModel?.model else { return input }
        let source = ModelSource(files: [], classes: []).adding(document, framework: .storeModel)
        return apply(source, to: input, option: StoreModelCache.sourceName)
    }

    /// The entities `source` declares through Core Data only (an `NSManagedObject` subclass or an
    /// `.xcdatamodeld` entity, and no SwiftData `@Model` class of the same entity): the analysis lets their
    /// tables' recommended set hold every fetch-index form (``AnalysisOptions/coreDataEntities``).
    public static func coreDataEntities(in source: ModelSource) -> Set<String> {
        let swiftData = Set(source.classes.filter { $0.framework == .swiftData }.map(\.entity))
        return Set(source.classes.filter { $0.framework.isCoreData && !swiftData.contains($0.entity) }.map(\.entity))
    }

    /// The uniqueness rules the model declares (`#Unique`, `@Attribute(.unique)`), as `--unique` rules on
    /// the tables Core Data gives their entities (`Z` + the upper-cased root entity name), for the audit.
    public static func declaredUniqueRules(in source: ModelSource) -> [UniqueRule] {
        let modelNames = Set(source.classes.map(\.className))
        var rules: [UniqueRule] = []
        for model in source.classes {
            let root = source.lineage(of: model).last ?? model
            for declaration in model.uniques {
                let columns = declaration.properties.compactMap { name in
                    model.properties.first { $0.name == name && kind(of: $0, modelNames: modelNames) != nil }?.columnName
                }
                guard columns.count == declaration.properties.count else { continue }
                let rule = UniqueRule(table: "Z" + root.entity.uppercased(), columns: columns)
                if !rules.contains(rule) { rules.append(rule) }
            }
        }
        return rules
    }

    /// The kind of column a stored property has, or nil when it has none (a to-many relationship).
    static func kind(of property: ModelProperty, modelNames: Set<String>) -> PropertyMapping.Kind? {
        if let element = property.elementType {
            return modelNames.contains(element) || property.isRelationship ? nil : .attribute
        }
        return modelNames.contains(property.baseType) || property.isRelationship ? .toOneRelationship : .attribute
    }

    /// How many of `columns` a class names.
    private static func score(_ model: ModelClass, _ columns: Set<String>, _ modelNames: Set<String>) -> Int {
        let names = Set(model.properties.filter { kind(of: $0, modelNames: modelNames) != nil }.flatMap { [$0.columnName, "Z" + $0.name.uppercased()] })
        return columns.filter { names.contains($0.uppercased()) }.count
    }

    /// The columns of `table` that the result mentions: recommendations, uniqueness rules, column statistics.
    private static func columnsMentioned(in result: AnalysisResult, table: String) -> Set<String> {
        var columns = Set<String>()
        for recommendation in result.recommendations where recommendation.table == table { columns.formUnion(recommendation.columns.map(\.name)) }
        for finding in result.uniqueness where finding.table == table { columns.formUnion(finding.columns) }
        for summary in result.store.tables where summary.name == table { columns.formUnion(summary.columnStatistics.flatMap(\.columns)) }
        return columns
    }
}

extension AnalysisResult {
    /// Renames the recommended index `old` to `new` everywhere the result mentions it: the recommendation,
    /// its SQL, the plans and statements that use it, the reasons and notes that name it. A name inside a
    /// longer identifier (`…Archived` in `…ArchivedupdatedAt`) is left alone.
    mutating func renameIndex(_ old: String, to new: String) {
        func replace(_ text: String) -> String { text.replacingIdentifier(old, with: new) }
        for position in recommendations.indices where recommendations[position].name == old {
            recommendations[position].name = new
            recommendations[position].sql = recommendations[position].sql.replacingFirst(SQLIdentifier.quote(old), with: SQLIdentifier.quote(new))
        }
        func renamed(_ plan: QueryPlan?) -> QueryPlan? {
            guard var plan else { return nil }
            plan.steps = plan.steps.map { step in
                var step = step
                step.detail = replace(step.detail)
                return step
            }
            plan.findings = plan.findings.map { finding in
                var finding = finding
                finding.detail = replace(finding.detail)
                if finding.index == old { finding.index = new }
                return finding
            }
            return plan
        }
        // The plans each pick was timed with name the index too (a report shows them as "plan with it").
        func renamed(_ effects: [StatementEffect]) -> [StatementEffect] {
            effects.map { effect in
                var effect = effect
                effect.planBefore = renamed(effect.planBefore)
                effect.planAfter = renamed(effect.planAfter)
                return effect
            }
        }
        for position in recommendations.indices {
            recommendations[position].notes = recommendations[position].notes.map { $0.renamingNames(replace) }
            recommendations[position].effects = renamed(recommendations[position].effects)
        }
        alternatives = alternatives?.map { alternative in
            var alternative = alternative
            alternative.effects = renamed(alternative.effects)
            return alternative
        }
        for position in statements.indices {
            statements[position].usesRecommendations = statements[position].usesRecommendations.map { $0 == old ? new : $0 }
            statements[position].planBefore = renamed(statements[position].planBefore)
            statements[position].planAfter = renamed(statements[position].planAfter)
            statements[position].notes = statements[position].notes.map { $0.renamingNames(replace) }
        }
        for position in rejectedCandidates.indices {
            rejectedCandidates[position].rejection = rejectedCandidates[position].rejection.renamingNames(replace)
        }
        for position in existingIndexes.indices {
            if existingIndexes[position].supersededBy == old { existingIndexes[position].supersededBy = new }
            existingIndexes[position].caveats = existingIndexes[position].caveats.map { $0.renamingNames(replace) }
        }
        warnings = warnings.map { $0.renamingNames(replace) }
    }
}

extension String {
    /// The string with every whole-identifier occurrence of `name` (not preceded or followed by a letter,
    /// digit, `_` or `$`) replaced by `replacement`.
    func replacingIdentifier(_ name: String, with replacement: String) -> String {
        guard !name.isEmpty, contains(name) else { return self }
        func isIdentifierCharacter(_ character: Character?) -> Bool {
            guard let character else { return false }
            return character.isLetter || character.isNumber || character == "_" || character == "$"
        }
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: name) {
            let before = range.lowerBound == rest.startIndex ? result.last : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            result += rest[..<range.lowerBound]
            result += isIdentifierCharacter(before) || isIdentifierCharacter(after) ? name : replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return self[..<range.lowerBound] + replacement + self[range.upperBound...]
    }
}
