import IndexAdvisor

/// Functions and collations that only an app's own connection has (Core Data's `NSCoreDataStringSearch`,
/// its `NSCollate…` collations), given stand-ins on the benchmark's connections so its statements prepare.
package enum StandIns {
    /// Installs collation stand-ins on `connection` and registers every function `statements` call whose
    /// name starts with `NSCoreData`.
    package static func install(on connection: SQLiteConnection, for statements: [PairStatement]) {
        connection.installStandIns()
        var names = Set<String>()
        for statement in statements {
            let words = SQLWords.split(statement.sql)
            for (i, word) in words.enumerated() where word.kind == .identifier && word.value.hasPrefix("NSCoreData")
                && i + 1 < words.count && words[i + 1].isSymbol("(") { names.insert(word.value) }
        }
        for name in names.sorted() { try? connection.registerStandInFunction(named: name) }
    }
}
