/// `--format swift`: the model code to paste, per entity in the form its framework takes.
///
/// - A SwiftData `@Model` class: `#Index<Note>([…], […])` and `#Unique<Note>([…])`, with where they go
///   and the `VersionedSchema` reminder.
/// - A Core Data entity (an `NSManagedObject` subclass or an entity of the `.xcdatamodeld` read with
///   `--model`): the fetch index and the uniqueness constraint as model-editor steps, as the `contents`
///   XML and as `NSFetchIndexDescription` code (``CoreDataCode``), named as Core Data names them in the
///   store (`Z_<Entity>_<name>`), with the model-version reminder; never `#Index`.
/// - An entity no model placed (the names recovered from the store): both, each saying when it applies.
///
/// It says where the key paths come from (`--model`, `--source`, the store's `Z_MODELCACHE`, or guessed
/// from column names) and what building took on this store. Only Swift identifiers are pasted into code
/// (``SwiftDataCode/isSwiftIdentifier(_:)``); store text in comments is folded onto one line.
public enum SwiftReport {
    /// - Parameter queryAdvice: false leaves out the query-side advice comments (for the reports that
    ///   embed this code and show that advice in a section of their own).
    public static func render(_ result: AnalysisResult, queryAdvice: Bool = true) -> String {
        var lines: [String] = []
        lines.append(comment("\(result.tool.name) \(result.tool.version): model declarations for \(result.store.fileName), \(result.tool.generatedAt)."))
        guard result.store.isCoreData else {
            lines.append(comment("This is not a Core Data / SwiftData store: there is no model code to change. Use the SQL migration (--format sql)."))
            return finish(lines, result, queryAdvice: queryAdvice)
        }
        let declared = result.declaredIndexRecommendations
        let indexes = SwiftDataCode.declarationsByModel(for: declared.filter { !result.isCoreDataEntity($0.entity) })
        let uniques = SwiftDataCode.uniqueDeclarationsByModel(for: result.uniqueness.filter { finding in
            !result.isCoreDataEntity(finding.swiftDataUnique.flatMap(entityOfMacro))
        })
        let fetchIndexes = result.recommendations.filter { $0.declaredInModel == nil && result.uniqueRule(covering: $0) == nil }
            .compactMap(result.fetchIndexDeclaration(for:))
        let constraints = result.uniqueness.compactMap(result.uniquenessConstraint(for:))
        let undeclarable = result.sqlOnlyRecommendations
        let servedByUnique = result.recommendations.compactMap { recommendation in
            result.uniqueRule(covering: recommendation).map { (recommendation, $0) }
        }
        let alreadyDeclared = result.recommendations.filter { $0.declaredInModel != nil }
        // The store's indexes the migration drops that the model declares: removed from the new version too, or
        // every store the app creates gets them again (issue 41, item 2).
        let removals = result.modelIndexesToRemove
        let alternatives = (result.alternatives ?? []).flatMap { alternative -> [String] in
            var lines = [comment("Alternative \(alternative.name) on \(alternative.table): \(Figures.readWriteEffect(reads: alternative.boundedReadSaving, writes: alternative.boundedWriteCost)) per workload on top of the indexes here. \(result.shippingText(for: alternative))")]
            // As a Core Data fetch index, commented out: a choice, not part of the advice.
            if let index = result.fetchIndex(for: alternative) {
                lines.append(comment("  As a Core Data fetch index, if you choose it: \(CoreDataCode.editorSteps(index))"))
                lines += CoreDataCode.xml(index).map { comment("    " + $0) }
                lines += CoreDataCode.swift(indexes: [index], constraints: []).filter { !$0.isEmpty && !$0.hasPrefix("import") && !$0.hasPrefix("///") }.map { comment("    " + $0) }
                // The model's own indexes it leaves unused: removed with it, or new stores keep building them.
                for replaced in alternative.replaces.compactMap(result.modelStoreIndex(named:)) {
                    let condition = replaced.declaredAt == nil ? " (if your model declares it)" : ""
                    lines.append(comment("  With it, remove \(removedWhat(replaced)) (\(replaced.storeName))\(condition), which no final plan uses then: \(CoreDataCode.removalStep(replaced))"))
                }
            }
            return lines
        }
        if indexes.isEmpty && uniques.isEmpty && fetchIndexes.isEmpty && constraints.isEmpty && undeclarable.isEmpty && alreadyDeclared.isEmpty && removals.isEmpty {
            lines.append(comment(result.workload.analysedStatements == 0 ? "No workload was given: nothing to declare from measurements (the schema review is below)." : "Nothing to declare: no index to add and no uniqueness rule to propose for this workload."))
            if !alternatives.isEmpty { lines += [""] + alternatives }
            return finish(lines, result, queryAdvice: queryAdvice)
        }
        lines += keyPathSource(result)
        lines.append(comment(""))
        let build = result.recommendations.isEmpty ? nil
            : comment("Building them took \(result.buildEstimate)\(Figures.duration(result.migrationBuildSeconds)) \(result.buildScope): what that migration costs here.")
        let unplaced = (indexes.map(\.model) + uniques.map(\.model)).contains { !result.isSwiftDataEntity($0) }
        if !indexes.isEmpty || !uniques.isEmpty {
            if unplaced { lines.append(comment("For an entity that is a SwiftData @Model class:")) }
            lines.append(comment("Adding #Index or #Unique changes the schema: put the model in a new VersionedSchema and add a"))
            lines.append(comment("migration stage to your SchemaMigrationPlan (a lightweight stage is enough for an index). SwiftData"))
            lines.append(comment("builds indexes only when it creates a store, so existing stores also need the CREATE INDEX IF NOT"))
            lines.append(comment("EXISTS statements (--format sql), run before the ModelContainer opens the store."))
            // Apple's documentation of Index(_:) and Unique(_:): iOS 18, macOS 15, tvOS 18, watchOS 11 (a new
            // user's app targeting iOS 17 would not compile the pasted lines).
            lines.append(comment("#Index and #Unique need iOS 18, macOS 15, tvOS 18 or watchOS 11 as the deployment target. Before"))
            lines.append(comment("them, @Attribute(.unique) (iOS 17) declares a single attribute unique, and the SQL migration adds indexes."))
            if let build { lines.append(build) }
        }
        let models = (indexes.map(\.model) + uniques.map(\.model)).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for model in models {
            lines.append("")
            // Where the class is declared, when the model source said (--model, --source): the file to edit.
            let known = result.isSwiftDataEntity(model)
            if known, let mapping = result.model?.entities.first(where: { $0.entity == model }), let path = mapping.path {
                lines.append(comment("In \(path) (\(mapping.declaredAt)), inside @Model final class \(model) { … }:"))
            } else if known {
                lines.append(comment("Inside @Model final class \(model) { … }:"))
            } else {
                lines.append(comment("If \(model) is a SwiftData @Model class, inside it:"))
            }
            if let line = indexes.first(where: { $0.model == model })?.declaration { lines.append(line) }
            if let line = uniques.first(where: { $0.model == model })?.declaration { lines.append(line) }
        }
        for recommendation in alreadyDeclared {
            lines.append("")
            let what = recommendation.fetchIndex.map { "The fetch index \($0.name)" } ?? recommendation.swiftDataIndex ?? recommendation.name
            let why = result.isCoreDataEntity(recommendation.entity)
                ? "the store lacks it (Core Data leaves fetch indexes out of the version hashes, so no migration added it): run its CREATE INDEX."
                : "the store lacks it: run its CREATE INDEX."
            lines.append(comment("\(what) is already declared at \(recommendation.declaredInModel ?? "the model"); \(why)"))
        }
        for (recommendation, rule) in servedByUnique {
            lines.append("")
            let ruleName = result.isCoreDataEntity(recommendation.entity) ? "uniqueness constraint" : "#Unique rule"
            let index = result.isCoreDataEntity(recommendation.entity) ? "fetch index" : "#Index"
            lines.append(comment("No \(index) for \(recommendation.name) (\(recommendation.columnList)): the \(ruleName) on \(rule.columns.joined(separator: ", ")) \(result.isCoreDataEntity(recommendation.entity) ? "below" : "above") gives the store a unique index that serves the same lookups. Declaring both would build two indexes for one job; with the \(ruleName) declared, its CREATE INDEX is not needed."))
        }
        for recommendation in undeclarable {
            lines.append("")
            lines.append(comment("\(recommendation.name) on \(recommendation.table)(\(recommendation.columnList)): \(result.sqlOnlyText(for: recommendation) ?? "SQL only.")"))
        }
        if !fetchIndexes.isEmpty || !constraints.isEmpty || !removals.isEmpty {
            lines += coreDataSection(result, fetchIndexes: fetchIndexes, constraints: constraints, removals: removals,
                                     build: indexes.isEmpty && uniques.isEmpty ? build : nil)
        }
        if !alternatives.isEmpty { lines += [""] + alternatives }
        return finish(lines, result, queryAdvice: queryAdvice)
    }

    /// Where the key paths come from, as comment lines.
    private static func keyPathSource(_ result: AnalysisResult) -> [String] {
        let coreData = result.model?.entities.contains { $0.framework?.isCoreData == true } == true
        let check = coreData ? "your Core Data model" : "your @Model classes"
        guard let model = result.model else {
            let check = switch result.store.indexConvention?.framework {
            case .coreData?: "your Core Data model"
            case .swiftData?: "your @Model classes"
            case nil: "your @Model classes or Core Data model"
            }
            if let origin = storeSpellingText(result, check: check) { return [comment(origin)] }
            return result.recommendations.contains(where: \.keyPathsAreGuessed)
                ? [comment("Key paths recovered from the store's column names; some are guesses: check them against \(check), or pass it with --model.")]
                : []
        }
        let origin = model.option == StoreModelCache.sourceName
            ? "Key paths from the model the store caches (Z_MODELCACHE): the entities' own names, without --model"
            : "Key paths from the app's model: \(model.files.joined(separator: ", ")) (\(model.option ?? "--model"))"
        let guesses = guessedKeyPaths(result)
        if guesses.isEmpty { return [comment(origin + ".")] }
        // A new user's model named the class otherwise than the store's entity: those key paths are guesses,
        // and the header must not say they came from the model; it names each one, and nothing the model
        // mapped (a header said all of ZRECORD's were guesses beside Sighting's model line, hostile round 6, F9).
        let tables = guesses.map(\.table).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let listed = tables.map { table in
            "on \(table), " + guesses.filter { $0.table == table }.map { "\($0.keyPath) (\($0.column))" }.joined(separator: ", ")
        }.joined(separator: "; ")
        return [comment(origin + ", except these, which no class or property of the model matched and are guessed from the column names: \(listed); check them against \(check).")]
    }

    /// The key paths of the recommendations whose names are guessed (``Recommendation/keyPathsAreGuessed``)
    /// that no property the model mapped on their table has, each once, with its column.
    static func guessedKeyPaths(_ result: AnalysisResult) -> [(table: String, keyPath: String, column: String)] {
        var guesses: [(table: String, keyPath: String, column: String)] = []
        for recommendation in result.recommendations where recommendation.keyPathsAreGuessed {
            let known = Set((result.model?.entities ?? []).filter { $0.table.sqlFolded == recommendation.table.sqlFolded }
                .flatMap(\.properties).map(\.property))
            for column in recommendation.columns {
                guard let keyPath = column.keyPath, !known.contains(String(keyPath.dropFirst(2))), !RecommendedColumn.isCoreDataColumn(column.name),
                      !guesses.contains(where: { $0.table == recommendation.table && $0.column == column.name }) else { continue }
                guesses.append((recommendation.table, keyPath, column.name))
            }
        }
        return guesses
    }

    /// Which key paths the store's index names spell and which are guessed from its column names (issue 41,
    /// item 2: say which source the names came from), when the result kept that (``StoreSummary/keyPathSpellings``)
    /// and some key path is not the cached model's; nil otherwise.
    static func storeSpellingText(_ result: AnalysisResult, check: String) -> String? {
        guard let spellings = result.store.keyPathSpellings, spellings.contains(where: { $0.source != StoreModelCache.sourceName }) else { return nil }
        func unique(_ items: [String]) -> [String] { items.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } } }
        let spelled = unique(spellings.compactMap { spelling in
            spelling.source.flatMap { $0 == StoreModelCache.sourceName ? nil : "\(spelling.property) (\($0))" }
        })
        let guessed = unique(spellings.filter { $0.source == nil }.map(\.property))
        var parts: [String] = []
        if !spelled.isEmpty { parts.append("as the store's index names spell them: " + spelled.joined(separator: ", ")) }
        if !guessed.isEmpty { parts.append("guessed from its column names: " + guessed.joined(separator: ", ")) }
        let tail = guessed.isEmpty ? "." : "; check the guesses against \(check), or pass it with --model."
        return "Key paths recovered from the store, " + parts.joined(separator: "; ") + tail
    }

    /// The Core Data model's changes: the reminder, then per entity the editor steps, the XML and the code.
    private static func coreDataSection(_ result: AnalysisResult, fetchIndexes: [CoreDataFetchIndex],
                                        constraints: [(entity: String, properties: [String])], removals: [ModelStoreIndex],
                                        build: String?) -> [String] {
        var lines = [""]
        let entities = (fetchIndexes.map(\.entity) + constraints.map(\.entity) + removals.map(\.entity)).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let placed = entities.allSatisfy { result.isCoreDataEntity($0) }
        let files = Set(entities.compactMap { entity in result.model?.entities.first { $0.entity == entity }?.declaredAt.split(separator: ":").first.map(String.init) })
        let modelName = placed && !files.isEmpty ? "Core Data model (\(files.sorted().joined(separator: ", ")))" : "Core Data model (.xcdatamodeld)"
        if !placed { lines.append(comment("For an entity of a Core Data model (.xcdatamodeld) rather than a SwiftData @Model class:")) }
        lines.append(comment("\(modelName): a fetch index or a uniqueness constraint changes the model. Add a new model version"))
        lines.append(comment("(Editor ▸ Add Model Version…), make it the current version (File inspector ▸ Model Version), and make the"))
        lines.append(comment("changes there; NSPersistentContainer then migrates existing stores to it with lightweight migration (on by"))
        lines.append(comment("default), or give a mapping model. Core Data leaves fetch indexes out of the entities' version hashes, so a"))
        lines.append(comment("store whose model only gains a fetch index is not migrated and does not get it: run the CREATE INDEX IF NOT"))
        lines.append(comment("EXISTS statements (--format sql) on existing stores before the container opens them; they use the names"))
        lines.append(comment("Core Data gives the fetch indexes (Z_<Entity>_<name>), so they are the indexes the model declares."))
        if !removals.isEmpty {
            lines.append(comment("A fetch index the version removes is not migrated away either: existing stores keep it until the DROP"))
            lines.append(comment("INDEX IF EXISTS statements (--format sql) run, and stores the app creates from the version do not get it."))
        }
        if let build { lines.append(build) }
        for entity in entities {
            lines.append("")
            let mapping = result.model?.entities.first { $0.entity == entity }
            let place = mapping.map { " (\($0.declaredAt)\($0.classLocation.map { "; class at " + $0 } ?? ""))" } ?? ""
            lines.append(comment("Entity \(entity)\(place):"))
            for index in fetchIndexes where index.entity == entity {
                lines.append(comment("  Fetch index \(index.name) (\(index.storeIndexName) in the store): \(CoreDataCode.editorSteps(index))"))
            }
            let entityConstraints = constraints.filter { $0.entity == entity }.map(\.properties)
            for properties in entityConstraints {
                lines.append(comment("  Uniqueness constraint on \(properties.joined(separator: ", ")): \(CoreDataCode.constraintStep(entity: entity, properties: properties))"))
            }
            let entityRemovals = removals.filter { $0.entity == entity }
            for index in entityRemovals {
                let declared = index.declaredAt.map { ", declared at \($0)" } ?? ", as Core Data names it; if your model declares it"
                lines.append(comment("  Remove \(removedWhat(index)) (\(index.storeName) in the store\(declared)), which the SQL migration drops: \(CoreDataCode.removalStep(index))"))
            }
            let adds = fetchIndexes.contains { $0.entity == entity } || !entityConstraints.isEmpty
            if adds {
                lines.append(comment("  In the version's contents file, inside <entity name=\"\(entity)\" …> (a <uniquenessConstraints> it has takes the new one):"))
                for index in fetchIndexes where index.entity == entity { lines += CoreDataCode.xml(index).map { comment("    " + $0) } }
                if !entityConstraints.isEmpty { lines += CoreDataCode.xml(constraints: entityConstraints).map { comment("    " + $0) } }
            }
            if !entityRemovals.isEmpty {
                lines.append(comment("  \(adds ? "And inside it" : "In the version's contents file, inside <entity name=\"\(entity)\" …>"), to remove what the migration drops:"))
                lines += entityRemovals.map { comment("    " + CoreDataCode.removalXML($0)) }
            }
        }
        // In code, a fetch index is taken out of `indexes` by name; an Indexed attribute or a compound index of an
        // older model is the editor's or the XML's to change.
        let removedInCode = removals.filter { $0.kind == nil || $0.kind == .fetchIndex }.map { (entity: $0.entity, name: $0.name) }
        let code = CoreDataCode.swift(indexes: fetchIndexes, constraints: constraints, removals: removedInCode)
        if !code.isEmpty {
            lines.append("")
            lines.append(comment("Or in code, for a model built or adjusted in code:"))
            lines += code
        }
        return lines
    }

    /// `fetch index sortTitle`, `the Indexed flag of regionCode`, `compound index (a, b)`.
    static func removedWhat(_ index: ModelStoreIndex) -> String {
        switch index.kind {
        case .indexedAttribute?: return "the Indexed flag of the attribute \(index.name)"
        case .compoundIndex?: return "compound index (\(index.elements.map(\.property).joined(separator: ", ")))"
        case .fetchIndex?, nil: return "fetch index \(index.name)"
        }
    }

    /// `Note` in `#Unique<Note>([…])`.
    private static func entityOfMacro(_ macro: String) -> String? {
        guard let open = macro.firstIndex(of: "<"), let close = macro.firstIndex(of: ">"), open < close else { return nil }
        return String(macro[macro.index(after: open)..<close])
    }

    /// The lines as the file's text, with the query-side advice appended as comments.
    static func finish(_ lines: [String], _ result: AnalysisResult, queryAdvice: Bool) -> String {
        let notes = queryAdvice ? result.queryAdviceNotes : []
        var all = notes.isEmpty ? lines : lines + [""] + notes.map(comment)
        let review = queryAdvice ? result.schemaReviewNotes(for: .swift) : []
        if !review.isEmpty { all += [""] + review.map(comment) }
        return all.joined(separator: "\n") + "\n"
    }
    /// `// text` (`//` alone for an empty line), with control characters in `text` replaced by spaces.
    static func comment(_ text: String) -> String {
        let folded = SQLReport.comment(text).dropFirst(3)
        return folded.isEmpty ? "//" : "// " + folded
    }
}
