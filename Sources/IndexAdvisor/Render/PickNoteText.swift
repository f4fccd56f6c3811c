/// The words of a ``PickNote``, as the Markdown and HTML reports print them under an index, and the JSON
/// report's `notes` holds them.
extension PickNote: Codable {
    public var text: String {
        switch self {
        case .entityLeads(let table, let entities, let own):
            return "Z_ENT leads it because \(table) holds several entities (\(entities.joined(separator: ", "))) and the statements it serves fetch one of them: "
                + (own.isEmpty ? "" : "without it first, SQLite may prefer Core Data's own \(own.joined(separator: ", ")) (Z_ENT = ?) when the store has no statistics, and ")
                + "an index without it reads other entities' rows too. Z_ENT is no property, so no model can declare the index (no fetch index or #Index holds Z_ENT, and a fetch index declared on a sub-entity is built without it): it is SQL only."
        case .churn(let churn): return churn.note
        case .untimedWrite(let statement, let sql, let error):
            return "The write cost is incomplete: \(Self.label(statement, sql)) was not timed: \(error)."
        case .failedWrites(let failures, let statement, let sql):
            return "The write cost is incomplete: \(failures) execution\(failures == 1 ? "" : "s") of \(Self.label(statement, sql)) failed on the snapshot and are not in its time."
        case .subEntityColumn(let entity):
            return "a key column belongs to a sub-entity of \(entity), so neither #Index<\(entity)> nor a fetch index of \(entity) can declare it: it is SQL only"
        case .keptForJoin(let statement, let index, let alone):
            return "Kept for \(statement) together with \(index): SQLite uses that index for \(statement) only when this one exists too"
                + (alone ? "" : " (built first, on its own it left \(statement)'s plan as it was)")
                + "; \(statement)'s saving is counted under \(index)."
        case .other(let text): return text
        }
    }

    /// True for ``keptForJoin``, also read back from a JSON report, where the note is its words (the ones
    /// ``text`` gives it above).
    var isKeptForJoin: Bool {
        switch self {
        case .keptForJoin: return true
        case .other(let text): return text.hasPrefix("Kept for ") && text.contains(" together with ")
        default: return false
        }
    }

    /// `S2 (INSERT INTO ZNOTE …)`, the statement's text on one line, shortened.
    private static func label(_ statement: String, _ sql: String) -> String {
        "\(statement) (\(SQLText.oneLine(sql, limit: 60)))"
    }

    /// Read back from a JSON report: the note in its words.
    public init(from decoder: Decoder) throws {
        self = .other(try decoder.singleValueContainer().decode(String.self))
    }

    /// In a JSON report: the note in its words.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
