extension SQLTokenList {
    /// True when the statement settles a clash with an existing key itself instead of failing: an upsert
    /// (`INSERT … ON CONFLICT … DO UPDATE` or `DO NOTHING`, https://sqlite.org/lang_upsert.html), `INSERT OR
    /// REPLACE`, `REPLACE INTO`, `INSERT OR IGNORE`, `UPDATE OR REPLACE` and `UPDATE OR IGNORE`
    /// (https://sqlite.org/lang_conflict.html). Such a write takes another path when its key exists (the
    /// `DO UPDATE`, the delete of the old row, nothing), so its timed values keep the app's key.
    package var resolvesKeyConflicts: Bool {
        var depth = 0
        for i in 0..<count {
            if isSymbol(i, "(") { depth += 1 } else if isSymbol(i, ")") { depth -= 1 }
            guard depth == 0 else { continue }
            if isWord(i, "INSERT") || isWord(i, "UPDATE"), isWord(i + 1, "OR"), isWord(i + 2, "REPLACE") || isWord(i + 2, "IGNORE") {
                return true
            }
            if isWord(i, "REPLACE"), isWord(i + 1, "INTO") { return true }
            if isWord(i, "ON"), isWord(i + 1, "CONFLICT"), isSymbol(i + 2, "(") || isWord(i + 2, "DO") { return true }
        }
        return false
    }
}
