import Foundation

/// How an app ships an index form its model cannot declare as `#Index`, on a Core Data or SwiftData store.
///
/// Core Data's model can declare a fetch index with a partial-index predicate
/// (`NSFetchIndexDescription.partialIndexPredicate`); SwiftData's `#Index` cannot, nor can either declare an
/// expression, a collation or a descending key. Those are SQL the app runs itself, and Core Data does not
/// know them: a migration that rebuilds the table drops them.
enum AlternativeShipping {
    /// How to ship `candidate`, naming properties with `naming`.
    static func advice(for candidate: IndexCandidate, naming: SwiftDataNaming) -> ShippingAdvice {
        if let predicate = candidate.partialPredicate, let format = fetchIndexPredicate(predicate, naming: naming),
           candidate.columns.allSatisfy({ $0.name != nil && $0.collation.uppercased() == "BINARY" && !$0.isDescending }) {
            let properties = candidate.columns.compactMap(\.name).map { naming.propertyName(forColumn: $0).name }
            return .fetchIndex(properties: properties, predicate: format)
        }
        return .sqlOnly
    }

    /// `destructionDate != nil` for `"ZDESTRUCTIONDATE" IS NOT NULL`, `isStarred == 1` for `"ZISSTARRED" = 1`;
    /// nil for any other predicate.
    static func fetchIndexPredicate(_ predicate: String, naming: SwiftDataNaming) -> String? {
        let pattern = #"^"((?:[^"]|"")+)" (IS NOT NULL|= (.+))$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: predicate, range: NSRange(predicate.startIndex..., in: predicate)),
              let columnRange = Range(match.range(at: 1), in: predicate) else { return nil }
        let property = naming.propertyName(forColumn: predicate[columnRange].replacingOccurrences(of: "\"\"", with: "\"")).name
        if let valueRange = Range(match.range(at: 3), in: predicate) {
            return "\(property) == \(predicate[valueRange])"
        }
        return "\(property) != nil"
    }
}
