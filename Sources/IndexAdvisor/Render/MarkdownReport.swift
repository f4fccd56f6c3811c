/// The Markdown report, GitHub-flavoured and sized for a pull-request comment: a summary (workload time
/// now and with the advice, indexes to add and drop, full scans left) with one line per index to add;
/// each recommendation led by its `CREATE INDEX` and the plan of its main statement before and after, then
/// the measured change of every statement it touches; the code to paste (SQL migration, SwiftData); every
/// statement under its own heading (formatted SQL, plans, times with their interquartile range); the
/// existing-index review, the uniqueness audit, the candidates not recommended, the store, the workload
/// and the method. No raw HTML: every value from the store or the workload is in a code span, a fenced
/// block, or escaped, so it renders as written.
public enum MarkdownReport {
    public static func render(_ result: AnalysisResult) -> String {
        if result.statements.isEmpty && !result.captureHint.isEmpty { return renderReview(result) }
        let outline = ReportOutline(result)
        var out: [String] = []
        // What a reviewer reads first: the summary, then each recommendation, then drops and findings, then
        // the statements; the method last (issue 42: a 3,300-character paragraph sat under the summary).
        summary(result, into: &out)
        if outline.contains(.recommendations) { recommendations(result, into: &out) }
        if outline.contains(.alternatives) { alternatives(result, into: &out) }
        if outline.contains(.existingIndexes) { existingIndexes(result, into: &out) }
        if outline.contains(.uniqueness) { uniqueness(result, into: &out) }
        if outline.contains(.queryAdvice) { queryAdvice(result, into: &out) }
        if outline.contains(.codeToPaste) { codeToPaste(result, into: &out) }
        statements(result, into: &out)
        if outline.contains(.rejected) { rejected(result, into: &out) }
        store(result, into: &out)
        if outline.contains(.sourceSites) { sourceSites(result, into: &out) }
        workload(result, into: &out)
        method(result, into: &out)
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: Sections

    /// The title, the line on how figures were taken, the headline figures, one line per index to add or
    /// drop with what it is charged, and the migration's cost. No line is long: a reviewer reads it first.
    private static func summary(_ result: AnalysisResult, into out: inout [String]) {
        let totals = result.totals
        let drops = result.indexesToDrop
        out.append("# indexadvisor report: \(inline(result.store.fileName))")
        out.append("")
        out.append(text(result.figuresLine))
        out.append("")
        let adds = result.recommendations.isEmpty
            ? "**no index to add**"
            : "**\(Figures.counted(result.recommendations.count, "index", plural: "indexes")) to add**"
        out.append("**Workload time\(prose(result.timeScope)) \(result.totals(totals.totalSecondsBefore, totals.totalSecondsAfter))** (\(result.change(totals.totalSecondsBefore, totals.totalSecondsAfter))): \(adds), \(drops.count) to drop.")
        out.append("")
        out.append("- Reads: \(result.totals(totals.readSecondsBefore, totals.readSecondsAfter, \.kind.isRead)).")
        let writeChange = result.headlineWriteChangeText.map { " (\(prose($0))); the figures are the clock's" } ?? ""
        let untimedWrites = result.untimedWritesText.map { "; \(prose($0))" } ?? ""
        out.append("- Writes: \(result.totals(totals.writeSecondsBefore, totals.writeSecondsAfter, \.kind.isWrite))\(writeChange)\(untimedWrites).")
        var plans = "- Plans: full table scans \(totals.fullScansBefore) → \(totals.fullScansAfter), temp B-tree sorts \(totals.tempBTreeSortsBefore) → \(totals.tempBTreeSortsAfter)"
        if let alternatives = result.alternatives, !alternatives.isEmpty {
            plans += "; \(Figures.counted(alternatives.count, "alternative")) the model cannot declare (below)"
        }
        if !result.queryAdvice.isEmpty {
            plans += "; \(Figures.counted(result.queryAdvice.count, "query-side finding")) (below)"
        }
        out.append(plans + ".")
        out.append("- Workload: \(prose(result.workloadHeadline)).")
        out.append("")
        if result.finalCharges != nil && !(result.recommendations.isEmpty && drops.isEmpty) {
            out.append(text(result.chargesSentence))
            out.append("")
        }
        for recommendation in result.recommendations {
            // Why a pick that saves nothing on the wall clock is there, beside it (a new user read "saves no
            // measurable read time" in the summary, and the counters' reason only further down).
            let evidence = result.counterEvidence(for: recommendation).map { " " + prose($0) } ?? ""
            let sqlOnly = result.sqlOnlyReason(for: recommendation) == nil ? "" : " (SQL only)"
            out.append("\(recommendation.rank). \(inline(result.summaryDeclaration(for: recommendation)))\(sqlOnly): \(prose(result.chargeText(for: recommendation))).\(evidence)")
        }
        for (offset, finding) in drops.enumerated() {
            let charged = result.dropChargeText(for: finding).map { ": \(prose($0))" } ?? ""
            out.append("\(result.recommendations.count + offset + 1). Drop \(inline(finding.index)) (\(finding.findingText(name: inline)))\(charged).")
        }
        if !result.recommendations.isEmpty || !drops.isEmpty { out.append("") }
        if let removal = result.modelRemovalNote(code: inline) {
            out.append(prose(removal))
            out.append("")
        }
        if !result.recommendations.isEmpty {
            out.append("Building \(result.recommendations.count == 1 ? "it" : "them") takes \(prose(result.buildEstimate))\(Figures.duration(result.migrationBuildSeconds)) \(prose(result.buildScope)) and adds \(prose(result.buildEstimate))\(ByteCountText.format(result.migrationBytes)): the migration's cost. The code is under *Code to paste*.")
            out.append("")
        }
    }

    /// The method, last: how every figure was taken, and the thresholds the text names.
    private static func method(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## Method")
        out.append("")
        // A statement timed with several value sets has one time per execution: the median over runs of their
        // weighted mean (a new user read "median" as the typical execution, where a rare heavy value set
        // carried most of the time).
        out.append("Weighted time = executions in the workload × time of one execution, summed; a statement timed with several value sets has the median over runs of their mean, weighted by the executions each stands for (a rare heavy value can carry most of it: its statement's section lists the values timed).")
        out.append("")
        out.append(text(result.methodText))
        out.append("")
    }

    /// The indexes to add, each in its own section, in the order the migration builds them.
    private static func recommendations(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## Recommended indexes")
        out.append("")
        out.append("In the order the migration builds them. Each one's first lines are what it is charged with the whole set in place; below them, what it did when it was chosen.")
        out.append("")
        for recommendation in result.recommendations { self.recommendation(recommendation, of: result, into: &out) }
    }

    /// One index to add: its SQL and model declaration, what it saves and costs with the whole set in
    /// place and how sure that is; then, measured when it was chosen, its main statement with the plans
    /// before and after and the measured change of every statement it touches, and its notes.
    private static func recommendation(_ recommendation: Recommendation, of result: AnalysisResult, into out: inout [String]) {
        out.append("### \(recommendation.rank). \(inline(recommendation.name))")
        out.append("")
        out.append(fence(recommendation.sql + ";", language: "sql"))
        out.append("")
        swiftData(for: recommendation, in: result, into: &out)
        let timeLabel = result.isSampled ? " (on the sample)" : ""
        if let charge = result.charge(of: recommendation) {
            let (reads, writes) = result.chargeLines(for: recommendation, charge: charge, scope: timeLabel)
            out.append("- \(prose(reads)).")
            out.append("- \(prose(writes)).")
        } else {
            out.append("- \(Figures.readWriteEffect(reads: recommendation.boundedReadSaving, writes: recommendation.boundedWriteCost).capitalizedFirstLetter) per workload\(timeLabel); \(prose(recommendation.buildSentence.lowercasedFirstLetter)).")
        }
        out.append("- How sure: \(prose(result.howSure(of: recommendation))).")
        out.append("")
        out.append(text(result.partialSetCaption(for: recommendation)) + ":")
        out.append("")
        let takeovers = result.takeovers(of: recommendation)
        mainStatement(of: recommendation, in: result, into: &out)
        for takeover in takeovers {
            out.append(prose(result.takeoverSentence(takeover)))
            out.append("")
        }
        effects(of: recommendation, takeovers: takeovers, in: result, into: &out)
    }

    /// The statement an index is mainly for: its saving, the counters it was chosen on, and its plans.
    private static func mainStatement(of recommendation: Recommendation, in result: AnalysisResult, into out: inout [String]) {
        if let main = recommendation.mainEffect, let statement = result.statement(withID: main.statementID),
           let plans = recommendation.mainPlans(in: result) {
            let label = result.label(ofStatement: main.statementID)
            out.append("For \(text(label)) (\(statement.kind.rawValue), ×\(Figures.count(statement.count))), its largest saving: \(Figures.median(main.before)) → \(Figures.median(main.after)) per execution (\(Figures.change(of: main))).")
            out.append("")
            if let evidence = result.counterEvidence(for: recommendation) {
                out.append(prose(evidence))
                out.append("")
            }
            if let before = plans.before, !before.steps.isEmpty {
                out.append(prose(plans.beforeCaption) + ":")
                out.append(fence(before.tree, language: ""))
                if let after = plans.after, after.tree != before.tree {
                    out.append(prose(plans.afterCaption) + ":")
                    out.append(fence(after.tree, language: ""))
                }
                out.append("")
            }
        }
    }

    /// The SwiftData declaration for an index to add, or why there is none, and whether the model has it.
    private static func swiftData(for recommendation: Recommendation, in result: AnalysisResult, into out: inout [String]) {
        if result.isCoreDataEntity(recommendation.entity), let entity = recommendation.entity {
            if let unique = result.uniqueRule(covering: recommendation), let rule = result.modelRuleText(for: unique) {
                out.append("Core Data, in the model's entity \(inline(entity)): no fetch index. The proposed \(text(rule)) (see *Uniqueness*) gives the store a unique index on these columns, which serves the same lookups; with it declared, the CREATE INDEX above is not needed.")
            } else if let index = recommendation.fetchIndex {
                let elements = index.elements.map { inline($0.property) + ($0.isAscending ? "" : " (descending)") }.joined(separator: ", ")
                let predicate = index.partialIndexPredicate.map { ", with the partial-index predicate \(inline($0))" } ?? ""
                out.append("Core Data, in the model's entity \(inline(entity)): the fetch index \(inline(index.name)) on \(elements)\(predicate), which Core Data names \(inline(index.storeIndexName)) in the store, as the SQL above does; `--format swift` gives the model-editor steps, the `contents` XML and the `NSFetchIndexDescription` code.")
            } else {
                out.append(text(result.sqlOnlyText(for: recommendation) ?? "SQL only: create it with the SQL above."))
            }
            out.append("")
            if let declared = recommendation.declaredInModel {
                out.append("Your model already declares it (\(text(declared))); the store lacks it because Core Data leaves fetch indexes out of the entities' version hashes, so no migration added it: run the SQL above.")
                out.append("")
            }
            return
        }
        if let unique = result.uniqueRule(covering: recommendation), let rule = unique.swiftDataUnique, let entity = recommendation.entity {
            out.append("SwiftData, in \(inline("@Model class " + entity)): no `#Index`. The proposed \(inline(rule)) (see *Uniqueness*) gives the store a unique index on these columns, which serves the same lookups; declaring both would build two indexes for one job. With the `#Unique` declared, the CREATE INDEX above is not needed.")
            out.append("")
        } else if let macro = recommendation.swiftDataIndex, let entity = recommendation.entity {
            let origin = recommendation.keyPathsAreGuessed
                ? " (key paths guessed from the column names; check them against your model, or pass it with `--model`)"
                : (result.model.map { " (key paths from \($0.files.map(inline).joined(separator: ", ")))" } ?? "")
            out.append("SwiftData, in \(inline("@Model class " + entity)): \(inline(macro))" + origin)
            out.append("")
        } else if let entity = recommendation.entity {
            out.append(text(result.sqlOnlyText(for: recommendation) ?? "SQL only: \(entity)'s model cannot declare it; create it with the SQL above."))
            out.append("")
        }
        if let declared = recommendation.declaredInModel {
            out.append("Your model already declares it (\(text(declared))); the store lacks it because SwiftData builds indexes only with new stores: run the SQL above.")
            out.append("")
        }
    }

    /// The measured change of every statement an index touches, then its cardinality, build and notes.
    private static func effects(of recommendation: Recommendation, takeovers: [Takeover], in result: AnalysisResult,
                                into out: inout [String]) {
        out.append("| Statement | Count | Without it | With it | Change |")
        out.append("|---|---|---|---|---|")
        for effect in recommendation.effects {
            let label = result.label(ofStatement: effect.statementID)
            let kind = result.statement(withID: effect.statementID)?.kind.rawValue ?? ""
            let takenOver = takeovers.contains { $0.statementID == effect.statementID } ? "; its final plan uses another index (see above)" : ""
            out.append("| \(cell(label)) \(kind) | \(Figures.count(effect.count)) | \(cellTiming(effect.before)) | \(cellTiming(effect.after)) | \(Figures.change(of: effect))\(takenOver) |")
        }
        out.append("")
        if let cardinality = recommendation.cardinalityText(in: result, column: text) { out.append("- " + cardinality) }
        for note in recommendation.notes { out.append("- \(text(note.text))") }
        out.append("")
    }

    /// Index forms the model cannot declare, measured on top of the recommendations.
    private static func alternatives(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.alternatives.title)")
        out.append("")
        out.append((result.coreDataAlternativesIntro.map(prose) ?? "Index forms that SwiftData's `#Index` cannot express (a partial predicate, an expression, a direction or collation, a Core Data bookkeeping column), measured on top of the recommended indexes: each figure is what it adds with them in place.") + " They are not in the migration or the figures above.")
        out.append("")
        for (offset, alternative) in (result.alternatives ?? []).enumerated() {
            out.append("### A\(offset + 1). \(inline(alternative.name))")
            out.append("")
            out.append(fence(alternative.sql + ";", language: "sql"))
            out.append("")
            var facts: [String] = []
            if let main = alternative.effects.max(by: { $0.before.medianSeconds * Double($0.count) - $0.after.medianSeconds * Double($0.count) < $1.before.medianSeconds * Double($1.count) - $1.after.medianSeconds * Double($1.count) }) {
                facts.append("For \(text(result.label(ofStatement: main.statementID))): \(Figures.median(main.before)) → \(Figures.median(main.after)) per execution (\(Figures.boundedChange(main.before, main.after) ?? Figures.change(main.before.medianSeconds, main.after.medianSeconds, significant: main.isSignificant)))")
            }
            facts.append("\(Figures.readWriteEffect(reads: alternative.boundedReadSaving, writes: alternative.boundedWriteCost)) per workload")
            facts.append("built in \(Figures.duration(alternative.buildSeconds)), \(ByteCountText.format(alternative.bytes))")
            out.append(facts.joined(separator: "; ") + ".")
            out.append("")
            if !alternative.replaces.isEmpty {
                out.append("With it, no final plan uses \(alternative.replaces.map(inline).joined(separator: ", ")): drop \(alternative.replaces.count == 1 ? "that index" : "those indexes") \(result.inTheModelToo(alternative.replaces, code: inline)) when you add this one.")
                out.append("")
            }
            out.append("How to ship it: \(text(result.shippingText(for: alternative)))")
            out.append("")
        }
    }

    /// The SQL migration and, for a Core Data store, the SwiftData declarations.
    private static func codeToPaste(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.codeToPaste.title)")
        out.append("")
        out.append("SQL migration (`--format sql`), safe to run twice:")
        out.append("")
        out.append(fence(SQLReport.render(result, queryAdvice: false).trimmingTrailingNewline, language: "sql"))
        out.append("")
        let removals = result.modelIndexesToRemove
        if result.store.isCoreData && (!result.recommendations.isEmpty || !removals.isEmpty) {
            // The indexes no model can declare are named so here too, as in the migration's header (hostile round 6, F9).
            let sqlOnly = result.sqlOnlyRecommendations.map { inline($0.name) }
            let one = sqlOnly.count == 1
            let declaration = result.recommendations.isEmpty
                ? "Core Data (`--format swift`): the migration drops indexes the model declares, so remove them in a new model version"
                : sqlOnly.count == result.recommendations.count && removals.isEmpty
                ? "No model can declare \(Figures.listed(sqlOnly)), SQL only (see \(one ? "its" : "their") section)"
                : (result.recommendations.compactMap(\.entity).allSatisfy(result.isCoreDataEntity)
                    ? "Core Data (`--format swift`): adding a fetch index changes the model, so declare it in a new model version"
                        + (removals.isEmpty ? "" : ", and remove there the fetch indexes the migration drops")
                    : "SwiftData (`--format swift`): adding an index is a schema change, so declare it in a new `VersionedSchema` (a Core Data model: in a new model version)")
                    + (sqlOnly.isEmpty ? "" : "; \(Figures.listed(sqlOnly)) \(one ? "is" : "are") SQL only, since no model can declare \(one ? "it" : "them") (see \(one ? "its" : "their") section)")
            let build = result.recommendations.isEmpty ? "" : "; building takes \(prose(result.buildEstimate))\(Figures.duration(result.migrationBuildSeconds)) \(prose(result.buildScope))"
            out.append("\(declaration)\(build).")
            out.append("")
            out.append(fence(SwiftReport.render(result, queryAdvice: false).trimmingTrailingNewline, language: "swift"))
            out.append("")
        }
    }

    /// Statements no plain index fixes as written.
    private static func queryAdvice(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.queryAdvice.title)")
        out.append("")
        out.append("Statements that no plain index fixes as written. Each time is measured on the snapshot with the recommended indexes built; a rewrite's time is of the rewritten statement run there.")
        out.append("")
        for advice in result.queryAdvice {
            let label = result.label(ofStatement: advice.statementID)
            out.append("### \(text(label)): \(advice.kind.title)")
            out.append("")
            out.append(prose(advice.advice))
            out.append("")
            let spread = advice.timing.map { timing in
                advice.rewriteTiming == nil ? " (IQR \(Figures.duration(timing.p25Seconds))–\(Figures.duration(timing.p75Seconds)))"
                    : "; as it is: \(cellTiming(timing))"
            } ?? ""
            out.append("- " + prose(advice.measuredLine(label: label)) + spread)
            if let caveat = advice.caveat { out.append("- Caveat: \(prose(caveat))") }
            out.append("")
            if let rewrite = advice.rewrite {
                out.append(fence(rewrite, language: "sql"))
                out.append("")
            }
            if let plan = advice.rewritePlan, !plan.steps.isEmpty {
                out.append("Plan with the change:")
                out.append(fence(plan.tree, language: ""))
                out.append("")
            }
        }
    }

    /// The statements table, then each statement's section.
    private static func statements(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.statements.title)")
        out.append("")
        if !result.statementsTimingNote.isEmpty {
            out.append(text(result.statementsTimingNote))
            out.append("")
        }
        out.append("| | Kind | Count | Share of time | Before | After | Plan before | Tables |")
        out.append("|---|---|---|---|---|---|---|---|")
        for (offset, statement) in result.statements.enumerated() {
            let before = statement.timingBefore.map(Figures.median) ?? "—"
            let after = statement.timingAfter.map(Figures.median) ?? "—"
            // Not "ok": a plan without a flagged finding can still read a whole index (new-user trial: a
            // 77 ms SCAN … USING INDEX was labelled ok). Say what the plan does, not that it is fine.
            let findings = statement.planBefore?.findings ?? []
            let flagged = findings.filter(\.isProblem).map(\.detail)
            // With a LIMIT the walk in index order stops once it has its rows (a new user's 56 µs page of 50
            // was labelled as reading the whole index).
            let scans = findings.filter { $0.kind == .fullIndexScan && ($0.tableRows ?? Int.max) >= PlanFinding.smallTableRows }
            let limited = !scans.isEmpty && SQLTokenList(statement.sql).firstTopLevelWord("LIMIT") != nil
            let indexScans = scans.map { $0.detail + (limited ? " (in index order, up to its LIMIT)" : " (reads the whole index)") }
            let problems = statement.error.map { _ in "not analysed" }
                ?? (flagged.isEmpty ? nil : flagged.joined(separator: "; "))
                ?? (indexScans.isEmpty ? nil : indexScans.joined(separator: "; "))
                ?? "no full scan or temp B-tree"
            out.append("| S\(offset + 1) | \(statement.kind.rawValue) | \(Figures.count(statement.count)) | \(cell(result.shareText(statement))) | \(before) | \(after) | \(cell(problems)) | \(statement.tables.map(codeCell).joined(separator: ", ")) |")
        }
        out.append("")
        for section in StatementSection.all(in: result) { statement(section, of: result, into: &out) }
    }

    /// One statement: its SQL, where the app issues it, its times and its plans.
    private static func statement(_ section: StatementSection, of result: AnalysisResult, into out: inout [String]) {
        let statement = section.statement
        out.append("### \(section.label) · \(statement.kind.rawValue) ×\(Figures.count(statement.count)) · \(section.share(of: "the time"))")
        out.append("")
        out.append(fence(SQLFormatter.format(statement.sql), language: "sql"))
        out.append("")
        if let line = result.sourceLine(for: statement, code: inline) {
            out.append(line)
            out.append("")
        }
        if let failures = statement.deviceFailures, failures > 0 {
            out.append("**Failed on the device** \(Figures.counted(failures, "time")) of \(Figures.count(statement.count)) (the app's log): \(inline(statement.deviceError ?? "error"))")
            out.append("")
        }
        if let error = statement.error {
            out.append("Not analysed: \(text(error))")
            out.append("")
            return
        }
        facts(of: section, into: &out)
        switch section.plans {
        case .none:
            return
        case .unchanged(let plan):
            out.append("Plan:")
            out.append(fence(plan.tree, language: ""))
        case .changed(let before, let after):
            out.append("Plan before:")
            out.append(fence(before.tree, language: ""))
            out.append("Plan after:")
            out.append(fence(after.tree, language: ""))
        }
        out.append("")
    }

    /// A statement's facts as a list: shape, bound values, times before and after, the app's own times,
    /// the indexes it uses, its notes.
    private static func facts(of section: StatementSection, into out: inout [String]) {
        for fact in section.facts {
            switch fact {
            case .shape(let shape): out.append("- Shape (from SQLite's planner): \(inline(shape))")
            case .source: continue  // the "Issued at" sentence above the list
            case .boundValues(let summary): out.append("- Bound values: \(text(summary))")
            case .before(let timing, let rows): out.append("- Before: \(Figures.timing(timing)); \(prose(rows))")
            case .after(let timing): out.append("- After: \(Figures.timing(timing))")
            case .observed(let observed, let lastRows):
                out.append("- Reported by the app's log (its device, its data, 0.1 ms resolution): median \(Figures.logged(observed.medianSeconds)) over \(Figures.counted(observed.count, "execution"))\(lastRows.map { ", last \(Figures.counted($0, "row"))" } ?? "")")
            case .observedRows(let rows): out.append("- Reported by the app's log: \(Figures.counted(rows, "row"))")
            case .uses(let indexes): out.append("- Uses: " + indexes.map(inline).joined(separator: ", "))
            }
        }
        for note in section.statement.notes { out.append("- \(text(note.text))") }
        out.append("")
    }

    /// The review of the store's own indexes.
    private static func existingIndexes(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.existingIndexes.title)")
        out.append("")
        out.append(result.isSampled
            ? "| Index | Table | Columns | Finding | Size (store, scaled) | Write time saved by dropping (sample) | Advice |"
            : "| Index | Table | Columns | Finding | Size | Write time saved by dropping | Advice |")
        out.append("|---|---|---|---|---|---|---|")
        for finding in result.existingIndexes {
            let what = finding.findingText(name: codeCell)
            var advice = finding.dropSQL.map(codeCell) ?? (finding.caveat.map(cell) ?? "")
            if finding.dropSQL != nil, let declared = result.modelStoreIndex(named: finding.index) {
                advice += "; and " + cell(StoreModelText.conditionalRemoval(declared))
            }
            let saved = cell(result.writeSavingText(of: finding))
            out.append("| \(codeCell(finding.index)) | \(codeCell(finding.table)) | \(codeCell(finding.columns.joined(separator: ", "))) | \(what) | \(finding.bytes.map { ByteCountText.format($0) } ?? "—") | \(saved) | \(advice) |")
        }
        out.append("")
        out.append(text(result.dropMeasurementNote))
        out.append("")
    }

    /// The uniqueness audit.
    private static func uniqueness(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.uniqueness.title)")
        out.append("")
        out.append("| Rule | Source | Rows breaking it | Advice |")
        out.append("|---|---|---|---|")
        for finding in result.uniqueness {
            let rule = codeCell(finding.table + "(" + finding.columns.joined(separator: ", ") + ")")
            let source = finding.origin == .declared ? "declared" : (finding.origin == .proposed ? "looked up like an identifier" : "UNIQUE index")
            let constraint = finding.coreDataConstraint.map { " Core Data: the uniqueness constraint " + codeCell($0.joined(separator: ",")) + " on " + codeCell(finding.coreDataEntity ?? finding.table) } ?? ""
            let advice = cell(finding.advice) + (finding.swiftDataUnique.map { " " + codeCell($0) } ?? "") + constraint
            out.append("| \(rule) | \(source) | \(Figures.count(finding.violatingRows)) | \(advice) |")
        }
        out.append("")
    }

    /// The candidates not recommended, with the reason.
    private static func rejected(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.rejected.title)")
        out.append("")
        out.append("| Candidate | Read time saved (when rejected) | Write time added (one pass, no spread) | Why not |")
        out.append("|---|---|---|---|")
        for candidate in result.rejectedCandidates {
            let read = candidate.hasFigures ? Figures.measured(candidate.boundedReadSaving) : "—"
            let write = candidate.hasFigures ? Figures.measured(candidate.boundedWriteCost) : "—"
            out.append("| \(codeCell(candidate.modelDisplayName(onCoreDataStore: result.store.isCoreData))) | \(read) | \(write) | \(cell(candidate.reason)) |")
        }
        out.append("")
    }

    /// The store's tables and indexes.
    private static func store(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## \(ReportSection.store.title)")
        out.append("")
        var facts = ["\(inline(result.store.fileName)), \(ByteCountText.format(result.store.bytes))"]
        if result.store.isCoreData { facts.append(result.store.kindText + (result.store.isCloudKitSynced ? ", synced with CloudKit" : "")) }
        facts.append(text(result.store.statisticsFact))
        facts.append("snapshot: \(text(result.store.snapshotMethod)), \(Figures.duration(result.store.snapshotSeconds))")
        out.append(facts.joined(separator: " · "))
        out.append("")
        out.append("| Table | Entity | Rows | Indexes |")
        out.append("|---|---|---|---|")
        let sampledRows = Dictionary(result.store.sampledTables.map { ($0.table, $0) }, uniquingKeysWith: { a, _ in a })
        for table in result.store.tables {
            let indexes = table.indexes.isEmpty ? "none" : table.indexes.map { codeCell($0.name) }.joined(separator: ", ")
            let rows = Figures.count(table.rows) + (sampledRows[table.name].map { " (measured on a 1-in-\($0.step) sample of \(Figures.count($0.sampledRows)))" } ?? "")
            out.append("| \(codeCell(table.name)) | \(cell(table.entities.joined(separator: ", "))) | \(rows) | \(indexes) |")
        }
        out.append("")
    }

    /// The app's fetch sites (`--source`).
    private static func sourceSites(_ result: AnalysisResult, into out: inout [String]) {
        let sites = result.sourceSiteRows
        out.append("## \(ReportSection.sourceSites.title)")
        out.append("")
        out.append("| site | form | frequency | statement | status |")
        out.append("|---|---|---|---|---|")
        for site in sites {
            out.append("| \(codeCell(site.location)) | \(cell(site.form)) | \(site.frequency) | \(site.statement.map(cell) ?? "—") | \(cell(site.status)) |")
        }
        out.append("")
    }

    /// What was read, the warnings, and the footer.
    private static func workload(_ result: AnalysisResult, into out: inout [String]) {
        out.append("## Workload")
        out.append("")
        let workload = result.workload
        out.append("\(workload.files.map(inline).joined(separator: ", ")): \(Figures.counted(workload.linesRead, "line")), \(Figures.counted(workload.statementsRead, "statement")) (\(workload.distinctStatements) distinct, \(workload.analysedStatements) analysed); \(Figures.counted(workload.housekeepingStatements, "execution")) set aside that neither read nor write rows (transactions, pragmas, schema changes).")
        for choice in workload.formats ?? [] {
            out.append("")
            out.append("Read \(inline(choice.file)) as a \(choice.format.displayName): \(text(choice.reason))\(choice.forced ? "" : " (detected; --workload-format forces a format)")\(choice.encoding == "UTF-8" ? "" : "; \(text(choice.encoding))")\(choice.lineEnds == "CR" || choice.lineEnds == "CRLF" ? "; \(choice.lineEnds) line ends" : "").")
        }
        if let means = workload.observedTimesText {
            out.append("")
            out.append("Times reported by the app's log: \(text(means)).")
        }
        if !workload.skipped.isEmpty {
            out.append("")
            out.append("Skipped: " + workload.skipped.sorted { $0.key < $1.key }.map { "\($0.value) × \(text($0.key))" }.joined(separator: ", ") + ".")
        }
        if !result.warnings.isEmpty {
            out.append("")
            out.append("## Warnings")
            out.append("")
            for warning in result.warnings { out.append("- \(text(warning.text))") }
        }
        out.append("")
        out.append("---")
        out.append("\(text(result.tool.name)) \(text(result.tool.version)), SQLite \(text(result.tool.sqliteVersion)), analysed in \(Figures.duration(result.tool.analysisSeconds)) at \(text(result.tool.generatedAt)).")
    }

    /// A review without a workload: findings from the schema and the data only, and how to capture a workload.
    static func renderReview(_ result: AnalysisResult) -> String {
        var out = ["# indexadvisor schema review: \(inline(result.store.fileName))", ""]
        out.append("No workload: every finding below comes from the schema and the data only, and times are of single operations (lookups, writes), not of the app's statements.")
        out.append("")
        for (kind, findings) in result.schemaReviewByKind {
            out.append("## \(kind.title)")
            out.append("")
            for finding in findings {
                let subject = finding.index.map { "\(inline($0)) on \(inline(finding.table))" }
                    ?? (finding.table.isEmpty ? "" : inline(finding.table + (finding.columns.isEmpty ? "" : "(" + finding.columns.joined(separator: ", ") + ")")))
                out.append("- " + (subject.isEmpty ? "" : subject + (finding.bytes.map { " (\(ByteCountText.format($0)))" } ?? "") + ": ") + text(finding.advice))
                for measurement in finding.measurements {
                    out.append("  - \(text(measurement.operation)): \(prose(measurement.comparisonText)) (medians of \(measurement.withIndex.runs) and \(measurement.withoutIndex.runs) runs; the index was really added or dropped between them, then put back)")
                }
                if let sql = finding.sql { out.append("  " + inline(sql)) }
                if let unique = finding.swiftDataUnique { out.append("  SwiftData: " + inline(unique)) }
            }
            out.append("")
        }
        out.append("## Next: capture a workload")
        out.append("")
        // The hint's lines are Markdown as the analysis wrote them (a leading "- ", `code` spans); an edited
        // report's are printed the same way, every other character escaped.
        out += result.captureHint.map { line in line.hasPrefix("- ") ? "- " + prose(String(line.dropFirst(2))) : prose(line) }
        out.append("")
        out.append("---")
        out.append("\(text(result.tool.name)) \(text(result.tool.version)), SQLite \(text(result.tool.sqliteVersion)), reviewed in \(Figures.duration(result.tool.analysisSeconds)).")
        return out.joined(separator: "\n") + "\n"
    }

    /// Prose that marks code with backticks (the advice texts): the marked parts as code spans, the rest
    /// escaped. A name from the store that holds a backtick can shift which part is which, but every part
    /// is escaped or fenced either way, so nothing from the store becomes Markdown.
    static func prose(_ value: String) -> String {
        backtickSpans(value).map { $0.isCode ? inline($0.text) : text($0.text) }.joined()
    }

    /// `text` as inline code, with a fence longer than any backtick run inside it.
    ///
    /// A code span cannot hold a line break (CommonMark turns one into a space), so a line break inside an
    /// identifier shows as `␊` (U+240A) and a carriage return as `␍`: a name pasted from the span would
    /// otherwise name another index (`DROP INDEX IF EXISTS "a b"` for `"a⏎b"` silently drops nothing). The
    /// fenced SQL keeps the real characters.
    static func inline(_ text: String) -> String {
        let visible = controlsShown(text.replacingOccurrences(of: "\r", with: "\u{240D}").replacingOccurrences(of: "\n", with: "\u{240A}"))
        let longest = longestBacktickRun(in: visible)
        let ticks = String(repeating: "`", count: longest + 1)
        let padded = visible.hasPrefix("`") || visible.hasSuffix("`") ? " \(visible) " : visible
        return ticks + padded + ticks
    }

    /// An identifier for a table cell: a code span (no Markdown inside), pipes escaped as GFM tables need.
    static func codeCell(_ value: String) -> String {
        inline(value).replacingOccurrences(of: "|", with: "\\|")
    }

    /// A fenced code block whose fence cannot be closed by the content.
    static func fence(_ content: String, language: String) -> String {
        let content = controlsShown(content)
        let ticks = String(repeating: "`", count: max(3, longestBacktickRun(in: content) + 1))
        return ticks + language + "\n" + content + "\n" + ticks
    }

    /// `text` with each control character but tab, line feed and carriage return shown as its Unicode
    /// control picture (NUL as `␀`, U+2400): a raw NUL made a breaking helper's Markdown report a binary
    /// file to git and to editors, and CommonMark would show it as U+FFFD anyway.
    static func controlsShown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" || $0.value == 0x7F }) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" {
                shown.append(Unicode.Scalar(0x2400 + scalar.value)!)
            } else if scalar.value == 0x7F {
                shown.append(Unicode.Scalar(0x2421)!)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// Text for a table cell: pipes escaped, line breaks folded, Markdown punctuation escaped: ``text(_:)``,
    /// which escapes a pipe already. (Escaping its `\|` once more made it `\\|`, an escaped backslash and then
    /// a pipe that ends the cell: a table name with a `|` broke its row.)
    static func cell(_ value: String) -> String {
        text(value)
    }

    /// Plain text with Markdown's active characters escaped (emphasis, links, raw HTML, code spans,
    /// entities, strikethrough, table pipes), so names from the store render as written.
    static func text(_ value: String) -> String {
        var result = ""
        for character in controlsShown(value) {
            if character.isNewline { result.append(" "); continue }
            if "\\*_[]<>#`&~|".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A timing for a table cell: `18.5 ms (IQR 18.5 ms–18.6 ms)`.
    static func cellTiming(_ timing: Timing) -> String {
        if timing.isLowerBound == true { return "over \(Figures.duration(timing.medianSeconds)) (stopped at --statement-timeout)" }
        return "\(Figures.duration(timing.medianSeconds)) (IQR \(Figures.duration(timing.p25Seconds))–\(Figures.duration(timing.p75Seconds)))"
    }

    static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var current = 0
        for character in text {
            if character == "`" { current += 1; longest = max(longest, current) } else { current = 0 }
        }
        return longest
    }
}

extension String {
    /// The string without one trailing line break.
    fileprivate var trimmingTrailingNewline: String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}
