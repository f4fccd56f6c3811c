import Testing
import Foundation
@testable import IndexAdvisor

/// Keys a timed write could not make new (issue 39, hostile round 5, F9 and F12): a unique expression that
/// changes only in big steps, a unique generated column, and keys fresh on a sample but a row's of the store.
@Suite("Fresh keys: expressions that change in big steps, generated columns, sampled tables")
struct FreshKeyKindsTests {
    /// `count` drawn value sets for `sql`'s first statement on `connection`.
    func samples(_ sql: String, on connection: SQLiteConnection, count: Int = 6, fullCopy: SQLiteConnection? = nil) throws -> [[SQLValue]] {
        let schema = try SchemaReader.read(from: connection)
        let statement = try #require(WorkloadLoader.parse(sql, format: .sql).statements.first)
        let shape = try ShapeExtractor(schema: schema).shape(of: statement.sql)
        var sampler = BindingSampler(connection: connection, schema: schema, seed: 11, fullCopy: fullCopy)
        let (tuples, source) = sampler.samples(for: statement, shape: shape, count: count)
        #expect(source == .drawn && tuples.count == count)
        return tuples
    }

    /// How many of `tuples` `sql` runs with on `connection`, each in a transaction rolled back.
    func runs(_ sql: String, _ tuples: [[SQLValue]], on connection: SQLiteConnection) throws -> Int {
        var ran = 0
        for tuple in tuples {
            try connection.execute("BEGIN")
            let statement = try connection.prepare(sql)
            try statement.bind(tuple)
            if (try? statement.run()) != nil { ran += 1 }
            try connection.execute("ROLLBACK")
        }
        return ran
    }

    func count(_ connection: SQLiteConnection, _ sql: String, _ values: [SQLValue] = []) throws -> Int64 {
        try #require(connection.scalar(sql, values)?.integerValue)
    }

    // Regression (F9 a): `opened` + 1 … + 16 stays in the month, so every drawn INSERT repeated a month and
    // failed "UNIQUE constraint failed"; the write went untimed.
    @Test("a unique index on a month of a timestamp gets a month no row has, in each row of a multi-row VALUES too")
    func monthKey() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE ledger (id INTEGER PRIMARY KEY, opened INTEGER NOT NULL, amount INTEGER);
            CREATE UNIQUE INDEX ledger_month ON ledger (strftime('%Y-%m', opened, 'unixepoch'));
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 239)
            INSERT INTO ledger (opened, amount) SELECT CAST(strftime('%s', '2001-01-01', '+' || i || ' months') AS INTEGER) + 7 * 86400, i FROM n;
            """)
        let month = "SELECT count(*) FROM ledger WHERE strftime('%Y-%m', opened, 'unixepoch') = strftime('%Y-%m', ?, 'unixepoch')"
        let insert = "INSERT INTO ledger (opened, amount) VALUES (?, ?)"
        let drawn = try samples(insert + ";", on: connection)
        for tuple in drawn {
            #expect(try count(connection, month, [tuple[0]]) == 0, "\(tuple)")
            // Past the last month the table has (2020-12), not a month before it.
            #expect(try #require(tuple[0].integerValue) > 1_609_459_200)
        }
        #expect(try runs(insert, drawn, on: connection) == 6)
        // Three rows of one INSERT: three months, none a row's, none another row's of the statement.
        let triple = "INSERT INTO ledger (opened, amount) VALUES (?, ?), (?, ?), (?, ?)"
        let sets = try samples(triple + ";", on: connection, count: 3)
        for tuple in sets {
            let months = try [0, 2, 4].map { try #require(connection.scalar("SELECT strftime('%Y-%m', ?, 'unixepoch')", [tuple[$0]])?.textValue) }
            #expect(Set(months).count == 3, "\(months)")
            for position in [0, 2, 4] { #expect(try count(connection, month, [tuple[position]]) == 0) }
        }
        #expect(try runs(triple, sets, on: connection) == 3)
        #expect(FreshKeys.jump(15) == 0 && FreshKeys.jump(16) == 16 && FreshKeys.jump(33) == 16 << 17)
    }

    // Regression (F9 b): no INSERT writes a generated column, so its unique index was no key a write made
    // new: a drawn row's (shelf, pos) gave the same place and label, and the INSERT failed.
    @Test("a unique index on a VIRTUAL generated column, on an expression of one, or on a STORED one is made new through what it is computed from")
    func generatedKeys() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE bin (id INTEGER PRIMARY KEY, shelf INTEGER NOT NULL, pos INTEGER NOT NULL,
                              place INTEGER GENERATED ALWAYS AS (shelf * 100 + pos) VIRTUAL,
                              label TEXT GENERATED ALWAYS AS ('Bin-' || place) VIRTUAL);
            CREATE UNIQUE INDEX bin_place ON bin (place);
            CREATE UNIQUE INDEX bin_label ON bin (lower(label));
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1799)
            INSERT INTO bin (shelf, pos) SELECT 1 + i / 60, i % 60 FROM n;
            CREATE TABLE shift (id INTEGER PRIMARY KEY, minute INTEGER NOT NULL, crew TEXT,
                                hour INTEGER GENERATED ALWAYS AS (minute / 60) STORED);
            CREATE UNIQUE INDEX shift_hour ON shift (hour);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
            INSERT INTO shift (minute, crew) SELECT i * 60 + 7, 'c' || (i % 4) FROM n;
            """)
        let schema = try SchemaReader.read(from: connection)
        let bin = try #require(schema.table(named: "bin"))
        #expect(bin.generationExpressions == ["place": "shelf * 100 + pos", "label": "'Bin-' || place"])
        #expect(bin.expandingGeneratedColumns(in: "lower(label)") == "lower ( ( 'Bin-' || (shelf * 100 + pos) ) )")
        #expect(FreshKeys.keys(of: bin).map(\.names) == [["id"], ["shelf", "pos"], ["shelf", "pos"]])
        let binInsert = "INSERT INTO bin (shelf, pos) VALUES (?, ?)"
        let bins = try samples(binInsert + ";", on: connection)
        for tuple in bins {
            #expect(try count(connection, "SELECT count(*) FROM bin WHERE place = ? * 100 + ?", [tuple[0], tuple[1]]) == 0, "\(tuple)")
        }
        #expect(try runs(binInsert, bins, on: connection) == 6)
        // minute + 1 … + 16 stays in the hour of the last row: the values go further, to an hour no row has.
        let shiftInsert = "INSERT INTO shift (minute, crew) VALUES (?, ?)"
        let shifts = try samples(shiftInsert + ";", on: connection)
        for tuple in shifts {
            #expect(try count(connection, "SELECT count(*) FROM shift WHERE hour = ? / 60", [tuple[0]]) == 0, "\(tuple)")
        }
        #expect(try runs(shiftInsert, shifts, on: connection) == 6)
    }

    // Regression (F12): on a sampled table the fresh keys were fresh on the sample only: the report's timed
    // values failed "UNIQUE constraint failed" when re-run on the store.
    @Test("on a sampled table a drawn INSERT's keys are no row's of the store: every timed value set inserts into the full table")
    func sampledKeys() throws {
        // The largest email under BINARY ('Kay9999@Mail.test') sits at a rowid the 1-in-4 sample keeps, and 40
        // rows of the store hold its upper-case forms with a number after ('KAY9999@MAIL.TEST0' …), most of
        // which the sample leaves out: lower() makes them the fresh values the sample's largest suggests. The
        // largest seq, one past the sample's, is at a rowid the sample leaves out.
        let mixer = try SQLiteConnection.inMemory()
        try mixer.registerMixFunction()
        func rowid(from start: Int, kept: Bool) throws -> Int64 {
            try count(mixer, "WITH RECURSIVE n(i) AS (SELECT \(start) UNION ALL SELECT i + 1 FROM n WHERE i < \(start + 100)) SELECT min(i) FROM n WHERE (indexadvisor_mix(i) % 4 = 0) = \(kept ? 1 : 0)")
        }
        let kept = try rowid(from: 5000, kept: true), dropped = try rowid(from: 6041, kept: false)
        let store = try FixtureStore("""
            CREATE TABLE subscriber (id INTEGER PRIMARY KEY, email TEXT NOT NULL, seq INTEGER NOT NULL, plan TEXT);
            CREATE UNIQUE INDEX subscriber_email ON subscriber (lower(email));
            CREATE UNIQUE INDEX subscriber_seq ON subscriber (seq);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO subscriber SELECT i, printf('Kay%04d@Mail.test', i), i, 'free' FROM n;
            INSERT INTO subscriber VALUES (\(kept), 'Kay9999@Mail.test', \(kept), 'free');
            WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < 39)
            INSERT INTO subscriber SELECT 6001 + k, 'KAY9999@MAIL.TEST' || k, 6001 + k, 'pro' FROM n;
            INSERT INTO subscriber VALUES (\(dropped), 'Joe@Mail.test', 6041, 'pro');
            """)
        let insert = "INSERT INTO subscriber (email, seq, plan) VALUES (?, ?, ?)"

        // The premise: the sample's largest values are not the store's, so freshness on the sample is not enough.
        let snapshot = try StoreSnapshot.take(of: store.url)
        defer { snapshot.close() }
        let schema = try SchemaReader.read(from: snapshot.connection)
        let sampled = try snapshot.sampleLargeTables(schema: schema, maxRows: 1_000)
        #expect(sampled.map(\.step) == [4])
        let full = try #require(snapshot.fullCopyConnection)
        #expect(try count(full, "SELECT count(*) FROM subscriber") == 3_042)
        #expect(try full.scalar("SELECT max(email) FROM subscriber") == .text("Kay9999@Mail.test"))
        #expect(try snapshot.connection.scalar("SELECT max(email) FROM subscriber") == .text("Kay9999@Mail.test"))
        #expect(try count(snapshot.connection, "SELECT count(*) FROM subscriber WHERE lower(email) LIKE 'kay9999@mail.test_%'") < 20)
        let sampleLargest = try count(snapshot.connection, "SELECT max(seq) FROM subscriber")
        #expect(try count(full, "SELECT count(*) FROM subscriber WHERE seq = ?", [.integer(sampleLargest + 1)]) == 1)
        let drawn = try samples(insert + ";", on: snapshot.connection, fullCopy: full)
        // No form of the store's under lower(): not one of the 40 past the largest that the sample leaves out.
        for tuple in drawn {
            #expect(try count(full, "SELECT count(*) FROM subscriber WHERE lower(email) = lower(?)", [tuple[0]]) == 0, "\(tuple)")
        }
        #expect(try runs(insert, drawn, on: full) == 6)
        snapshot.releaseFullCopy()
        #expect(snapshot.fullCopyConnection == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: snapshot.directory.url.path).filter { $0.hasPrefix("snapshot.sqlite") } == [])

        // The whole analysis: the JSON's timed value sets insert into the store as they did into the sample.
        var options = quickOptions()
        options.sampleRows = 1_000
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("-- freq: 50\n\(insert);", file: "w.sql", format: .sql), options: options)
        #expect(result.store.sampledTables.map(\.table) == ["subscriber"])
        let statement = try #require(result.statements.first)
        #expect(statement.timingBefore?.failures == 0)
        let timed = try #require(statement.timedExecutions)
        #expect(timed.count == 6 && timed.allSatisfy { $0.sql == insert })
        let onStore = try SQLiteConnection(path: store.url.path, mode: .readWrite)
        #expect(try runs(insert, timed.map(\.values), on: onStore) == 6)
    }
}
