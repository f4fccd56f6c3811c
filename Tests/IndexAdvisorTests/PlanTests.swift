import Testing
@testable import IndexAdvisor

@Suite("Query plans")
struct PlanTests {
    static let aliases = ["t0": "ZNOTE", "znote": "ZNOTE", "t": "T", "u": "U"]

    @Test("plan rows of SQLite 3.7 to 3.4x are classified", arguments: [
        ("SCAN t0", PlanFinding.Kind.fullTableScan, "ZNOTE" as String?, nil as String?),
        ("SCAN TABLE ZNOTE AS t0", .fullTableScan, "ZNOTE", nil),
        ("SCAN TABLE ZNOTE (~6944 rows)", .fullTableScan, "ZNOTE", nil),
        ("SEARCH t0 USING INDEX Z_Note_byFolder (ZFOLDER=? AND ZMODIFIED>?)", .indexSearch, "ZNOTE", "Z_Note_byFolder"),
        ("SEARCH TABLE ZNOTE AS t0 USING COVERING INDEX i (a=?)", .coveringIndexSearch, "ZNOTE", "i"),
        ("SCAN t0 USING INDEX Z_Movie_SwiftDataIndexOnBinaryadded", .fullIndexScan, "ZNOTE", "Z_Movie_SwiftDataIndexOnBinaryadded"),
        ("SEARCH t0 USING INTEGER PRIMARY KEY (rowid=?)", .rowidLookup, "ZNOTE", nil),
        // Regression: index names with spaces were cut at the first space, so no plan "used" them.
        ("SEARCH t0 USING INDEX Z_Th ing_title (ZTITLE=?)", .indexSearch, "ZNOTE", "Z_Th ing_title"),
        ("SCAN t0 USING COVERING INDEX my index", .fullIndexScan, "ZNOTE", "my index"),
        ("SEARCH TABLE ZNOTE AS t0 USING INDEX i (a=?) (~10 rows)", .indexSearch, "ZNOTE", "i"),
        ("SEARCH u USING AUTOMATIC COVERING INDEX (c=?)", .automaticIndex, "U", nil),
        ("SEARCH u USING AUTOMATIC PARTIAL COVERING INDEX (c=?)", .automaticIndex, "U", nil),
        ("USE TEMP B-TREE FOR ORDER BY", .tempBTree, nil, nil),
        ("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY", .tempBTree, nil, nil),
        ("MULTI-INDEX OR", .multiIndexOr, nil, nil),
        ("CORRELATED SCALAR SUBQUERY 1", .subquery, nil, nil),
        ("SCAN CONSTANT ROW", .other, nil, nil),
        // Regression (a breaking helper): `FROM main.note` without an alias plans as `SCAN main.note`, which was
        // named no table, so `check` passed a 50,000-row full scan.
        ("SCAN main.ZNOTE", .fullTableScan, "ZNOTE", nil),
        ("SEARCH temp.ZNOTE USING INDEX i (a=?)", .indexSearch, "ZNOTE", "i"),
    ])
    func classify(detail: String, kind: PlanFinding.Kind, table: String?, index: String?) {
        let finding = PlanClassifier.finding(for: detail, aliases: Self.aliases)
        #expect(finding.kind == kind)
        #expect(finding.table == table)
        #expect(finding.index == index)
    }

    // Regression (issue 39, F12): an outer join's inner loop ends in ` LEFT-JOIN`, which hid the constraints
    // from `check`'s line and, after `USING INDEX`, became part of the index's name.
    @Test("a LEFT-JOIN or RIGHT-JOIN suffix is not part of the constraints or the index name")
    func outerJoinSuffix() {
        let automatic = PlanClassifier.finding(for: "SEARCH u USING AUTOMATIC COVERING INDEX (c=? AND d=?) LEFT-JOIN", aliases: Self.aliases)
        #expect(automatic.kind == .automaticIndex)
        #expect(automatic.constraints == "c=? AND d=?")
        let indexed = PlanClassifier.finding(for: "SEARCH t0 USING INDEX Z_Note_byFolder (ZFOLDER=?) LEFT-JOIN", aliases: Self.aliases)
        #expect(indexed.index == "Z_Note_byFolder")
        #expect(indexed.constraints == "ZFOLDER=?")
        let right = PlanClassifier.finding(for: "SEARCH u USING INDEX u_c (c>?) RIGHT-JOIN", aliases: Self.aliases)
        #expect(right.index == "u_c")
        #expect(right.kind == .indexSearch)
    }

    // Regression: an index named `byRemote (v2)` was read as `byRemote`, so the review called it unused.
    @Test("index names holding ' (' or plan words are read whole when the connection knows them")
    func knownIndexNames() {
        let names = ["byRemote (v2)", "byRemote", "Z_Using_USING COVERING INDEX (ZFOLDER ID=?)"]
        #expect(PlanClassifier.finding(for: "SEARCH t0 USING INDEX byRemote (v2) (ZREMOTEID=?)", aliases: Self.aliases, indexNames: names).index == "byRemote (v2)")
        #expect(PlanClassifier.finding(for: "SEARCH t0 USING INDEX byRemote (ZREMOTEID=?)", aliases: Self.aliases, indexNames: names).index == "byRemote")
        #expect(PlanClassifier.finding(for: "SEARCH t0 USING COVERING INDEX Z_Using_USING COVERING INDEX (ZFOLDER ID=?) (ZFOLDER=?)", aliases: Self.aliases, indexNames: names).index
                == "Z_Using_USING COVERING INDEX (ZFOLDER ID=?)")
    }

    @Test("the connection's index names follow schema changes in the main and temp schemas")
    func indexNamesCache() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t (a, b); CREATE INDEX \"by a (v2)\" ON t(a)")
        #expect(connection.indexNames() == ["by a (v2)"])
        try connection.execute("CREATE INDEX by_b ON t(b)")
        #expect(connection.indexNames().sorted() == ["by a (v2)", "by_b"])
        try connection.execute("CREATE TEMP TABLE u (c); CREATE INDEX temp.by_c ON u(c)")
        #expect(connection.indexNames().sorted() == ["by a (v2)", "by_b", "by_c"])
        try connection.execute("DROP INDEX by_b")
        #expect(connection.indexNames().sorted() == ["by a (v2)", "by_c"])
    }

    @Test("the temp B-tree's purpose and the constraints are kept")
    func details() {
        #expect(PlanClassifier.finding(for: "USE TEMP B-TREE FOR GROUP BY", aliases: [:]).purpose == "GROUP BY")
        #expect(PlanClassifier.finding(for: "SEARCH t0 USING INDEX i (a=? AND b>?)", aliases: Self.aliases).constraints == "a=? AND b>?")
    }

    @Test("EXPLAIN QUERY PLAN of a real statement: tree, findings, tables, and small tables not flagged")
    func realPlan() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, ZFOLDER INTEGER, ZMODIFIED REAL);
            CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT);
            """)
        let schema = try SchemaReader.read(from: connection)
        var planner = QueryPlanner(connection: connection, schema: schema)
        planner.rowCounts = ["znote": 50_000, "ztag": 12]
        let plan = try planner.plan(for: "SELECT t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER = ? ORDER BY t0.ZMODIFIED DESC", bindings: [.integer(3)])
        #expect(plan.tree == "QUERY PLAN\n|--SCAN t0\n`--USE TEMP B-TREE FOR ORDER BY")
        #expect(plan.findings.map(\.kind) == [.fullTableScan, .tempBTree])
        #expect(plan.findings[0].table == "ZNOTE")
        #expect(plan.hasProblem)
        let small = try planner.plan(for: "SELECT * FROM ZTAG WHERE ZNAME = 'a'")
        #expect(small.findings.map(\.kind) == [.fullTableScan])
        #expect(!small.hasProblem)
    }

    @Test("aliases come from FROM, JOIN, UPDATE and INTO clauses")
    func aliasMap() {
        let aliases = SQLTokenList("SELECT * FROM ZNOTE t0 LEFT OUTER JOIN Z_1TAGS AS t1 ON t0.Z_PK = t1.Z_1NOTES, \"odd name\" o WHERE 1").tableAliases()
        #expect(aliases["t0"] == "ZNOTE")
        #expect(aliases["t1"] == "Z_1TAGS")
        #expect(aliases["o"] == "odd name")
        #expect(aliases["znote"] == "ZNOTE")
    }

    // Regression (a breaking helper): `check` passed a full scan of the 60,000-row `a` as one of the 500-row `b`.
    @Test("an alias spelled like another table of the statement names the aliased table, and the plan's findings follow it")
    func aliasNamedLikeAnotherTable() throws {
        let sql = "SELECT count(*) FROM a AS b JOIN b AS a ON a.y = b.x WHERE b.flag = 'rare' AND a.kind = 'x'"
        let aliases = SQLTokenList(sql).tableAliases()
        #expect(aliases["b"] == "a")
        #expect(aliases["a"] == "b")
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("""
            CREATE TABLE a (id INTEGER PRIMARY KEY, x INTEGER, flag TEXT);
            CREATE TABLE b (id INTEGER PRIMARY KEY, y INTEGER, kind TEXT);
            """)
        let plan = try QueryPlanner(connection: connection, schema: SchemaReader.read(from: connection)).plan(for: sql, bindings: [])
        let scan = try #require(plan.findings.first { $0.kind == .fullTableScan })
        #expect(scan.alias == "b")
        #expect(scan.table == "a")
    }
}

@Suite("Odd table names in plans")
struct OddNamePlanTests {
    @Test("tables whose names hold spaces or plan words, and names differing only in non-ASCII case, are told apart", arguments: [
        "my table", "t USING INDEX x", "Ärger", "order",
    ])
    func oddNames(name: String) throws {
        let connection = try SQLiteConnection.inMemory()
        let quoted = SQLIdentifier.quote(name)
        try connection.execute("""
            CREATE TABLE \(quoted) ("folder" INTEGER, "ö l" TEXT);
            CREATE TABLE "ärger" (x INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO \(quoted) SELECT i % 50, 'v' || i FROM n;
            """)
        let schema = try SchemaReader.read(from: connection)
        #expect(schema.table(named: name)?.rowCount == 3000)
        #expect(schema.table(named: "ärger")?.rowCount == 0)
        let planner = QueryPlanner(connection: connection, schema: schema)
        let plan = try planner.plan(for: "SELECT * FROM \(quoted) WHERE folder = 7 ORDER BY \"ö l\"")
        #expect(plan.findings.map(\.kind) == [.fullTableScan, .tempBTree])
        #expect(plan.findings[0].table == name)
        #expect(plan.hasProblem)
        let aliased = try planner.plan(for: "SELECT * FROM \(quoted) AS \"an alias\" WHERE folder = 7")
        #expect(aliased.findings.first?.table == name)
        #expect(aliased.findings.first?.alias == "an alias")
    }
}

@Suite("Index names with spaces, end to end")
struct SpacedIndexNameTests {
    // Regression: an entity named "Th ing" gave index names like `Z_Th ing_title`; plans naming them were
    // read as using `Z_Th`, so every pick looked unused and was withdrawn: no advice at all.
    @Test("a Core Data entity whose name has a space still gets its index recommended")
    func spacedEntity() throws {
        let store = try FixtureStore("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Th ing', 0, 0);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE "ZTH ING" (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZBODY VARCHAR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO "ZTH ING" SELECT i, 1, 1, 'title ' || i, printf('%.*c', 60, 'b') FROM n;
            """)
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse("""
            -- freq: 100
            SELECT Z_PK, ZTITLE FROM "ZTH ING" WHERE ZTITLE = 'title 77';
            """, file: "w.sql", format: .sql), options: quickOptions())
        let recommendation = try #require(result.recommendations.first)
        #expect(recommendation.table == "ZTH ING")
        #expect(recommendation.columns.map(\.name) == ["ZTITLE"])
        #expect(recommendation.name.contains(" "))
        #expect(result.statements.first?.usesRecommendations == [recommendation.name])
    }
}

@Suite("Plans from edited reports")
struct EditedPlanTests {
    // Regression (breaking round): a hand-edited report with a step that is its own parent made the
    // tree drawing recurse until the stack overflowed (exit 139).
    @Test("steps that form a cycle draw once each; the tree ends")
    func cyclicSteps() {
        let plan = QueryPlan(steps: [.init(id: 2, parent: 0, detail: "SCAN note"), .init(id: 4, parent: 4, detail: "SCAN loop"),
                                     .init(id: 4, parent: 2, detail: "SEARCH x"), .init(id: 2, parent: 4, detail: "SCAN again")],
                             findings: [])
        #expect(plan.tree == "QUERY PLAN\n`--SCAN note\n   `--SEARCH x\n      |--SCAN loop\n      `--SCAN again")
    }
}
