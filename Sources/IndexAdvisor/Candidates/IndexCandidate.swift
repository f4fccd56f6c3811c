/// An index that could be added: a table, ordered key columns with direction and collation, and an
/// optional partial-index predicate (https://sqlite.org/partialindex.html).
public struct IndexCandidate: Sendable, Codable, Hashable {
    public var table: String
    public var columns: [IndexColumn]
    /// The `WHERE` clause of a partial index, without the keyword.
    public var partialPredicate: String?

    public init(table: String, columns: [IndexColumn], partialPredicate: String? = nil) {
        self.table = table
        self.columns = columns
        self.partialPredicate = partialPredicate
    }

    /// A key that is equal for candidates SQLite would build identically.
    public var key: String { keyWithoutPredicate + "|" + (partialPredicate ?? "") }

    /// The table and the key (columns with direction and collation), folded, without the partial-index
    /// predicate: equal for a partial index and the full one on the same key, which SQLite rates equal
    /// without `sqlite_stat1` (``IndexOrder/migrationOrder(_:key:isPartial:movesWith:)``).
    public var keyWithoutPredicate: String {
        ([table.sqlFolded] + columns.map { column in
            "\(column.displayName.sqlFolded) \(column.isDescending ? "DESC" : "ASC") \(column.collation.uppercased())"
        }).joined(separator: "|")
    }

    /// `CREATE INDEX [IF NOT EXISTS] "name" ON "table" ("a", "b" DESC, "c" COLLATE NOCASE) [WHERE …]`,
    /// every identifier quoted.
    public func createSQL(name: String, ifNotExists: Bool = false) -> String {
        var sql = "CREATE INDEX " + (ifNotExists ? "IF NOT EXISTS " : "") + SQLIdentifier.quote(name)
            + " ON " + SQLIdentifier.quote(table) + " ("
        sql += columns.map { column in
            var term = column.name.map(SQLIdentifier.quote) ?? "(\(column.expression ?? "NULL"))"
            if column.collation.uppercased() != "BINARY" { term += " COLLATE " + SQLIdentifier.quote(column.collation) }
            if column.isDescending { term += " DESC" }
            return term
        }.joined(separator: ", ") + ")"
        if let partialPredicate { sql += " WHERE " + partialPredicate }
        return sql
    }

    /// True when this candidate's columns are a leading part of `other`'s (same table, same predicate).
    public func isPrefix(of other: IndexCandidate) -> Bool {
        table.sqlFolded == other.table.sqlFolded && partialPredicate == other.partialPredicate
            && IndexCandidate.leads(columns, other.columns)
    }

    /// True when `other` makes this candidate redundant: this one's columns lead `other`, and the predicates
    /// match, or `other` has none and its key holds every column this one's predicate tests (a partial index
    /// `(needs_upload) WHERE needs_upload = 1` beside `(needs_upload, modified)` serves no lookup the full one
    /// cannot, and costs writes of its own). A predicate on a column the full index lacks narrows the rows
    /// it holds, which the full index can only do by reading each row: `(shop_id, placed) WHERE status =
    /// 'open'` is not redundant beside `(shop_id, placed)` (partialindex.html).
    public func isRedundant(beside other: IndexCandidate) -> Bool {
        guard table.sqlFolded == other.table.sqlFolded, IndexCandidate.leads(columns, other.columns) else { return false }
        if partialPredicate == other.partialPredicate { return true }
        guard other.partialPredicate == nil else { return false }
        let keyColumns = Set(other.columns.compactMap { $0.name?.sqlFolded })
        return predicateColumns.map { $0.isSubset(of: keyColumns) } ?? true
    }

    /// The columns the partial predicate tests (folded), read from its quoted identifiers, as the generator
    /// writes them; nil without a predicate or when it names no quoted column.
    var predicateColumns: Set<String>? {
        guard let partialPredicate else { return nil }
        let tokens = SQLTokenList(partialPredicate)
        let names = (0..<tokens.count).filter { i in
            guard let first = tokens.text(at: i).first else { return false }
            return first == "\"" || first == "`" || first == "["
        }.map { tokens.identifier(at: $0).sqlFolded }
        return names.isEmpty ? nil : Set(names)
    }

    /// True when an existing index has these columns as its leading columns and the same predicate (or
    /// none, for both): adding the candidate would duplicate what is there. A full index does not serve a
    /// partial candidate: without `sqlite_stat1` SQLite will not drive the full index by `x IS NOT NULL`,
    /// while the partial one, holding only those rows, it reads whole (partialindex.html).
    public func isServed(by index: Index) -> Bool {
        index.table.sqlFolded == table.sqlFolded && index.partialPredicate == partialPredicate
            && IndexCandidate.leads(columns, index.columns)
    }

    /// True when the key columns `prefix` lead `key`: no more of them, each the same column, direction and
    /// collation as the one in its place (``sameKey(_:_:)``).
    static func leads(_ prefix: [IndexColumn], _ key: [IndexColumn]) -> Bool {
        prefix.count <= key.count && zip(prefix, key).allSatisfy { sameKey($0, $1) }
    }

    static func sameKey(_ a: IndexColumn, _ b: IndexColumn) -> Bool {
        a.displayName.sqlFolded == b.displayName.sqlFolded && a.isDescending == b.isDescending
            && a.collation.uppercased() == b.collation.uppercased()
    }
}
