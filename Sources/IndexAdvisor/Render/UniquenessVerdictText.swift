/// The words of a uniqueness finding's ``UniquenessVerdict``, as the reports' uniqueness audit prints them,
/// and the finding's JSON form.
extension UniquenessFinding: Codable {
    /// Why the rule is here and what to do, in one or two sentences.
    public var advice: String {
        let rule = "(\(columns.joined(separator: ", ")))"
        var text: String
        switch verdict {
        case .notChecked:
            return Self.then("not checked: the store has no table \(table) with columns \(columns.joined(separator: ", "))", modelSentence)
        case .enforced(let index):
            return Self.then("enforced by the UNIQUE index \(index)", modelSentence)
        case .implied(let index, let key, let keyColumns, let tableConstraint):
            let narrower = key == ImpliedUniqueness.rowidKeyName ? "the INTEGER PRIMARY KEY \(keyColumns.joined())"
                : "the UNIQUE index \(key) on (\(keyColumns.joined(separator: ", ")))"
            let same = Set(keyColumns.map(\.sqlFolded)) == Set(columns.map(\.sqlFolded))
            let fact = "enforced by \(index), and implied by \(narrower): every \(rule) is unique already\(same ? " (the same columns)" : ""), so this rule is redundant"
            let action = tableConstraint
                ? "; \(index) backs a UNIQUE or PRIMARY KEY constraint declared in CREATE TABLE, which no DROP INDEX removes (only rebuilding the table does), so nothing is proposed"
                : "; the index may still serve lookups, so the review of existing indexes keeps it; declared in a model, the rule can go"
            return Self.then(fact + action, modelSentence)
        case .other(let words):
            return Self.then(words, modelSentence)
        case .broken:
            text = "\(Figures.counted(violatingRows, "row")) share their value with another row (\(Figures.counted(duplicateValues, "repeated value"))): a unique rule on \(rule) would be broken; in SwiftData, `#Unique` would merge those rows on the next save (upsert). Clean the data first."
        case .cloudKitForbids:
            text = "unique in the data, but the store syncs with CloudKit, which does not allow unique constraints: keep it unique in code"
        case .declareIt(let withMacro):
            text = "looked up like an identifier and unique in the data (\(Figures.count(tableRows)) rows): "
            if withMacro, swiftDataUnique == nil, coreDataConstraint != nil {
                // A Core Data entity: the constraint the reports name after this, no SwiftData words.
                text += "declaring it unique gives the lookup a unique index."
            } else {
                text += withMacro ? "declaring it unique lets SwiftData upsert by it and gives the lookup a unique index"
                    : "a UNIQUE index would keep it so and serve the lookup"
            }
        case .holds:
            text = "holds in the data (\(Figures.count(tableRows)) rows)"
        }
        if nullRows > 0 {
            // Its own sentence (a new user's report ran "…a unique index 29971 rows have a NULL in…").
            text = Self.then(text, " \(Figures.count(nullRows)) row\(nullRows == 1 ? " has" : "s have") a NULL in \(rule), which a unique rule does not restrict.")
        }
        return Self.then(text, modelSentence)
    }

    /// `text`, then `next` as a sentence of its own: `text` gets its full stop first when `next` is not empty.
    private static func then(_ text: String, _ next: String) -> String {
        next.isEmpty || text.hasSuffix(".") ? text + next : text + "." + next
    }

    /// ` Your model already declares it (Note.swift:12), …`, or nothing.
    private var modelSentence: String {
        modelDeclaresAt.map { " Your model already declares it (\($0)), but the store has no UNIQUE index enforcing it." } ?? ""
    }

    private enum CodingKeys: String, CodingKey {
        case origin, table, columns, violatingRows, duplicateValues, nullRows, tableRows, swiftDataUnique, coreDataConstraint, coreDataEntity, advice
    }

    /// Read back from a JSON report: the advice in its words.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(origin: try container.decode(Origin.self, forKey: .origin), table: try container.decode(String.self, forKey: .table),
                  columns: try container.decode([String].self, forKey: .columns),
                  violatingRows: try container.decode(Int.self, forKey: .violatingRows),
                  duplicateValues: try container.decode(Int.self, forKey: .duplicateValues),
                  nullRows: try container.decode(Int.self, forKey: .nullRows), tableRows: try container.decode(Int.self, forKey: .tableRows),
                  swiftDataUnique: try container.decodeIfPresent(String.self, forKey: .swiftDataUnique),
                  verdict: .other(try container.decode(String.self, forKey: .advice)))
        coreDataConstraint = try container.decodeIfPresent([String].self, forKey: .coreDataConstraint)
        coreDataEntity = try container.decodeIfPresent(String.self, forKey: .coreDataEntity)
    }

    /// In a JSON report: the fields it always had, the advice in words.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeFields([.origin: origin, .table: table, .columns: columns, .violatingRows: violatingRows,
                                    .duplicateValues: duplicateValues, .nullRows: nullRows, .tableRows: tableRows,
                                    .swiftDataUnique: swiftDataUnique, .advice: advice])
        try container.encodeIfPresent(coreDataConstraint, forKey: .coreDataConstraint)
        try container.encodeIfPresent(coreDataEntity, forKey: .coreDataEntity)
    }
}
