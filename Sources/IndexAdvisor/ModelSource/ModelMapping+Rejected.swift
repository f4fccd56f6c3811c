extension ModelMapping {
    /// `candidates` with each entity table's key as the model's property names (``RejectedCandidate/properties``),
    /// where the model maps every key column; the others as they were.
    /// - Parameter properties: per upper-cased table name, the property name of each upper-cased column.
    static func renamingRejected(_ candidates: [RejectedCandidate], properties: [String: [String: String]]) -> [RejectedCandidate] {
        candidates.map { candidate in
            guard candidate.entity != nil, let map = properties[candidate.table.uppercased()] else { return candidate }
            // A key column is `ZNAME`, `ZNAME DESC` or `ZNAME COLLATE NOCASE`: the name, then what it is sorted by.
            let named = candidate.columns.compactMap { column -> String? in
                let words = column.split(separator: " ", maxSplits: 1)
                guard let name = words.first, let property = map[name.uppercased()] else { return nil }
                return property + (words.count > 1 ? " " + words[1] : "")
            }
            var renamed = candidate
            if named.count == candidate.columns.count { renamed.properties = named }
            return renamed
        }
    }
}
