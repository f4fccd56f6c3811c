/// What a Core Data app declares for the advice, in each form it can take: the model editor's steps, the
/// XML of the model version's `contents` file (`<fetchIndex>`, `<uniquenessConstraints>`, as Xcode writes
/// them), and Swift code on an `NSManagedObjectModel` (`NSFetchIndexDescription`,
/// `NSFetchIndexElementDescription` with `isAscending`, `partialIndexPredicate`, `uniquenessConstraints`).
///
/// Only Swift identifiers reach the code and the XML (names come from the model or the store):
/// ``SwiftDataCode/isSwiftIdentifier(_:)``; a predicate format is quoted as a Swift string literal.
public enum CoreDataCode {
    /// The model-editor steps for `index`.
    public static func editorSteps(_ index: CoreDataFetchIndex) -> String {
        let elements = index.elements.map { "\($0.property) (\($0.isAscending ? "ascending" : "descending"))" }.joined(separator: ", ")
        let predicate = index.partialIndexPredicate.map { "; the editor has no field for a partial index predicate: set partialIndexPredicate \"\($0)\" in code (below)" } ?? ""
        return "select the entity \(index.entity), click and hold Add Entity and choose Add Fetch Index (also Editor ▸ Add Fetch Index), "
            + "name it \(index.name), and add its elements in order, each Binary: \(elements)\(predicate)."
    }

    /// The model-editor step that removes `index` (one the migration drops) from its entity in the new model
    /// version, so that stores the app creates do not get it again.
    public static func removalStep(_ index: ModelStoreIndex) -> String {
        switch index.kind {
        case .indexedAttribute?:
            return "select the attribute \(index.name) of the entity \(index.entity) and, in the Data Model inspector, clear Indexed."
        case .compoundIndex?:
            return "select the entity \(index.entity) and, in the Data Model inspector's Indexes, remove the compound index \(index.elements.map(\.property).joined(separator: ","))."
        case .fetchIndex?, nil:
            return "in the editor's outline, under the entity \(index.entity), select the fetch index \(index.name) and press Delete."
        }
    }

    /// What to delete from the entity's element in the version's `contents` file for `index`, as one line.
    public static func removalXML(_ index: ModelStoreIndex) -> String {
        let line = index.declaredAt.flatMap { place in place.split(separator: ":").count == 2 ? " (\(place))" : nil } ?? ""
        switch index.kind {
        case .indexedAttribute?:
            return "delete indexed=\"YES\" from <attribute name=\"\(index.name)\" …>\(line)"
        case .compoundIndex?:
            return "delete the <compoundIndex> of " + index.elements.map { "<index value=\"\($0.property)\"/>" }.joined() + line
        case .fetchIndex?, nil:
            return "delete <fetchIndex name=\"\(index.name)\"> … </fetchIndex>\(line)"
        }
    }

    /// The editor step for a uniqueness constraint on `properties`.
    public static func constraintStep(entity: String, properties: [String]) -> String {
        "select the entity \(entity) and, in the Data Model inspector's Constraints, add \(properties.joined(separator: ","))."
    }

    /// The `<fetchIndex>` element for `index`, one line per XML line; for a partial index, a comment saying to
    /// add it in code instead (the element has no predicate, and without one it would build a full index).
    public static func xml(_ index: CoreDataFetchIndex) -> [String] {
        if index.partialIndexPredicate != nil {
            return ["<!-- \(index.name): a partial index; its predicate has no place here, so it is added in code (below) -->"]
        }
        return ["<fetchIndex name=\"\(index.name)\">"]
            + index.elements.map { "    <fetchIndexElement property=\"\($0.property)\" type=\"Binary\" order=\"\($0.isAscending ? "ascending" : "descending")\"/>" }
            + ["</fetchIndex>"]
    }

    /// The `<uniquenessConstraints>` element holding `constraints`.
    public static func xml(constraints: [[String]]) -> [String] {
        ["<uniquenessConstraints>"]
            + constraints.flatMap { names in ["    <uniquenessConstraint>"] + names.map { "        <constraint value=\"\($0)\"/>" } + ["    </uniquenessConstraint>"] }
            + ["</uniquenessConstraints>"]
    }

    /// A Swift function that adds `indexes` and `constraints` (by entity) to a model before a persistent
    /// store coordinator uses it; empty when there is nothing, or a name is no Swift identifier.
    /// `removals`, the fetch indexes the migration drops (by entity), are taken out of `entity.indexes`.
    public static func swift(indexes: [CoreDataFetchIndex], constraints: [(entity: String, properties: [String])],
                             removals: [(entity: String, name: String)] = []) -> [String] {
        var entities: [String] = []
        for entity in indexes.map(\.entity) + constraints.map(\.entity) + removals.map(\.entity) where !entities.contains(entity) { entities.append(entity) }
        let names = entities + indexes.flatMap { [$0.name] + $0.elements.map(\.property) } + constraints.flatMap(\.properties) + removals.map(\.name)
        guard !entities.isEmpty, names.allSatisfy(SwiftDataCode.isSwiftIdentifier) else { return [] }
        let what = removals.isEmpty ? [
            "/// The fetch indexes and uniqueness constraints above, added to a model built or loaded in code, before a",
            "/// persistent store coordinator uses it (a model cannot change after that).",
        ] : indexes.isEmpty && constraints.isEmpty ? [
            "/// The fetch indexes the migration drops, removed from a model built or loaded in code, before a persistent",
            "/// store coordinator uses it (a model cannot change after that).",
        ] : [
            "/// The fetch indexes and uniqueness constraints above added to, and the fetch indexes the migration drops",
            "/// removed from, a model built or loaded in code, before a persistent store coordinator uses it (a model",
            "/// cannot change after that).",
        ]
        var lines = ["import CoreData", ""] + what + ["func addAdvisedIndexes(to model: NSManagedObjectModel) {"]
        if !indexes.isEmpty {
            lines += [
                "    func element(_ entity: NSEntityDescription, _ name: String, ascending: Bool = true) -> NSFetchIndexElementDescription {",
                "        guard let property = entity.propertiesByName[name] else { preconditionFailure(\"no property \\(name) in \\(entity.name ?? \"\")\") }",
                "        let element = NSFetchIndexElementDescription(property: property, collationType: .binary)",
                "        element.isAscending = ascending",
                "        return element",
                "    }",
            ]
        }
        for entity in entities {
            lines.append("    if let entity = model.entitiesByName[\"\(entity)\"] {")
            for index in indexes where index.entity == entity {
                let elements = index.elements.map { "element(entity, \"\($0.property)\"\($0.isAscending ? "" : ", ascending: false"))" }.joined(separator: ", ")
                lines.append("        let \(index.name) = NSFetchIndexDescription(name: \"\(index.name)\", elements: [\(elements)])")
                if let predicate = index.partialIndexPredicate {
                    lines.append("        \(index.name).partialIndexPredicate = NSPredicate(format: \(stringLiteral(predicate)))")
                }
                lines.append("        entity.indexes.append(\(index.name))")
            }
            for constraint in constraints where constraint.entity == entity {
                lines.append("        entity.uniquenessConstraints.append([\(constraint.properties.map { "\"\($0)\"" }.joined(separator: ", "))])")
            }
            let removed = removals.filter { $0.entity == entity }.map { "\"\($0.name)\"" }
            if removed.count == 1 {
                lines.append("        entity.indexes.removeAll { $0.name == \(removed[0]) }")
            } else if !removed.isEmpty {
                lines.append("        entity.indexes.removeAll { [\(removed.joined(separator: ", "))].contains($0.name) }")
            }
            lines.append("    }")
        }
        lines.append("}")
        return lines
    }

    /// `text` as a Swift string literal.
    static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { literal += "\\u{\(String(scalar.value, radix: 16))}" } else { literal.unicodeScalars.append(scalar) }
            }
        }
        return literal + "\""
    }
}

extension AnalysisResult {
    /// What declares `entity`, as the model read said (nil: no model said, so either framework may).
    public func framework(ofEntity entity: String?) -> ModelClass.Framework? {
        guard let entity else { return nil }
        return model?.entities.first { $0.entity == entity }?.framework
    }

    /// True when `entity` is a Core Data model's (`coreData`, `coreDataModel`), or, when no model read says
    /// which framework declares it, the store's index names are Core Data's (``StoreIndexConvention``): no
    /// `#Index` or `#Unique` for it.
    public func isCoreDataEntity(_ entity: String?) -> Bool {
        guard entity != nil else { return false }
        let framework = framework(ofEntity: entity)
        if let framework, framework != .storeModel { return framework.isCoreData }
        return store.indexConvention?.framework == .coreData
    }

    /// True when `entity` is a SwiftData `@Model` class's, or, when no model read says which framework
    /// declares it, the store's index names are SwiftData's: no fetch index for it.
    public func isSwiftDataEntity(_ entity: String?) -> Bool {
        guard entity != nil else { return false }
        let framework = framework(ofEntity: entity)
        if let framework, framework != .storeModel { return framework == .swiftData }
        return store.indexConvention?.framework == .swiftData
    }

    /// The fetch index that declares `recommendation` in a Core Data model: its ``Recommendation/fetchIndex``,
    /// or, when no model said which framework declares its entity, the one of its `#Index` (named so that the
    /// store's index is the one the SQL migration builds). Nil for a SwiftData entity, or when none can.
    public func fetchIndexDeclaration(for recommendation: Recommendation) -> CoreDataFetchIndex? {
        if let index = recommendation.fetchIndex { return index }
        guard !isSwiftDataEntity(recommendation.entity), let entity = recommendation.entity, recommendation.swiftDataIndex != nil else { return nil }
        let prefix = "Z_\(entity)_"
        let name = recommendation.name.hasPrefix(prefix) && recommendation.name.count > prefix.count ? String(recommendation.name.dropFirst(prefix.count)) : recommendation.name
        let properties = recommendation.columns.compactMap { $0.keyPath.map { String($0.dropFirst(2)) } }
        guard properties.count == recommendation.columns.count else { return nil }
        return CoreDataFetchIndex(entity: entity, name: name, elements: zip(properties, recommendation.columns).map { .init(property: $0, isAscending: !$1.isDescending) })
    }

    /// The uniqueness constraint to declare for `finding` on a Core Data entity: its
    /// ``UniquenessFinding/coreDataConstraint``, or, when no model said which framework declares the entity,
    /// the properties of its `#Unique`. Nil for a SwiftData entity.
    public func uniquenessConstraint(for finding: UniquenessFinding) -> (entity: String, properties: [String])? {
        if let properties = finding.coreDataConstraint, let entity = finding.coreDataEntity { return (entity, properties) }
        guard let macro = finding.swiftDataUnique, let open = macro.firstIndex(of: "<"), let close = macro.firstIndex(of: ">") else { return nil }
        let entity = String(macro[macro.index(after: open)..<close])
        guard !isSwiftDataEntity(entity) else { return nil }
        let properties = macro[close...].split(separator: "\\").dropFirst().map { String($0.drop { $0 == "." }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }) }
        return properties.isEmpty ? nil : (entity, properties)
    }

    /// How the reports name the rule `finding` proposes for the model: its `#Unique` line, or the Core Data
    /// uniqueness constraint (`the uniqueness constraint (remoteID) of Record`); nil when it proposes none.
    public func modelRuleText(for finding: UniquenessFinding) -> String? {
        if let macro = finding.swiftDataUnique { return macro }
        guard let properties = finding.coreDataConstraint else { return nil }
        return "the uniqueness constraint (\(properties.joined(separator: ", "))) of \(finding.coreDataEntity ?? finding.table)"
    }

    /// How the model declares the recommended indexes, in words for the SQL and Markdown reports: a fetch
    /// index in a new model version for Core Data entities, `#Index` in a new `VersionedSchema` for SwiftData
    /// classes, either when no model said; and the ones no model can declare (``sqlOnlyRecommendations``)
    /// named as SQL only, which the header must not tell to declare (hostile round 6, F9).
    public var modelDeclarationAdvice: String {
        let entities = recommendations.compactMap(\.entity)
        let sqlOnly = sqlOnlyRecommendations
        // The ones to declare: not SQL only, not served by a proposed uniqueness rule, not in the model already
        // (the comment before each of those says so).
        let toDeclare = recommendations.filter {
            $0.entity != nil && sqlOnlyReason(for: $0) == nil && uniqueRule(covering: $0) == nil && $0.declaredInModel == nil
        }
        let coreData = !entities.isEmpty && entities.allSatisfy(isCoreDataEntity)
        let swiftData = !entities.isEmpty && entities.allSatisfy(isSwiftDataEntity)
        let kind = coreData ? "Core Data store" : swiftData ? "SwiftData store" : "Core Data / SwiftData store"
        let one = sqlOnly.count == 1
        let shipping = "run \(one ? "its" : "their") CREATE INDEX IF NOT EXISTS from the app each time the store opens, so that stores the app creates get \(one ? "it" : "them") too: \(ShippingAdvice.unknownIndexFate)"
        if !sqlOnly.isEmpty && toDeclare.isEmpty {
            return "\(kind): no model can declare \(one ? "the index" : "the indexes") \(Figures.listed(sqlOnly.map(\.name))), SQL only (the comment before each says why): \(shipping)."
        }
        let rest = sqlOnly.isEmpty ? "" : " \(Figures.listed(sqlOnly.map(\.name))) \(one ? "is" : "are") SQL only, since no model can declare \(one ? "it" : "them") (the comment before each says why): \(shipping)."
        if coreData {
            guard !sqlOnly.isEmpty else {
                return "Core Data store: adding an index changes the model. Declare each as a fetch index in a new version of the Core Data model (see --format swift: the model-editor steps, the contents XML and the NSFetchIndexDescription code), which lightweight migration or a mapping model carries existing stores to, so stores the app creates get it too; each is named as Core Data names that fetch index in the store (Z_<Entity>_<name>)."
            }
            let declared = toDeclare.map { recommendation in
                recommendation.name + (fetchIndexDeclaration(for: recommendation).map { " (the fetch index \($0.name) of \($0.entity))" } ?? "")
            }
            return "Core Data store: adding an index changes the model. Declare \(Figures.listed(declared)) in a new version of the Core Data model (see --format swift: the model-editor steps, the contents XML and the NSFetchIndexDescription code), which lightweight migration or a mapping model carries existing stores to, so stores the app creates get \(toDeclare.count == 1 ? "it" : "them") too; Core Data gives a fetch index that name in the store (Z_<Entity>_<name>)." + rest
        }
        let which = sqlOnly.isEmpty ? "it" : Figures.listed(toDeclare.map(\.name))
        if swiftData {
            return "SwiftData store: adding an index is a schema change. Declare \(which) in the model as well (#Index in a new VersionedSchema, see --format swift), so stores the app creates get it too." + rest
        }
        return "Core Data / SwiftData store: adding an index is a schema change. Declare \(which) in the model as well (see --format swift): #Index in a new VersionedSchema for a SwiftData @Model class, a fetch index in a new version of the .xcdatamodeld for a Core Data entity, so stores the app creates get it too." + rest
    }

    /// The fetch index that ships `alternative` on a Core Data entity (a partial index as `partialIndexPredicate`,
    /// descending keys as `isAscending` false), when its shipping advice is one and its entity is not a
    /// SwiftData class's; named after the alternative's store name (`Z_Message_destructionDate_partial` →
    /// `destructionDate_partial`), so that Core Data's index is the one measured.
    public func fetchIndex(for alternative: AlternativeIndex) -> CoreDataFetchIndex? {
        guard let entity = alternative.entity, !isSwiftDataEntity(entity) else { return nil }
        let properties: [String]
        let descending: [String]
        let predicate: String?
        switch alternative.howToShip {
        case .fetchIndex(let names, let format): (properties, descending, predicate) = (names, [], format)
        case .directedFetchIndex(let names, let down, let format): (properties, descending, predicate) = (names, down, format)
        default: return nil
        }
        let prefix = "Z_\(entity)_"
        let name = alternative.name.hasPrefix(prefix) && alternative.name.count > prefix.count ? String(alternative.name.dropFirst(prefix.count)) : alternative.name
        guard ([entity, name] + properties).allSatisfy(SwiftDataCode.isSwiftIdentifier) else { return nil }
        return CoreDataFetchIndex(entity: entity, name: name, elements: properties.map { .init(property: $0, isAscending: !descending.contains($0)) },
                                  partialIndexPredicate: predicate)
    }
}
