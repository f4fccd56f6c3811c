import Testing
import Foundation
@testable import IndexAdvisor

/// The values a timed write runs with: new keys where a key would repeat (of one column or several, of a
/// rowid table or a WITHOUT ROWID one), the app's own key for a write that settles a clash itself.
@Suite("Write values: fresh composite keys, the app's key for an upsert, untimed writes in the summary")
struct WriteValueTests {
    /// A rowid table keyed by three columns, a WITHOUT ROWID table keyed by two with a unique index beside
    /// the key, and a table with a unique index other than its INTEGER PRIMARY KEY.
    static let schema = """
        CREATE TABLE seat (flight INTEGER NOT NULL, seat_row INTEGER NOT NULL, letter TEXT NOT NULL, passenger TEXT,
                           PRIMARY KEY (flight, seat_row, letter));
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2999)
        INSERT INTO seat SELECT 700 + i / 60, 1 + (i / 6) % 10, char(65 + i % 6), 'p' || i FROM n;
        CREATE TABLE label (doc TEXT NOT NULL, tag TEXT NOT NULL, slot INTEGER, slug TEXT NOT NULL, PRIMARY KEY (doc, tag)) WITHOUT ROWID;
        CREATE UNIQUE INDEX label_slug ON label (slug COLLATE NOCASE);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO label SELECT 'd' || (i % 150), 't' || (i / 150), i, 'S-' || i FROM n;
        CREATE TABLE gadget (id INTEGER PRIMARY KEY, serial TEXT NOT NULL, pings INTEGER NOT NULL DEFAULT 0);
        CREATE UNIQUE INDEX gadget_serial ON gadget (serial);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO gadget SELECT i, printf('sn-%05d', i), 0 FROM n;
        CREATE TABLE gadget_total (gid INTEGER PRIMARY KEY, busy INTEGER);
        INSERT INTO gadget_total VALUES (1, 0);
        CREATE TRIGGER gadget_pinged AFTER UPDATE ON gadget
        BEGIN UPDATE gadget_total SET busy = (SELECT count(*) FROM gadget WHERE pings >= NEW.pings) WHERE gid = 1; END;
        """

    func connection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(Self.schema)
        return connection
    }

    /// `count` value sets for the first statement of `workload` (a `.sql` file's text).
    func samples(_ workload: String, on connection: SQLiteConnection, count: Int = 6) throws -> ([[SQLValue]], BindingSampler.Source) {
        let schema = try SchemaReader.read(from: connection)
        let statement = try #require(WorkloadLoader.parse(workload, format: .sql).statements.first)
        let shape = try ShapeExtractor(schema: schema).shape(of: statement.sql)
        var sampler = BindingSampler(connection: connection, schema: schema, seed: 7)
        return sampler.samples(for: statement, shape: shape, count: count)
    }

    func rows(_ connection: SQLiteConnection, _ sql: String, _ values: [SQLValue]) throws -> Int64 {
        try connection.scalar(sql, values)?.integerValue ?? -1
    }

    // Regression (issue 39, F8): a key of several columns was never made new (only one-column unique
    // indexes were), so a drawn row's (book, shelf) pair was inserted again and failed; the write went untimed.
    @Test("a drawn INSERT into a three-column primary key and into a WITHOUT ROWID table gets a key no row has")
    func compositeKeys() throws {
        let connection = try connection()
        let (seats, source) = try samples("INSERT INTO seat (flight, seat_row, letter, passenger) VALUES (?, ?, ?, ?);", on: connection)
        #expect(source == .drawn && seats.count == 6)
        for tuple in seats {
            #expect(try rows(connection, "SELECT count(*) FROM seat WHERE flight = ? AND seat_row = ? AND letter = ?", Array(tuple[0..<3])) == 0)
            // One column, the key's first, is new (past flight 749); the others are a drawn row's.
            #expect(try #require(tuple[0].integerValue) >= 750)
            #expect(try rows(connection, "SELECT count(*) FROM seat WHERE seat_row = ? AND letter = ? AND passenger = ?", Array(tuple[1..<4])) >= 1)
        }
        #expect(Set(seats.map { $0[0] }).count == 6)

        let (labels, _) = try samples("INSERT INTO label (doc, tag, slot, slug) VALUES (?, ?, ?, ?);", on: connection)
        for tuple in labels {
            #expect(try rows(connection, "SELECT count(*) FROM label WHERE doc = ? AND tag = ?", [tuple[0], tuple[1]]) == 0)
            #expect(try rows(connection, "SELECT count(*) FROM label WHERE slug = ? COLLATE NOCASE", [tuple[3]]) == 0)
            // Ordinary values of the column's kind: the largest text with digits after it.
            #expect(tuple[0].textValue?.hasPrefix("d99") == true)
            #expect(tuple[3].textValue?.hasPrefix("S-999") == true)
            #expect(!"\(tuple)".contains("indexadvisor"))
        }
    }

    @Test("the app's own INSERT keys run as written unless a row has them: then only the clashing key is replaced")
    func observedKeys() throws {
        let connection = try connection()
        let (fresh, source) = try samples("INSERT INTO seat (flight, seat_row, letter, passenger) VALUES (901, 3, 'C', 'new');", on: connection)
        #expect(source == .observed)
        #expect(fresh == [[.integer(901), .integer(3), .text("C"), .text("new")]])
        // (701, 2, 'B') exists: the flight is moved past the largest, the rest stays the app's.
        let (clash, _) = try samples("INSERT INTO seat (flight, seat_row, letter, passenger) VALUES (701, 2, 'B', 'again');", on: connection)
        #expect(clash == [[.integer(750), .integer(2), .text("B"), .text("again")]])
        // A slug that clashes under the index's NOCASE (s-17 is S-17): replaced; the new (doc, tag) kept.
        let (slug, _) = try samples("INSERT INTO label (doc, tag, slot, slug) VALUES ('memo', 'urgent', 1, 's-17');", on: connection)
        #expect(slug == [[.text("memo"), .text("urgent"), .integer(1), .text("S-9990")]])
    }

    @Test("an upsert, INSERT OR REPLACE, REPLACE and INSERT OR IGNORE keep the app's existing key; a plain INSERT does not")
    func conflictResolvingKeys() throws {
        let connection = try connection()
        for text in ["INSERT INTO gadget (serial, pings) VALUES ('sn-00042', 1) ON CONFLICT(serial) DO UPDATE SET pings = pings + 1;",
                     "INSERT INTO gadget (serial, pings) VALUES ('sn-00042', 1) ON CONFLICT DO NOTHING;",
                     "INSERT OR REPLACE INTO gadget (serial, pings) VALUES ('sn-00042', 1);",
                     "REPLACE INTO gadget (serial, pings) VALUES ('sn-00042', 1);",
                     "INSERT OR IGNORE INTO gadget (serial, pings) VALUES ('sn-00042', 1);"] {
            let (values, _) = try samples(text, on: connection)
            #expect(values == [[.text("sn-00042"), .integer(1)]], "\(text)")
        }
        let (plain, _) = try samples("INSERT INTO gadget (serial, pings) VALUES ('sn-00042', 1);", on: connection)
        #expect(plain == [[.text("sn-300000"), .integer(1)]])
        // Drawn values of an upsert: even sets an existing row's key (the conflict path), odd sets a new one.
        let (drawn, _) = try samples("INSERT INTO gadget (serial, pings) VALUES (?, ?) ON CONFLICT(serial) DO UPDATE SET pings = pings + 1;", on: connection)
        let existing = try drawn.map { try rows(connection, "SELECT count(*) FROM gadget WHERE serial = ?", [$0[0]]) }
        #expect(existing == [1, 0, 1, 0, 1, 0])

        #expect(SQLTokenList("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x WHERE true ON CONFLICT DO NOTHING").resolvesKeyConflicts)
        #expect(SQLTokenList("UPDATE OR IGNORE t SET a = 1").resolvesKeyConflicts)
        #expect(!SQLTokenList("SELECT * FROM a JOIN b ON conflict = 1").resolvesKeyConflicts)
        #expect(!SQLTokenList("INSERT INTO t (a) SELECT replace(b, 'x', 'y') FROM u").resolvesKeyConflicts)
        #expect(!SQLTokenList("INSERT OR ABORT INTO t (a) VALUES (1)").resolvesKeyConflicts)
    }

    // Regression (hostile round 4, F6): a table whose constraint says `ON CONFLICT REPLACE` (or `IGNORE`) makes
    // every plain INSERT of it settle a clash itself, as `INSERT OR REPLACE` does; its key was made fresh, so
    // the replace path the app takes was never timed.
    @Test("a plain INSERT into a table whose constraint resolves conflicts keeps the app's existing key")
    func tableConflictClause() throws {
        let connection = try connection()
        try connection.execute("""
            CREATE TABLE pin (board INTEGER NOT NULL, slot INTEGER NOT NULL, note TEXT, UNIQUE (board, slot) ON CONFLICT REPLACE);
            CREATE TABLE handle (id INTEGER PRIMARY KEY, nick TEXT UNIQUE ON CONFLICT IGNORE);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
            INSERT INTO pin SELECT i % 20, i / 20, 'n' || i FROM n;
            INSERT INTO handle (nick) VALUES ('ada'), ('bob');
            """)
        let (pin, _) = try samples("INSERT INTO pin (board, slot, note) VALUES (3, 4, 'moved');", on: connection)
        #expect(pin == [[.integer(3), .integer(4), .text("moved")]])
        let (nick, _) = try samples("INSERT INTO handle (nick) VALUES ('ada');", on: connection)
        #expect(nick == [[.text("ada")]])
        #expect(SQLTokenList("CREATE TABLE t (a INTEGER PRIMARY KEY ON CONFLICT IGNORE)").declaresConflictResolution)
        #expect(!SQLTokenList("CREATE TABLE t (a INTEGER PRIMARY KEY ON CONFLICT ABORT, b UNIQUE)").declaresConflictResolution)
    }

    // Regression (hostile round 4, F9): a unique index on an expression of one column (`lower(email)`) was no
    // key, so a drawn INSERT repeated an existing address and was never timed.
    @Test("a unique index on an expression of one column is a key: drawn values are fresh, a clashing app value is replaced")
    func expressionKey() throws {
        let connection = try connection()
        try connection.execute("""
            CREATE TABLE account (id INTEGER PRIMARY KEY, email TEXT NOT NULL, plan TEXT);
            CREATE UNIQUE INDEX account_email ON account (lower(email));
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 800)
            INSERT INTO account SELECT i, 'User' || i || '@Mail.test', 'free' FROM n;
            """)
        let (drawn, _) = try samples("INSERT INTO account (email, plan) VALUES (?, ?);", on: connection)
        #expect(drawn.count == 6)
        for tuple in drawn {
            #expect(try rows(connection, "SELECT count(*) FROM account WHERE lower(email) = lower(?)", [tuple[0]]) == 0, "\(tuple)")
        }
        let (clash, _) = try samples("INSERT INTO account (email, plan) VALUES ('user7@mail.test', 'pro');", on: connection)
        #expect(clash.first?.first != .text("user7@mail.test"))
        #expect(try rows(connection, "SELECT count(*) FROM account WHERE lower(email) = lower(?)", [clash[0][0]]) == 0)
        let (fresh, _) = try samples("INSERT INTO account (email, plan) VALUES ('new@mail.test', 'pro');", on: connection)
        #expect(fresh == [[.text("new@mail.test"), .text("pro")]])
        let account = try #require(SchemaReader.read(from: connection).table(named: "account"))
        #expect(FreshKeys.columns(of: "lower(email)", in: account) == ["email"])
        #expect(FreshKeys.columns(of: "plan || lower(email) || plan", in: account) == ["plan", "email"])
        #expect(FreshKeys.columns(of: "lower('x')", in: account) == [])
    }

    // Regression (issue 39, hostile round 4, F9 as a kind): a unique index on an expression of several
    // columns (`lower(given) || '/' || family`), on a column and an expression (`team, upper(code)`), or a
    // partial one was no key, so every drawn INSERT repeated a row's and failed "UNIQUE constraint failed".
    @Test("unique indexes on expressions of several columns, and partial ones, are keys a drawn INSERT gets fresh")
    func multiColumnExpressionKeys() throws {
        let connection = try connection()
        try connection.execute("""
            CREATE TABLE member (id INTEGER PRIMARY KEY, given TEXT NOT NULL, family TEXT NOT NULL, team INTEGER, code TEXT);
            CREATE UNIQUE INDEX member_name ON member (lower(given) || '/' || family);
            CREATE UNIQUE INDEX member_code ON member (team, upper(code));
            CREATE UNIQUE INDEX member_desk ON member (family || '#' || code) WHERE team > 0;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700)
            INSERT INTO member SELECT i, 'g' || i, 'F' || (i % 50), i % 7, 'c' || i FROM n;
            """)
        let table = try #require(SchemaReader.read(from: connection).table(named: "member"))
        #expect(FreshKeys.keys(of: table).map(\.names) == [["id"], ["given", "family"], ["team", "code"], ["family", "code"]])
        let insert = "INSERT INTO member (given, family, team, code) VALUES (?, ?, ?, ?);"
        let (drawn, source) = try samples(insert, on: connection)
        #expect(source == .drawn && drawn.count == 6)
        // One column of each key past its largest value: `given` after 'g99', `team` after 6, `family` after 'F9'.
        #expect(drawn.map { $0[0] } == (0..<6).map { .text("g99\($0)") })
        #expect(drawn.map { $0[2] } == (0..<6).map { .integer(7 + Int64($0)) })
        #expect(drawn.map { $0[1] } == (0..<6).map { .text("F9\($0)") })
        for tuple in drawn {
            #expect(try rows(connection, "SELECT count(*) FROM member WHERE lower(given) || '/' || family = lower(?) || '/' || ?", [tuple[0], tuple[1]]) == 0)
            #expect(try rows(connection, "SELECT count(*) FROM member WHERE team = ? AND upper(code) = upper(?)", [tuple[2], tuple[3]]) == 0)
            #expect(try rows(connection, "SELECT count(*) FROM member WHERE team > 0 AND family || '#' || code = ? || '#' || ?", [tuple[1], tuple[3]]) == 0)
        }
        // Each drawn row inserts (in a transaction rolled back): the write is timed.
        try connection.execute("BEGIN")
        for tuple in drawn {
            let statement = try connection.prepare(insert)
            try statement.bind(tuple)
            try statement.run()
        }
        #expect(try rows(connection, "SELECT count(*) FROM member", []) == 706)
        try connection.execute("ROLLBACK")
        // The app's own values: replaced only when the whole key is a row's ('G7'/'F7' is g7's name under lower()).
        let (clash, _) = try samples("INSERT INTO member (given, family, team, code) VALUES ('G7', 'F7', 90, 'z1');", on: connection)
        #expect(clash == [[.text("g990"), .text("F7"), .integer(90), .text("z1")]])
        let (own, _) = try samples("INSERT INTO member (given, family, team, code) VALUES ('G7', 'F8', 90, 'z1');", on: connection)
        #expect(own == [[.text("G7"), .text("F8"), .integer(90), .text("z1")]])
    }

    // A fresh value of the column can still repeat the expression's: 'kit0' is 'KIT0' under lower(). The key is
    // looked up with each fresh value, and the next is taken while a row holds it.
    @Test("a fresh value that repeats an expression key under the expression is replaced by the next")
    func expressionKeyRetry() throws {
        let connection = try connection()
        try connection.execute("""
            CREATE TABLE crew (id INTEGER PRIMARY KEY, nick TEXT NOT NULL, shift INTEGER);
            CREATE UNIQUE INDEX crew_nick ON crew (lower(nick));
            INSERT INTO crew (nick, shift) VALUES ('ada', 1), ('bo', 2), ('kit', 3), ('KIT0', 1), ('Kit1', 2), ('KIT3', 3);
            """)
        let (drawn, _) = try samples("INSERT INTO crew (nick, shift) VALUES (?, ?);", on: connection, count: 3)
        #expect(drawn.map { $0[0] } == [.text("kit2"), .text("kit4"), .text("kit5")])
    }

    @Test("a drawn UPDATE that sets a unique column gives it a value no other row has")
    func updatedUniqueColumn() throws {
        let connection = try connection()
        let (values, _) = try samples("UPDATE gadget SET serial = ? WHERE id = ?;", on: connection)
        for tuple in values {
            #expect(try rows(connection, "SELECT count(*) FROM gadget WHERE serial = ?", [tuple[0]]) == 0)
            #expect(try rows(connection, "SELECT count(*) FROM gadget WHERE id = ?", [tuple[1]]) == 1)
        }
        // The app's own literal is the app's: kept.
        let (literal, _) = try samples("UPDATE gadget SET serial = 'sn-00007' WHERE id = 7;", on: connection)
        #expect(literal == [[.text("sn-00007"), .integer(7)]])
    }

    // Regression (issue 39, F9): the upsert's existing key was replaced by `'sn-…~indexadvisor0'`, so the
    // row was inserted, its DO UPDATE and the trigger it fires never ran, and the marker showed in the report.
    @Test("analyze times the upsert's DO UPDATE path with the app's text, and the composite-key INSERT runs")
    func analysedWrites() throws {
        let upsert = "INSERT INTO gadget (serial, pings) VALUES ('sn-00042', 1) ON CONFLICT(serial) DO UPDATE SET pings = pings + 1"
        let result = try analyze(Self.schema, workload: """
            -- freq: 40
            \(upsert);
            -- freq: 300
            INSERT INTO seat (flight, seat_row, letter, passenger) VALUES (?, ?, ?, ?);
            -- freq: 50
            INSERT INTO label (doc, tag, slot, slug) VALUES (?, ?, ?, ?);
            """)
        let statements = result.statements
        #expect(statements.count == 3)
        #expect(statements.allSatisfy { $0.error == nil })
        let timed = try #require(statements[0].timedExecutions)
        #expect(timed.map(\.sql) == [upsert])
        // The trigger counts the 30,000 gadgets: tens of thousands of steps, where the insert path takes ~50.
        let timing = try #require(statements[0].timingBefore)
        #expect(try #require(timing.vmStepsPerExecution) > 30_000)
        #expect(timing.rowsPerExecution == 1 && timing.failures == 0)
        for statement in statements[1...] {
            let timing = try #require(statement.timingBefore)
            #expect(timing.failures == 0 && timing.rowsPerExecution == 1)
        }
        let report = checkedRender(result, .markdown) + checkedRender(result, .json)
        #expect(!report.contains("indexadvisor0") && !report.contains("~indexadvisor"))
        #expect(!report.contains("could not be timed"))
    }

    // Regression (issue 39, F8): a hot write that could not be timed was named on stderr alone, while the
    // report advised with exit 0 as if the workload's writes were all counted.
    @Test("a write that still cannot be timed is named in the summary's write figures, with its share of the executions")
    func untimedWriteInSummary() throws {
        let result = try analyze(Self.schema, workload: """
            -- freq: 20
            SELECT flight FROM seat WHERE passenger = 'p77';
            -- freq: 60
            INSERT INTO seat (flight, seat_row, letter) VALUES (950, 1, NULL);
            """)
        let insert = try #require(result.statements.last)
        #expect(insert.timingBefore == nil)
        #expect(insert.error?.contains("NOT NULL constraint failed: seat.letter") == true)
        let text = try #require(result.untimedWritesText)
        #expect(text == "S2 (insert, ×60, 75 % of the workload's executions) could not be timed: neither its cost nor what the advice's indexes add to it is in these figures, and the advice was chosen without it (see Not analysed)")
        let markdown = checkedRender(result, .markdown)
        let writes = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- Writes: ") })
        #expect(writes.hasSuffix("; S2 (insert, ×60, 75 % of the workload's executions) could not be timed: neither its cost nor what the advice's indexes add to it is in these figures, and the advice was chosen without it (see Not analysed)."))
        let html = checkedRender(result, .html)
        #expect(html.contains("S2 (insert, ×60, 75 % of the workload&#39;s executions) could not be timed"))
        // Every write timed: nothing is said.
        let timed = try analyze(Self.schema, workload: "SELECT flight FROM seat WHERE passenger = 'p77';\nINSERT INTO seat (flight, seat_row, letter) VALUES (950, 1, 'A');\n")
        #expect(timed.untimedWritesText == nil)
    }
}
