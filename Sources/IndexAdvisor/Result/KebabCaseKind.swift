/// A kind whose stable name (in the JSON report, on the command line) is its case name in kebab case:
/// `fullTableScan` is `full-table-scan`. The name is written once, as the case, not again as a raw value
/// beside it; decoding takes any case's name back (`RawRepresentable`, so `Codable` comes with it).
public protocol KebabCaseKind: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

extension KebabCaseKind {
    /// The case name in kebab case: each capital letter starts a new, lower-case word.
    public var rawValue: String {
        var name = ""
        for character in String(describing: self) {
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }

    /// The case whose kebab-case name is `rawValue`; nil for any other text.
    public init?(rawValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = match
    }
}
