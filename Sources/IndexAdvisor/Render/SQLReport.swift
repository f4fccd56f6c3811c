/// `--format sql`: a plain SQL migration. `CREATE INDEX IF NOT EXISTS` for each recommendation (best
/// first) and `DROP INDEX IF EXISTS` for each existing index the review advises dropping, identifiers
/// quoted, one statement per line, each after a `--` comment saying what it does and what it was
/// measured to save; inside `BEGIN;` … `COMMIT;`, and safe to run twice. For a Core Data / SwiftData
/// store, a comment says that the model must declare the change too, and what building took on this store.
///
/// Text from the store in comments is folded onto one line, so a name cannot end a comment early.
public enum SQLReport {
    /// - Parameter queryAdvice: false leaves out the query-side advice comments (for the reports that
    ///   embed this code and show that advice in a section of their own).
    public static func render(_ result: AnalysisResult, queryAdvice: Bool = true) -> String {
        var lines: [String] = []
        let drops = result.indexesToDrop
        let totals = result.totals
        lines.append(comment("\(result.tool.name) \(result.tool.version): index migration for \(result.store.fileName) (SQLite \(result.tool.sqliteVersion)), \(result.tool.generatedAt)."))
        guard !result.recommendations.isEmpty || !drops.isEmpty else {
            lines.append(comment(result.workload.analysedStatements == 0 ? "No workload was given: no index to add or drop is measured (the schema review is below)." : "No index to add or drop for this workload."))
            return finish(lines, result, queryAdvice: queryAdvice)
        }
        // Without a workload (the schema review) there is no workload time to state, not "0 s → 0 s".
        let time = result.statements.isEmpty ? ""
            : " Weighted workload time\(result.timeScope) \(result.totals(totals.totalSecondsBefore, totals.totalSecondsAfter)) (reads and writes, count × median)."
        lines.append(comment("\(Figures.counted(result.recommendations.count, "index", plural: "indexes")) to add, \(drops.count) to drop.\(time)"))
        if result.store.isCoreData && !result.recommendations.isEmpty {
            lines.append(comment(result.modelDeclarationAdvice))
            lines.append(comment("Building \(result.recommendations.count == 1 ? "it" : "them") took \(result.buildEstimate)\(Figures.duration(result.migrationBuildSeconds)) \(result.buildScope) and adds \(result.buildEstimate)\(ByteCountText.format(result.migrationBytes)): what the migration costs on a store of this size."))
        }
        if result.store.hasStatistics && !result.recommendations.isEmpty {
            lines.append(comment("The store keeps sqlite_stat1: each new index is analyzed after it is built (ANALYZE \"name\"), as it was when it was measured; without statistics of its own SQLite plans it on defaults and may not use it as measured."))
        }
        lines.append("BEGIN;")
        for recommendation in result.recommendations {
            // Only the statements whose final plan uses it are "for" it; the others say a later pick took them.
            let takenOver = Set(result.takeovers(of: recommendation).map(\.statementID))
            let claimed = recommendation.claimedStatementIDs
            let users = claimed.filter { !takenOver.contains($0) }.map { result.label(ofStatement: $0) }.joined(separator: ", ")
            let later = claimed.filter(takenOver.contains).map { result.label(ofStatement: $0) }.joined(separator: ", ")
            let serves = later.isEmpty ? (users.isEmpty ? "" : "for \(users): ")
                : (users.isEmpty ? "chosen for \(later), which a later pick took over: " : "for \(users) (chosen for \(later) too, which a later pick took over): ")
            lines.append(comment("\(recommendation.rank). \(serves)\(result.chargeText(for: recommendation)) per workload\(result.timeScope); built in \(recommendation.sampleScale == nil ? "" : "about ")\(Figures.duration(recommendation.buildSeconds)), \(recommendation.sampleScale == nil ? "" : "about ")\(ByteCountText.format(recommendation.bytes))\(recommendation.sampleScale == nil ? "" : " (the whole store's, scaled from the sample)")."))
            // On a Core Data / SwiftData store, a lookup the proposed #Unique rule's unique index serves is the
            // rule's to declare: the Markdown, HTML and Swift reports say so, and the migration must not ship the
            // plain index beside it (a new user's workout store: two indexes for one job, one of them SQL-only,
            // which the next model migration can drop).
            if result.store.isCoreData, let unique = result.uniqueRule(covering: recommendation), let rule = result.modelRuleText(for: unique) {
                lines.append(comment("Left out: declare \(rule) instead (see --format swift); its unique index serves the same lookups, and this one beside it would be a second index for one job."))
                lines.append(comment(recommendation.sql + ";"))
                continue
            }
            // What the model declares of it, or why it is SQL only: the words every format prints (hostile round 6, F9).
            if let declaration = result.modelDeclarationText(for: recommendation) { lines.append(comment(declaration)) }
            lines.append(recommendation.sql + ";")
            // On a store that keeps sqlite_stat1 the index was measured with its own statistics (ANALYZE of the
            // index, analyze.html): without them SQLite plans it on defaults, and may not use it as measured.
            if result.store.hasStatistics {
                lines.append("ANALYZE \(SQLIdentifier.quote(recommendation.name));")
            }
        }
        for finding in drops {
            guard let drop = finding.dropSQL else { continue }
            let why = finding.findingText()
            var saves = !result.writesTimed(of: finding) ? ""
                : (finding.writeSecondsSaved > 0 ? "; dropping it saves \(Figures.duration(finding.writeSecondsSaved)) of writes per workload" : "; its cost to writes is inside the noise")
            if let reads = finding.readSecondsSaved, reads > 0 { saves += "; dropping it saves \(Figures.duration(reads)) of reads per workload" }
            lines.append(comment("Drop \(finding.index) on \(finding.table) (\(finding.columns.joined(separator: ", "))): \(why)\(saves)\(finding.bytes.map { ", frees \(ByteCountText.format($0))" } ?? "")."))
            lines.append(drop + ";")
            if let declared = result.modelStoreIndex(named: finding.index) {
                lines.append(comment(result.modelRemovalSentence(declared)))
            }
        }
        lines.append("COMMIT;")
        return finish(lines, result, queryAdvice: queryAdvice)
    }


    /// The lines as the file's text, with the query-side advice appended as comments.
    static func finish(_ lines: [String], _ result: AnalysisResult, queryAdvice: Bool) -> String {
        let notes = queryAdvice ? result.queryAdviceNotes : []
        var all = notes.isEmpty ? lines : lines + [""] + notes.map(comment)
        let review = queryAdvice ? result.schemaReviewNotes(for: .sql) : []
        if !review.isEmpty { all += [""] + review.map(comment) }
        // Forms the model cannot declare: commented out, since they are a choice, not part of the migration.
        for alternative in result.alternatives ?? [] {
            all += ["", comment("\(result.isCoreDataEntity(alternative.entity) && alternative.howToShip != .sqlOnly ? "Alternative beside the set" : "Alternative the model cannot declare"): \(Figures.readWriteEffect(reads: alternative.boundedReadSaving, writes: alternative.boundedWriteCost)) per workload on top of the indexes above; \(ByteCountText.format(alternative.bytes)). \(result.shippingText(for: alternative))"),
                    comment(alternative.sql + ";")]
            all += alternative.replaces.map { comment("DROP INDEX IF EXISTS \(SQLIdentifier.quote($0)); -- no final plan uses it once the alternative exists") }
        }
        return all.joined(separator: "\n") + "\n"
    }
    /// `-- text`, with line breaks and other control characters in `text` replaced by spaces.
    static func comment(_ text: String) -> String {
        "-- " + String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : Character($0) })
    }
}
