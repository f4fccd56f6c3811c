import Foundation

/// How an app ships an index form its model cannot declare as `#Index`, on a Core Data or SwiftData store.
///
/// Core Data's model can declare a fetch index with a partial-index predicate
/// (`NSFetchIndexDescription.partialIndexPredicate`) and descending elements
/// (`NSFetchIndexElementDescription.isAscending`); SwiftData's `#Index` can declare neither, nor can either
/// declare an expression or a collation. Those are SQL the app runs itself, and Core Data does not
/// know them: a migration that rebuilds the table drops them.
enum AlternativeShipping {
    /// True when a Core Data fetch index can declare `candidate`: its elements are attribute columns (not
    /// Core Data's `Z_` bookkeeping) under BINARY, each ascending or not, and its predicate, if any, one
    /// ``fetchIndexPredicate(_:property:)`` writes as an `NSPredicate`.
    static func isFetchIndex(_ candidate: IndexCandidate) -> Bool {
        candidate.columns.allSatisfy { column in
            guard let name = column.name else { return false }
            return column.collation.uppercased() == "BINARY" && !name.uppercased().hasPrefix("Z_")
        } && candidate.partialPredicate.map { fetchIndexPredicate($0) { $0 } != nil } ?? true
    }

    /// How to ship `candidate`, naming properties with `naming`.
    static func advice(for candidate: IndexCandidate, naming: SwiftDataNaming) -> ShippingAdvice {
        guard isFetchIndex(candidate) else { return .sqlOnly }
        let predicate = candidate.partialPredicate.flatMap { fetchIndexPredicate($0) { naming.propertyName(forColumn: $0).name } }
        let properties = candidate.columns.compactMap(\.name).map { naming.propertyName(forColumn: $0).name }
        let descending = zip(candidate.columns, properties).filter(\.0.isDescending).map(\.1)
        if descending.isEmpty, let format = predicate { return .fetchIndex(properties: properties, predicate: format) }
        guard !descending.isEmpty else { return .sqlOnly }
        return .directedFetchIndex(properties: properties, descending: descending, predicate: predicate)
    }

    /// `destructionDate != nil` for `"ZDESTRUCTIONDATE" IS NOT NULL`, `isStarred == 1` for `"ZISSTARRED" = 1`,
    /// `kind == "it's"` for `"ZKIND" = 'it''s'`, each column named by `property` (nil: a column with no
    /// property), a name that is a word of the predicate grammar escaped with `#` (`#size == 3`); nil for any
    /// other predicate, or a value that is neither a number nor a string (Predicate Programming Guide,
    /// "Predicate Format String Syntax": reserved words, string literals in single or double quotes with
    /// backslash escapes).
    static func fetchIndexPredicate(_ predicate: String, property name: (String) -> String?) -> String? {
        let pattern = #"^"((?:[^"]|"")+)" (IS NOT NULL|= (.+))$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: predicate, range: NSRange(predicate.startIndex..., in: predicate)),
              let columnRange = Range(match.range(at: 1), in: predicate) else { return nil }
        guard var property = name(predicate[columnRange].replacingOccurrences(of: "\"\"", with: "\"")) else { return nil }
        if reservedWords.contains(property.uppercased()) { property = "#" + property }
        if let valueRange = Range(match.range(at: 3), in: predicate) {
            let value = String(predicate[valueRange])
            if Double(value) != nil { return "\(property) == \(value)" }
            // A SQL string ('it''s') as a predicate string ("it's"), its quote and backslash escaped.
            guard value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") else { return nil }
            let text = value.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
            return "\(property) == \"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "\(property) != nil"
    }

    /// The predicate format grammar's reserved words, upper-cased: a key path that is one is written `#name`.
    static let reservedWords: Set<String> = ["AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
                                             "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE",
                                             "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST",
                                             "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS"]
}
