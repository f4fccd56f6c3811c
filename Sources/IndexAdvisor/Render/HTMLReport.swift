import QueryPlanText

/// `--format html`: one self-contained page — inline CSS and SVG, one small inline script for "Copy"
/// buttons, no network, no external fonts — readable in light and dark mode and printable.
///
/// From the top: a summary (workload time now and with the advice, indexes to add and drop, full scans
/// left), a chart of each statement's time before and after, the indexes to add (SQL, SwiftData code, the
/// plans of the main statement before and after, each statement's measured change), the code to paste, a
/// chart of read benefit against write cost per candidate, every statement (formatted SQL, count, share
/// of the workload's time, plans drawn as trees, times with their interquartile range), the existing-index
/// review, the uniqueness audit, the candidates not recommended with the reason, the store, and the method.
///
/// Renders ``AnalysisResult`` and computes nothing of its own. The page is built from ``HTML`` values, so
/// every value from the store or the workload interpolated into it is escaped (``HTMLText/escape(_:)``) by
/// its type, and markup held in a `String` enters only through an explicit `raw` (the page's own style
/// sheet and script, and the words of an existing index's finding). No such value is placed inside `<script>`
/// or `<style>`, and the page's Content-Security-Policy (``HTMLAssets``) refuses any script or style but its own.
public enum HTMLReport {
    public static func render(_ result: AnalysisResult) -> String {
        var page = Page()
        page.append("<!DOCTYPE html>")
        page.append(#"<html lang="en">"#)
        page.append("<head>")
        page.append(#"<meta charset="utf-8">"#)
        page.append(#"<meta http-equiv="Content-Security-Policy" content="\#(HTMLAssets.contentSecurityPolicy)">"#)
        page.append(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#)
        page.append(#"<meta name="generator" content="\#("\(result.tool.name) \(result.tool.version)")">"#)
        page.append("<title>indexadvisor report: \(result.store.fileName)</title>")
        // The page's own style sheet and script, constants whose hashes the policy lists.
        page.append("<style>\(raw: HTMLAssets.styleSheet)</style>")
        page.append("<script>\(raw: HTMLAssets.script)</script>")
        page.append("</head>")
        page.append("<body>")
        page.append("<main>")
        let outline = ReportOutline(result)
        // The Markdown's order (issue 42): the summary, each recommendation, drops and findings, the
        // statements, and the method last, collapsed.
        header(result, into: &page)
        summary(result, into: &page)
        if outline.contains(.recommendations) { recommendations(result, into: &page) }
        if outline.contains(.alternatives) { alternatives(result, into: &page) }
        if outline.contains(.tradeOff) { tradeOffChart(result, into: &page) }
        // Shown when empty too, with a sentence saying so: the table of contents always links to them.
        existingIndexes(result, into: &page)
        uniqueness(result, into: &page)
        if outline.contains(.queryAdvice) { queryAdvice(result, into: &page) }
        if outline.contains(.schemaReview) { schemaReview(result, into: &page) }
        if outline.contains(.codeToPaste) { codeToPaste(result, into: &page) }
        statementChart(result, into: &page)
        statements(result, into: &page)
        rejected(result, into: &page)
        if outline.contains(.sourceSites) { sourceSites(result, into: &page) }
        store(result, into: &page)
        method(result, into: &page)
        page.append("<footer>\("\(result.tool.name) \(result.tool.version)") · SQLite \(result.tool.sqliteVersion) · analysed in \(Figures.duration(result.tool.analysisSeconds)) · \(result.tool.generatedAt) · JSON schema version \(result.schemaVersion)</footer>")
        page.append("</main>")
        page.append("</body>")
        page.append("</html>")
        return page.text
    }

    // MARK: Sections

    private static func header(_ result: AnalysisResult, into page: inout Page) {
        page.append("<header>")
        page.append(#"<h1>indexadvisor report: <span class="store">\#(result.store.fileName)</span></h1>"#)
        var facts = [ByteCountText.format(result.store.bytes)]
        if result.store.isCoreData { facts.append(result.store.kindText + (result.store.isCloudKitSynced ? ", synced with CloudKit" : "")) }
        facts.append("\(Figures.counted(result.workload.statementsRead, "statement")) from \(result.workload.files.joined(separator: ", "))")
        facts.append("analysed \(result.tool.generatedAt)")
        page.append(#"<p class="meta">\#(facts.joined(separator: " · "))</p>"#)
        page.append(#"<p class="meta">\#(result.figuresLine)</p>"#)
        let outline = ReportOutline(result)
        var links = [("summary", "Summary")]
        if outline.contains(.recommendations) { links.append(("add", "Indexes to add")) }
        if outline.contains(.alternatives) { links.append(("alternatives", "Alternatives")) }
        if outline.contains(.tradeOff) { links.append(("tradeoff", "Benefit and cost")) }
        links += [("existing", "Existing indexes"), ("uniqueness", "Uniqueness")]
        if outline.contains(.codeToPaste) { links.append(("code", "Code to paste")) }
        links += [("times", "Times"), ("statements", "Statements"), ("rejected", "Not recommended"), ("method", "Method")]
        page.append(#"<nav class="toc">\#(links.map { link(to: $0.0, "\($0.1)") }.joined())</nav>"#)
        page.append("</header>")
    }

    private static func summary(_ result: AnalysisResult, into page: inout Page) {
        let totals = result.totals
        let drops = result.indexesToDrop
        page.append(#"<section id="summary">"#)
        page.append(#"<div class="cards">"#)
        card(title: "Workload time" + (result.isSampled ? " (sample)" : ""), value: result.totals(totals.totalSecondsBefore, totals.totalSecondsAfter),
             detail: "\(result.change(totals.totalSecondsBefore, totals.totalSecondsAfter)) with the advice · reads and writes, count × median", into: &page)
        card(title: "Indexes", value: "+\(result.recommendations.count) / −\(drops.count)",
             detail: result.recommendations.isEmpty ? "to add / to drop" : "to add / to drop · built in \(result.buildEstimate)\(Figures.duration(result.migrationBuildSeconds)), \(result.buildEstimate)\(ByteCountText.format(result.migrationBytes))\(result.buildEstimate.isEmpty ? "" : " (store, scaled from the sample)")", into: &page)
        card(title: "Full table scans left", value: "\(totals.fullScansAfter) of \(totals.fullScansBefore)",
             detail: "temp B-tree sorts \(totals.tempBTreeSortsBefore) → \(totals.tempBTreeSortsAfter)", into: &page)
        card(title: "Write time", value: result.totals(totals.writeSecondsBefore, totals.writeSecondsAfter, \.kind.isWrite),
             detail: result.headlineWriteChangeText.map { "\($0) · the clock's figures" } ?? "what every new index costs the workload's inserts, updates and deletes", into: &page)
        page.append("</div>")
        var lead: String
        if result.recommendations.isEmpty && drops.isEmpty {
            lead = "No index to add or drop for this workload: the statements below say why each slow one got none."
        } else {
            var parts: [String] = []
            if !result.recommendations.isEmpty { parts.append("add \(Figures.counted(result.recommendations.count, "index", plural: "indexes"))") }
            if !drops.isEmpty { parts.append("drop \(Figures.counted(drops.count, "index", plural: "indexes"))") }
            // Without a workload (the schema review) there is no workload time to state, not "0 s now".
            lead = parts.joined(separator: " and ").capitalizedFirstLetter
                + (result.statements.isEmpty ? "" : ": the workload takes\(result.timeScope) \(result.totals(totals.totalSecondsBefore, totals.totalSecondsAfter, between: " now and ")) with the advice (\(result.change(totals.totalSecondsBefore, totals.totalSecondsAfter)))")
                + (result.recommendations.isEmpty ? "." : "; building the indexes takes \(result.buildEstimate)\(Figures.duration(result.migrationBuildSeconds)) \(result.buildScope).")
        }
        page.append(#"<p class="lead">\#(lead)</p>"#)
        if let untimedWrites = result.untimedWritesText {
            page.append(#"<p class="bad">\#(untimedWrites.capitalizedFirstLetter).</p>"#)
        }
        page.append(#"<p class="muted">Workload: \#(result.workloadHeadline).</p>"#)
        if !result.recommendations.isEmpty || !drops.isEmpty {
            if result.finalCharges != nil { page.append(#"<p class="muted">\#(result.chargesSentence)</p>"#) }
            page.append("<ol>")
            for recommendation in result.recommendations {
                let line = link(to: "add-\(recommendation.rank)", "<code>\(result.summaryDeclaration(for: recommendation, sql: "\(recommendation.table)(\(recommendation.columnList))"))</code>")
                let evidence = result.counterEvidence(for: recommendation).map { ". \($0)" } ?? ""
                let sqlOnly = result.sqlOnlyReason(for: recommendation) == nil ? "" : " (SQL only)"
                page.append("<li>\(line)\(sqlOnly): \(result.chargeText(for: recommendation)) per workload\(evidence)</li>")
            }
            for finding in drops {
                let charged = result.dropChargeText(for: finding).map { ": \($0)" } ?? ""
                page.append("<li>Drop \(link(to: "existing", "<code>\(finding.index)</code>")) (\(findingMarkup(finding)))\(charged)</li>")
            }
            page.append("</ol>")
            if let removal = result.modelRemovalNote(code: { $0 }) { page.append("<p>\(removal)</p>") }
        }
        page.append("</section>")
    }

    private static func card(title: String, value: String, detail: String, into page: inout Page) {
        page.append(#"<div class="card"><div class="k">\#(title)</div><div class="v">\#(value)</div><div class="d">\#(detail)</div></div>"#)
    }

    private static func statementChart(_ result: AnalysisResult, into page: inout Page) {
        let labels = result.statementLabels
        let rows = result.statements.filter { $0.error == nil }.map { statement -> SVGCharts.TimeRow in
            let label = labels[statement.id] ?? statement.id
            let caption = "×\(Figures.count(statement.count)) · \(result.shareText(statement, of: "time"))"
            let detail = "\(label) (\(statement.kind.rawValue), ×\(Figures.count(statement.count))): "
                + (statement.timingBefore.map { "before \(Figures.timing($0))" } ?? "not timed before")
                + (statement.timingAfter.map { ", after \(Figures.timing($0))" } ?? "")
            return SVGCharts.TimeRow(label: label, anchor: label, before: statement.timingBefore, after: statement.timingAfter,
                                     isFlagged: statement.isFlagged,
                                     isUnfixed: statement.isFlagged && statement.planAfter?.tree == statement.planBefore?.tree,
                                     caption: caption, detail: detail)
        }
        page.append(#"<section id="times">"#)
        page.append("<h2>\(ReportSection.times.title)</h2>")
        page.append(#"<p class="muted">Median time of one execution on the snapshot, log scale; the right column says how often the workload runs it and its share of the workload's weighted time before the change.</p>"#)
        page.append(SVGCharts.statementTimesHTML(rows, title: "Median time of one execution of each statement, before and after the advice"))
        page.append("</section>")
    }

    private static func recommendations(_ result: AnalysisResult, into page: inout Page) {
        page.append(#"<section id="add">"#)
        page.append("<h2>\(ReportSection.recommendations.title)</h2>")
        page.append(#"<p class="muted">In the order the migration builds them. Each one’s first lines are what it is charged with the whole set in place; below them, what it did when it was chosen.</p>"#)
        for recommendation in result.recommendations { self.recommendation(recommendation, of: result, into: &page) }
        page.append("</section>")
    }

    /// One index to add: its figures and SQL, the SwiftData declaration, its main statement with the plans
    /// before and after, the measured change of every statement it touches, and its notes.
    private static func recommendation(_ recommendation: Recommendation, of result: AnalysisResult, into page: inout Page) {
        let anchor = "add-\(recommendation.rank)"
        page.append(#"<article id="\#(anchor)">"#)
        page.append("<h3>\(recommendation.rank). <code>\(recommendation.name)</code></h3>")
        codeBlock(recommendation.sql + ";", id: "\(anchor)-sql", into: &page)
        swiftData(for: recommendation, in: result, into: &page)
        if let charge = result.charge(of: recommendation) {
            let (reads, writes) = result.chargeLines(for: recommendation, charge: charge, scope: result.isSampled ? " (on the sample)" : "")
            page.append(#"<ul class="charge"><li>\#(reads)</li><li>\#(writes)</li><li>How sure: \#(result.howSure(of: recommendation))</li></ul>"#)
        } else {
            page.append(#"<p>Saves <strong class="good">\#(Figures.measured(recommendation.boundedReadSaving))</strong> of reads and adds <strong class="warn">\#(recommendation.boundedWriteCost == BoundedFigure(0) ? "no measurable time" : Figures.measured(recommendation.boundedWriteCost))</strong> of writes per workload\#(result.timeScope) · \#(recommendation.buildSentence.lowercasedFirstLetter)</p>"#)
            page.append("<p>How sure: \(result.howSure(of: recommendation))</p>")
        }
        page.append(#"<p class="muted">\#(result.partialSetCaption(for: recommendation)):</p>"#)
        if let main = recommendation.mainEffect, let statement = result.statement(withID: main.statementID) {
            let label = result.label(ofStatement: main.statementID)
            page.append(#"<p>Mainly for \#(link(to: label, "\(label)")) (\#(statement.kind.rawValue), ×\#(Figures.count(statement.count))): \#(Figures.median(main.before)) → \#(Figures.median(main.after)) per execution, \#(Figures.change(of: main)).</p>"#)
            if let evidence = result.counterEvidence(for: recommendation) { page.append("<p>\(evidence)</p>") }
            if let shown = recommendation.mainPlans(in: result) {
                plans(before: shown.before, after: shown.after, captions: (shown.beforeCaption, shown.afterCaption), into: &page)
            }
        }
        let takeovers = result.takeovers(of: recommendation)
        for takeover in takeovers {
            page.append("<p>\(prose(result.takeoverSentence(takeover)))</p>")
        }
        effects(of: recommendation, takeovers: takeovers, in: result, into: &page)
        page.append("</article>")
    }

    /// The SwiftData declaration for an index to add, or why there is none, and whether the model has it.
    private static func swiftData(for recommendation: Recommendation, in result: AnalysisResult, into page: inout Page) {
        if result.isCoreDataEntity(recommendation.entity), let entity = recommendation.entity {
            if let unique = result.uniqueRule(covering: recommendation), let rule = result.modelRuleText(for: unique) {
                page.append("<p>Core Data, in the model’s entity <code>\(entity)</code>: no fetch index. The proposed \(rule) (see \(link(to: "uniqueness", "Uniqueness"))) gives the store a unique index on these columns, which serves the same lookups; with it declared, the CREATE INDEX above is not needed.</p>")
            } else if let index = recommendation.fetchIndex {
                let elements = index.elements.map { $0.property + ($0.isAscending ? "" : " (descending)") }.joined(separator: ", ")
                let predicate = index.partialIndexPredicate.map { ", with the partial-index predicate <code>\(HTMLText.escape($0))</code>" } ?? ""
                page.append("<p>Core Data, in the model’s entity <code>\(entity)</code>: the fetch index <code>\(index.name)</code> on \(elements)\(predicate), which Core Data names <code>\(index.storeIndexName)</code> in the store, as the SQL above does. The model-editor steps, the <code>contents</code> XML and the <code>NSFetchIndexDescription</code> code are under Code to paste.</p>")
            } else {
                page.append("<p>\(result.sqlOnlyText(for: recommendation) ?? "SQL only: create it with the SQL above.")</p>")
            }
            if let declared = recommendation.declaredInModel {
                page.append("<p>Your model already declares it (\(declared)); the store does not have it, because Core Data leaves fetch indexes out of the entities’ version hashes, so no migration added it: run the SQL above.</p>")
            }
            return
        }
        if let unique = result.uniqueRule(covering: recommendation), let rule = unique.swiftDataUnique, let entity = recommendation.entity {
            page.append("<p>SwiftData, in <code>@Model class \(entity)</code>: no <code>#Index</code>. The proposed <code>\(rule)</code> (see \(link(to: "uniqueness", "Uniqueness"))) gives the store a unique index on these columns, which serves the same lookups; declaring both would build two indexes for one job. With the <code>#Unique</code> declared, the CREATE INDEX above is not needed.</p>")
        } else if let macro = recommendation.swiftDataIndex, let entity = recommendation.entity {
            let origin: HTML = recommendation.keyPathsAreGuessed
                ? #" <span class="badge plain">key paths guessed from column names: check them, or pass --model</span>"#
                : (result.model != nil ? #" <span class="badge good">key paths from your model</span>"# : "")
            page.append("<p>SwiftData, in <code>@Model class \(entity)</code>: <code>\(macro)</code>\(origin)</p>")
        } else if let entity = recommendation.entity {
            page.append("<p>\(result.sqlOnlyText(for: recommendation) ?? "SQL only: \(entity)’s model cannot declare it; create it with the SQL above.")</p>")
        }
        if let declared = recommendation.declaredInModel {
            page.append("<p>Your model already declares it (\(declared)); the store does not have it, because SwiftData builds indexes only with new stores: run the SQL above.</p>")
        }
    }

    /// The measured change of every statement an index touches, then its cardinality and notes.
    private static func effects(of recommendation: Recommendation, takeovers: [Takeover], in result: AnalysisResult,
                                into page: inout Page) {
        page.append("<table>")
        page.append(#"<tr><th>Statement</th><th class="num">Count</th><th class="num">Without it</th><th class="num">With it</th><th>Change</th></tr>"#)
        for effect in recommendation.effects {
            let label = result.label(ofStatement: effect.statementID)
            let kind = result.statement(withID: effect.statementID)?.kind.rawValue ?? ""
            let change = Figures.change(of: effect) + (takeovers.contains { $0.statementID == effect.statementID } ? "; its final plan uses another index (see above)" : "")
            let tone = !effect.isSignificant ? "muted" : (effect.after.medianSeconds < effect.before.medianSeconds ? "good" : "bad")
            page.append(#"<tr><td>\#(link(to: label, "\(label)")) <span class="muted">\#(kind)</span></td><td class="num">\#(Figures.count(effect.count))</td><td class="num">\#(timingCell(effect.before))</td><td class="num">\#(timingCell(effect.after))</td><td class="\#(tone)">\#(change)</td></tr>"#)
        }
        page.append("</table>")
        let notes = (recommendation.cardinalityText(in: result) { $0 }.map { [$0] } ?? []) + recommendation.notes.map(\.text)
        if !notes.isEmpty {
            page.append(#"<ul class="notes">\#(notes.map { "<li>\($0)</li>" as HTML }.joined())</ul>"#)
        }
    }

    private static func alternatives(_ result: AnalysisResult, into page: inout Page) {
        let alternatives = result.alternatives ?? []
        page.append(#"<section id="alternatives">"#)
        page.append("<h2>\(ReportSection.alternatives.title)</h2>")
        if let intro = result.coreDataAlternativesIntro {
            page.append("<p class=\"muted\">\(intro) Not in the migration or the totals.</p>")
        } else {
            page.append(#"<p class="muted">Index forms SwiftData’s <code>#Index</code> cannot express (a partial predicate, an expression, a direction or collation, a Core Data bookkeeping column), measured on top of the indexes to add: each figure is what it adds with them in place. Not in the migration or the totals.</p>"#)
        }
        for (offset, alternative) in alternatives.enumerated() {
            page.append(#"<article id="alternative-\#(offset + 1)">"#)
            page.append("<h3>A\(offset + 1). <code>\(alternative.name)</code></h3>")
            page.append(#"<p>Saves <strong class="good">\#(Figures.measured(alternative.boundedReadSaving))</strong> of reads and adds <strong class="warn">\#(Figures.measured(alternative.boundedWriteCost))</strong> of writes per workload · built in \#(Figures.duration(alternative.buildSeconds)) · \#(ByteCountText.format(alternative.bytes))</p>"#)
            codeBlock(alternative.sql + ";", id: "alternative-\(offset + 1)-sql", into: &page)
            page.append("<table>")
            page.append(#"<tr><th>Statement</th><th class="num">Count</th><th class="num">Without it</th><th class="num">With it</th><th>Change</th></tr>"#)
            for effect in alternative.effects {
                let label = result.label(ofStatement: effect.statementID)
                let change = Figures.boundedChange(effect.before, effect.after) ?? Figures.change(effect.before.medianSeconds, effect.after.medianSeconds, significant: effect.isSignificant)
                page.append(#"<tr><td>\#(link(to: label, "\(label)"))</td><td class="num">\#(Figures.count(effect.count))</td><td class="num">\#(timingCell(effect.before))</td><td class="num">\#(timingCell(effect.after))</td><td>\#(change)</td></tr>"#)
            }
            page.append("</table>")
            var notes: [String] = []
            if !alternative.replaces.isEmpty {
                notes.append("With it, no final plan uses \(alternative.replaces.joined(separator: ", ")): drop \(alternative.replaces.count == 1 ? "that index" : "those indexes") \(result.inTheModelToo(alternative.replaces, code: { $0 })) when you add this one.")
            }
            notes.append("How to ship it: " + result.shippingText(for: alternative))
            page.append(#"<ul class="notes">\#(notes.map { "<li>\($0)</li>" as HTML }.joined())</ul>"#)
            page.append("</article>")
        }
        page.append("</section>")
    }

    private static func codeToPaste(_ result: AnalysisResult, into page: inout Page) {
        page.append(#"<section id="code">"#)
        page.append("<h2>\(ReportSection.codeToPaste.title)</h2>")
        page.append("<h3>SQL migration</h3>")
        page.append(#"<p class="muted">Safe to run twice (<code>IF NOT EXISTS</code>, <code>IF EXISTS</code>). The same text as <code>--format sql</code>.</p>"#)
        codeBlock(SQLReport.render(result, queryAdvice: false), id: "code-sql", into: &page)
        if result.store.isCoreData {
            let removals = result.modelIndexesToRemove
            let coreData = !result.recommendations.isEmpty && result.recommendations.compactMap(\.entity).allSatisfy(result.isCoreDataEntity)
                || result.recommendations.isEmpty && !removals.isEmpty
            let remove = removals.isEmpty ? "" : " Remove there the fetch indexes the migration drops, too, or the stores the app creates get them again."
            page.append(coreData ? "<h3>Core Data model</h3>" : "<h3>SwiftData</h3>")
            // The indexes no model can declare are named so here too, as in the migration's header (hostile round 6, F9).
            let sqlOnly = result.sqlOnlyRecommendations.map(\.name)
            if !sqlOnly.isEmpty {
                let one = sqlOnly.count == 1
                page.append("<p>\(Figures.listed(sqlOnly)) \(one ? "is" : "are") SQL only: no model can declare \(one ? "it" : "them") (see \(one ? "its" : "their") section).</p>")
            }
            page.append(coreData && result.recommendations.isEmpty
                ? "<p>The migration drops indexes the model declares: remove them in a new model version, or the stores the app creates get them again. The same text as <code>--format swift</code>.</p>"
                : coreData
                ? "<p>Adding a fetch index changes the model: declare it in a new model version, which lightweight migration or a mapping model carries existing stores to.\(remove) Building the indexes takes <strong>\(result.buildEstimate + Figures.duration(result.migrationBuildSeconds))</strong> \(result.buildScope): what the migration costs on a store of this size. The same text as <code>--format swift</code>.</p>"
                : "<p>Adding an index is a schema change: declare it in a new <code>VersionedSchema</code> with a migration stage (a Core Data model: in a new model version). Building the indexes takes <strong>\(result.buildEstimate + Figures.duration(result.migrationBuildSeconds))</strong> \(result.buildScope): what the migration costs on a store of this size. The same text as <code>--format swift</code>.</p>")
            codeBlock(SwiftReport.render(result, queryAdvice: false), id: "code-swift", into: &page)
        }
        page.append("</section>")
    }

    private static func tradeOffChart(_ result: AnalysisResult, into page: inout Page) {
        var points = result.recommendations.map { recommendation in
            SVGCharts.TradeOffPoint(label: "#\(recommendation.rank)", writeSecondsAdded: recommendation.writeSecondsAdded,
                                    readSecondsSaved: recommendation.readSecondsSaved, isRecommended: true,
                                    detail: "#\(recommendation.rank) \(recommendation.table)(\(recommendation.columnList)): \(Figures.readWriteEffect(reads: recommendation.boundedReadSaving, writes: recommendation.boundedWriteCost))")
        }
        for (offset, candidate) in result.rejectedCandidates.enumerated() where candidate.hasFigures {
            points.append(SVGCharts.TradeOffPoint(label: "C\(offset + 1)", writeSecondsAdded: candidate.writeSecondsAdded,
                                                  readSecondsSaved: candidate.readSecondsSaved, isRecommended: false,
                                                  detail: "C\(offset + 1) \(candidate.displayName): \(Figures.readWriteEffect(reads: candidate.boundedReadSaving, writes: candidate.boundedWriteCost)); not recommended: \(candidate.reason)"))
        }
        let hidden = result.rejectedCandidates.filter { !$0.hasFigures }.count
        page.append(#"<section id="tradeoff">"#)
        page.append("<h2>\(ReportSection.tradeOff.title)</h2>")
        page.append(#"<p class="muted">Each measured candidate index: the read time it saves (up) against the write time it adds (right), per workload. \#(hidden > 0 ? "\(Figures.counted(hidden, "candidate")) set aside before measuring, or with no difference beyond the noise, \(hidden == 1 ? "is" : "are") not drawn (see the table below)." : "")</p>"#)
        page.append(SVGCharts.tradeOffHTML(points, title: "Read time saved against write time added, per candidate index"))
        page.append("</section>")
    }

    private static func statements(_ result: AnalysisResult, into page: inout Page) {
        let labels = result.statementLabels
        page.append(#"<section id="statements">"#)
        page.append("<h2>\(ReportSection.statements.title)</h2>")
        if !result.statementsTimingNote.isEmpty { page.append(#"<p class="muted">\#(result.statementsTimingNote)</p>"#) }
        page.append("<table>")
        page.append(#"<tr><th></th><th>Kind</th><th class="num">Count</th><th class="num">Share of time</th><th class="num">Before</th><th class="num">After</th><th>Plan before</th><th>Uses</th></tr>"#)
        for statement in result.statements {
            let label = labels[statement.id] ?? statement.id
            let problems: HTML = statement.error != nil ? #"<span class="bad">not analysed</span>"# : problemBadges(statement.planBefore)
            page.append(#"<tr><td>\#(link(to: label, "\(label)"))</td><td>\#(statement.kind.rawValue)</td><td class="num">\#(Figures.count(statement.count))</td><td class="num">\#(result.shareText(statement))</td><td class="num">\#(statement.timingBefore.map(Figures.median) ?? "—")</td><td class="num">\#(statement.timingAfter.map(Figures.median) ?? "—")</td><td>\#(problems)</td><td>\#(statement.usesRecommendations.map { "<code>\($0)</code>" as HTML }.joined(separator: " "))</td></tr>"#)
        }
        page.append("</table>")
        for section in StatementSection.all(in: result) { statement(section, of: result, into: &page) }
        page.append("</section>")
    }

    /// One statement: its SQL, its facts, its plans.
    private static func statement(_ section: StatementSection, of result: AnalysisResult, into page: inout Page) {
        let statement = section.statement
        page.append(#"<article id="\#(HTMLText.anchor(section.label))">"#)
        page.append("<h3>\(section.label) · \(statement.kind.rawValue) <span class=\"muted\">×\(Figures.count(statement.count)) · \(section.share(of: "the workload’s time"))</span>\(statement.error == nil ? problemBadges(statement.planBefore) : "")</h3>")
        page.append(#"<pre class="sql">\#(SQLFormatter.format(statement.sql))</pre>"#)
        if let failures = statement.deviceFailures, failures > 0 {
            page.append(#"<p class="bad">Failed on the device \#(Figures.counted(failures, "time")) of \#(Figures.count(statement.count)) (the app’s log): <code>\#(statement.deviceError ?? "error")</code></p>"#)
        }
        if let error = statement.error {
            page.append(#"<p class="bad">Not analysed: \#(error)</p>"#)
            page.append("</article>")
            return
        }
        facts(of: section, in: result, into: &page)
        if !statement.notes.isEmpty {
            page.append(#"<ul class="notes">\#(statement.notes.map { "<li>\($0.text)</li>" as HTML }.joined())</ul>"#)
        }
        switch section.plans {
        case .none: break
        case .unchanged(let plan): plans(before: plan, after: nil, into: &page)
        case .changed(let before, let after): plans(before: before, after: after, into: &page)
        }
        page.append("</article>")
    }

    /// A statement's facts as a definition list: shape, source, bound values, times before and after, the
    /// app's own times, the indexes it uses.
    private static func facts(of section: StatementSection, in result: AnalysisResult, into page: inout Page) {
        page.append(#"<dl class="facts">"#)
        for fact in section.facts {
            switch fact {
            case .shape(let shape): page.append("<dt>Shape</dt><dd><code>\(shape)</code> <span class=\"muted\">(from SQLite’s planner)</span></dd>")
            case .source(let locations):
                let line = result.sourceLine(for: section.statement, code: { $0 }) ?? ""
                let rest = line.dropFirst(("Issued at " + locations.joined(separator: ", ")).count)
                page.append("<dt>Swift source</dt><dd>\(locations.map { "<code>\($0)</code>" as HTML }.joined(separator: ", "))\(String(rest))</dd>")
            case .boundValues(let summary): page.append("<dt>Bound values</dt><dd>\(summary)</dd>")
            case .before(let timing, let rows): page.append("<dt>Before</dt><dd>\(Figures.timing(timing)); \(rows)</dd>")
            case .after(let timing): page.append("<dt>After</dt><dd>\(Figures.timing(timing))</dd>")
            case .observed(let observed, let lastRows):
                page.append("<dt>App’s log</dt><dd>median \(Figures.logged(observed.medianSeconds)) over \(Figures.counted(observed.count, "execution"))\(lastRows.map { ", last \(Figures.counted($0, "row"))" } ?? "") <span class=\"muted\">(its device and data, 0.1 ms resolution)</span></dd>")
            case .observedRows(let rows): page.append("<dt>App’s log</dt><dd>\(Figures.counted(rows, "row"))</dd>")
            case .uses(let indexes): page.append("<dt>Uses</dt><dd>\(indexes.map { "<code>\($0)</code>" as HTML }.joined(separator: ", "))</dd>")
            }
        }
        page.append("</dl>")
    }

    private static func queryAdvice(_ result: AnalysisResult, into page: inout Page) {
        let labels = result.statementLabels
        page.append(#"<section id="query-advice">"#)
        page.append("<h2>\(ReportSection.queryAdvice.title)</h2>")
        page.append("<p>Statements that no plain index fixes as written. Each time is measured on the snapshot with the recommended indexes built; a rewrite’s time is of the rewritten statement run there.</p>")
        for (offset, advice) in result.queryAdvice.enumerated() {
            let label = labels[advice.statementID] ?? advice.statementID
            page.append("<article>")
            page.append("<h3>\(link(to: label, "\(label)")): \(advice.kind.title)</h3>")
            page.append("<p>\(prose(advice.advice))</p>")
            if let timing = advice.timing {
                var row: HTML = "<table><tr><th>As it is</th>\(advice.rewriteTiming == nil ? "" : "<th>With the change</th><th>Change</th>" as HTML)</tr>"
                row += "<tr><td class=\"num\">\(timingCell(timing))</td>"
                if let rewritten = advice.rewriteTiming {
                    let significant = timing.isSlower(than: rewritten) || rewritten.isSlower(than: timing)
                    row += "<td class=\"num\">\(timingCell(rewritten))</td><td>\(Figures.change(timing, rewritten, significant: significant))</td>"
                }
                page.append(row + "</tr></table>")
            }
            if let caveat = advice.caveat { page.append("<p class=\"muted\">Caveat: \(prose(caveat))</p>") }
            if let rewrite = advice.rewrite { codeBlock(rewrite, id: "query-advice-\(offset + 1)", into: &page) }
            if let plan = advice.rewritePlan, !plan.steps.isEmpty {
                page.append(#"<div class="plans"><figure><figcaption>Plan with the change</figcaption>\#(planTree(plan))</figure></div>"#)
            }
            page.append("</article>")
        }
        page.append("</section>")
    }

    /// Without a workload: the findings from the schema and the data, and how to capture a workload.
    private static func schemaReview(_ result: AnalysisResult, into page: inout Page) {
        page.append(#"<section id="schema-review">"#)
        page.append("<h2>\(ReportSection.schemaReview.title)</h2>")
        page.append("<p>Every finding here comes from the schema and the data only; times are of single operations (a lookup, a write), not of the app’s statements.</p>")
        for (kind, findings) in result.schemaReviewByKind {
            page.append("<h3>\(kind.title)</h3>")
            page.append("<ul>")
            for finding in findings {
                var item = HTML.empty
                if let index = finding.index {
                    item += "<code>\(index)</code> on <code>\(finding.table)</code>"
                } else if !finding.table.isEmpty {
                    item += "<code>\(finding.table + (finding.columns.isEmpty ? "" : "(" + finding.columns.joined(separator: ", ") + ")"))</code>"
                }
                if let bytes = finding.bytes { item += " (\(ByteCountText.format(bytes)))" }
                item += "\(item.isEmpty ? "" : ": ")\(finding.advice)"
                if !finding.measurements.isEmpty {
                    item += "<ul>\(finding.measurements.map { "<li>\($0.operation): \($0.comparisonText)</li>" as HTML }.joined())</ul>"
                }
                if let sql = finding.sql { item += "<br><code>\(sql)</code>" }
                if let unique = finding.swiftDataUnique { item += "<br>SwiftData: <code>\(unique)</code>" }
                page.append("<li>\(item)</li>")
            }
            page.append("</ul>")
        }
        if !result.captureHint.isEmpty {
            page.append("<h3>Next: capture a workload</h3>")
            // The hint's lines are Markdown: a leading "- " and `code` spans.
            let items = result.captureHint.map { line -> HTML in
                let body = line.hasPrefix("- ") ? String(line.dropFirst(2)) : line
                return body.components(separatedBy: "`").enumerated()
                    .map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : "\($0.element)" }.joined()
            }
            page.append("<ul>\(items.map { "<li>\($0)</li>" as HTML }.joined())</ul>")
        }
        page.append("</section>")
    }

    /// A section that is one table: its heading, then `empty` in a paragraph when there are no `rows`, else the
    /// table (the `header` row, then `rows`) and `after`, the lines below it.
    private static func tableSection(_ open: HTML, _ section: ReportSection, empty: HTML, header: HTML, rows: [HTML],
                                     after: [HTML] = [], into page: inout Page) {
        page.append(open)
        page.append("<h2>\(section.title)</h2>")
        if rows.isEmpty {
            page.append("<p>\(empty)</p>")
        } else {
            page.append("<table>")
            page.append(header)
            for row in rows { page.append(row) }
            page.append("</table>")
            for line in after { page.append(line) }
        }
        page.append("</section>")
    }

    private static func existingIndexes(_ result: AnalysisResult, into page: inout Page) {
        let indexCount = result.store.tables.reduce(0) { $0 + $1.indexes.count }
        let (sizeLabel, timeLabel) = result.isSampled ? (" (store, scaled)", " (sample)") : ("", "")
        let rows = result.existingIndexes.map { finding -> HTML in
            let what = findingMarkup(finding)
            let saved = result.writeSavingText(of: finding)
            let lost: HTML = finding.effects.isEmpty ? #"<span class="muted">not measured</span>"#
                : "\(Figures.measured(finding.readSecondsAdded))"
            var advice: HTML = finding.dropSQL.map { "<code>\($0)</code>" } ?? "\(finding.caveat ?? "")"
            if finding.dropSQL != nil, let declared = result.modelStoreIndex(named: finding.index) {
                advice = "\(advice); and \(StoreModelText.conditionalRemoval(declared))"
            }
            return "<tr><td><code>\(finding.index)</code></td><td><code>\(finding.table)</code></td><td><code>\(finding.columns.joined(separator: ", "))</code></td><td>\(what)</td><td class=\"num\">\(finding.bytes.map { ByteCountText.format($0) } ?? "—")</td><td class=\"num\">\(saved)</td><td class=\"num\">\(lost)</td><td>\(advice)</td></tr>"
        }
        tableSection(#"<section id="existing">"#, .existingIndexes,
                     empty: "\(indexCount == 0 ? "The store has no index of its own (besides primary keys), so there is nothing to review." : "None of the store’s \(Figures.counted(indexCount, "index", plural: "indexes")) is redundant or unused by this workload.")",
                     header: #"<tr><th>Index</th><th>Table</th><th>Columns</th><th>Finding</th><th class="num">Size\#(sizeLabel)</th><th class="num">Writes saved by dropping\#(timeLabel)</th><th class="num">Reads lost\#(timeLabel)</th><th>Advice</th></tr>"#,
                     rows: rows,
                     after: [#"<p class="muted">\#(result.dropMeasurementNote) A workload is a sample: check the app’s other paths before dropping an index it did not use.</p>"#],
                     into: &page)
    }

    private static func uniqueness(_ result: AnalysisResult, into page: inout Page) {
        let rows = result.uniqueness.map { finding -> HTML in
            let source: String
            switch finding.origin {
            case .declared: source = "declared"
            case .proposed: source = "looked up like an identifier"
            case .enforced: source = "UNIQUE index"
            }
            let tone = finding.violatingRows > 0 ? "bad" : "good"
            let constraint: HTML = finding.coreDataConstraint.map { " Core Data: the uniqueness constraint <code>\($0.joined(separator: ","))</code> on <code>\(finding.coreDataEntity ?? finding.table)</code>" } ?? ""
            let macro: HTML = (finding.swiftDataUnique.map { " <code>\($0)</code>" } ?? "") + constraint
            return "<tr><td><code>\(finding.table + "(" + finding.columns.joined(separator: ", ") + ")")</code></td><td>\(source)</td><td class=\"num \(tone)\">\(Figures.count(finding.violatingRows))</td><td class=\"num\">\(Figures.count(finding.nullRows))</td><td>\(finding.advice)\(macro)</td></tr>"
        }
        tableSection(#"<section id="uniqueness">"#, .uniqueness,
                     empty: "No uniqueness rule was declared (<code>--unique</code>), enforced by a UNIQUE index, or suggested by the workload’s lookups.",
                     header: #"<tr><th>Rule</th><th>Source</th><th class="num">Rows breaking it</th><th class="num">Rows with NULL</th><th>Advice</th></tr>"#,
                     rows: rows, into: &page)
    }

    private static func rejected(_ result: AnalysisResult, into page: inout Page) {
        let rows = result.rejectedCandidates.enumerated().map { offset, candidate -> HTML in
            "<tr><td>C\(offset + 1)</td><td><code>\(candidate.modelDisplayName(onCoreDataStore: result.store.isCoreData))</code></td><td class=\"num\">\(candidate.hasFigures ? Figures.measured(candidate.boundedReadSaving) : "—")</td><td class=\"num\">\(candidate.hasFigures ? Figures.measured(candidate.boundedWriteCost) : "—")</td><td>\(candidate.reason)</td></tr>"
        }
        tableSection(#"<section id="rejected">"#, .rejected, empty: "No other candidate index was considered.",
                     header: #"<tr><th></th><th>Candidate</th><th class="num">Read time saved (when rejected)</th><th class="num">Write time added (one pass, no spread)</th><th>Why not</th></tr>"#,
                     rows: rows, into: &page)
    }

    private static func sourceSites(_ result: AnalysisResult, into page: inout Page) {
        let sites = result.sourceSiteRows
        page.append(#"<section id="source-sites">"#)
        page.append("<h2>\(ReportSection.sourceSites.title)</h2>")
        page.append("<table><tr><th>Site</th><th>Form</th><th>Frequency</th><th>Statement</th><th>Status</th></tr>")
        for site in sites {
            page.append("<tr><td><code>\(site.location)</code></td><td>\(site.form)</td><td class=\"num\">\(site.frequency)</td><td>\(site.statement ?? "—")</td><td>\(site.status)</td></tr>")
        }
        page.append("</table>")
        page.append("</section>")
    }

    private static func store(_ result: AnalysisResult, into page: inout Page) {
        page.append(#"<section id="store">"#)
        page.append("<h2>\(ReportSection.store.title)</h2>")
        var facts = ["\(result.store.fileName), \(ByteCountText.format(result.store.bytes))"]
        if result.store.isCoreData { facts.append(result.store.kindText + (result.store.isCloudKitSynced ? ", synced with CloudKit" : "")) }
        facts.append(result.store.statisticsFact)
        page.append("<p>\(facts.joined(separator: " · "))</p>")
        let sampled = Dictionary(result.store.sampledTables.map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
        page.append("<table>")
        page.append(#"<tr><th>Table</th><th>Entity</th><th class="num">Rows</th><th class="num">Columns</th><th>Indexes</th></tr>"#)
        for table in result.store.tables {
            let rows = Figures.count(table.rows) + (sampled[table.name].map { " (measured on a 1-in-\($0.step) sample of \(Figures.count($0.sampledRows)))" } ?? "")
            let indexes: HTML = table.indexes.isEmpty ? #"<span class="muted">none</span>"# : table.indexes.map { "<code>\($0.name)</code>" as HTML }.joined(separator: " ")
            page.append("<tr><td><code>\(table.name)</code></td><td>\(table.entities.joined(separator: ", "))</td><td class=\"num\">\(rows)</td><td class=\"num\">\(table.columns)</td><td>\(indexes)</td></tr>")
        }
        page.append("</table>")
        page.append("</section>")
    }

    private static func method(_ result: AnalysisResult, into page: inout Page) {
        let method = result.method
        let workload = result.workload
        page.append(#"<section id="method">"#)
        page.append("<details>")
        page.append("<summary><h2>Method</h2></summary>")
        page.append("<p>\(result.methodText)</p>")
        page.append(#"<dl class="facts">"#)
        page.append("<dt>Snapshot</dt><dd>\(result.store.snapshotMethod), taken in \(Figures.duration(result.store.snapshotSeconds)); the store itself is never written to</dd>")
        let sample = result.store.sampledTables.isEmpty
            ? "whole tables"
            : result.store.sampledTables.map { "\($0.table): 1 row in \($0.step), \(Figures.count($0.sampledRows)) of \(Figures.count($0.rows))" }.joined(separator: "; ")
        page.append("<dt>Sample</dt><dd>\(sample)</dd>")
        page.append("<dt>Repeats</dt><dd>\("median of \(method.repeats) runs per statement after a warm-up (discarded unless the statement reads far more pages than SQLite's cache holds), each run at least \(Figures.duration(method.minimumRunSeconds))")</dd>")
        page.append("<dt>Bound values</dt><dd>\("the workload’s own, or \(method.bindingSamples) sets drawn from the data (seed \(method.seed))")</dd>")
        page.append("<dt>Statement timeout</dt><dd>\(Figures.duration(method.statementTimeoutSeconds))</dd>")
        page.append("<dt>SQLite</dt><dd>\(result.tool.sqliteVersion)\(result.store.hasStatistics ? ", with the store’s sqlite_stat1" : ", no sqlite_stat1, as the store")</dd>")
        page.append("<dt>Workload</dt><dd>\("\(workload.files.joined(separator: ", ")): \(Figures.counted(workload.linesRead, "line")), \(Figures.counted(workload.statementsRead, "statement")) (\(workload.distinctStatements) distinct, \(workload.analysedStatements) analysed); \(Figures.counted(workload.housekeepingStatements, "execution")) set aside that neither read nor write rows (transactions, pragmas, schema changes)")</dd>")
        for choice in workload.formats ?? [] {
            page.append("<dt>Format</dt><dd>\("\(choice.file): \(choice.format.displayName), \(choice.reason)\(choice.encoding == "UTF-8" ? "" : "; \(choice.encoding)")\(choice.lineEnds == "CR" || choice.lineEnds == "CRLF" ? "; \(choice.lineEnds) line ends" : "")")</dd>")
        }
        if let means = workload.observedTimesText {
            page.append("<dt>Observed times</dt><dd>\(means)</dd>")
        }
        if !workload.skipped.isEmpty {
            page.append("<dt>Skipped</dt><dd>\(workload.skipped.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", "))</dd>")
        }
        if let model = result.model {
            page.append("<dt>Swift names</dt><dd>from \(model.files.joined(separator: ", ")) (--model)</dd>")
        } else {
            page.append("<dt>Swift names</dt><dd>recovered from the store’s index names, or guessed from column names (pass the app’s model with --model for exact key paths)</dd>")
        }
        page.append("</dl>")
        if let model = result.model, !model.entities.isEmpty {
            page.append("<table>")
            page.append("<tr><th>Model</th><th>Table</th><th>Declared at</th><th>Columns → properties</th></tr>")
            for entity in model.entities {
                let properties = entity.properties.map { "\($0.column) → \($0.property)" + ($0.kind == .toOneRelationship ? " (to-one)" : "") }.joined(separator: ", ")
                page.append("<tr><td><code>\(entity.entity)</code></td><td><code>\(entity.table)</code></td><td>\(entity.declaredAt)</td><td class=\"mono\">\(properties)</td></tr>")
            }
            page.append("</table>")
        }
        if let notes = result.model?.notes, !notes.isEmpty {
            page.append(#"<ul class="notes">\#(notes.map { "<li>\($0)</li>" as HTML }.joined())</ul>"#)
        }
        // Collapsed: the method is for the one who asks how; the warnings below it stay open.
        page.append("</details>")
        if !result.warnings.isEmpty {
            page.append("<h3>Warnings</h3>")
            page.append(#"<ul class="notes">\#(result.warnings.map { "<li>\($0.text)</li>" as HTML }.joined())</ul>"#)
        }
        page.append("</section>")
    }

    // MARK: Pieces

    /// A plan drawn as a tree: nested lists, problem rows in the warning colour with a badge. Each row is
    /// drawn once and at most ``PlanTree/maximumDepth`` deep, as ``PlanTree/draw(_:)`` draws it, so the rows of
    /// an edited report that form a cycle (every id 0) or a chain thousands deep draw instead of recursing
    /// until the stack runs out.
    static func planTree(_ plan: QueryPlan) -> HTML {
        guard !plan.steps.isEmpty else { return #"<div class="plan"><span class="muted">no plan rows</span></div>"# }
        func finding(for step: QueryPlan.Step) -> PlanFinding? { plan.findings.first { $0.detail == step.detail } }
        var drawn = Set<Int>()
        func children(of parent: Int, depth: Int = 0) -> HTML {
            guard depth < PlanTree.maximumDepth else { return "" }
            let indices = plan.steps.indices.filter { plan.steps[$0].parent == parent && !drawn.contains($0) }
            drawn.formUnion(indices)
            guard !indices.isEmpty else { return "" }
            let items = indices.map { plan.steps[$0] }.map { step -> HTML in
                let found = finding(for: step)
                var tone = ""
                var badge = HTML.empty
                if let found, found.isProblem {
                    tone = " bad"
                    badge = #"<span class="badge bad">\#(badgeText(found.kind))</span>"#
                } else if let kind = found?.kind, [.indexSearch, .coveringIndexSearch, .rowidLookup, .primaryKeyLookup].contains(kind) {
                    tone = " good"
                }
                let below = step.id == parent ? HTML.empty : children(of: step.id, depth: depth + 1)
                return #"<li><span class="step\#(tone)">\#(step.detail)</span>\#(badge)\#(below)</li>"#
            }
            return (depth == 0 ? #"<ul class="tree">"# : "<ul>") + items.joined() + "</ul>"
        }
        return #"<div class="plan"><div class="plan-root">QUERY PLAN</div>\#(children(of: 0))</div>"#
    }

    private static func plans(before: QueryPlan?, after: QueryPlan?, captions: (String, String) = ("Plan before", "Plan after"),
                              into page: inout Page) {
        guard let before else { return }
        if let after, after.tree != before.tree {
            page.append(#"<div class="plans"><figure><figcaption>\#(captions.0)</figcaption>\#(planTree(before))</figure><figure><figcaption>\#(captions.1)</figcaption>\#(planTree(after))</figure></div>"#)
        } else if !before.steps.isEmpty {
            page.append(#"<div class="plans"><figure><figcaption>Plan (unchanged by the advice)</figcaption>\#(planTree(before))</figure></div>"#)
        }
    }

    /// An existing index's finding, the index it duplicates in `<code>`. The finding's words are the
    /// report's own; the name, from the store, is escaped.
    private static func findingMarkup(_ finding: ExistingIndexFinding) -> HTML {
        .raw(finding.findingText { "<code>\(HTMLText.escape($0))</code>" })
    }

    private static func badgeText(_ kind: PlanFinding.Kind) -> String {
        switch kind {
        case .fullTableScan: return "full table scan"
        case .tempBTree: return "temp B-tree"
        case .automaticIndex: return "automatic index"
        default: return kind.rawValue
        }
    }

    private static func problemBadges(_ plan: QueryPlan?) -> HTML {
        let problems = plan?.findings.filter(\.isProblem) ?? []
        guard !problems.isEmpty else { return "" }
        var seen: [String] = []
        for problem in problems where !seen.contains(badgeText(problem.kind)) { seen.append(badgeText(problem.kind)) }
        return seen.map { #"<span class="badge bad">\#($0)</span>"# as HTML }.joined()
    }

    private static func timingCell(_ timing: Timing) -> HTML {
        if timing.isLowerBound == true {
            return #"over \#(Figures.duration(timing.medianSeconds))<span class="iqr">stopped at --statement-timeout</span>"#
        }
        return #"\#(Figures.duration(timing.medianSeconds))<span class="iqr">IQR \#(Figures.duration(timing.p25Seconds))–\#(Figures.duration(timing.p75Seconds)) · \#(timing.runs)×\#(Figures.count(timing.executionsPerRun))</span>"#
    }

    private static func codeBlock(_ code: String, id: String, into page: inout Page) {
        let trimmed = code.hasSuffix("\n") ? String(code.dropLast()) : code
        page.append(#"<div class="codeblock"><button class="copy" type="button" data-copy="\#(id)">Copy</button><pre id="\#(id)">\#(trimmed)</pre></div>"#)
    }

    /// Prose that marks code with backticks (the advice texts), escaped, with the marked parts in `<code>`.
    static func prose(_ text: String) -> HTML {
        backtickSpans(text).map { $0.isCode ? "<code>\($0.text)</code>" : "\($0.text)" }.joined()
    }

    /// `<a href="#anchor">html</a>`; `anchor` is reduced to letters, digits, `-` and `_`.
    private static func link(to anchor: String, _ html: HTML) -> HTML {
        "<a href=\"#\(HTMLText.anchor(anchor))\">\(html)</a>"
    }

    /// The page's lines: markup only (``HTML``), so text reaches the page escaped or not at all.
    private struct Page {
        var lines: [String] = []
        mutating func append(_ line: HTML) { lines.append(line.markup) }
        var text: String { lines.joined(separator: "\n") + "\n" }
    }
}

extension String {
    /// The string with its first letter upper-cased.
    var capitalizedFirstLetter: String {
        prefix(1).uppercased() + dropFirst()
    }

    /// The string with its first letter lower-cased.
    var lowercasedFirstLetter: String {
        prefix(1).lowercased() + dropFirst()
    }
}
