extension CoreDataModelDocument {
    /// The entities as ``ModelClass`` values, the form the name mapping and the fetch-site translation read:
    /// an attribute is a stored property of its Swift type (`Int64`, `Date?`), a to-one relationship a property
    /// of the destination's class, a to-many relationship a `Set` (or, ordered, an array) of it; transient
    /// attributes are left out (they have no column). `framework` says what declares them.
    func modelClasses(framework: ModelClass.Framework) -> [ModelClass] {
        let classNames = Dictionary(entities.map { ($0.name, $0.className ?? $0.name) }, uniquingKeysWith: { first, _ in first })
        return entities.map { entity in
            var properties: [ModelProperty] = entity.attributes.filter { !$0.isTransient }.map { attribute in
                ModelProperty(name: attribute.name, type: attribute.swiftType, originalName: nil, isUnique: false,
                              isRelationship: false, line: attribute.line ?? 0)
            }
            for relationship in entity.relationships {
                let destination = classNames[relationship.destination] ?? relationship.destination
                let type = relationship.isToMany ? (relationship.isOrdered ? "[\(destination)]" : "Set<\(destination)>") : destination + "?"
                properties.append(ModelProperty(name: relationship.name, type: type, originalName: nil, isUnique: false,
                                                isRelationship: true, line: relationship.line ?? 0))
            }
            let uniques = entity.uniquenessConstraints.enumerated().map { offset, names in
                ModelDeclaration(properties: names, line: offset < entity.uniquenessLines.count ? entity.uniquenessLines[offset] : (entity.line ?? 0))
            }
            var model = ModelClass(entity: entity.name, className: classNames[entity.name] ?? entity.name, framework: framework,
                                   superclass: entity.parent.map { classNames[$0] ?? $0 }, file: source, line: entity.line ?? 0,
                                   properties: properties, uniques: uniques, indexes: [])
            model.path = path
            model.fetchIndexes = entity.fetchIndexes
            return model
        }
    }
}

extension ModelSource {
    /// This source with the entities of a Core Data model added. An entity whose `NSManagedObject`
    /// subclass the Swift source declares becomes that class (``ModelClass/Framework/coreData``), its
    /// properties, parent, fetch indexes and uniqueness constraints the model's (with any `@NSManaged`
    /// property the model lacks kept), located in the model; one a SwiftData `@Model` class declares stays
    /// that class; the others are added as known only from the model. The model's name joins ``files``.
    public func adding(_ document: CoreDataModelDocument, framework: ModelClass.Framework = .coreDataModel) -> ModelSource {
        var result = self
        for var entity in document.modelClasses(framework: framework) {
            let matches = { (model: ModelClass) in model.entity == entity.entity || model.className == entity.className }
            if let other = result.otherClasses.firstIndex(where: matches) {
                // A class of the entity's name that inherits from another class: the entity's generated parent.
                result.classes.append(result.otherClasses.remove(at: other))
            }
            if let index = result.classes.firstIndex(where: { $0.framework == .coreData && matches($0) }) {
                let swift = result.classes[index]
                entity.framework = .coreData
                entity.className = swift.className
                // The same model added again (`--model` and a model found beside the `--source` files): the class stays where the Swift declares it.
                entity.classLocation = swift.classLocation ?? swift.location
                entity.properties += swift.properties.filter { property in !entity.properties.contains { $0.name == property.name } }
                result.classes[index] = entity
            } else if !result.classes.contains(where: { matches($0) && ($0.framework == .swiftData || $0.framework == framework || $0.framework == .coreData) }) {
                result.classes.append(entity)
            }
        }
        // A class taken for Core Data for its `@NSManaged` properties alone (a `CALayer` subclass declares its
        // animatable ones so) whose parent is neither NSManagedObject nor a class or entity the model knows: with
        // the model read, it is no entity (a new user's trial of LoopKit: a gauge layer among the model's files).
        let known = Set(result.classes.flatMap { [$0.className, $0.entity] })
        let notEntities = result.classes.filter { $0.framework == .coreData && $0.superclass.map { !known.contains($0) } == true }
        result.classes.removeAll { model in notEntities.contains { $0.className == model.className } }
        let stillUsed = Set(result.classes.map(\.file))
        result.files.removeAll { file in notEntities.contains { $0.file == file } && !stillUsed.contains(file) }
        if !result.files.contains(document.source) { result.files.append(document.source) }
        result.documents.append(document)
        return result
    }
}
