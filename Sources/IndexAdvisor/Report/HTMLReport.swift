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
/// Renders ``AnalysisResult`` and computes nothing of its own. Every value from the store or the workload
/// is escaped with ``HTMLText/escape(_:)``; none is placed inside `<script>` or `<style>`, and the page's
/// Content-Security-Policy (``HTMLAssets``) refuses any script or style but its own.
public enum HTMLReport {
    public static func render(_ result: AnalysisResult) -> String {
        var page = Page()
        page.raw("<!DOCTYPE html>")
        page.raw(#"<html lang="en">"#)
        page.raw("<head>")
        page.raw(#"<meta charset="utf-8">"#)
        page.raw(#"<meta http-equiv="Content-Security-Policy" content="\#(HTMLText.escape(HTMLAssets.contentSecurityPolicy))">"#)
        page.raw(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#)
        page.raw(#"<meta name="generator" content="\#(HTMLText.escape("\(result.tool.name) \(result.tool.version)"))">"#)
        page.raw("<title>indexadvisor report: \(e(result.store.fileName))</title>")
        page.raw("<style>" + HTMLAssets.styleSheet + "</style>")
        page.raw("<script>" + HTMLAssets.script + "</script>")
        page.raw("</head>")
        page.raw("<body>")
        page.raw("<main>")
        header(result, into: &page)
        summary(result, into: &page)
        statementChart(result, into: &page)
        recommendations(result, into: &page)
        alternatives(result, into: &page)
        codeToPaste(result, into: &page)
        queryAdvice(result, into: &page)
        schemaReview(result, into: &page)
        tradeOffChart(result, into: &page)
        statements(result, into: &page)
        existingIndexes(result, into: &page)
        uniqueness(result, into: &page)
        rejected(result, into: &page)
        sourceSites(result, into: &page)
        store(result, into: &page)
        method(result, into: &page)
        page.raw("<footer>\(e("\(result.tool.name) \(result.tool.version)")) · SQLite \(e(result.tool.sqliteVersion)) · analysed in \(e(Figures.duration(result.tool.analysisSeconds))) · \(e(result.tool.generatedAt)) · JSON schema version \(result.schemaVersion)</footer>")
        page.raw("</main>")
        page.raw("</body>")
        page.raw("</html>")
        return page.text
    }

    // MARK: Sections

    private static func header(_ result: AnalysisResult, into page: inout Page) {
        page.raw("<header>")
        page.raw(#"<h1>indexadvisor report: <span class="store">\#(e(result.store.fileName))</span></h1>"#)
        var facts = [ByteCountText.format(result.store.bytes)]
        if result.store.isCoreData { facts.append("Core Data / SwiftData store" + (result.store.isCloudKitSynced ? ", synced with CloudKit" : "")) }
        facts.append("\(Figures.counted(result.workload.statementsRead, "statement")) from \(result.workload.files.joined(separator: ", "))")
        facts.append("analysed \(result.tool.generatedAt)")
        page.raw(#"<p class="meta">\#(e(facts.joined(separator: " · ")))</p>"#)
        var links = [("summary", "Summary"), ("times", "Times")]
        if !result.recommendations.isEmpty { links.append(("add", "Indexes to add")) }
        if result.alternatives?.isEmpty == false { links.append(("alternatives", "Alternatives")) }
        if !result.recommendations.isEmpty || !result.indexesToDrop.isEmpty { links.append(("code", "Code to paste")) }
        if !result.recommendations.isEmpty || result.rejectedCandidates.contains(where: \.hasFigures) { links.append(("tradeoff", "Benefit and cost")) }
        links += [("statements", "Statements"), ("existing", "Existing indexes"), ("uniqueness", "Uniqueness"), ("rejected", "Not recommended"), ("method", "Method")]
        page.raw(#"<nav class="toc">"# + links.map { link(to: $0.0, e($0.1)) }.joined() + "</nav>")
        page.raw("</header>")
    }

    private static func summary(_ result: AnalysisResult, into page: inout Page) {
        let totals = result.totals
        let drops = result.indexesToDrop
        page.raw(#"<section id="summary">"#)
        page.raw(#"<div class="cards">"#)
        card(title: "Workload time" + (result.isSampled ? " (sample)" : ""), value: Figures.before(totals.totalSecondsBefore, after: totals.totalSecondsAfter),
             detail: "\(Figures.comparison(totals.totalSecondsBefore, totals.totalSecondsAfter)) with the advice · reads and writes, count × median", into: &page)
        card(title: "Indexes", value: "+\(result.recommendations.count) / −\(drops.count)",
             detail: result.recommendations.isEmpty ? "to add / to drop" : "to add / to drop · built in \(result.buildEstimate)\(Figures.duration(result.migrationBuildSeconds)), \(result.buildEstimate)\(ByteCountText.format(result.migrationBytes))\(result.buildEstimate.isEmpty ? "" : " (store, scaled from the sample)")", into: &page)
        card(title: "Full table scans left", value: "\(totals.fullScansAfter) of \(totals.fullScansBefore)",
             detail: "temp B-tree sorts \(totals.tempBTreeSortsBefore) → \(totals.tempBTreeSortsAfter)", into: &page)
        card(title: "Write time", value: Figures.before(totals.writeSecondsBefore, after: totals.writeSecondsAfter),
             detail: "what every new index costs the workload's inserts, updates and deletes", into: &page)
        page.raw("</div>")
        var lead: String
        if result.recommendations.isEmpty && drops.isEmpty {
            lead = "No index to add or drop for this workload: the statements below say why each slow one got none."
        } else {
            var parts: [String] = []
            if !result.recommendations.isEmpty { parts.append("add \(Figures.counted(result.recommendations.count, "index", plural: "indexes"))") }
            if !drops.isEmpty { parts.append("drop \(Figures.counted(drops.count, "index", plural: "indexes"))") }
            lead = parts.joined(separator: " and ").capitalizedFirstLetter
                + ": the workload takes\(result.timeScope) \(Figures.duration(totals.totalSecondsBefore)) now and \(Figures.duration(totals.totalSecondsAfter)) with the advice (\(Figures.comparison(totals.totalSecondsBefore, totals.totalSecondsAfter)))"
                + (result.recommendations.isEmpty ? "." : "; building the indexes takes \(result.buildEstimate)\(Figures.duration(result.migrationBuildSeconds)) \(result.buildScope).")
        }
        page.raw(#"<p class="lead">\#(e(lead))</p>"#)
        page.raw(#"<p class="muted">Workload: \#(e(result.workloadHeadline)).</p>"#)
        if !result.recommendations.isEmpty || !drops.isEmpty {
            page.raw("<ol>")
            for recommendation in result.recommendations {
                var line = link(to: "add-\(recommendation.rank)", "<code>" + e(result.indexDeclaration(for: recommendation) ?? "\(recommendation.table)(\(recommendation.columnList))") + "</code>")
                if let main = recommendation.mainEffect {
                    let takenOver = result.takeovers(of: recommendation).contains { $0.statementID == main.statementID }
                    line += " — " + e("\(result.label(ofStatement: main.statementID)) \(Figures.duration(main.before.medianSeconds)) → \(Figures.duration(main.after.medianSeconds)) per execution (\(Figures.change(of: main))\(takenOver ? "; a later pick took it over" : ""))")
                }
                line += e("; \(Figures.readWriteEffect(readSaved: recommendation.readSecondsSaved, writeAdded: recommendation.writeSecondsAdded)) per workload")
                page.raw("<li>\(line)</li>")
            }
            for finding in drops {
                page.raw("<li>Drop " + link(to: "existing", "<code>\(e(finding.index))</code>") + " (" + finding.findingText { "<code>\(e($0))</code>" } + ")</li>")
            }
            page.raw("</ol>")
        }
        page.raw("</section>")
    }

    private static func card(title: String, value: String, detail: String, into page: inout Page) {
        page.raw(#"<div class="card"><div class="k">\#(e(title))</div><div class="v">\#(e(value))</div><div class="d">\#(e(detail))</div></div>"#)
    }

    private static func statementChart(_ result: AnalysisResult, into page: inout Page) {
        let labels = result.statementLabels
        let rows = result.statements.filter { $0.error == nil }.map { statement -> SVGCharts.TimeRow in
            let label = labels[statement.id] ?? statement.id
            let caption = "×\(Figures.count(statement.count)) · \(Figures.percent(result.shareOfWorkloadTime(statement))) of time"
            let detail = "\(label) (\(statement.kind.rawValue), ×\(Figures.count(statement.count))): "
                + (statement.timingBefore.map { "before \(Figures.timing($0))" } ?? "not timed before")
                + (statement.timingAfter.map { ", after \(Figures.timing($0))" } ?? "")
            return SVGCharts.TimeRow(label: label, anchor: label, before: statement.timingBefore, after: statement.timingAfter,
                                     isFlagged: statement.isFlagged,
                                     isUnfixed: statement.isFlagged && statement.planAfter?.tree == statement.planBefore?.tree,
                                     caption: caption, detail: detail)
        }
        page.raw(#"<section id="times">"#)
        page.raw("<h2>Time per statement, before and after</h2>")
        page.raw(#"<p class="muted">Median time of one execution on the snapshot, log scale; the right column says how often the workload runs it and its share of the workload's weighted time before the change.</p>"#)
        page.raw(SVGCharts.statementTimes(rows, title: "Median time of one execution of each statement, before and after the advice"))
        page.raw("</section>")
    }

    private static func recommendations(_ result: AnalysisResult, into page: inout Page) {
        guard !result.recommendations.isEmpty else { return }
        page.raw(#"<section id="add">"#)
        page.raw("<h2>Indexes to add</h2>")
        page.raw(#"<p class="muted">In the order they were chosen: each one was measured with the ones above it already built, so their savings add up.</p>"#)
        for recommendation in result.recommendations {
            let anchor = "add-\(recommendation.rank)"
            page.raw(#"<article id="\#(anchor)">"#)
            page.raw("<h3>\(recommendation.rank). <code>\(e(recommendation.name))</code></h3>")
            page.raw(#"<p>Saves <strong class="good">\#(e(Figures.measured(recommendation.readSecondsSaved)))</strong> of reads and adds <strong class="warn">\#(e(recommendation.writeSecondsAdded == 0 ? "no measurable time" : Figures.duration(recommendation.writeSecondsAdded)))</strong> of writes per workload\#(e(result.timeScope)) · \#(e(recommendation.buildSentence.lowercasedFirstLetter))</p>"#)
            codeBlock(recommendation.sql + ";", id: "\(anchor)-sql", into: &page)
            let takeovers = result.takeovers(of: recommendation)
            if let unique = result.uniqueRule(covering: recommendation), let rule = unique.swiftDataUnique, let entity = recommendation.entity {
                page.raw("<p>SwiftData, in <code>@Model class \(e(entity))</code>: no <code>#Index</code>. The proposed <code>\(e(rule))</code> (see " + link(to: "uniqueness", "Uniqueness") + ") gives the store a unique index on these columns, which serves the same lookups; declaring both would build two indexes for one job. With the <code>#Unique</code> declared, the CREATE INDEX above is not needed.</p>")
            } else if let macro = recommendation.swiftDataIndex, let entity = recommendation.entity {
                let origin = recommendation.keyPathsAreGuessed
                    ? #" <span class="badge plain">key paths guessed from column names: check them, or pass --model</span>"#
                    : (result.model != nil ? #" <span class="badge good">key paths from your model</span>"# : "")
                page.raw("<p>SwiftData, in <code>@Model class \(e(entity))</code>: <code>\(e(macro))</code>\(origin)</p>")
            } else if let entity = recommendation.entity {
                page.raw("<p>SwiftData’s <code>#Index</code> cannot declare this index for <code>\(e(entity))</code> (a direction, a collation, a predicate, or a Core Data bookkeeping column): create it with the SQL above.</p>")
            }
            if let declared = recommendation.declaredInModel {
                page.raw("<p>Your model already declares it (\(e(declared))); the store does not have it, because SwiftData builds indexes only with new stores: run the SQL above.</p>")
            }
            if let main = recommendation.mainEffect, let statement = result.statement(withID: main.statementID) {
                let label = result.label(ofStatement: main.statementID)
                page.raw(#"<p>Mainly for \#(link(to: label, e(label))) (\#(e(statement.kind.rawValue)), ×\#(e(Figures.count(statement.count)))): \#(e(Figures.duration(main.before.medianSeconds))) → \#(e(Figures.duration(main.after.medianSeconds))) per execution, \#(e(Figures.change(of: main))).</p>"#)
                if let evidence = result.counterEvidence(for: recommendation) { page.raw("<p>\(e(evidence))</p>") }
                if let shown = recommendation.mainPlans(in: result) {
                    plans(before: shown.before, after: shown.after, captions: (shown.beforeCaption, shown.afterCaption), into: &page)
                }
            }
            for takeover in takeovers {
                page.raw("<p>\(prose(result.takeoverSentence(takeover)))</p>")
            }
            page.raw("<table>")
            page.raw(#"<tr><th>Statement</th><th class="num">Count</th><th class="num">Without it</th><th class="num">With it</th><th>Change</th></tr>"#)
            for effect in recommendation.effects {
                let label = result.label(ofStatement: effect.statementID)
                let kind = result.statement(withID: effect.statementID)?.kind.rawValue ?? ""
                let change = Figures.change(of: effect) + (takeovers.contains { $0.statementID == effect.statementID } ? "; its final plan uses another index (see above)" : "")
                let tone = !effect.isSignificant ? "muted" : (effect.after.medianSeconds < effect.before.medianSeconds ? "good" : "bad")
                page.raw(#"<tr><td>\#(link(to: label, e(label))) <span class="muted">\#(e(kind))</span></td><td class="num">\#(e(Figures.count(effect.count)))</td><td class="num">\#(timingCell(effect.before))</td><td class="num">\#(timingCell(effect.after))</td><td class="\#(tone)">\#(e(change))</td></tr>"#)
            }
            page.raw("</table>")
            var notes: [String] = []
            if !recommendation.columnStatistics.isEmpty {
                let parts = recommendation.columnStatistics.map { statistics in
                    "(\(statistics.columns.joined(separator: ", "))): \(Figures.count(statistics.distinctValues)) distinct" + (statistics.columns.count == 1 ? ", \(Figures.percent(statistics.nullFraction)) NULL" : "")
                }
                let rows = recommendation.columnStatistics.first.map { $0.isSampled ? "sampled \(Figures.count($0.sampledRows)) rows" : "\(Figures.count($0.sampledRows)) rows" } ?? ""
                notes.append("Cardinality (\(rows)): " + parts.joined(separator: "; "))
            }
            notes += recommendation.notes
            if !notes.isEmpty {
                page.raw(#"<ul class="notes">"# + notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>")
            }
            page.raw("</article>")
        }
        page.raw("</section>")
    }

    private static func alternatives(_ result: AnalysisResult, into page: inout Page) {
        guard let alternatives = result.alternatives, !alternatives.isEmpty else { return }
        page.raw(#"<section id="alternatives">"#)
        page.raw("<h2>Alternatives the model cannot declare</h2>")
        page.raw(#"<p class="muted">Index forms SwiftData’s <code>#Index</code> cannot express (a partial predicate, an expression, a direction or collation, a Core Data bookkeeping column), measured on top of the indexes to add: each figure is what it adds with them in place. Not in the migration or the totals.</p>"#)
        for (offset, alternative) in alternatives.enumerated() {
            page.raw(#"<article id="alternative-\#(offset + 1)">"#)
            page.raw("<h3>A\(offset + 1). <code>\(e(alternative.name))</code></h3>")
            page.raw(#"<p>Saves <strong class="good">\#(e(Figures.measured(alternative.readSecondsSaved)))</strong> of reads and adds <strong class="warn">\#(e(Figures.measured(alternative.writeSecondsAdded)))</strong> of writes per workload · built in \#(e(Figures.duration(alternative.buildSeconds))) · \#(e(ByteCountText.format(alternative.bytes)))</p>"#)
            codeBlock(alternative.sql + ";", id: "alternative-\(offset + 1)-sql", into: &page)
            page.raw("<table>")
            page.raw(#"<tr><th>Statement</th><th class="num">Count</th><th class="num">Without it</th><th class="num">With it</th><th>Change</th></tr>"#)
            for effect in alternative.effects {
                let label = result.label(ofStatement: effect.statementID)
                let change = Figures.change(effect.before.medianSeconds, effect.after.medianSeconds, significant: effect.isSignificant)
                page.raw(#"<tr><td>\#(link(to: label, e(label)))</td><td class="num">\#(e(Figures.count(effect.count)))</td><td class="num">\#(timingCell(effect.before))</td><td class="num">\#(timingCell(effect.after))</td><td>\#(e(change))</td></tr>"#)
            }
            page.raw("</table>")
            var notes: [String] = []
            if !alternative.replaces.isEmpty {
                notes.append("With it, no final plan uses \(alternative.replaces.joined(separator: ", ")): drop \(alternative.replaces.count == 1 ? "that index" : "those indexes") (in the model too) when you add this one.")
            }
            notes.append("How to ship it: " + alternative.howToShip)
            page.raw(#"<ul class="notes">"# + notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>")
            page.raw("</article>")
        }
        page.raw("</section>")
    }

    private static func codeToPaste(_ result: AnalysisResult, into page: inout Page) {
        guard !result.recommendations.isEmpty || !result.indexesToDrop.isEmpty else { return }
        page.raw(#"<section id="code">"#)
        page.raw("<h2>Code to paste</h2>")
        page.raw("<h3>SQL migration</h3>")
        page.raw(#"<p class="muted">Safe to run twice (<code>IF NOT EXISTS</code>, <code>IF EXISTS</code>). The same text as <code>--format sql</code>.</p>"#)
        codeBlock(SQLReport.render(result, queryAdvice: false), id: "code-sql", into: &page)
        if result.store.isCoreData {
            page.raw("<h3>SwiftData</h3>")
            page.raw("<p>Adding an index is a schema change: declare it in a new <code>VersionedSchema</code> with a migration stage. Building the indexes takes <strong>\(e(result.buildEstimate + Figures.duration(result.migrationBuildSeconds)))</strong> \(e(result.buildScope)): what the migration costs on a store of this size. The same text as <code>--format swift</code>.</p>")
            codeBlock(SwiftReport.render(result, queryAdvice: false), id: "code-swift", into: &page)
        }
        page.raw("</section>")
    }

    private static func tradeOffChart(_ result: AnalysisResult, into page: inout Page) {
        var points = result.recommendations.map { recommendation in
            SVGCharts.TradeOffPoint(label: "#\(recommendation.rank)", writeSecondsAdded: recommendation.writeSecondsAdded,
                                    readSecondsSaved: recommendation.readSecondsSaved, isRecommended: true,
                                    detail: "#\(recommendation.rank) \(recommendation.table)(\(recommendation.columnList)): \(Figures.readWriteEffect(readSaved: recommendation.readSecondsSaved, writeAdded: recommendation.writeSecondsAdded))")
        }
        for (offset, candidate) in result.rejectedCandidates.enumerated() where candidate.hasFigures {
            points.append(SVGCharts.TradeOffPoint(label: "C\(offset + 1)", writeSecondsAdded: candidate.writeSecondsAdded,
                                                  readSecondsSaved: candidate.readSecondsSaved, isRecommended: false,
                                                  detail: "C\(offset + 1) \(candidate.displayName): \(Figures.readWriteEffect(readSaved: candidate.readSecondsSaved, writeAdded: candidate.writeSecondsAdded)); not recommended: \(candidate.reason)"))
        }
        guard !points.isEmpty else { return }
        let hidden = result.rejectedCandidates.filter { !$0.hasFigures }.count
        page.raw(#"<section id="tradeoff">"#)
        page.raw("<h2>Read benefit against write cost</h2>")
        page.raw(#"<p class="muted">Each measured candidate index: the read time it saves (up) against the write time it adds (right), per workload. \#(hidden > 0 ? e("\(Figures.counted(hidden, "candidate")) set aside before measuring, or with no difference beyond the noise, \(hidden == 1 ? "is" : "are") not drawn (see the table below).") : "")</p>"#)
        page.raw(SVGCharts.tradeOff(points, title: "Read time saved against write time added, per candidate index"))
        page.raw("</section>")
    }

    private static func statements(_ result: AnalysisResult, into page: inout Page) {
        let labels = result.statementLabels
        page.raw(#"<section id="statements">"#)
        page.raw("<h2>Statements</h2>")
        if !result.statementsTimingNote.isEmpty { page.raw(#"<p class="muted">\#(e(result.statementsTimingNote))</p>"#) }
        page.raw("<table>")
        page.raw(#"<tr><th></th><th>Kind</th><th class="num">Count</th><th class="num">Share of time</th><th class="num">Before</th><th class="num">After</th><th>Plan before</th><th>Uses</th></tr>"#)
        for statement in result.statements {
            let label = labels[statement.id] ?? statement.id
            let problems = statement.error != nil ? #"<span class="bad">not analysed</span>"# : problemBadges(statement.planBefore)
            page.raw(#"<tr><td>\#(link(to: label, e(label)))</td><td>\#(e(statement.kind.rawValue))</td><td class="num">\#(e(Figures.count(statement.count)))</td><td class="num">\#(e(Figures.percent(result.shareOfWorkloadTime(statement))))</td><td class="num">\#(statement.timingBefore.map { e(Figures.duration($0.medianSeconds)) } ?? "—")</td><td class="num">\#(statement.timingAfter.map { e(Figures.duration($0.medianSeconds)) } ?? "—")</td><td>\#(problems)</td><td>\#(statement.usesRecommendations.map { "<code>\(e($0))</code>" }.joined(separator: " "))</td></tr>"#)
        }
        page.raw("</table>")
        for statement in result.statements {
            let label = labels[statement.id] ?? statement.id
            page.raw(#"<article id="\#(HTMLText.anchor(label))">"#)
            page.raw("<h3>\(e(label)) · \(e(statement.kind.rawValue)) <span class=\"muted\">×\(e(Figures.count(statement.count))) · \(e(Figures.percent(result.shareOfWorkloadTime(statement)))) of the workload’s time</span>\(statement.error == nil ? problemBadges(statement.planBefore) : "")</h3>")
            page.raw(#"<pre class="sql">\#(e(SQLFormatter.format(statement.sql)))</pre>"#)
            if let failures = statement.deviceFailures, failures > 0 {
                page.raw(#"<p class="bad">Failed on the device \#(e(Figures.counted(failures, "time"))) of \#(e(Figures.count(statement.count))) (the app’s log): <code>\#(e(statement.deviceError ?? "error"))</code></p>"#)
            }
            if let error = statement.error {
                page.raw(#"<p class="bad">Not analysed: \#(e(error))</p>"#)
                page.raw("</article>")
                continue
            }
            page.raw(#"<dl class="facts">"#)
            if let shape = statement.shapeSummary, shape.contains(":") { page.raw("<dt>Shape</dt><dd><code>\(e(shape))</code> <span class=\"muted\">(from SQLite’s planner)</span></dd>") }
            if let line = result.sourceLine(for: statement, code: { $0 }), let locations = statement.sourceLocations {
                let rest = line.dropFirst(("Issued at " + locations.joined(separator: ", ")).count)
                page.raw("<dt>Swift source</dt><dd>" + locations.map { "<code>\(e($0))</code>" }.joined(separator: ", ") + e(String(rest)) + "</dd>")
            }
            page.raw("<dt>Bound values</dt><dd>\(e(statement.boundValuesSummary))</dd>")
            if let before = statement.timingBefore {
                let rows = Figures.rows(before.rowsPerExecution)
                page.raw("<dt>Before</dt><dd>\(e(Figures.timing(before))); \(e(rows)) \(rows == "1" ? "row" : "rows")\(statement.kind.isWrite ? " changed" : "") per execution</dd>")
            }
            if let after = statement.timingAfter, statement.planAfter?.tree != statement.planBefore?.tree || after != statement.timingBefore {
                page.raw("<dt>After</dt><dd>\(e(Figures.timing(after)))</dd>")
            }
            if let observed = statement.observedTiming {
                page.raw("<dt>App’s log</dt><dd>median \(e(Figures.duration(observed.medianSeconds))) over \(e(Figures.counted(observed.count, "execution")))\(e(statement.observedRows.map { ", last \(Figures.counted($0, "row"))" } ?? "")) <span class=\"muted\">(its device and data, 0.1 ms resolution)</span></dd>")
            } else if let rows = statement.observedRows {
                page.raw("<dt>App’s log</dt><dd>\(e(Figures.counted(rows, "row")))</dd>")
            }
            if !statement.usesRecommendations.isEmpty {
                page.raw("<dt>Uses</dt><dd>" + statement.usesRecommendations.map { "<code>\(e($0))</code>" }.joined(separator: ", ") + "</dd>")
            }
            page.raw("</dl>")
            if !statement.notes.isEmpty {
                page.raw(#"<ul class="notes">"# + statement.notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>")
            }
            plans(before: statement.planBefore, after: statement.planAfter, into: &page)
            page.raw("</article>")
        }
        page.raw("</section>")
    }

    private static func queryAdvice(_ result: AnalysisResult, into page: inout Page) {
        guard !result.queryAdvice.isEmpty else { return }
        let labels = result.statementLabels
        page.raw(#"<section id="query-advice">"#)
        page.raw("<h2>Query-side advice</h2>")
        page.raw("<p>Statements that no plain index fixes as written. Each time is measured on the snapshot with the recommended indexes built; a rewrite’s time is of the rewritten statement run there.</p>")
        for (offset, advice) in result.queryAdvice.enumerated() {
            let label = labels[advice.statementID] ?? advice.statementID
            page.raw("<article>")
            page.raw("<h3>\(link(to: label, e(label))): \(e(advice.kind.title))</h3>")
            page.raw("<p>\(prose(advice.advice))</p>")
            if let timing = advice.timing {
                var row = "<table><tr><th>As it is</th>" + (advice.rewriteTiming == nil ? "" : "<th>With the change</th><th>Change</th>") + "</tr>"
                row += "<tr><td class=\"num\">\(timingCell(timing))</td>"
                if let rewritten = advice.rewriteTiming {
                    let significant = timing.isSlower(than: rewritten) || rewritten.isSlower(than: timing)
                    row += "<td class=\"num\">\(timingCell(rewritten))</td><td>\(e(Figures.change(timing, rewritten, significant: significant)))</td>"
                }
                page.raw(row + "</tr></table>")
            }
            if let caveat = advice.caveat { page.raw("<p class=\"muted\">Caveat: \(prose(caveat))</p>") }
            if let rewrite = advice.rewrite { codeBlock(rewrite, id: "query-advice-\(offset + 1)", into: &page) }
            if let plan = advice.rewritePlan, !plan.steps.isEmpty {
                page.raw(#"<div class="plans"><figure><figcaption>Plan with the change</figcaption>\#(planTree(plan))</figure></div>"#)
            }
            page.raw("</article>")
        }
        page.raw("</section>")
    }

    /// Without a workload: the findings from the schema and the data, and how to capture a workload.
    private static func schemaReview(_ result: AnalysisResult, into page: inout Page) {
        guard !result.schemaReview.isEmpty || !result.captureHint.isEmpty else { return }
        page.raw(#"<section id="schema-review">"#)
        page.raw("<h2>Schema review</h2>")
        page.raw("<p>Every finding here comes from the schema and the data only; times are of single operations (a lookup, a write), not of the app’s statements.</p>")
        for kind in SchemaFinding.Kind.reportOrder {
            let findings = result.schemaReview.filter { $0.kind == kind }
            guard !findings.isEmpty else { continue }
            page.raw("<h3>\(e(kind.title))</h3>")
            page.raw("<ul>")
            for finding in findings {
                var item = ""
                if let index = finding.index {
                    item += "<code>\(e(index))</code> on <code>\(e(finding.table))</code>"
                } else if !finding.table.isEmpty {
                    item += "<code>\(e(finding.table + (finding.columns.isEmpty ? "" : "(" + finding.columns.joined(separator: ", ") + ")")))</code>"
                }
                if let bytes = finding.bytes { item += " (\(e(ByteCountText.format(bytes))))" }
                item += (item.isEmpty ? "" : ": ") + e(finding.advice)
                if !finding.measurements.isEmpty {
                    item += "<ul>" + finding.measurements.map { "<li>\(e($0.operation)): \(e($0.comparisonText))</li>" }.joined() + "</ul>"
                }
                if let sql = finding.sql { item += "<br><code>\(e(sql))</code>" }
                if let unique = finding.swiftDataUnique { item += "<br>SwiftData: <code>\(e(unique))</code>" }
                page.raw("<li>\(item)</li>")
            }
            page.raw("</ul>")
        }
        if !result.captureHint.isEmpty {
            page.raw("<h3>Next: capture a workload</h3>")
            // The hint's lines are Markdown: a leading "- " and `code` spans.
            let items = result.captureHint.map { line -> String in
                let body = line.hasPrefix("- ") ? String(line.dropFirst(2)) : line
                return body.components(separatedBy: "`").enumerated()
                    .map { $0.offset % 2 == 1 ? "<code>\(e($0.element))</code>" : e($0.element) }.joined()
            }
            page.raw("<ul>" + items.map { "<li>\($0)</li>" }.joined() + "</ul>")
        }
        page.raw("</section>")
    }

    private static func existingIndexes(_ result: AnalysisResult, into page: inout Page) {
        page.raw(#"<section id="existing">"#)
        page.raw("<h2>Existing indexes</h2>")
        let indexCount = result.store.tables.reduce(0) { $0 + $1.indexes.count }
        guard !result.existingIndexes.isEmpty else {
            page.raw("<p>\(indexCount == 0 ? "The store has no index of its own (besides primary keys), so there is nothing to review." : "None of the store’s \(Figures.counted(indexCount, "index", plural: "indexes")) is redundant or unused by this workload.")</p>")
            page.raw("</section>")
            return
        }
        page.raw("<table>")
        let (sizeLabel, timeLabel) = result.isSampled ? (" (store, scaled)", " (sample)") : ("", "")
        page.raw(#"<tr><th>Index</th><th>Table</th><th>Columns</th><th>Finding</th><th class="num">Size\#(sizeLabel)</th><th class="num">Writes saved by dropping\#(timeLabel)</th><th class="num">Reads lost\#(timeLabel)</th><th>Advice</th></tr>"#)
        for finding in result.existingIndexes {
            let what = finding.findingText { "<code>\(e($0))</code>" }
            let saved = e(result.writeSavingText(of: finding))
            let lost = finding.effects.isEmpty ? #"<span class="muted">not measured</span>"#
                : e(Figures.measured(finding.readSecondsAdded))
            let advice = finding.dropSQL.map { "<code>\(e($0))</code>" } ?? e(finding.caveat ?? "")
            page.raw("<tr><td><code>\(e(finding.index))</code></td><td><code>\(e(finding.table))</code></td><td><code>\(e(finding.columns.joined(separator: ", ")))</code></td><td>\(what)</td><td class=\"num\">\(e(finding.bytes.map { ByteCountText.format($0) } ?? "—"))</td><td class=\"num\">\(saved)</td><td class=\"num\">\(lost)</td><td>\(advice)</td></tr>")
        }
        page.raw("</table>")
        page.raw(#"<p class="muted">Measured by dropping the index inside a savepoint on the snapshot, runs with and without it alternating; differences inside the noise count as 0. A workload is a sample: check the app’s other paths before dropping an index it did not use.</p>"#)
        page.raw("</section>")
    }

    private static func uniqueness(_ result: AnalysisResult, into page: inout Page) {
        page.raw(#"<section id="uniqueness">"#)
        page.raw("<h2>Uniqueness</h2>")
        guard !result.uniqueness.isEmpty else {
            page.raw("<p>No uniqueness rule was declared (<code>--unique</code>), enforced by a UNIQUE index, or suggested by the workload’s lookups.</p>")
            page.raw("</section>")
            return
        }
        page.raw("<table>")
        page.raw(#"<tr><th>Rule</th><th>Source</th><th class="num">Rows breaking it</th><th class="num">Rows with NULL</th><th>Advice</th></tr>"#)
        for finding in result.uniqueness {
            let source: String
            switch finding.origin {
            case .declared: source = "declared"
            case .proposed: source = "looked up like an identifier"
            case .enforced: source = "UNIQUE index"
            }
            let tone = finding.violatingRows > 0 ? "bad" : "good"
            let macro = finding.swiftDataUnique.map { " <code>\(e($0))</code>" } ?? ""
            page.raw("<tr><td><code>\(e(finding.table + "(" + finding.columns.joined(separator: ", ") + ")"))</code></td><td>\(e(source))</td><td class=\"num \(tone)\">\(e(Figures.count(finding.violatingRows)))</td><td class=\"num\">\(e(Figures.count(finding.nullRows)))</td><td>\(e(finding.advice))\(macro)</td></tr>")
        }
        page.raw("</table>")
        page.raw("</section>")
    }

    private static func rejected(_ result: AnalysisResult, into page: inout Page) {
        page.raw(#"<section id="rejected">"#)
        page.raw("<h2>Candidates not recommended</h2>")
        guard !result.rejectedCandidates.isEmpty else {
            page.raw("<p>No other candidate index was considered.</p>")
            page.raw("</section>")
            return
        }
        page.raw("<table>")
        page.raw(#"<tr><th></th><th>Candidate</th><th class="num">Read time saved</th><th class="num">Write time added</th><th>Why not</th></tr>"#)
        for (offset, candidate) in result.rejectedCandidates.enumerated() {
            page.raw("<tr><td>C\(offset + 1)</td><td><code>\(e(candidate.displayName))</code></td><td class=\"num\">\(candidate.hasFigures ? e(Figures.measured(candidate.readSecondsSaved)) : "—")</td><td class=\"num\">\(candidate.hasFigures ? e(Figures.measured(candidate.writeSecondsAdded)) : "—")</td><td>\(e(candidate.reason))</td></tr>")
        }
        page.raw("</table>")
        page.raw("</section>")
    }

    private static func sourceSites(_ result: AnalysisResult, into page: inout Page) {
        let sites = result.sourceSiteRows
        guard !sites.isEmpty else { return }
        page.raw(#"<section id="source-sites">"#)
        page.raw("<h2>Fetch sites in the Swift source</h2>")
        page.raw("<table><tr><th>Site</th><th>Form</th><th>Frequency</th><th>Statement</th><th>Status</th></tr>")
        for site in sites {
            page.raw("<tr><td><code>\(e(site.location))</code></td><td>\(e(site.form))</td><td class=\"num\">\(e(site.frequency))</td><td>\(e(site.statement ?? "—"))</td><td>\(e(site.status))</td></tr>")
        }
        page.raw("</table>")
        page.raw("</section>")
    }

    private static func store(_ result: AnalysisResult, into page: inout Page) {
        page.raw(#"<section id="store">"#)
        page.raw("<h2>Store</h2>")
        var facts = ["\(result.store.fileName), \(ByteCountText.format(result.store.bytes))"]
        if result.store.isCoreData { facts.append("Core Data / SwiftData store" + (result.store.isCloudKitSynced ? ", synced with CloudKit" : "")) }
        facts.append(result.store.statisticsFact)
        page.raw("<p>\(e(facts.joined(separator: " · ")))</p>")
        let sampled = Dictionary(result.store.sampledTables.map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
        page.raw("<table>")
        page.raw(#"<tr><th>Table</th><th>Entity</th><th class="num">Rows</th><th class="num">Columns</th><th>Indexes</th></tr>"#)
        for table in result.store.tables {
            let rows = Figures.count(table.rows) + (sampled[table.name].map { " (measured on a 1-in-\($0.step) sample of \(Figures.count($0.sampledRows)))" } ?? "")
            let indexes = table.indexes.isEmpty ? #"<span class="muted">none</span>"# : table.indexes.map { "<code>\(e($0.name))</code>" }.joined(separator: " ")
            page.raw("<tr><td><code>\(e(table.name))</code></td><td>\(e(table.entities.joined(separator: ", ")))</td><td class=\"num\">\(e(rows))</td><td class=\"num\">\(table.columns)</td><td>\(indexes)</td></tr>")
        }
        page.raw("</table>")
        page.raw("</section>")
    }

    private static func method(_ result: AnalysisResult, into page: inout Page) {
        let method = result.method
        let workload = result.workload
        page.raw(#"<section id="method">"#)
        page.raw("<h2>Method</h2>")
        page.raw("<p>\(e(method.description))</p>")
        page.raw(#"<dl class="facts">"#)
        page.raw("<dt>Snapshot</dt><dd>\(e(result.store.snapshotMethod)), taken in \(e(Figures.duration(result.store.snapshotSeconds))); the store itself is never written to</dd>")
        let sample = result.store.sampledTables.isEmpty
            ? "whole tables"
            : result.store.sampledTables.map { "\($0.table): 1 row in \($0.step), \(Figures.count($0.sampledRows)) of \(Figures.count($0.rows))" }.joined(separator: "; ")
        page.raw("<dt>Sample</dt><dd>\(e(sample))</dd>")
        page.raw("<dt>Repeats</dt><dd>\(e("median of \(method.repeats) runs per statement after a warm-up (discarded unless the statement reads far more pages than SQLite's cache holds), each run at least \(Figures.duration(method.minimumRunSeconds))"))</dd>")
        page.raw("<dt>Bound values</dt><dd>\(e("the workload’s own, or \(method.bindingSamples) sets drawn from the data (seed \(method.seed))"))</dd>")
        page.raw("<dt>Statement timeout</dt><dd>\(e(Figures.duration(method.statementTimeoutSeconds)))</dd>")
        page.raw("<dt>SQLite</dt><dd>\(e(result.tool.sqliteVersion))\(e(result.store.hasStatistics ? ", with the store’s sqlite_stat1" : ", no sqlite_stat1, as the store"))</dd>")
        page.raw("<dt>Workload</dt><dd>\(e("\(workload.files.joined(separator: ", ")): \(Figures.counted(workload.linesRead, "line")), \(Figures.counted(workload.statementsRead, "statement")) (\(workload.distinctStatements) distinct, \(workload.analysedStatements) analysed); \(Figures.counted(workload.housekeepingStatements, "execution")) of transactions and pragmas set aside"))</dd>")
        for choice in workload.formats ?? [] {
            page.raw("<dt>Format</dt><dd>\(e("\(choice.file): \(choice.format.displayName), \(choice.reason)\(choice.encoding == "UTF-8" ? "" : "; \(choice.encoding)")\(choice.lineEnds == "CR" || choice.lineEnds == "CRLF" ? "; \(choice.lineEnds) line ends" : "")"))</dd>")
        }
        if let means = workload.observedTimeMeans, means != "no observed times" {
            page.raw("<dt>Observed times</dt><dd>\(e(means))</dd>")
        }
        if !workload.skipped.isEmpty {
            page.raw("<dt>Skipped</dt><dd>\(e(workload.skipped.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")))</dd>")
        }
        if let model = result.model {
            page.raw("<dt>Swift names</dt><dd>from \(e(model.files.joined(separator: ", "))) (--model)</dd>")
        } else {
            page.raw("<dt>Swift names</dt><dd>recovered from the store’s index names, or guessed from column names (pass the app’s model with --model for exact key paths)</dd>")
        }
        page.raw("</dl>")
        if let model = result.model, !model.entities.isEmpty {
            page.raw("<table>")
            page.raw("<tr><th>Model</th><th>Table</th><th>Declared at</th><th>Columns → properties</th></tr>")
            for entity in model.entities {
                let properties = entity.properties.map { "\($0.column) → \($0.property)" + ($0.kind == .toOneRelationship ? " (to-one)" : "") }.joined(separator: ", ")
                page.raw("<tr><td><code>\(e(entity.entity))</code></td><td><code>\(e(entity.table))</code></td><td>\(e(entity.declaredAt))</td><td class=\"mono\">\(e(properties))</td></tr>")
            }
            page.raw("</table>")
        }
        if let notes = result.model?.notes, !notes.isEmpty {
            page.raw(#"<ul class="notes">"# + notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>")
        }
        if !result.warnings.isEmpty {
            page.raw("<h3>Warnings</h3>")
            page.raw(#"<ul class="notes">"# + result.warnings.map { "<li>\(e($0))</li>" }.joined() + "</ul>")
        }
        page.raw("</section>")
    }

    // MARK: Pieces

    /// A plan drawn as a tree: nested lists, problem rows in the warning colour with a badge.
    static func planTree(_ plan: QueryPlan) -> String {
        guard !plan.steps.isEmpty else { return #"<div class="plan"><span class="muted">no plan rows</span></div>"# }
        func finding(for step: QueryPlan.Step) -> PlanFinding? { plan.findings.first { $0.detail == step.detail } }
        func children(of parent: Int, isRoot: Bool = false) -> String {
            let steps = plan.steps.filter { $0.parent == parent }
            guard !steps.isEmpty else { return "" }
            return (isRoot ? #"<ul class="tree">"# : "<ul>") + steps.map { step in
                let found = finding(for: step)
                var tone = ""
                var badge = ""
                if let found, found.isProblem {
                    tone = " bad"
                    badge = #"<span class="badge bad">\#(e(badgeText(found.kind)))</span>"#
                } else if let kind = found?.kind, [.indexSearch, .coveringIndexSearch, .rowidLookup, .primaryKeyLookup].contains(kind) {
                    tone = " good"
                }
                return #"<li><span class="step\#(tone)">\#(e(step.detail))</span>\#(badge)\#(children(of: step.id))</li>"#
            }.joined() + "</ul>"
        }
        return #"<div class="plan"><div class="plan-root">QUERY PLAN</div>"# + children(of: 0, isRoot: true) + "</div>"
    }

    private static func plans(before: QueryPlan?, after: QueryPlan?, captions: (String, String) = ("Plan before", "Plan after"),
                              into page: inout Page) {
        guard let before else { return }
        if let after, after.tree != before.tree {
            page.raw(#"<div class="plans"><figure><figcaption>\#(e(captions.0))</figcaption>\#(planTree(before))</figure><figure><figcaption>\#(e(captions.1))</figcaption>\#(planTree(after))</figure></div>"#)
        } else if !before.steps.isEmpty {
            page.raw(#"<div class="plans"><figure><figcaption>Plan (unchanged by the advice)</figcaption>\#(planTree(before))</figure></div>"#)
        }
    }

    private static func badgeText(_ kind: PlanFinding.Kind) -> String {
        switch kind {
        case .fullTableScan: return "full table scan"
        case .tempBTree: return "temp B-tree"
        case .automaticIndex: return "automatic index"
        default: return kind.rawValue
        }
    }

    private static func problemBadges(_ plan: QueryPlan?) -> String {
        let problems = plan?.findings.filter(\.isProblem) ?? []
        guard !problems.isEmpty else { return "" }
        var seen: [String] = []
        for problem in problems where !seen.contains(badgeText(problem.kind)) { seen.append(badgeText(problem.kind)) }
        return seen.map { #"<span class="badge bad">\#(e($0))</span>"# }.joined()
    }

    private static func timingCell(_ timing: Timing) -> String {
        e(Figures.duration(timing.medianSeconds)) + #"<span class="iqr">IQR \#(e(Figures.duration(timing.p25Seconds)))–\#(e(Figures.duration(timing.p75Seconds))) · \#(timing.runs)×\#(e(Figures.count(timing.executionsPerRun)))</span>"#
    }

    private static func codeBlock(_ code: String, id: String, into page: inout Page) {
        let trimmed = code.hasSuffix("\n") ? String(code.dropLast()) : code
        page.raw(#"<div class="codeblock"><button class="copy" type="button" data-copy="\#(id)">Copy</button><pre id="\#(id)">\#(e(trimmed))</pre></div>"#)
    }

    private static func e(_ text: String) -> String { HTMLText.escape(text) }

    /// Prose that marks code with backticks (the advice texts), escaped, with the marked parts in `<code>`.
    static func prose(_ text: String) -> String {
        backtickSpans(text).map { $0.isCode ? "<code>\(e($0.text))</code>" : e($0.text) }.joined()
    }

    /// `<a href="#anchor">html</a>`; `anchor` is reduced to letters, digits, `-` and `_`.
    private static func link(to anchor: String, _ html: String) -> String {
        "<a href=\"#" + HTMLText.anchor(anchor) + "\">" + html + "</a>"
    }

    /// The page's lines.
    private struct Page {
        var lines: [String] = []
        mutating func raw(_ line: String) { lines.append(line) }
        var text: String { lines.joined(separator: "\n") + "\n" }
    }
}

extension String {
    /// The string with its first letter upper-cased.
    fileprivate var capitalizedFirstLetter: String {
        prefix(1).uppercased() + dropFirst()
    }

    /// The string with its first letter lower-cased.
    fileprivate var lowercasedFirstLetter: String {
        prefix(1).lowercased() + dropFirst()
    }
}
