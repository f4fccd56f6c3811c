/// The words of a ``ShippingAdvice``, as every report prints an alternative's "how to ship it".
extension ShippingAdvice: Codable {
    public var text: String {
        let sql = "run its CREATE INDEX … IF NOT EXISTS from the app each time the store opens: Core Data does not know an index its model lacks, and a migration that copies the table drops it"
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
