/// Reads `EXPLAIN QUERY PLAN` detail text into ``PlanFinding``s.
///
/// Accepts the forms of SQLite 3.7 to 3.4x: `SCAN TABLE t AS a` and `SCAN a`, `SEARCH … USING
/// [COVERING|AUTOMATIC [PARTIAL] COVERING] INDEX i (…)`, `USING INTEGER PRIMARY KEY`, `USE TEMP B-TREE FOR …`,
/// `MULTI-INDEX OR`, and `… SUBQUERY n` (https://sqlite.org/eqp.html).
package enum PlanClassifier {
    /// The finding for one detail line; `aliases` maps lower-cased aliases and table names to table names.
    /// `indexNames` are the connection's index names: the longest one the text after `USING INDEX` starts
    /// with wins, so names holding " (" or plan words are read whole.
    package static func finding(for detail: String, aliases: [String: String], indexNames: [String] = []) -> PlanFinding {
        var finding = PlanFinding(kind: .other, detail: detail)
        let words = detail.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first else { return finding }

        if detail.hasPrefix("USE TEMP B-TREE FOR ") {
            finding.kind = .tempBTree
            finding.purpose = String(detail.dropFirst("USE TEMP B-TREE FOR ".count))
            return finding
        }
        if detail.hasPrefix("MULTI-INDEX OR") {
            finding.kind = .multiIndexOr
            return finding
        }
        if detail.contains("SUBQUERY") && !(first == "SCAN" || first == "SEARCH") {
            finding.kind = .subquery
            return finding
        }
        guard first == "SCAN" || first == "SEARCH", words.count >= 2 else { return finding }

        // Name (after an optional TABLE) and optional "AS alias". Names may hold spaces ("my table"), so
        // the longest table or alias name the statement mentions wins over the first word.
        var body = Substring(detail.dropFirst(first.count + 1))
        if body.hasPrefix("TABLE "), name(in: body, aliases: aliases).map({ $0.utf8.count }) ?? 0 < 6 { body = body.dropFirst(6) }
        let named = name(in: body, aliases: aliases) ?? String(body.prefix { $0 != " " })
        body = body.dropFirst(named.count).drop { $0 == " " }
        var alias = named
        if body.hasPrefix("AS ") {
            let rest = body.dropFirst(3)
            alias = name(in: rest, aliases: aliases) ?? String(rest.prefix { $0 != " " })
            body = rest.dropFirst(alias.count).drop { $0 == " " }
        }
        finding.alias = alias
        finding.table = aliases[alias.sqlFolded] ?? aliases[named.sqlFolded]
        // `FROM main.note` without an alias: the plan names it `main.note` (a schema, a dot, the table).
        if finding.table == nil, alias == named, let dot = named.firstIndex(of: "."), ["main", "temp"].contains(named[..<dot].lowercased()) {
            finding.table = aliases[String(named[named.index(after: dot)...]).sqlFolded]
        }
        if named.hasPrefix("(") || named == "CONSTANT" || named == "SUBQUERY" { finding.table = nil }
        let rest = String(body)

        if let open = detail.firstIndex(of: "("), detail.hasSuffix(")"), first == "SEARCH" || detail.contains("USING") {
            let inner = detail[detail.index(after: open)..<detail.index(before: detail.endIndex)]
            if !inner.isEmpty, detail[..<open].contains("USING") { finding.constraints = String(inner) }
        }

        if rest.hasPrefix("USING AUTOMATIC") {
            finding.kind = .automaticIndex
        } else if rest.hasPrefix("USING COVERING INDEX ") || rest.hasPrefix("USING INDEX ") {
            let covering = rest.hasPrefix("USING COVERING INDEX ")
            let indexWords = rest.dropFirst(covering ? "USING COVERING INDEX ".count : "USING INDEX ".count)
            // A known name, whole; else the name runs to the constraints' " (" or to the end: index names may
            // hold spaces ("Z_My Entity_title").
            let known = indexNames.filter { name in
                indexWords.hasPrefix(name) && (indexWords.count == name.count || indexWords.dropFirst(name.count).hasPrefix(" ("))
            }.max { $0.count < $1.count }
            let name = known.map { Substring($0) } ?? (indexWords.hasSuffix(")") ? indexWords.range(of: " (").map { indexWords[..<$0.lowerBound] } ?? indexWords : indexWords)
            finding.index = name.isEmpty ? nil : String(name)
            if first == "SCAN" {
                finding.kind = .fullIndexScan
            } else {
                finding.kind = covering ? .coveringIndexSearch : .indexSearch
            }
        } else if rest.hasPrefix("USING INTEGER PRIMARY KEY") {
            finding.kind = first == "SCAN" ? .fullTableScan : .rowidLookup
        } else if rest.hasPrefix("USING PRIMARY KEY") {
            finding.kind = first == "SCAN" ? .fullTableScan : .primaryKeyLookup
        } else if rest.hasPrefix("VIRTUAL TABLE") {
            finding.kind = .other
        } else if first == "SCAN" {
            finding.kind = finding.table == nil ? .other : .fullTableScan
        }
        return finding
    }

    /// The longest key of `aliases` that `text` starts with (as a whole name: followed by a space or the end).
    private static func name(in text: Substring, aliases: [String: String]) -> String? {
        let folded = Array(String(text).sqlFolded.utf8)
        var best: Int?
        for key in aliases.keys {
            let bytes = Array(key.utf8)
            guard bytes.count <= folded.count, folded.starts(with: bytes),
                  bytes.count == folded.count || folded[bytes.count] == UInt8(ascii: " ") else { continue }
            if bytes.count > (best ?? 0) { best = bytes.count }
        }
        guard let length = best else { return nil }
        return String(decoding: Array(String(text).utf8.prefix(length)), as: UTF8.self)
    }
}
