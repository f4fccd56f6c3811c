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
            } catch let error as SQLiteError where attempts < 32 && error.code == 1 {
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
