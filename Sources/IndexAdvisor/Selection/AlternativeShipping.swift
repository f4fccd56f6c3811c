import Foundation

/// How an app ships an index form its model cannot declare as `#Index`, on a Core Data or SwiftData store.
///
/// Core Data's model can declare a fetch index with a partial-index predicate
/// (`NSFetchIndexDescription.partialIndexPredicate`) and descending elements
/// (`NSFetchIndexElementDescription.isAscending`); SwiftData's `#Index` can declare neither, nor can either
/// declare an expression or a collation. Those are SQL the app runs itself, and Core Data does not
/// know them: a migration that rebuilds the table drops them.
enum AlternativeShipping {
    /// How to ship `candidate`, naming properties with `naming`.
    static func advice(for candidate: IndexCandidate, naming: SwiftDataNaming) -> ShippingAdvice {
        let predicate = candidate.partialPredicate.map { fetchIndexPredicate($0, naming: naming) }
        // A fetch index's elements are properties under BINARY (or a Core Data collation it names), each
        // ascending or not; its predicate one the model can write.
        guard predicate != .some(nil), candidate.columns.allSatisfy({ $0.name != nil && $0.collation.uppercased() == "BINARY" }) else {
            return .sqlOnly
        }
        let properties = candidate.columns.compactMap(\.name).map { naming.propertyName(forColumn: $0).name }
        let descending = zip(candidate.columns, properties).filter(\.0.isDescending).map(\.1)
        if descending.isEmpty, let format = predicate ?? nil { return .fetchIndex(properties: properties, predicate: format) }
        guard !descending.isEmpty else { return .sqlOnly }
        return .directedFetchIndex(properties: properties, descending: descending, predicate: predicate ?? nil)
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
