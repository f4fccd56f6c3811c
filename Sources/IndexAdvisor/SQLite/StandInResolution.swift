import Foundation

extension SQLiteConnection {
    /// Prepares `sql`, first giving stand-ins to what only the app's own connection has: application
    /// functions (`no such function: NSCoreDataStringSearch`) and Core Data's temporary key-list tables
    /// (`no such table: _Z_intarray0`, filled here with the keys 1…20). Collations are resolved by
    /// `installStandIns()`. See the Core Data log reference in the design notes, §3.5–3.6.
    /// - Throws: ``SQLiteError`` for any other reason SQLite rejects the statement.
    package func prepareResolvingStandIns(_ sql: String) throws -> SQLiteStatement {
        var attempts = 0
        while true {
            do {
                return try prepare(sql)
            } catch let error as SQLiteError where attempts < 32 && error.code == .error {
                attempts += 1
                if let name = Self.name(after: "no such function: ", in: error.message), !standInFunctions.contains(name) {
                    try registerStandInFunction(named: name)
                    continue
                }
                if let name = Self.name(after: "no such table: ", in: error.message) {
                    let table = name.split(separator: ".").last.map(String.init) ?? name
                    if table.lowercased().hasPrefix("_z_intarray") {
                        let quoted = SQLIdentifier.quote(table)
                        try execute("""
                            CREATE TEMP TABLE IF NOT EXISTS \(quoted) (value INTEGER PRIMARY KEY);
                            WITH RECURSIVE k(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM k WHERE v < 20)
                            INSERT OR IGNORE INTO \(quoted) SELECT v FROM k;
                            """)
                        continue
                    }
                }
                throw error
            }
        }
    }

    private static func name(after prefix: String, in message: String) -> String? {
        guard let range = message.range(of: prefix) else { return nil }
        let name = message[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }
}

extension SQLiteConnection {
    /// Installs the collation stand-ins (`installStandIns()`) and registers a stand-in for every function
    /// that the text of the main schema (`sqlite_schema.sql`: CHECK constraints, generated columns,
    /// expression and partial indexes, views, triggers) calls and this connection does not have.
    ///
    /// Call it before anything reads the schema's tables or indexes: an app-defined collation on an indexed
    /// column (GRDB's `.collate(.localizedCaseInsensitiveCompare)`) or an app function in a CHECK makes
    /// `quick_check`, an index build or an INSERT fail on a connection without them, which is not damage.
    /// Reading `sqlite_schema` itself needs neither: SQLite resolves both only when a statement uses them.
    /// - Returns: the functions given a stand-in, sorted.
    /// - Throws: ``SQLiteError`` when the schema's text cannot be read.
    @discardableResult
    package func installSchemaStandIns() throws -> [String] {
        installStandIns()
        let texts = try query("SELECT sql FROM main.sqlite_schema WHERE sql IS NOT NULL").compactMap { $0.first?.textValue }
        let known = Set(try query("SELECT DISTINCT name FROM pragma_function_list").compactMap { $0.first?.textValue?.lowercased() })
        var registered: [String] = []
        for name in Self.calledNames(in: texts) where !known.contains(name.lowercased()) && !standInFunctions.contains(name) {
            try registerStandInFunction(named: name)
            registered.append(name)
        }
        return registered.sorted()
    }

    /// Words of SQL that a `(` follows without being a function call.
    private static let notFunctions: Set<String> = [
        "as", "check", "key", "unique", "in", "exists", "values", "cast", "over", "filter", "using", "on", "table",
        "index", "view", "trigger", "references", "into", "and", "or", "not", "when", "then", "else", "default",
        "select", "from", "where", "is", "between", "like", "glob", "match", "regexp", "collate", "set", "case",
        "primary", "constraint", "partition", "window", "returning", "with", "recursive", "do", "conflict", "raise",
    ]

    /// Names directly followed by `(` in schema text, except keywords and the name a `CREATE TABLE`, `CREATE
    /// INDEX … ON`, `REFERENCES` or `USING` introduces. A type name (`VARCHAR(20)`) may slip through; a
    /// stand-in under such a name is never called and harms nothing.
    static func calledNames(in texts: [String]) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for text in texts {
            let tokens = SQLTokenizer.tokenize(text).filter { $0.kind != .trivia }
            let bytes = Array(text.utf8)
            func word(_ token: SQLToken) -> String {
                String(decoding: bytes[token.start..<token.end], as: UTF8.self)
            }
            for (offset, token) in tokens.enumerated() where offset + 1 < tokens.count {
                guard token.kind == .word || token.kind == .quotedIdentifier,
                      tokens[offset + 1].kind == .symbol, word(tokens[offset + 1]) == "(" else { continue }
                var name = word(token)
                if token.kind == .quotedIdentifier {
                    name = String(name.dropFirst().dropLast())
                } else if notFunctions.contains(name.lowercased()) {
                    continue
                }
                if offset > 0 {
                    let previous = word(tokens[offset - 1]).lowercased()
                    if ["table", "exists", "on", "references", "using", "into", "view", "trigger", "index", "."].contains(previous) { continue }
                    // `CREATE TABLE t (a VARCHAR(20))`: a name after a column name is its type.
                    if tokens[offset - 1].kind == .word || tokens[offset - 1].kind == .quotedIdentifier,
                       !notFunctions.contains(previous) { continue }
                }
                if !name.isEmpty, seen.insert(name.lowercased()).inserted { names.append(name) }
            }
        }
        return names
    }
}
