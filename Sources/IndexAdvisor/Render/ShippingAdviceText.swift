/// The words of a ``ShippingAdvice``, as every report prints an alternative's "how to ship it".
extension ShippingAdvice: Codable {
    /// What becomes of an index the model does not declare, which is why SQL alone ships it from the app.
    public static let unknownIndexFate = "Core Data does not know an index its model lacks, and a migration that copies the table drops it"

    public var text: String {
        let sql = "run its CREATE INDEX … IF NOT EXISTS from the app each time the store opens: \(Self.unknownIndexFate)"
        switch self {
        case .fetchIndex(let properties, let predicate):
            return "Core Data: a fetch index on \(properties.joined(separator: ", ")) with partialIndexPredicate \"\(predicate)\" (NSFetchIndexDescription). SwiftData's #Index has no predicate: \(sql)."
        case .directedFetchIndex(let properties, let descending, let predicate):
            let elements = properties.map { descending.contains($0) ? "\($0) (isAscending false)" : $0 }.joined(separator: ", ")
            let filter = predicate.map { " with partialIndexPredicate \"\($0)\"" } ?? ""
            return "Core Data: a fetch index with the elements \(elements)\(filter) (NSFetchIndexElementDescription). SwiftData's #Index has no direction\(predicate == nil ? "" : " and no predicate"): \(sql)."
        case .sqlOnly:
            return "No model can declare it: \(sql)."
        case .other(let words):
            return words
        }
    }

    /// The words for an entity known to be Core Data's: the fetch index alone, no SwiftData sentence (issue
    /// 41: speak Core Data to Core Data apps); the other advice as ``text``.
    public var coreDataText: String {
        switch self {
        case .fetchIndex(let properties, let predicate):
            return "Core Data: a fetch index on \(properties.joined(separator: ", ")) with partialIndexPredicate \"\(predicate)\" (NSFetchIndexDescription)."
        case .directedFetchIndex(let properties, let descending, let predicate):
            let elements = properties.map { descending.contains($0) ? "\($0) (isAscending false)" : $0 }.joined(separator: ", ")
            let filter = predicate.map { " with partialIndexPredicate \"\($0)\"" } ?? ""
            return "Core Data: a fetch index with the elements \(elements)\(filter) (NSFetchIndexElementDescription)."
        case .sqlOnly, .other:
            return text
        }
    }

    /// Read back from a JSON report: the advice in its words.
    public init(from decoder: Decoder) throws {
        self = .other(try decoder.singleValueContainer().decode(String.self))
    }

    /// In a JSON report: the advice in its words.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension AnalysisResult {
    /// The intro of the reports' alternatives section when every alternative is on an entity the store's
    /// index names say is Core Data's (no model read placed it); nil otherwise (the reports' own words).
    public var coreDataAlternativesIntro: String? {
        let entities = (alternatives ?? []).compactMap(\.entity)
        guard !entities.isEmpty, entities.allSatisfy(isCoreDataEntity) else { return nil }
        return "Index forms the analysis kept beside the set because no model read says their entity is a Core Data one (a partial predicate, a direction: a Core Data fetch index declares either), measured on top of the recommended indexes: each figure is what it adds with them in place."
    }

    /// How to ship `alternative`, in the words for its entity: on a Core Data entity no model read placed (the
    /// store's index names say it is Core Data's), the fetch index, and why it is beside the set rather than
    /// in it; otherwise ``ShippingAdvice/text``.
    public func shippingText(for alternative: AlternativeIndex) -> String {
        guard isCoreDataEntity(alternative.entity), let entity = alternative.entity else { return alternative.howToShip.text }
        let beside = " It is beside the set, not in it, because no model read says \(entity) is a Core Data entity: with --model (the .xcdatamodeld) or --source, such forms compete in the set."
        switch alternative.howToShip {
        case .fetchIndex, .directedFetchIndex:
            return alternative.howToShip.coreDataText + beside
        case .other(let words):
            // Read back from a JSON report: the fetch index's words, without the SwiftData sentence after them.
            guard words.hasPrefix("Core Data: a fetch index"), let swiftData = words.range(of: " SwiftData's #Index has no") else { return words }
            return String(words[..<swiftData.lowerBound]) + beside
        case .sqlOnly:
            return alternative.howToShip.text
        }
    }
}
