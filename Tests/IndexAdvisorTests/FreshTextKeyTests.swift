import Testing
import Foundation
@testable import IndexAdvisor

/// Fresh keys for unique expressions over text (issue 39, hostile round 6, F5): the largest text with digits
/// after it keeps a prefix that `substr` reads and is no JSON `->>` reads, so such an INSERT was timed on a
/// key that clashed or failed and left out of the advice. A bookshop of my own: parts keyed by an ISBN's
/// first ten digits, stock items by a JSON document's SKU, readers by their lower-cased email.
@Suite("Fresh keys for unique expressions over text")
struct FreshTextKeyTests {
    static let schema = """
        CREATE TABLE part (id INTEGER PRIMARY KEY, isbn TEXT NOT NULL, title TEXT);
        CREATE UNIQUE INDEX part_isbn10 ON part (substr(isbn, 1, 10));
        CREATE TABLE item (id INTEGER PRIMARY KEY, meta TEXT NOT NULL, shelf INTEGER);
        CREATE UNIQUE INDEX item_sku ON item (json_extract(meta, '$.sku'));
        CREATE TABLE bin (id INTEGER PRIMARY KEY, spec TEXT NOT NULL);
        CREATE UNIQUE INDEX bin_slot ON bin (spec ->> '$.dims[1]');
        CREATE TABLE reader (id INTEGER PRIMARY KEY, email TEXT NOT NULL, joined INTEGER);
        CREATE UNIQUE INDEX reader_email ON reader (lower(email));
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
        INSERT INTO part (isbn, title) SELECT printf('978%07d%03d', i, i % 1000), 'T' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1800)
        INSERT INTO item (meta, shelf) SELECT json_object('sku', printf('SKU-%05d', i), 'qty', i % 9, 'tags', json_array('new', 'b' || (i % 4))), i % 30 FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
        INSERT INTO bin (spec) SELECT json_object('dims', json_array(i % 5, i, 'x')) FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 900)
        INSERT INTO reader (email, joined) SELECT printf('Reader%d@Shop.test', i), i FROM n;
        """

    /// The inserts, each with a key a row holds already, and the SQL that counts the rows whose key the first value gives.
    static let inserts: [(sql: String, clash: String)] = [
        ("INSERT INTO part (isbn, title) VALUES ('9780000042999', 'New')", "SELECT count(*) FROM part WHERE substr(isbn, 1, 10) = substr(?, 1, 10)"),
        ("INSERT INTO item (meta, shelf) VALUES ('{\"sku\":\"SKU-00042\",\"qty\":2,\"tags\":[\"new\"]}', 4)", "SELECT count(*) FROM item WHERE json_extract(meta, '$.sku') = json_extract(?, '$.sku')"),
        ("INSERT INTO bin (spec) VALUES ('{\"dims\":[2,77,\"x\"]}')", "SELECT count(*) FROM bin WHERE spec ->> '$.dims[1]' = ? ->> '$.dims[1]'"),
        ("INSERT INTO reader (email, joined) VALUES ('READER7@shop.TEST', 5)", "SELECT count(*) FROM reader WHERE lower(email) = lower(?)"),
    ]

    /// How many of `tuples` `sql` inserts into a copy of `store`'s file.
    func inserted(_ sql: String, _ tuples: [[SQLValue]], copying store: FixtureStore) throws -> Int {
        let copy = store.directory.url.appendingPathComponent("copy-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: store.url, to: copy)
        let connection = try SQLiteConnection(path: copy.path, mode: .readWrite)
        var ran = 0
        for tuple in tuples {
            let statement = try connection.prepare(sql)
            try statement.bind(tuple)
            if (try? statement.run()) != nil { ran += connection.changes }
        }
        return ran
    }

    // Regression (F5): '9780000042999' gave '97800025009990', whose first ten digits are the largest row's;
    // '{"sku":…}' gave '{"sku":"SKU-01800",…}0', malformed JSON. Each INSERT was "not analysed".
    @Test("an INSERT whose key a row holds under substr, json_extract, ->> or lower is timed on a key no row holds, which inserts on a copy of the store")
    func appKeysReplaced() throws {
        let store = try FixtureStore(Self.schema)
        let before = try store.fileState()
        let text = Self.inserts.map { "-- freq: 200\n\($0.sql);\n" }.joined()
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        #expect(try store.fileState() == before)
        let check = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        for (sql, clash) in Self.inserts {
            let statement = try #require(result.statements.first { $0.sql.hasPrefix(String(sql.prefix(16))) })
            // The premise: the app's own key is a row's.
            let literal = try #require(WorkloadLoader.parse(sql + ";", format: .sql).statements.first?.literalValues.first ?? nil)
            #expect(try check.scalar(clash, [literal])?.integerValue == 1, "\(sql)")
            #expect(statement.error == nil, "\(statement.error ?? "")")
            #expect(statement.timingBefore?.failures == 0, "\(sql)")
            let timed = try #require(statement.timedExecutions)
            #expect(!timed.isEmpty)
            for execution in timed {
                #expect(try inserted(execution.sql, [execution.values], copying: store) == 1, "\(execution.sql)")
            }
        }
        // None is listed as not analysed, and the writes are in the totals.
        let markdown = checkedRender(result, .markdown)
        #expect(!markdown.contains("could not be timed"), "\(markdown.components(separatedBy: "\n").filter { $0.contains("could not be timed") })")
    }

    @Test("drawn INSERTs get keys no row holds under each expression, each row of a multi-row VALUES its own")
    func drawnKeys() throws {
        let store = try FixtureStore(Self.schema)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let schema = try SchemaReader.read(from: connection)
        var sampler = BindingSampler(connection: connection, schema: schema, seed: 5)
        let writes = [
            ("INSERT INTO part (isbn, title) VALUES (?, ?), (?, ?)", "SELECT count(*) FROM part WHERE substr(isbn, 1, 10) = substr(?, 1, 10)"),
            ("INSERT INTO item (meta, shelf) VALUES (?, ?), (?, ?)", "SELECT count(*) FROM item WHERE json_extract(meta, '$.sku') = json_extract(?, '$.sku')"),
            ("INSERT INTO bin (spec) VALUES (?), (?)", "SELECT count(*) FROM bin WHERE spec ->> '$.dims[1]' = ? ->> '$.dims[1]'"),
        ]
        for (sql, clash) in writes {
            let statement = try #require(WorkloadLoader.parse(sql + ";", format: .sql).statements.first)
            let shape = try ShapeExtractor(schema: schema).shape(of: statement.sql)
            let (tuples, source) = sampler.samples(for: statement, shape: shape, count: 5)
            #expect(source == .drawn && tuples.count == 5)
            let width = tuples[0].count / 2
            for tuple in tuples {
                for first in [tuple[0], tuple[width]] {
                    #expect(try connection.scalar(clash, [first])?.integerValue == 0, "\(sql): \(tuple)")
                }
            }
            #expect(try inserted(sql, tuples, copying: store) == 10, "\(sql): \(tuples)")
        }
    }

    @Test("a text drawn again keeps each character's kind, and a JSON document its keys and shape")
    func candidateShapes() throws {
        let connection = try SQLiteConnection.inMemory()
        var candidates = KeyCandidates(connection: connection)
        let code = try #require(candidates.value(like: .text("Ab-042z"), attempt: 2)?.textValue)
        // The first 4 characters drawn again (a letter for a letter of its case, a digit for a digit), the rest kept.
        #expect(code.count == 7 && Array(code)[2] == "-" && code.hasSuffix("2z"), "\(code)")
        #expect(Array(code)[0].isUppercase && Array(code)[1].isLowercase && Array(code)[3].isNumber, "\(code)")
        // Past its end: more characters of the kind of its last letter or digit.
        let longer = try #require(candidates.value(like: .text("x1"), attempt: 3)?.textValue)
        #expect(longer.count == 9 && longer.dropFirst().allSatisfy(\.isNumber), "\(longer)")
        let document = "{\"sku\":\"K-17\",\"n\":[3,4.5],\"ok\":true,\"none\":null}"
        let drawn = try #require(candidates.value(like: .text(document), attempt: 1)?.textValue)
        let keys = "SELECT group_concat(fullkey || ':' || type, ',') FROM json_tree(?)"
        #expect(try connection.scalar(keys, [.text(drawn)]) == connection.scalar(keys, [.text(document)]), "\(drawn)")
        #expect(try connection.scalar("SELECT json_extract(?, '$.ok') = 1 AND json_extract(?, '$.none') IS NULL", [.text(drawn), .text(drawn)])?.integerValue == 1)
        // A number has one digit more on attempt 1, a real keeps its fraction.
        #expect(try connection.scalar("SELECT json_extract(?, '$.n[0]') BETWEEN 10 AND 99", [.text(drawn)])?.integerValue == 1, "\(drawn)")
        #expect(try connection.scalar("SELECT json_extract(?, '$.n[1]') - CAST(json_extract(?, '$.n[1]') AS INTEGER)", [.text(drawn), .text(drawn)]) == .real(0.5))
        #expect(candidates.value(like: .integer(7), attempt: 1) == nil)
    }

    @Test("when no value tried is free the drawn value stays, and the INSERT is disclosed as not timed")
    func noFreeKey() throws {
        let store = try FixtureStore("""
            CREATE TABLE flag (id INTEGER PRIMARY KEY, code TEXT);
            CREATE UNIQUE INDEX flag_one ON flag ((code IS NOT NULL));
            INSERT INTO flag (code) VALUES ('on'), (NULL);
            """)
        let connection = try SQLiteConnection(path: store.url.path, mode: .readOnly)
        let schema = try SchemaReader.read(from: connection)
        var sampler = BindingSampler(connection: connection, schema: schema, seed: 3)
        let statement = try #require(WorkloadLoader.parse("INSERT INTO flag (code) VALUES (?);", format: .sql).statements.first)
        let (tuples, _) = sampler.samples(for: statement, shape: try ShapeExtractor(schema: schema).shape(of: statement.sql), count: 4)
        #expect(tuples.allSatisfy { $0 == [.text("on")] || $0 == [.null] }, "\(tuples)")
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("INSERT INTO flag (code) VALUES ('off');\nSELECT code FROM flag WHERE id = 1;\n", file: "w.sql", format: .sql),
                                         options: quickOptions())
        let insert = try #require(result.statements.first { $0.kind == .insert })
        #expect(insert.error?.contains("UNIQUE constraint failed") == true, "\(insert.error ?? "")")
        #expect(insert.timedExecutions?.first?.sql.contains("'off'") ?? true, "\(insert.timedExecutions?.map(\.sql) ?? [])")
    }
}
