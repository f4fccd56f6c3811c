/// The words of a ``DropCaveat``, as the Markdown and HTML reviews of existing indexes and the JSON
/// report's `caveat` print them.
extension DropCaveat {
    public var text: String {
        switch self {
        case .enforcesConstraint(let primaryKey): return "it enforces a \(primaryKey ? "PRIMARY KEY" : "UNIQUE") constraint"
        case .uniqueRule: return "it is UNIQUE: dropping it drops the uniqueness rule"
        case .ownedByCoreData: return "Core Data creates it for a relationship or an entity hierarchy; the model cannot drop it"
        case .namedByIndexedBy: return "a statement, view or trigger names it with INDEXED BY, and fails to prepare without it"
        case .workloadIsSample:
            return "no statement of this workload used it; a workload is a sample, so check the app's other paths before dropping it"
        case .readsSlowerWithout:
            return "statements that use it get measurably slower without it (the wider index does not serve them as well)"
        case .servesForeignKey:
            return "statements that use it are faster without it, but it serves the child side of a foreign key (the parent's deletes search by it): keep it, or add an index that leads with the same column"
        case .slowerWithOtherDrops:
            return "dropped together with the other indexes this report drops, a statement that uses it gets measurably slower: keep it"
        case .notMeasured: return "could not be measured"
        case .recorded(let text, _): return text
        }
    }
}

extension ExistingIndexFinding {
    /// Why dropping it is not advised, in words: each of ``caveats`` in turn, joined with `; `; nil when there
    /// is none. Set, it becomes one caveat given in words.
    public var caveat: String? {
        get { caveats.isEmpty ? nil : caveats.map(\.text).joined(separator: "; ") }
        set { caveats = newValue.map { [.recorded($0, kinds: [])] } ?? [] }
    }
}

/// The JSON report's form of an existing-index finding: the fields it always had (`caveat` in words) and
/// `caveatKinds` (``DropCaveat/kinds``) when there are any. Read back, the caveats are their words and kinds.
extension ExistingIndexFinding: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, index, table, columns, supersededBy, bytes, dropSQL, caveat, caveatKinds, writeSecondsSaved,
             readSecondsAdded, effects, readSecondsSaved
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try container.decode(Kind.self, forKey: .kind), index: try container.decode(String.self, forKey: .index),
                  table: try container.decode(String.self, forKey: .table), columns: try container.decode([String].self, forKey: .columns),
                  supersededBy: try container.decodeIfPresent(String.self, forKey: .supersededBy),
                  bytes: try container.decodeIfPresent(Int64.self, forKey: .bytes),
                  dropSQL: try container.decodeIfPresent(String.self, forKey: .dropSQL),
                  writeSecondsSaved: try container.decode(Double.self, forKey: .writeSecondsSaved),
                  readSecondsAdded: try container.decode(Double.self, forKey: .readSecondsAdded),
                  effects: try container.decode([StatementEffect].self, forKey: .effects),
                  readSecondsSaved: try container.decodeIfPresent(Double.self, forKey: .readSecondsSaved))
        if let text = try container.decodeIfPresent(String.self, forKey: .caveat) {
            caveats = [.recorded(text, kinds: try container.decodeIfPresent([String].self, forKey: .caveatKinds) ?? [])]
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let kinds = caveats.flatMap(\.kinds)
        try container.encodeFields([.kind: kind, .index: index, .table: table, .columns: columns, .supersededBy: supersededBy,
                                    .bytes: bytes, .dropSQL: dropSQL, .caveat: caveat, .caveatKinds: kinds.isEmpty ? nil : kinds,
                                    .writeSecondsSaved: writeSecondsSaved, .readSecondsAdded: readSecondsAdded, .effects: effects,
                                    .readSecondsSaved: readSecondsSaved])
    }
}
