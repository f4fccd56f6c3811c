extension KeyedEncodingContainer {
    /// Encodes each field under its key, in order, leaving out a nil one, as a synthesized `Encodable`
    /// conformance does: for the result types whose JSON form puts their structured reasons in words
    /// (``RejectedCandidate``, ``ExistingIndexFinding``, ``QueryAdvice``, ``UniquenessFinding``).
    mutating func encodeFields(_ fields: KeyValuePairs<Key, (any Encodable)?>) throws {
        for (key, value) in fields {
            guard let value else { continue }
            try encode(value, forKey: key)
        }
    }
}
