/// `--format swift`: the SwiftData declarations to paste, grouped per model — `#Index<Note>([…], […])`
/// and `#Unique<Note>([…])` — with comments saying where they go, whether the key paths come from the
/// app's model source (`--model`) or were guessed from column names, and, for a Core Data / SwiftData
/// store, that adding them is a schema change (a new `VersionedSchema`) whose cost on this store is the
/// measured build time. Also the Core Data fetch-index equivalent, for models made in Xcode's editor.
///
/// Only Swift identifiers are pasted into code (``SwiftDataCode/isSwiftIdentifier(_:)``); store text in
/// comments is folded onto one line.
public enum SwiftReport {
    /// - Parameter queryAdvice: false leaves out the query-side advice comments (for the reports that
    ///   embed this code and show that advice in a section of their own).
    public static func render(_ result: AnalysisResult, queryAdvice: Bool = true) -> String {
        var lines: [String] = []
        lines.append(comment("\(result.tool.name) \(result.tool.version): SwiftData declarations for \(result.store.fileName), \(result.tool.generatedAt)."))
        guard result.store.isCoreData else {
            lines.append(comment("This is not a Core Data / SwiftData store: there is no model code to change. Use the SQL migration (--format sql)."))
            return finish(lines, result, queryAdvice: queryAdvice)
        }
        let declared = result.declaredIndexRecommendations
        let indexes = SwiftDataCode.declarationsByModel(for: declared)
        let uniques = SwiftDataCode.uniqueDeclarationsByModel(for: result.uniqueness)
        let undeclarable = result.recommendations.filter { $0.entity != nil && $0.swiftDataIndex == nil }
        let servedByUnique = result.recommendations.compactMap { recommendation in
            result.uniqueRule(covering: recommendation).map { (recommendation, $0) }
        }
        let alreadyDeclared = result.recommendations.filter { $0.declaredInModel != nil }
        let alternatives = (result.alternatives ?? []).map { alternative in
            comment("Alternative \(alternative.name) on \(alternative.table): \(Figures.readWriteEffect(readSaved: alternative.readSecondsSaved, writeAdded: alternative.writeSecondsAdded)) per workload on top of the indexes here. \(alternative.howToShip.text)")
        }
        if indexes.isEmpty && uniques.isEmpty && undeclarable.isEmpty && alreadyDeclared.isEmpty {
            lines.append(comment(result.workload.analysedStatements == 0 ? "No workload was given: nothing to declare from measurements (the schema review is below)." : "Nothing to declare: no index to add and no uniqueness rule to propose for this workload."))
            if !alternatives.isEmpty { lines += [""] + alternatives }
            return finish(lines, result, queryAdvice: queryAdvice)
        }
        let guessed = result.recommendations.filter(\.keyPathsAreGuessed).map(\.table)
        if let model = result.model, guessed.isEmpty {
            lines.append(comment("Key paths from the app's model: \(model.files.joined(separator: ", ")) (\(model.option ?? "--model"))."))
        } else if let model = result.model {
            // A new user's model named the class otherwise than the store's entity: the key paths of those
            // tables are guesses, and the header must not say they came from the model.
            lines.append(comment("Key paths from the app's model: \(model.files.joined(separator: ", ")) (\(model.option ?? "--model")), except on \(Set(guessed).sorted().joined(separator: ", ")), whose key paths are recovered from the column names (no class or property of the model matched them) and are guesses; check them against your @Model classes."))
        } else if result.recommendations.contains(where: \.keyPathsAreGuessed) {
            lines.append(comment("Key paths recovered from the store's column names; some are guesses: check them against your @Model classes, or pass them with --model."))
        }
        lines.append(comment(""))
        lines.append(comment("Adding #Index or #Unique changes the schema: put the model in a new VersionedSchema and add a"))
        lines.append(comment("migration stage to your SchemaMigrationPlan (a lightweight stage is enough for an index). SwiftData"))
        lines.append(comment("builds indexes only when it creates a store, so existing stores also need the CREATE INDEX IF NOT"))
        lines.append(comment("EXISTS statements (--format sql), run before the ModelContainer opens the store."))
        // Apple's documentation of Index(_:) and Unique(_:): iOS 18, macOS 15, tvOS 18, watchOS 11 (a new
        // user's app targeting iOS 17 would not compile the pasted lines).
        lines.append(comment("#Index and #Unique need iOS 18, macOS 15, tvOS 18 or watchOS 11 as the deployment target. Before"))
        lines.append(comment("them, @Attribute(.unique) (iOS 17) declares a single attribute unique, and the SQL migration adds indexes."))
        if !result.recommendations.isEmpty {
            lines.append(comment("Building them took \(result.buildEstimate)\(Figures.duration(result.migrationBuildSeconds)) \(result.buildScope): what that migration costs here."))
        }
        let models = (indexes.map(\.model) + uniques.map(\.model)).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for model in models {
            lines.append("")
            // Where the class is declared, when the model source said (--model, --source): the file to edit.
            if let mapping = result.model?.entities.first(where: { $0.entity == model }), let path = mapping.path {
                lines.append(comment("In \(path) (\(mapping.declaredAt)), inside @Model final class \(model) { … }:"))
            } else {
                lines.append(comment("Inside @Model final class \(model) { … }:"))
            }
            if let line = indexes.first(where: { $0.model == model })?.declaration { lines.append(line) }
            if let line = uniques.first(where: { $0.model == model })?.declaration { lines.append(line) }
        }
        for recommendation in alreadyDeclared {
            lines.append("")
            lines.append(comment("\(recommendation.swiftDataIndex ?? recommendation.name) is already declared at \(recommendation.declaredInModel ?? "the model"); the store lacks it: run its CREATE INDEX."))
        }
        for (recommendation, rule) in servedByUnique {
            lines.append("")
            lines.append(comment("No #Index for \(recommendation.name) (\(recommendation.columnList)): the #Unique rule on \(rule.columns.joined(separator: ", ")) above gives the store a unique index that serves the same lookups. Declaring both would build two indexes for one job; with the #Unique declared, its CREATE INDEX is not needed."))
        }
        for recommendation in undeclarable {
            lines.append("")
            lines.append(comment("\(recommendation.name) on \(recommendation.table)(\(recommendation.columnList)) cannot be an #Index (a direction, a collation, a predicate, a Core Data bookkeeping column, or a column without a Swift name): create it with SQL only."))
        }
        if !alternatives.isEmpty { lines += [""] + alternatives }
        let fetchIndexes = declared.filter { $0.swiftDataIndex != nil && $0.entity != nil }
        if !fetchIndexes.isEmpty {
            lines.append("")
            lines.append(comment("Core Data model made in Xcode (.xcdatamodeld): add a new model version and, in it, these Fetch Indexes"))
            lines.append(comment("(each element ascending, binary):"))
            for recommendation in fetchIndexes {
                let properties = recommendation.columns.compactMap(\.keyPath).map { String($0.dropFirst(2)) }
                // Core Data names a fetch index `Z_<Entity>_<name>` in the store (the shared cases' stores:
                // `byDevice` is `Z_DateObject_byDevice`), so the name to type is the part after that prefix: then
                // the store's index is the one the SQL migration builds (a new user typed the whole name).
                let entity = recommendation.entity ?? ""
                let prefix = "Z_\(entity)_"
                let name = recommendation.name.hasPrefix(prefix) && recommendation.name.count > prefix.count
                    ? String(recommendation.name.dropFirst(prefix.count)) : recommendation.name
                lines.append(comment("  entity \(entity): \(name) = \(properties.joined(separator: ", "))"))
            }
            lines.append(comment("Core Data names each one Z_<Entity>_<name> in the store: the names the SQL migration uses."))
        }
        return finish(lines, result, queryAdvice: queryAdvice)
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
