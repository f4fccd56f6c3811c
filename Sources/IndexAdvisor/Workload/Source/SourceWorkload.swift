import Foundation

/// Turns the fetch sites of a ``SourceScan`` into workload statements, alone or merged with a log's.
///
/// A site whose statement a log also shows adds its location to the log's statement, which keeps the
/// log's counts, times and values. A statement no log shows is added with the sum of its sites'
/// frequencies as its count and marked ``WorkloadStatement/isFromSourceOnly``. Matching ignores what
/// Core Data varies between versions and models without changing the fetch: the select list (the columns
/// fetched), grouping parentheses and white space; literals and bound values are `?` in both (the
/// fingerprint's normalisation), so `LIMIT 20` matches `LIMIT 50` and a search's option codes match.
public enum SourceWorkload {
    /// `workload` (nil: none) with the translated sites of `scan` merged in, and every site, translated or
    /// not, in ``Workload/sourceSites`` with the statement it became.
    public static func merge(_ scan: SourceScan, into workload: Workload?) -> Workload {
        var merged = workload ?? Workload(statements: [], diagnostics: WorkloadDiagnostics())
        var byKey: [String: Int] = [:]
        for (index, statement) in merged.statements.enumerated() where statement.kind.isRead {
            let key = matchKey(statement.fingerprint.text)
            if byKey[key] == nil { byKey[key] = index }
        }
        var builder = WorkloadBuilder()
        var locations: [String: [String]] = [:]
        var shown: [Int: Set<String>] = [:]
        var sites = scan.sites
        for position in sites.indices {
            guard let sql = sites[position].sql else { continue }
            let site = sites[position]
            let normalized = Fingerprinter.normalize(sql)
            if let index = byKey[matchKey(normalized.fingerprint.text)] {
                // A set beside the list: many sites of one statement would make `contains` quadratic.
                var known = shown[index] ?? Set(merged.statements[index].sourceLocations)
                if known.insert(site.location).inserted { merged.statements[index].sourceLocations.append(site.location) }
                shown[index] = known
                sites[position].statementID = merged.statements[index].fingerprint.id
                sites[position].seenInLog = true
                continue
            }
            builder.add(sql: sql, weight: site.frequency, bindings: site.bindings, entityName: site.entity,
                        location: SourceRange(file: site.file, firstLine: site.line, lastLine: site.line))
            sites[position].statementID = normalized.fingerprint.id
            sites[position].seenInLog = workload == nil ? nil : false
            locations[normalized.fingerprint.id, default: []].append(site.location)
        }
        for var statement in builder.build().statements {
            statement.sourceLocations = locations[statement.fingerprint.id] ?? []
            statement.isFromSourceOnly = true
            merged.statements.append(statement)
        }
        merged.sourceSites = sites
        // What was read: the Swift files and their lines; one statement per translated site.
        merged.diagnostics.files += scan.files
        merged.diagnostics.linesRead += scan.linesRead
        merged.diagnostics.statementsRead += sites.filter { $0.sql != nil }.count
        return merged
    }

    /// What two fetches must share to be one statement: the normalised text with the select list reduced
    /// to "rows" or "count", without parentheses and white space.
    static func matchKey(_ fingerprintText: String) -> String {
        let upper = fingerprintText.uppercased()
        guard upper.hasPrefix("SELECT"), let from = upper.range(of: " FROM ") else { return upper }
        let list = upper[upper.startIndex..<from.lowerBound]
        let kind = list.contains("COUNT") ? "COUNT" : "ROWS"
        var rest = String(upper[from.lowerBound...].filter { $0 != "(" && $0 != ")" && $0 != " " })
        // A string search's option codes (`417, 1` for localizedStandardContains) vary with the comparison
        // options, not with the fetch's shape: `…STRINGSEARCHT0.ZTITLE,?,385,0` matches `…,?,417,1`.
        rest = rest.replacingOccurrences(of: #"(NSCOREDATASTRINGSEARCH[^,]+,\?),-?[0-9]+,-?[0-9]+"#, with: "$1", options: .regularExpression)
        return kind + rest
    }
}
