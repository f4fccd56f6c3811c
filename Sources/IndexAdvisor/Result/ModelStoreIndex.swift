/// One of the store's indexes that the model declares (issue 41, item 2): the fetch index `sortTitle` of
/// `Book` is `Z_Book_sortTitle` in the store. Dropping such an index with SQL alone leaves the model
/// declaring it, so every store the app creates from the model gets it again: the reports say to remove it
/// from the entity in the new model version, next to the `DROP INDEX`.
public struct ModelStoreIndex: Sendable, Codable, Equatable {
    /// The store's index (`Z_Book_sortTitle`).
    public var storeName: String
    /// The entity that declares it (`Book`).
    public var entity: String
    /// Its name in the model (`sortTitle`; for an Indexed attribute, the attribute's).
    public var name: String
    /// How the model declares it; nil for a fetch index.
    public var kind: CoreDataModelDocument.FetchIndex.Kind?
    public var elements: [CoreDataFetchIndex.Element]
    /// `books_18.xcdatamodel:45` (the model's file alone when it gives no line); nil when no model was read
    /// and only the store's name says what it is (``StoreIndexConvention``): the reports say "if your model declares it".
    public var declaredAt: String?

    public init(storeName: String, entity: String, name: String, kind: CoreDataModelDocument.FetchIndex.Kind?,
                elements: [CoreDataFetchIndex.Element], declaredAt: String?) {
        self.storeName = storeName
        self.entity = entity
        self.name = name
        self.kind = kind
        self.elements = elements
        self.declaredAt = declaredAt
    }

    /// The fetch index as the code and the XML name it.
    public var fetchIndex: CoreDataFetchIndex { CoreDataFetchIndex(entity: entity, name: name, elements: elements) }

    /// The store's indexes the classes of `source` declare, by Core Data's name for each (`Z_<Entity>_<name>`).
    static func declared(in source: ModelSource, store: StoreSummary) -> [ModelStoreIndex] {
        let names = Set(store.tables.flatMap { $0.indexes.map { $0.name.uppercased() } })
        var found: [ModelStoreIndex] = []
        for model in source.classes where model.framework != .swiftData {
            for index in model.fetchIndexes {
                let storeName = CoreDataFetchIndex.storeIndexName(entity: model.entity, name: index.name)
                guard names.contains(storeName.uppercased()), !found.contains(where: { $0.storeName.uppercased() == storeName.uppercased() }) else { continue }
                found.append(ModelStoreIndex(storeName: storeName, entity: model.entity, name: index.name, kind: index.kind,
                                             elements: index.elements.map { .init(property: $0.property, isAscending: $0.isAscending) },
                                             declaredAt: index.line.map { "\(model.file):\($0)" } ?? model.file))
            }
        }
        return found
    }
}

extension AnalysisResult {
    /// The model's declaration of the store's index `name` (``ModelSummary/storeIndexes``); without a model
    /// that lists it, on a store whose indexes Core Data named, the fetch index its name says it is (not
    /// declared anywhere the tool read: ``ModelStoreIndex/declaredAt`` nil). Nil for any other index.
    public func modelStoreIndex(named name: String) -> ModelStoreIndex? {
        if let listed = model?.storeIndexes {
            return listed.first { $0.storeName.uppercased() == name.uppercased() }
        }
        guard store.indexConvention?.framework == .coreData,
              let table = store.tables.first(where: { $0.indexes.contains { $0.name.uppercased() == name.uppercased() } }),
              let index = table.indexes.first(where: { $0.name.uppercased() == name.uppercased() }), !index.isUnique,
              let typed = StoreIndexConvention.fetchIndexName(of: index.name, table: table.name, entities: table.entities.map { ($0, table.name) }),
              !typed.contains("SwiftDataIndexOnBinary"), SwiftDataCode.isSwiftIdentifier(typed),
              let entity = table.entities.first(where: { index.name.hasPrefix("Z_\($0)_") })
        else { return nil }
        return ModelStoreIndex(storeName: index.name, entity: entity, name: typed, kind: nil, elements: [], declaredAt: nil)
    }

    /// The model's indexes among the store's indexes the migration drops (``indexesToDrop``), in its order:
    /// each to remove from its entity in the new model version.
    public var modelIndexesToRemove: [ModelStoreIndex] {
        indexesToDrop.compactMap { modelStoreIndex(named: $0.index) }
    }

    /// The sentence beside a `DROP INDEX` of the model's own index: remove it in the new model version too.
    public func modelRemovalSentence(_ index: ModelStoreIndex) -> String {
        let start = index.declaredAt.map { "Core Data (declared at \($0)): " }
            ?? "Core Data: if your model declares the \(StoreModelText.kind(index)) \(index.name) of \(index.entity) (the index's name says so), "
        return start + StoreModelText.removal(index) + " as well (--format swift gives the steps), or every store the app creates from the model gets it again."
    }

    /// `(in the model too: the fetch index sortStarted of Book)` for the store's indexes `names` an
    /// alternative replaces, naming the model's own among them (each name through `code`); `(in the model too)`
    /// when none is known to be.
    public func inTheModelToo(_ names: [String], code: (String) -> String) -> String {
        let known = names.compactMap { modelStoreIndex(named: $0) }.map { index in
            "the " + StoreModelText.kind(index) + " " + code(index.name) + " of " + code(index.entity) + (index.declaredAt == nil ? ", if your model declares it" : "")
        }
        return known.isEmpty ? "(in the model too)" : "(in the model too: " + known.joined(separator: "; ") + ")"
    }

    /// One sentence for the summaries: which drops are the model's own indexes, to remove from the new model
    /// version too; each name passed through `code` (a code span, a `<code>` element). Nil when none is.
    public func modelRemovalNote(code: (String) -> String) -> String? {
        let removals = modelIndexesToRemove
        guard !removals.isEmpty else { return nil }
        let declared = removals.allSatisfy { $0.declaredAt != nil }
        let names = removals.map { index in
            code(index.storeName) + " (" + StoreModelText.kind(index) + " " + code(index.name) + " of " + code(index.entity) + ")"
        }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        let verb = removals.count == 1 ? "is" : "are"
        let them = removals.count == 1 ? "it" : "them"
        return declared
            ? "\(list) \(verb) the model's own: remove \(them) from the entity in the new model version too, or every store the app creates from the model gets \(them) again (--format swift gives the steps)."
            : "\(list) \(verb) named as Core Data names a model's fetch indexes: if your model declares \(them), remove \(them) from the entity in the new model version too, or every store the app creates gets \(them) again (--format swift gives the steps)."
    }
}

/// Words for a ``ModelStoreIndex``.
enum StoreModelText {
    /// `fetch index`, `Indexed attribute`, `compound index`.
    static func kind(_ index: ModelStoreIndex) -> String {
        switch index.kind {
        case .indexedAttribute?: return "Indexed attribute"
        case .compoundIndex?: return "compound index"
        case .fetchIndex?, nil: return "fetch index"
        }
    }

    /// `remove the fetch index sortTitle from the entity Book in the new model version`.
    static func removal(_ index: ModelStoreIndex) -> String {
        let what: String
        switch index.kind {
        case .indexedAttribute?: what = "clear Indexed on the attribute \(index.name) of the entity \(index.entity)"
        case .compoundIndex?: what = "remove the compound index (\(index.elements.map(\.property).joined(separator: ", "))) from the entity \(index.entity)"
        case .fetchIndex?, nil: what = "remove the fetch index \(index.name) from the entity \(index.entity)"
        }
        return what + " in the new model version"
    }

    /// ``removal(_:)`` after `if your model declares it, ` when no model read says it does.
    static func conditionalRemoval(_ index: ModelStoreIndex) -> String {
        (index.declaredAt == nil ? "if your model declares it, " : "") + removal(index)
    }
}
