import Testing
import Foundation
@testable import IndexAdvisor

/// Kinds of index real fixes use beyond a plain ascending key (issue 38, item 4): a descending key for a
/// descending sort, a partial index for a sentinel a statement always excludes (`!=`), and one for a term on
/// an expression (`(bits & k) != 0`) that keeps few rows. Each kind is measured by the selector like any other.
@Suite("Candidate kinds: descending keys and partial indexes for sentinels and bit tests")
struct CandidateKindTests {
    func analyze(_ schema: String, workload: String) throws -> AnalysisResult {
        let store = try FixtureStore(schema)
        return try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "w.sql", format: .sql), options: quickOptions())
    }

    @Test("an all-descending sort gets its descending key as a candidate of its own, beside the ascending one")
    func descendingKey() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE sample (id INTEGER PRIMARY KEY, site TEXT, takenAt REAL, reading REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO sample SELECT i, 's' || (i % 40), i * 2.5, i FROM n;
            """)
        let schema = try SchemaReader.read(from: connection)
        let shape = try ShapeExtractor(schema: schema).shape(of: "SELECT * FROM sample WHERE site = ? ORDER BY takenAt DESC, id DESC")
        var generator = CandidateGenerator(schema: schema, statistics: ColumnStatisticsReader(connection: connection))
        let keys = generator.candidates(for: try #require(shape.access(to: "sample")))
            .map { $0.columns.map { ($0.name ?? "?") + ($0.isDescending ? " DESC" : "") }.joined(separator: ", ") }
        #expect(keys.contains("site, takenAt"))
        #expect(keys.contains("site, takenAt DESC"))
        // The two plan alike: the screening keeps both (the plan text does not say which way an index is read).
        let plans: [[Int: String]] = [[0: "SEARCH sample USING INDEX • (site=?)"], [0: "SEARCH sample USING INDEX • (site=?)"]]
        let pair = [IndexCandidate(table: "sample", columns: [IndexColumn(name: "site"), IndexColumn(name: "takenAt")]),
                    IndexCandidate(table: "sample", columns: [IndexColumn(name: "site"), IndexColumn(name: "takenAt", isDescending: true)])]
        #expect(EquivalentCandidates.choose(pair, plans: plans, matchedFraction: { _ in nil }).kept == [0, 1])
    }

    @Test("a bit test that keeps 1 % of the rows gets a partial index WHERE the same term, keyed by the sort")
    func bitTestPartial() throws {
        let result = try analyze("""
            CREATE TABLE ticket (id INTEGER PRIMARY KEY, bits INTEGER NOT NULL, code TEXT, title TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO ticket SELECT i, CASE WHEN i % 101 = 0 THEN 8 | (i % 4) ELSE i % 4 END, printf('c%06d', (i * 4999) % 30000), 't' FROM n;
            """, workload: """
            -- freq: 40
            SELECT t.id, t.code FROM ticket t WHERE (t.bits & 8) != 0 ORDER BY t.code;
            """)
        let pick = try #require(result.recommendations.first)
        #expect(pick.columns.map(\.name) == ["code"])
        #expect(pick.partialPredicate == "(\"bits\" & 8) != 0")
        #expect(result.statements[0].usesRecommendations == [pick.name])
        let effect = try #require(pick.effects.first)
        #expect(effect.isSignificant && effect.after.medianSeconds * 5 < effect.before.medianSeconds)
    }

    @Test("a sentinel excluded with != (0 on 97 % of rows) gets a partial index WHERE col != 0")
    func sentinelPartial() throws {
        let result = try analyze("""
            CREATE TABLE post (id INTEGER PRIMARY KEY, replyTo INTEGER NOT NULL DEFAULT 0, postedAt REAL, body TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO post SELECT i, CASE WHEN i % 33 = 0 THEN i / 33 ELSE 0 END, (i * 7001) % 30000 * 1.0, 'b' FROM n;
            """, workload: """
            -- freq: 40
            SELECT id, postedAt FROM post WHERE replyTo != 0 ORDER BY postedAt;
            """)
        let pick = try #require(result.recommendations.first)
        #expect(pick.partialPredicate == "\"replyTo\" != 0")
        #expect(result.statements[0].usesRecommendations == [pick.name])
        let kinds = try #require(result.statements[0].planAfter).findings.map(\.kind)
        #expect(!kinds.contains(.fullTableScan) && !kinds.contains(.tempBTree), "\(kinds)")
    }

    @Test("a parenthesised operator term is read with its comparison and literal")
    func parenthesisedTerm() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE ticket (id INTEGER PRIMARY KEY, bits INTEGER, code TEXT)")
        let schema = try SchemaReader.read(from: connection)
        let sql = "SELECT id FROM ticket t WHERE (t.bits & 8) <> 0 AND code > ?"
        let shape = try ShapeExtractor(schema: schema).shape(of: sql)
        let filters = ExpressionFilters.find(in: sql, shape: shape, schema: schema)
        #expect(filters == [ExpressionFilter(table: "ticket", expression: "\"bits\" & 8", op: .notEqual, parameter: nil, literal: "0")])
    }

    @Test("the share of rows a term keeps is counted on the statistics' sample, and a bound value stands for a parameter")
    func termShares() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE ticket (id INTEGER PRIMARY KEY, bits INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO ticket SELECT i, CASE WHEN i % 50 = 0 THEN 8 ELSE 1 END FROM n;
            """)
        let schema = try SchemaReader.read(from: connection)
        let table = try #require(schema.table(named: "ticket"))
        var reader = ColumnStatisticsReader(connection: connection)
        #expect(reader.share(matching: "(\"bits\" & 8) != 0", table: table) == 0.02)
        #expect(reader.share(of: .integer(1), table: table, column: "bits") == 0.98)
        reader.sampleLimit = 1000  // every 10th row by a hash of the rowid: about the same share
        let counted = reader.share(matching: "\"bits\" = ?", bindings: [.integer(8)], table: table)
        let sampled = try #require(counted)
        #expect(sampled > 0.005 && sampled < 0.05, "\(sampled)")
        #expect(CandidateGenerator.constantValue(of: 1, in: [[.integer(0)], [.integer(0)]]) == .integer(0))
        #expect(CandidateGenerator.constantValue(of: 1, in: [[.integer(0)], [.integer(1)]]) == nil)
        #expect(CandidateGenerator.constantValue(of: 1, in: [[.null]]) == nil)
    }
}
