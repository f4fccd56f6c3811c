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

    /// True for a `CREATE TABLE` whose PRIMARY KEY, UNIQUE or NOT NULL constraint settles a clash itself
    /// (`ON CONFLICT REPLACE` or `IGNORE`, https://sqlite.org/lang_conflict.html): every plain INSERT or
    /// UPDATE of the table then takes that path when its key exists, as `INSERT OR REPLACE` does.
    package var declaresConflictResolution: Bool {
        for i in 0..<count where isWord(i, "ON") && isWord(i + 1, "CONFLICT") && (isWord(i + 2, "REPLACE") || isWord(i + 2, "IGNORE")) {
            return true
        }
        return false
    }
}
