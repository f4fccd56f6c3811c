import Testing
import Foundation
@testable import IndexAdvisor

/// The store's own indexes taken out by the selector, as a move of the one search (issue 38): priced on
/// every statement whose plan it changes and every write on its table, and reported by the review.
@Suite("Store indexes removed by the selector")
struct StoreIndexRemovalTests {
    /// A write-hot ledger: 40,000 entries, one index each statement needs and two it does not.
    static let schema = """
        CREATE TABLE entry(id INTEGER PRIMARY KEY, account INTEGER NOT NULL, booked INTEGER NOT NULL, amount INTEGER NOT NULL, memo TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
        INSERT INTO entry SELECT i, i % 400, 1700000000 + i * 7, (i * 37) % 1000, 'memo ' || i FROM n;
        CREATE INDEX entry_account ON entry(account);
        CREATE INDEX entry_memo_amount ON entry(memo, amount);
        CREATE INDEX entry_amount_booked ON entry(amount, booked);
        """

    static func workload(insertFrequency: Int) -> String {
        """
        -- freq: 20
        SELECT id, amount FROM entry WHERE account = 17;
        -- freq: \(insertFrequency)
        INSERT INTO entry(account, booked, amount, memo) VALUES (3, 1800000000, 250, 'memo new');
        """
    }

    func analyze(insertFrequency: Int) throws -> (AnalysisResult, FixtureStore) {
        let store = try FixtureStore(Self.schema)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(Self.workload(insertFrequency: insertFrequency),
                                                                                            file: "w.sql", format: .sql), options: quickOptions())
        return (result, store)
    }

    @Test("composites no statement uses, on a table the workload writes to, are dropped; the index the read uses stays; the migration leaves that state")
    func unusedCompositesOnWriteHotTable() throws {
        let (result, store) = try analyze(insertFrequency: 2000)
        expectTrueReport(result)
        for name in ["entry_memo_amount", "entry_amount_booked"] {
            let finding = try #require(result.existingIndexes.first { $0.index == name }, "\(result.existingIndexes.map(\.index))")
            #expect(finding.kind == .unusedInWorkload)
            #expect(finding.dropSQL == "DROP INDEX IF EXISTS \"\(name)\"")
            #expect(finding.writeSecondsSaved > 0)
            #expect((finding.bytes ?? 0) > 100_000)
        }
        #expect(!result.existingIndexes.contains { $0.index == "entry_account" && $0.dropSQL != nil })
        #expect(result.statements[0].planAfter?.indexesUsed == ["entry_account"])
        // Writes got cheaper: two indexes fewer to maintain.
        #expect(result.totals.writeSecondsAfter < result.totals.writeSecondsBefore)
        let migrated = try store.migratedCopy(by: result)
        let left = try migrated.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'entry' ORDER BY name").compactMap { $0[0].textValue }
        #expect(left == ["entry_account"])
        #expect(MarkdownReport.render(result).contains("Drop `entry_memo_amount`"))
    }

    @Test("on a workload that only reads, an index nothing uses saves nothing by going: it is listed, not dropped")
    func readOnlyWorkloadKeepsUnusedIndexes() throws {
        let store = try FixtureStore(Self.schema)
        let workload = "-- freq: 20\nSELECT id, amount FROM entry WHERE account = 17;\n"
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "w.sql", format: .sql),
                                         options: quickOptions())
        expectTrueReport(result)
        let finding = try #require(result.existingIndexes.first { $0.index == "entry_memo_amount" })
        #expect(finding.kind == .unusedInWorkload)
        #expect(finding.dropSQL == nil)
        #expect(result.existingIndexes.allSatisfy { $0.dropSQL == nil })
    }

    @Test("an index a rare read uses and every frequent write pays for is kept: a store index is not traded for writes, and the trace says why")
    func readSlowerKeepsIndex() throws {
        // `tag` is read once per workload and rewritten 10,000 times: without the index the read scans 30,000
        // rows; its upkeep on the updates is larger, but the read would be slower, and the store's indexes serve
        // statements a workload may not show.
        let schema = """
            CREATE TABLE card(id INTEGER PRIMARY KEY, deck INTEGER NOT NULL, tag INTEGER NOT NULL, due INTEGER NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO card SELECT i, i % 50, i % 3000, i * 11 FROM n;
            CREATE INDEX card_tag ON card(tag);
            """
        let workload = """
            -- freq: 1
            SELECT count(*) FROM card WHERE tag = 1234;
            -- freq: 10000
            UPDATE card SET tag = tag + 1 WHERE id = 777;
            """
        var options = quickOptions()
        options.maxNewIndexes = 0
        let store = try FixtureStore(schema)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "w.sql", format: .sql),
                                         options: options)
        expectTrueReport(result)
        #expect(result.existingIndexes.allSatisfy { $0.dropSQL == nil })
        #expect(result.statements[0].planAfter?.indexesUsed == ["card_tag"])
    }
}

@Suite("What-if plans after a store index is left out")
struct WhatIfStoreOrderTests {
    @Test("planning without a store index leaves the clone's indexes in the store's order: a later plan takes the one the store's planner takes")
    func orderKeptAfterHiddenDrop() throws {
        // Of two indexes on the same key SQLite takes the one made last. Made again at the end after a plan
        // without it, the first of the two became the clone's choice, unlike the snapshot's (the demo's picks
        // then differed between runs: the selector's what-if plans and the snapshot's real ones disagreed).
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE visit(id INTEGER PRIMARY KEY, page INTEGER, at INTEGER);
            CREATE INDEX visit_page_first ON visit(page);
            CREATE INDEX visit_page_second ON visit(page);
            CREATE INDEX visit_at ON visit(at);
            """)
        let planner = try WhatIfPlanner(schema: SchemaReader.read(from: connection))
        let sql = "SELECT id FROM visit WHERE page = ?"
        let before = try planner.plan(for: sql, bindings: [.integer(3)], with: []).0.indexesUsed
        let without = try planner.plan(for: sql, bindings: [.integer(3)], with: [], without: ["visit_page_first"]).0.indexesUsed
        let after = try planner.plan(for: sql, bindings: [.integer(3)], with: [], without: []).0.indexesUsed
        #expect(before == ["visit_page_second"])
        #expect(without == ["visit_page_second"])
        #expect(after == before)
        // And with the one SQLite takes left out, the other serves, then the store's choice again.
        #expect(try planner.plan(for: sql, bindings: [.integer(3)], with: [], without: ["visit_page_second"]).0.indexesUsed == ["visit_page_first"])
        #expect(try planner.plan(for: sql, bindings: [.integer(3)], with: []).0.indexesUsed == before)
    }
}

@Suite("Indexes named by statements set aside")
struct SetAsideIndexedByTests {
    @Test("an index only a statement this SQLite cannot parse names with INDEXED BY is never dropped")
    func unparsableStatementKeepsItsIndex() throws {
        // Regression (hostile round): the app's statement, valid on a newer SQLite, was set aside as
        // unparsable, and the advice dropped the index it names; on the migrated store it failed with
        // "no such index". Other names, sizes and a window function this SQLite lacks, from a breaker's shape.
        let store = try FixtureStore("""
            CREATE TABLE reading(id INTEGER PRIMARY KEY, probe INTEGER NOT NULL, taken INTEGER NOT NULL, level INTEGER NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO reading SELECT i, i % 200, 1700000000 + i * 13, (i * 17) % 500 FROM n;
            CREATE INDEX reading_probe ON reading(probe);
            CREATE INDEX reading_level_taken ON reading(level, taken);
            """)
        let workload = """
            -- freq: 25
            SELECT id, level FROM reading WHERE probe = 12;
            -- freq: 3000
            INSERT INTO reading(probe, taken, level) VALUES (4, 1900000000, 120);
            -- freq: 30
            SELECT group_concat(id ORDER BY taken) FROM reading INDEXED BY reading_level_taken WHERE level = 7;
            """
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "w.sql", format: .sql),
                                         options: quickOptions())
        #expect(!result.existingIndexes.contains { $0.index == "reading_level_taken" && $0.dropSQL != nil },
                "\(result.existingIndexes.map { ($0.index, $0.dropSQL ?? "kept") })")
        #expect(!SQLReport.render(result, queryAdvice: false).contains("DROP INDEX IF EXISTS \"reading_level_taken\""))
    }
}
