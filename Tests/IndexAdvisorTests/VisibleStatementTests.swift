import Testing
import Foundation
@testable import IndexAdvisor
import SQLFingerprint

/// Issue 16, item 6: statements the store accepts but the analysis could not see.
@Suite("Every statement the store accepts is analysed")
struct VisibleStatementTests {
    static let schemaSQL = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, data TEXT,
                          twice INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL,
                          kind TEXT AS (json_extract(data, '$.kind')) STORED);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO item(id, a, b, data) SELECT i, i % 2000, 'b' || i, json_object('kind', 'k' || (i % 300)) FROM n;
        """

    /// No statement may end with "its shape could not be read" or "reads the whole table by design".
    static func expectEverySeen(_ result: AnalysisResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for statement in result.statements {
            let label = String(statement.sql.prefix(80))
            #expect(statement.error == nil, "\(label): \(statement.error?.prefix(300) ?? "")", sourceLocation: sourceLocation)
            #expect(!statement.notes.map(\.text).contains { $0.contains("could not be read") || $0.contains("by design") },
                    "\(label): \(statement.notes.map { $0.text.prefix(300) })", sourceLocation: sourceLocation)
        }
    }

    @Test("generated columns, VIRTUAL and STORED, are in the shape mirror: filters on them get their index")
    func generatedColumns() throws {
        let store = try FixtureStore(Self.schemaSQL)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let schema = try SchemaReader.read(from: connection)
        let table = try #require(schema.table(named: "item"))
        #expect(table.columns.filter(\.isGenerated).map(\.name) == ["twice", "kind"])
        let extractor = try ShapeExtractor(schema: schema)
        let virtual = try extractor.shape(of: "SELECT id FROM item WHERE twice = ?")
        #expect(virtual.access(to: "item")?.constraints.map(\.column) == ["twice"])
        #expect(virtual.parameters.map(\.column) == ["twice"])
        let stored = try extractor.shape(of: "SELECT id FROM item WHERE kind = ? ORDER BY b")
        #expect(stored.access(to: "item")?.constraints.map(\.column) == ["kind"])
        // An INSERT without a column list fills the four stored columns, as on the store.
        let insert = try extractor.shape(of: "INSERT INTO item VALUES (?, ?, ?, ?)")
        #expect(insert.parameters.map(\.column) == ["id", "a", "b", "data"])

        let workload = WorkloadLoader.parse("""
            -- freq: 200
            SELECT id, b FROM item WHERE twice = 84;
            -- freq: 200
            SELECT id FROM item WHERE kind = 'k17';
            -- freq: 5
            INSERT INTO item VALUES (NULL, 5, 'new', '{"kind":"k1"}');
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        Self.expectEverySeen(result)
        #expect(result.statements[0].shapeSummary == "item: twice =")
        #expect(result.statements[1].shapeSummary == "item: kind =")
        let keys = Set(result.recommendations.compactMap { $0.columns.first?.name })
        #expect(keys == ["twice", "kind"])
    }

    @Test("UPSERT and RETURNING: shapes read without the clauses virtual tables refuse, and the report says so")
    func upsertAndReturning() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c TEXT UNIQUE)")
        let extractor = try ShapeExtractor(schema: SchemaReader.read(from: connection))
        let upsert = try extractor.shape(of: """
            INSERT INTO item(id, a, b, c) VALUES (?, ?, ?, ?) ON CONFLICT(c) DO UPDATE SET a = excluded.a, (b) = (excluded.b) \
            WHERE item.a <> ? ON CONFLICT DO NOTHING RETURNING id
            """)
        let access = try #require(upsert.access(to: "item"))
        #expect(access.isInserted && access.isUpdated)
        #expect(Set(access.writtenColumns) == ["id", "a", "b", "c"])
        #expect(upsert.parameters.map(\.column) == ["id", "a", "b", "c"])
        #expect(upsert.setAside == ["ON CONFLICT", "RETURNING"])
        let nothing = try extractor.shape(of: "INSERT INTO item(a, c) VALUES (?, ?) ON CONFLICT DO NOTHING")
        #expect(nothing.access(to: "item")?.isUpdated == false)
        let update = try extractor.shape(of: "UPDATE item SET b = ? WHERE a = ? RETURNING id, b")
        #expect(update.access(to: "item")?.constraints.first { $0.column == "a" }?.parameter == 2)
        #expect(update.access(to: "item")?.writtenColumns == ["b"])
        let delete = try extractor.shape(of: "DELETE FROM item WHERE a = ? RETURNING *")
        #expect(delete.access(to: "item")?.isDeleted == true)
        #expect(delete.access(to: "item")?.constraints.map(\.column) == ["a"])

        let store = try FixtureStore(Self.schemaSQL)
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            UPDATE item SET b = 'x' WHERE a = 7 RETURNING id;
            -- freq: 100
            DELETE FROM item WHERE b = 'b12' RETURNING id, a;
            -- freq: 20
            INSERT INTO item(id, a, b, data) VALUES (5, 1, 'b5', '{}') ON CONFLICT(id) DO UPDATE SET b = excluded.b RETURNING id;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        Self.expectEverySeen(result)
        #expect(result.statements[0].shapeSummary == "item: a =; UPDATE b")
        #expect(result.statements[0].notes.map(\.text).contains { $0.hasPrefix("its shape was read without its RETURNING clause") })
        #expect(result.statements[2].notes.map(\.text).contains { $0.contains("its ON CONFLICT clause") })
        #expect(Set(result.recommendations.compactMap { $0.columns.first?.name }) == ["a", "b"])
    }

    @Test("a literal inside an indexed expression stays in the text: the app's expression index is used, a missing one proposed")
    func expressionLiterals() throws {
        // The fingerprint keeps literals that shape an expression, so the mirror and the candidates see it.
        #expect(SQLNormalizer.normalize("SELECT * FROM t WHERE a+1 = 4 ORDER BY b").parameterizedSQL == "SELECT * FROM t WHERE a+1 = ? ORDER BY b")
        #expect(SQLNormalizer.normalize("SELECT id FROM t WHERE data ->> '$.kind' = 'note'").parameterizedSQL == "SELECT id FROM t WHERE data ->> '$.kind' = ?")
        #expect(SQLNormalizer.normalize("SELECT id FROM t WHERE substr(name, 1, 3) = 'abc' AND n = -5").parameterizedSQL == "SELECT id FROM t WHERE substr(name, 1, 3) = ? AND n = -?")
        #expect(SQLNormalizer.normalize("SELECT 1 + 2, x FROM t LIMIT 5").parameterizedSQL == "SELECT ? + ?, x FROM t LIMIT ?")

        let store = try FixtureStore(Self.schemaSQL + """
            CREATE INDEX item_a_plus ON item(a + 1, b);
            CREATE INDEX item_prefix ON item(substr(b, 1, 3));
            """)
        let workload = WorkloadLoader.parse("""
            -- freq: 100
            SELECT * FROM item WHERE a+1 = 4 ORDER BY b;
            -- freq: 100
            SELECT id FROM item WHERE substr(b, 1, 3) = 'b19';
            -- freq: 100
            SELECT id FROM item WHERE data ->> '$.kind' = 'k42';
            -- freq: 5
            UPDATE item SET a = 3 WHERE id = 9;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        Self.expectEverySeen(result)
        #expect(result.statements[0].planBefore?.indexesUsed == ["item_a_plus"])
        #expect(result.statements[1].planBefore?.indexesUsed == ["item_prefix"])
        // The app's expression indexes are used, so neither is listed as unused.
        #expect(!result.existingIndexes.contains { $0.index == "item_a_plus" || $0.index == "item_prefix" })
        // The JSON arrow had no index: one on exactly that expression is proposed, and used.
        let arrow = try #require(result.recommendations.first)
        #expect(arrow.sql.contains("((\"data\" ->> '$.kind'))"), "\(arrow.sql)")
        #expect(result.statements[2].planAfter?.indexesUsed == [arrow.name])
    }

    @Test("a multi-row INSERT and IN lists longer than SQLite's parameter limit get shapes, and the INSERT runs")
    func longLists() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, a INTEGER, b TEXT UNIQUE)")
        let extractor = try ShapeExtractor(schema: SchemaReader.read(from: connection))
        extractor.parameterLimit = 10
        let list = try extractor.shape(of: "SELECT * FROM item WHERE a IN (" + Array(repeating: "?", count: 40).joined(separator: ", ") + ") AND b > ?")
        #expect(list.parameters.count == 41)
        #expect(list.parameters.filter { $0.column == "a" }.map(\.parameter) == Array(1...40))
        #expect(list.parameters.last?.column == "b" && list.parameters.last?.parameter == 41)
        #expect(list.setAside == ["an IN list of 40 values"])
        let rows = try extractor.shape(of: "INSERT INTO item(id, a, b) VALUES " + Array(repeating: "(?, ?, ?)", count: 30).joined(separator: ", "))
        #expect(rows.parameters.count == 90)
        #expect(rows.parameters.map(\.column) == Array(Array(repeating: ["id", "a", "b"], count: 30).joined()))
        #expect(rows.setAside == ["a VALUES list of 30 rows"])
        // Under the limit nothing is cut.
        extractor.parameterLimit = 1_000
        #expect(try extractor.shape(of: "SELECT * FROM item WHERE a IN (?, ?, ?, ?, ?)").setAside.isEmpty)

        // More placeholders than SQLite binds: the values are written in as literals.
        let bound = WorkloadLoader.parse("SELECT * FROM item WHERE a IN (" + Array(repeating: "?", count: 40_000).joined(separator: ",") + ");",
                                         file: "w.sql", format: .sql).analysedStatements[0]
        let execution = try #require(LiteralExecutions.executions(for: bound, samples: [(0..<40_000).map { SQLValue.integer(Int64($0)) }]).first)
        #expect(execution.values.isEmpty)
        #expect(execution.sql.hasSuffix(",39998,39999)"))

        // A 2,000-row INSERT whose keys exist in the store: each row gets its own fresh key, so it runs.
        let store = try FixtureStore(Self.schemaSQL)
        let values = (1...2_000).map { "(\($0), \($0 % 7), 'n\($0)', '{}')" }.joined(separator: ", ")
        let workload = WorkloadLoader.parse("""
            -- freq: 3
            INSERT INTO item(id, a, b, data) VALUES \(values);
            -- freq: 100
            SELECT id FROM item WHERE a = 12;
            """, file: "w.sql", format: .sql)
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        Self.expectEverySeen(result)
        #expect(result.statements[0].timingBefore?.failures ?? 0 == 0)
        #expect(result.statements[0].timingBefore?.rowsPerExecution == 2_000)
    }
}
