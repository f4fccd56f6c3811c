import Foundation
import IndexAdvisor

/// An empty copy of a store's schema in memory, with the store's `sqlite_stat1` and `sqlite_stat4` rows
/// and those measured for each candidate: creating or dropping an index here takes microseconds, and
/// SQLite's planner chooses from the schema and those statistics alone, so a statement's plan here is its
/// plan on the store with the same indexes (the technique of `sqlite3 .expert`, sqlite.org/cli.html#expert).
/// The benchmark checks that claim on every configuration it measures for real.
package final class PlanClone {
    let connection: SQLiteConnection
    let hasStatistics: Bool
    /// Index name → its `sqlite_stat1` rows (stat) and `sqlite_stat4` rows, put back whenever it is created.
    var statistics: [String: (stat1: [[SQLValue]], stat4: [[SQLValue]])] = [:]
    /// Index name → its `CREATE INDEX`, for every index the clone may hold (the store's and the candidates).
    var definitions: [String: String] = [:]
    /// The indexes the clone holds now.
    private(set) var present: Set<String> = []
    private let storeIndexes: Set<String>

    /// Copies `indexes`' schema (tables, views, triggers, indexes) and the statistics of `store`.
    /// - Throws: ``SQLiteError`` when a definition does not run in memory.
    package init(store: SQLiteConnection, indexes: StoreIndexes, statements: [PairStatement] = []) throws {
        connection = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        StandIns.install(on: connection, for: statements)
        hasStatistics = indexes.hasStatistics
        for kind in ["table", "index", "view", "trigger"] {
            for entry in indexes.schemaSQL where entry.type == kind {
                do { try connection.execute(entry.sql) } catch {
                    // A virtual table's shadow tables are made by its own CREATE VIRTUAL TABLE.
                    if kind == "table", (try? connection.scalar("SELECT 1 FROM sqlite_schema WHERE name = ?", [.text(entry.name)])) != nil { continue }
                    throw error
                }
            }
        }
        for index in indexes.indexes { definitions[index.name] = index.sql }
        present = Set(indexes.indexes.map(\.name))
        storeIndexes = present
        if hasStatistics {
            try connection.execute("ANALYZE")
            try connection.execute("DELETE FROM sqlite_stat1")
            for row in try store.query("SELECT tbl, idx, stat FROM sqlite_stat1") {
                try connection.execute("INSERT INTO sqlite_stat1 VALUES (\(row.map(\.sqlLiteral).joined(separator: ", ")))")
                if let name = row[1].textValue { statistics[name, default: ([], [])].stat1.append(row) }
            }
            let stat4 = try store.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'")?.integerValue ?? 0 > 0
            let cloneStat4 = try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'")?.integerValue ?? 0 > 0
            if stat4, cloneStat4 {
                try connection.execute("DELETE FROM sqlite_stat4")
                for row in try store.query("SELECT tbl, idx, neq, nlt, ndlt, sample FROM sqlite_stat4") {
                    try connection.execute("INSERT INTO sqlite_stat4 VALUES (\(row.map(\.sqlLiteral).joined(separator: ", ")))")
                    if let name = row[1].textValue { statistics[name, default: ([], [])].stat4.append(row) }
                }
            }
            try connection.execute("ANALYZE sqlite_schema")
        }
    }

    /// Makes `name` (created by `sql`) known, with its measured statistics rows.
    package func register(name: String, sql: String, stat1: [[SQLValue]] = [], stat4: [[SQLValue]] = []) {
        definitions[name] = sql
        if !stat1.isEmpty || !stat4.isEmpty { statistics[name] = (stat1, stat4) }
    }

    /// Brings the clone to hold exactly `wanted` of the known indexes (by name), the store's not in it
    /// dropped, creating in `order` (the build order of the configuration: the planner takes the index
    /// created last among those it rates equal).
    /// - Throws: ``SQLiteError`` when a definition fails.
    package func set(_ wanted: Set<String>, order: [String]) throws {
        guard wanted != present else { return }
        var changed = false
        for name in present.subtracting(wanted).sorted() {
            try connection.execute("DROP INDEX \(SQLQuote.identifier(name))")
            present.remove(name)
            changed = true
        }
        let missing = wanted.subtracting(present)
        for name in order where missing.contains(name) {
            guard let sql = definitions[name] else { continue }
            try connection.execute(sql)
            present.insert(name)
            changed = true
            if hasStatistics, let rows = statistics[name] {
                for row in rows.stat1 { try connection.execute("INSERT INTO sqlite_stat1 VALUES (\(row.map(\.sqlLiteral).joined(separator: ", ")))") }
                for row in rows.stat4 { try? connection.execute("INSERT INTO sqlite_stat4 VALUES (\(row.map(\.sqlLiteral).joined(separator: ", ")))") }
            }
        }
        if changed, hasStatistics { try connection.execute("ANALYZE sqlite_schema") }
    }

    /// The store's indexes (names).
    package var storeIndexNames: Set<String> { storeIndexes }

    /// `sql`'s query plan with `values` bound, as one line per `EXPLAIN QUERY PLAN` row (https://sqlite.org/eqp.html).
    /// - Throws: ``SQLiteError`` when the statement does not prepare here.
    package func plan(_ sql: String, values: [SQLValue]) throws -> PlanLines {
        try PlanLines.read(sql, values: values, on: connection)
    }
}

/// A statement's query plan as `EXPLAIN QUERY PLAN` prints it: its detail lines, and the indexes they
/// name (https://sqlite.org/eqp.html).
package struct PlanLines: Hashable, Sendable {
    package var lines: [String]

    /// Runs `EXPLAIN QUERY PLAN sql` with `values` bound on `connection`.
    package static func read(_ sql: String, values: [SQLValue], on connection: SQLiteConnection) throws -> PlanLines {
        let statement = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
        if !values.isEmpty { try statement.bind(values) }
        var lines: [String] = []
        while try statement.step() {
            if let detail = statement.row().last?.textValue { lines.append(detail) }
        }
        return PlanLines(lines: lines)
    }

    /// The indexes the plan names (`USING [COVERING] INDEX name`, `USING INDEX name FOR …`), in order, each once.
    package var indexes: [String] {
        var found: [String] = []
        for line in lines {
            var rest = Substring(line)
            while let range = rest.range(of: "INDEX ") {
                let after = rest[range.upperBound...]
                let name = after.prefix { $0 != " " && $0 != ")" }
                let isAutomatic = rest[..<range.lowerBound].hasSuffix("AUTOMATIC ") || rest[..<range.lowerBound].hasSuffix("AUTOMATIC COVERING ")
                if !name.isEmpty, !isAutomatic, !found.contains(String(name)) { found.append(String(name)) }
                rest = after
            }
        }
        return found
    }

    /// True when a line is a full table scan (`SCAN t` with no index), or builds an automatic index.
    package var scansOrBuildsAutomaticIndex: Bool {
        lines.contains { line in
            (line.hasPrefix("SCAN ") && !line.contains(" USING ") && !line.contains("VIRTUAL TABLE")) || line.contains("AUTOMATIC")
        }
    }

    package var sortsWithTempBTree: Bool { lines.contains { $0.contains("USE TEMP B-TREE") } }
}
