/// What the reports say about the app's fetch sites (`--source`), in words shared by every format.
extension AnalysisResult {
    /// `Issued at RecipeList.swift:6, RecipeStore.swift:15` for a statement, with "from the source only"
    /// when no log showed it; nil when no site issues it.
    func sourceLine(for statement: StatementReport, code: (String) -> String) -> String? {
        guard let locations = statement.sourceLocations, !locations.isEmpty else { return nil }
        var line = "Issued at " + locations.map(code).joined(separator: ", ")
        if statement.sourceOnly == true {
            line += " (from the Swift source only: no log showed it; its count is the sites' frequency, its values were drawn from the data)"
        }
        return line
    }

    /// One row per fetch site: location, form, frequency, the statement it became (`S3`), and what it is:
    /// "seen in the log", "source only", or "not translated: reason".
    var sourceSiteRows: [(location: String, form: String, frequency: String, statement: String?, status: String)] {
        let sites: [FetchSite] = sourceSites ?? []
        return sites.map { site -> (location: String, form: String, frequency: String, statement: String?, status: String) in
            let frequency = "×\(Figures.count(site.frequency))" + (site.frequencyFromComment ? " (comment)" : "")
            let statementLabel = site.statementID.map { id in statements.contains { $0.id == id } ? self.label(ofStatement: id) : id }
            let status: String
            if let reason = site.untranslatedReason {
                status = "not translated: " + reason
            } else if site.seenInLog == true {
                status = "in the log (its counts, times and values)"
            } else if site.statementID.map({ id in statements.contains { $0.id == id } }) == false {
                status = "translated; not analysed (see the warnings)"
            } else {
                status = site.seenInLog == false ? "source only: not in the log" : "from the source"
            }
            let notes = site.notes.isEmpty ? "" : "; " + site.notes.joined(separator: "; ")
            return (site.location, site.form.displayName + (site.isCount ? " (count)" : ""), frequency, statementLabel, status + notes)
        }
    }
}
