import Foundation

extension ReportChecker {
    /// On a Core Data / SwiftData store, every format says the same of each recommendation: that the model
    /// declares it, or that it is SQL only (``AnalysisResult/sqlOnlyReason(for:)``), and no key path names a
    /// column Core Data keeps for itself. A report of hostile round 6 (F9) printed `\.z_ent` as a key path,
    /// called a `Z_ENT`-led index SQL only in its Swift and Markdown while its SQL migration's header said to
    /// declare each index as a fetch index, and said the key paths of a table the model maps were guesses.
    ///
    /// What it holds a report to:
    /// - no column `Z_ENT`, `Z_OPT` or `Z_PK` has a key path, no fetch index or `#Index` holds one, and a fetch
    ///   index names only properties of the model read;
    /// - an index no model can declare is called SQL only before its CREATE INDEX in the SQL migration, in
    ///   its Swift comment and in its Markdown section, and the SQL header does not tell to declare each;
    /// - a recommendation whose key paths are marked guessed has a key path the model does not give, so that
    ///   the Swift header names it.
    func checkModelDeclarations(_ result: AnalysisResult, markdown: String, sql: String, swift: String) -> [ReportFinding] {
        guard result.store.isCoreData else { return [] }
        var findings: [ReportFinding] = []
        func finding(_ recommendation: Recommendation, _ text: String) {
            findings.append(ReportFinding(.declarationAgainstFormats, "index \(recommendation.rank) (\(recommendation.name)): \(text)"))
        }
        let sqlLines = sql.components(separatedBy: "\n")
        let header = sqlLines.prefix { $0 != "BEGIN;" }.joined(separator: "\n")
        let swiftLines = swift.components(separatedBy: "\n")
        for recommendation in result.recommendations {
            let own = recommendation.columns.filter { RecommendedColumn.isCoreDataColumn($0.name) }
            for column in own where column.keyPath != nil {
                finding(recommendation, "\(column.name), a column Core Data keeps for itself, has the key path \(column.keyPath ?? ""), but it is no property")
            }
            if let column = own.first, recommendation.fetchIndex != nil || recommendation.swiftDataIndex != nil {
                finding(recommendation, "it is declared as \(recommendation.fetchIndex.map { "the fetch index \($0.name)" } ?? recommendation.swiftDataIndex ?? ""), which cannot hold \(column.name)")
            }
            let mapped = (result.model?.entities ?? []).filter { $0.table.sqlFolded == recommendation.table.sqlFolded }.flatMap(\.properties).map(\.property)
            if let index = recommendation.fetchIndex, !mapped.isEmpty, let stranger = index.elements.map(\.property).first(where: { !mapped.contains($0) }) {
                finding(recommendation, "its fetch index \(index.name) names \(stranger), which is no property of the model on \(recommendation.table)")
            }
            if recommendation.keyPathsAreGuessed, recommendation.entity != nil, result.model != nil,
               !SwiftReport.guessedKeyPaths(result).contains(where: { $0.table == recommendation.table && recommendation.columns.map(\.name).contains($0.column) }) {
                finding(recommendation, "its key paths are marked guessed, but the model gives every one of them")
            }
            guard result.sqlOnlyReason(for: recommendation) != nil else { continue }
            let comments = sqlLines.firstIndex(of: recommendation.sql + ";").map { Array(sqlLines[..<$0].reversed().prefix(while: { $0.hasPrefix("--") })) }
            if let comments, !comments.contains(where: { $0.contains("SQL only") }) {
                finding(recommendation, "the SQL migration does not say it is SQL only, as the other formats do")
            }
            if header.contains("Declare each ") {
                finding(recommendation, "the SQL migration's header tells to declare each index in the model, but no model can declare this one")
            }
            if !swiftLines.contains(where: { $0.hasPrefix("// \(recommendation.name) on ") && $0.contains("SQL only") }) {
                finding(recommendation, "the Swift code does not say it is SQL only, as the other formats do")
            }
            if !markdownSection(of: recommendation, in: markdown).contains("SQL only") {
                finding(recommendation, "its Markdown section does not say it is SQL only, as the other formats do")
            }
        }
        return findings
    }
}
