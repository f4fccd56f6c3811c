/// Asks SQLite's planner whether it would use an index that does not exist yet.
///
/// Holds an empty in-memory clone of the store's schema: its tables, indexes and views, no rows. Creating
/// an index there is instant, and `EXPLAIN QUERY PLAN` tells whether a statement would use it. Without
/// `sqlite_stat1` SQLite plans from the schema alone, so the clone plans as the full store does; when the
/// store keeps statistics, the clone gets the same `sqlite_stat1` rows (loaded with `ANALYZE sqlite_schema`,
/// https://sqlite.org/lang_analyze.html), and each hypothetical index gets a row computed from the
/// distinct counts of its column prefixes (`statistics`), as `ANALYZE` would write it: the row count, then
/// for each prefix the average number of rows per distinct value (https://sqlite.org/fileformat2.html#stat1tab).
package final class WhatIfPlanner {
    private let connection: SQLiteConnection
    private var counter = 0
    private let usesStatistics: Bool
    /// Names the store already uses.
    private let reserved: Set<String>
    /// `sqlite_stat1.stat` text for a hypothetical index, by candidate key.
    package var statistics: [String: String] = [:]
    /// Plans the clone, with the store's row counts on its findings (the clone's tables are empty): a full
    /// scan of a table under ``PlanFinding/smallTableRows`` rows is no problem here either.
    private let planner: QueryPlanner
    private let schema: Schema

    /// Builds the clone; with `enforcesForeignKeys` it enforces them as the app's connections do, so a parent's
    /// delete plans its lookups of the child rows (foreignkeys.html#fk_indexes).
    /// - Throws: ``SQLiteError`` when the clone cannot be created at all.
    package init(schema: Schema, enforcesForeignKeys: Bool = false, recursiveTriggers: Bool = false) throws {
        let connection = try SQLiteConnection.inMemory()
        self.connection = connection
        self.schema = schema
        connection.installStandIns()
        if enforcesForeignKeys { try connection.execute("PRAGMA foreign_keys = ON") }
        if recursiveTriggers { try connection.execute("PRAGMA recursive_triggers = ON") }
        usesStatistics = schema.hasStatistics
        reserved = Set(schema.tables.map(\.name.sqlFolded) + schema.views.map(\.name.sqlFolded) + schema.indexes.map(\.name.sqlFolded) + schema.triggerNames.map(\.sqlFolded))
        for table in schema.tables where !table.sql.isEmpty {
            // A virtual table whose module is not linked here cannot be cloned; statements on it are not advised.
            try? connection.executeDefinition(table.sql)
        }
        for index in schema.indexes {
            if let sql = index.sql { try? connection.executeDefinition(sql) }
        }
        for view in schema.views { try? connection.executeDefinition(view.sql) }
        // The triggers too: a write's plan includes the programs of those it fires (``QueryPlanner``).
        for trigger in schema.triggers where !trigger.sql.isEmpty { try? connection.executeDefinition(trigger.sql) }
        planner = QueryPlanner(connection: connection, schema: schema)
        if schema.hasStatistics {
            try connection.execute("ANALYZE")
            for row in schema.statistics {
                let statement = try connection.prepare("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)")
                try statement.bind([.text(row.table), row.index.map(SQLValue.text) ?? .null, .text(row.stat)])
                try statement.run()
            }
            try connection.execute("ANALYZE sqlite_schema")
        }
    }

    /// The plan of `sql` with `hypothetical` indexes present (created, planned, dropped again), and the names
    /// the hypothetical indexes had in the plan, in the same order as `hypothetical`. They are created in the
    /// migration's order (``IndexOrder/migrationOrder(_:key:isPartial:movesWith:)``: a partial one after the full one on its key), on which the
    /// planner's choice between indexes it rates equal depends.
    /// - Throws: ``SQLiteError`` when a candidate cannot be created or the statement does not prepare.
    package func plan(for sql: String, bindings: [SQLValue], with hypothetical: [IndexCandidate],
                      without storeIndexes: Set<String> = []) throws -> (QueryPlan, [String]) {
        var names = [String](repeating: "", count: hypothetical.count)
        // The store's indexes a configuration drops are dropped here for the plan and made again after it
        // (with their `sqlite_stat1` rows: DROP INDEX deletes them), with the table's indexes made after them
        // in the store made again behind them: of indexes it rates equal the planner takes the one made last,
        // so the clone keeps the store's order for every later plan.
        let hidden = schema.indexes.filter { storeIndexes.contains($0.name.sqlFolded) && $0.sql != nil }
        let remade = schema.indexes.enumerated().filter { offset, index in
            index.sql != nil && hidden.contains { first in
                first.table.sqlFolded == index.table.sqlFolded && offset >= schema.indexes.firstIndex { $0.name == first.name }!
            }
        }.map(\.element)
        for index in hidden { try connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))") }
        defer {
            for name in names where !name.isEmpty { try? connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(name))") }
            for index in remade { try? connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(index.name))") }
            for index in remade {
                try? connection.executeDefinition(index.sql!)
                for row in schema.statistics where row.index?.sqlFolded == index.name.sqlFolded {
                    if let insert = try? connection.prepare("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)") {
                        try? insert.bind([.text(row.table), .text(index.name), .text(row.stat)])
                        _ = try? insert.run()
                    }
                }
            }
            if usesStatistics && !hidden.isEmpty { _ = try? connection.execute("ANALYZE sqlite_schema") }
        }
        for offset in IndexOrder.migrationOrder(Array(hypothetical.indices), key: { hypothetical[$0].keyWithoutPredicate },
                                                     isPartial: { hypothetical[$0].partialPredicate != nil }) {
            let candidate = hypothetical[offset]
            counter += 1
            var name = "indexadvisor_whatif_\(counter)"
            while reserved.contains(name.sqlFolded) { counter += 1; name = "indexadvisor_whatif_\(counter)" }
            try connection.execute(candidate.createSQL(name: name))
            names[offset] = name
            if usesStatistics, let stat = statistics[candidate.key] {
                let insert = try connection.prepare("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)")
                try insert.bind([.text(candidate.table), .text(name), .text(stat)])
                try insert.run()
            }
        }
        if usesStatistics && (!hypothetical.isEmpty || !hidden.isEmpty) { try connection.execute("ANALYZE sqlite_schema") }
        return (try planner.plan(for: sql, bindings: bindings), names)
    }
}
