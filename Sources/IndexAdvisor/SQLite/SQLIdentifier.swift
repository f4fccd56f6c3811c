/// Quoting for identifiers and string literals in SQL that indexadvisor generates.
///
/// Every table, column and index name in generated SQL goes through `quote(_:)`, so names with
/// spaces, quotes, keywords (`order`) or Unicode stay names (https://sqlite.org/lang_keywords.html).
public enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier: `my "t"` becomes `"my ""t"""`.
    public static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a single-quoted SQL string literal: `it's` becomes `'it''s'`.
    public static func stringLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

extension String {
    /// The string with ASCII `A`–`Z` lower-cased and everything else unchanged: how SQLite compares
    /// identifiers (`Note` and `NOTE` are one table; `Ärger` and `ärger` are two).
    public var sqlFolded: String {
        guard utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return self }
        return String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
