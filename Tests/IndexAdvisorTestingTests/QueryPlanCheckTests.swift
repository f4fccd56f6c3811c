import Foundation
import IndexAdvisorTesting
import Testing

@Suite("Query-plan assertions on a raw connection")
struct QueryPlanCheckTests {
    static let byFolder = "SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC"

    @Test("a full scan and a temp B-tree fail, with the plan, the shape and the suggested index in the message")
    func fullScanAndSort() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let plan = try QueryPlanInspector(connection: db.handle).plan(Self.byFolder, bindings: [7])
        #expect(plan.rows.map(\.kind) == [.fullTableScan, .tempBTree])
        #expect(plan.rows[0].table == "note")
        #expect(plan.rows[0].tableRows == 5_000)
        #expect(plan.shapes == [TableShape(table: "note", equalityColumns: ["folder_id"], sortColumns: [.init(name: "updated_at", isDescending: true)])])
        let check = plan.check()
        #expect(check.violations.map(\.kind) == [.fullTableScan, .tempBTree])
        #expect(check.suggestions.map(\.sql) == [#"CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at");"#])
        #expect(check.failureMessage == """
            Query plan of: SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC
            Bound values: 7
            \(plan.tree)
            Fails: full table scan of note (5,000 rows, over the 999 allowed), temp B-tree for ORDER BY
            Shape: note: equality folder_id; range none; sort updated_at DESC
            Suggested index: CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at");
              (the equality columns first, then the ORDER BY columns, ascending: SQLite reads an index backwards for DESC; https://sqlite.org/optoverview.html)
            Plan rows as EXPLAIN QUERY PLAN prints them: https://sqlite.org/eqp.html
            """)
        #expect(plan.tree == "QUERY PLAN\n|--SCAN note\n`--USE TEMP B-TREE FOR ORDER BY")
    }

    @Test("the suggested index passes once it exists")
    func passesWithTheIndex() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let inspector = QueryPlanInspector(connection: db.handle)
        let before = try inspector.plan(Self.byFolder).check()
        try db.execute(try #require(before.suggestions.first).sql)
        // The same inspector sees the new schema.
        let after = try inspector.plan(Self.byFolder).check()
        #expect(after.passed)
        #expect(after.violations.isEmpty)
        #expect(after.failureMessage == "")
        #expect(after.statement.indexesUsed == ["idx_note_folder_id_updated_at"])
        // End to end: the expectation records nothing (an issue would fail this test).
        expectQueryPlan(of: Self.byFolder, bindings: [7], on: db.handle)
        expectQueryPlan(of: Self.byFolder, on: db.handle, .usingIndex("IDX_note_folder_id_updated_at"))
    }

    @Test("expectQueryPlan records an issue at the caller's line with the failure message")
    func recordsAnIssue() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let line = #line + 2
        withKnownIssue {
            expectQueryPlan(of: Self.byFolder, bindings: [7], on: db.handle)
        } matching: { issue in
            let comment = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "QueryPlanCheckTests.swift"
                && comment.contains("Fails: full table scan of note (5,000 rows, over the 999 allowed), temp B-tree for ORDER BY")
                && comment.contains(#"Suggested index: CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at""#)
                && comment.contains("|--SCAN note")
        }
    }

    @Test("a temp B-tree alone fails, the index on the equality column is extended by the ORDER BY, and it can be allowed")
    func tempBTreeAlone() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        try db.execute("CREATE INDEX note_folder ON note(folder_id)")
        let plan = try QueryPlanInspector(connection: db.handle).plan(Self.byFolder)
        #expect(plan.rows.map(\.kind) == [.indexSearch, .tempBTree])
        #expect(plan.rows[0].constraints == "folder_id=?")
        let check = plan.check()
        #expect(check.summary == "temp B-tree for ORDER BY")
        #expect(check.suggestions.map(\.sql) == [#"CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at");"#])
        #expect(plan.check(PlanRequirements(allowsTempBTree: true)).passed)
    }

    @Test("max() of the rowid reads one row and passes; max() of an unindexed column scans every row and fails")
    func minMaxOfRowid() throws {
        let db = try TestDatabase.notes(rows: 3_000)
        let inspector = QueryPlanInspector(connection: db.handle)
        let rowid = try inspector.plan("SELECT max(id) FROM note")
        #expect(rowid.tree == "QUERY PLAN\n`--SEARCH note")
        #expect(rowid.rows.map(\.kind) == [.other])
        #expect(rowid.check(PlanRequirements(maximumFullScanRows: 10)).passed)
        let column = try inspector.plan("SELECT max(updated_at) FROM note")
        #expect(column.rows.map(\.kind) == [.fullTableScan])
        #expect(column.rows[0].tableRows == 3_000)
        #expect(column.check().violations.map(\.kind) == [.fullTableScan])
    }

    @Test("a full scan of a table at or under the limit passes; over it fails")
    func rowLimit() throws {
        let db = try TestDatabase.notes(rows: 400)
        let plan = try QueryPlanInspector(connection: db.handle).plan("SELECT * FROM note WHERE title = ?")
        #expect(plan.rows.map(\.kind) == [.fullTableScan])
        #expect(plan.check().passed)
        #expect(plan.check(PlanRequirements(maximumFullScanRows: 400)).passed)
        let strict = plan.check(PlanRequirements(maximumFullScanRows: 399))
        #expect(strict.summary == "full table scan of note (400 rows, over the 399 allowed)")
        #expect(strict.suggestions.map(\.sql) == [#"CREATE INDEX IF NOT EXISTS "idx_note_title" ON "note" ("title");"#])
    }

    @Test("a required index fails when the plan uses another one or none, and names what it uses")
    func requiredIndex() throws {
        let db = try TestDatabase.notes(rows: 2_000)
        try db.execute("CREATE INDEX note_folder ON note(folder_id); CREATE INDEX note_title ON note(title)")
        let inspector = QueryPlanInspector(connection: db.handle)
        let byTitle = try inspector.plan("SELECT id FROM note WHERE title = ?")
        #expect(byTitle.check(.usingIndex("note_title")).passed)
        let wrong = byTitle.check(.usingIndex("note_folder"))
        #expect(wrong.summary == "does not use the index note_folder (it uses note_title)")
        #expect(wrong.suggestions.isEmpty)
        let none = try inspector.plan("SELECT id FROM note WHERE id = ?").check(.usingIndex("note_folder"))
        #expect(none.summary == "does not use the index note_folder (it uses no index)")
    }

    @Test("a range after the equalities ends the suggested key; an alias is resolved to its table")
    func rangeAndAlias() throws {
        let db = try TestDatabase.notes(rows: 3_000)
        let plan = try QueryPlanInspector(connection: db.handle)
            .plan("SELECT n.title FROM note AS n WHERE n.is_archived = 0 AND n.updated_at > ? AND n.folder_id = ?")
        #expect(plan.rows.first?.table == "note")
        #expect(plan.rows.first?.alias == "n")
        #expect(plan.shapes.first?.description == "note AS n: equality is_archived, folder_id; range updated_at; sort none")
        #expect(plan.check().suggestions.map(\.sql) == [#"CREATE INDEX IF NOT EXISTS "idx_note_is_archived_folder_id_updated_at" ON "note" ("is_archived", "folder_id", "updated_at");"#])
    }

    @Test("an automatic index always fails, whatever the table's size, and the join column is suggested")
    func automaticIndex() throws {
        let db = try TestDatabase.notes(rows: 3_000)
        try db.execute("""
            CREATE TABLE tag (id INTEGER PRIMARY KEY, note_id INTEGER, name TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO tag (note_id, name) SELECT i, 'note ' || i FROM n;
            """)
        let plan = try QueryPlanInspector(connection: db.handle).plan("SELECT * FROM note n JOIN tag t ON t.name = n.title")
        let automatic = try #require(plan.rows.first { $0.kind == .automaticIndex })
        #expect(automatic.table == "tag")
        let check = plan.check(PlanRequirements(maximumFullScanRows: 1_000_000))
        #expect(check.violations.map(\.kind) == [.automaticIndex])
        #expect(check.summary == "automatic index on tag, built on every run from all 500 rows")
        #expect(check.suggestions.map(\.sql) == [#"CREATE INDEX IF NOT EXISTS "idx_tag_name" ON "tag" ("name");"#])
    }

    @Test("a full index scan fails when the statement filters the table, not when it only reads in order")
    func fullIndexScan() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        try db.execute("CREATE INDEX note_updated ON note(updated_at)")
        let inspector = QueryPlanInspector(connection: db.handle)
        let filtered = try inspector.plan("SELECT * FROM note WHERE title = ? ORDER BY updated_at LIMIT 10")
        #expect(filtered.rows.map(\.kind) == [.fullIndexScan])
        #expect(filtered.rows[0].testsEveryEntry)
        #expect(filtered.check().summary == "full scan of index note_updated on note, testing every entry (5,000 rows, over the 999 allowed)")
        #expect(filtered.check().suggestions.map(\.sql) == [#"CREATE INDEX IF NOT EXISTS "idx_note_title_updated_at" ON "note" ("title", "updated_at");"#])
        let ordered = try inspector.plan("SELECT * FROM note ORDER BY updated_at LIMIT 10")
        #expect(ordered.rows.map(\.kind) == [.fullIndexScan])
        #expect(!ordered.rows[0].testsEveryEntry)
        #expect(ordered.check().passed)
    }

    @Test("an existing index the planner leaves out is named, not proposed again")
    func existingIndexNotUsed() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        // A NOCASE index cannot serve a BINARY comparison (https://sqlite.org/optoverview.html).
        try db.execute("CREATE INDEX note_title_nocase ON note(title COLLATE NOCASE)")
        let check = try QueryPlanInspector(connection: db.handle).plan("SELECT * FROM note WHERE title = ?").check()
        #expect(check.violations.map(\.kind) == [.fullTableScan])
        let suggestion = try #require(check.suggestions.first)
        #expect(suggestion.existingIndex == "note_title_nocase")
        #expect(check.failureMessage.contains("The index note_title_nocase has these leading columns and the planner did not use it"))
    }

    @Test("a statement that does not prepare records an issue naming SQLite's error")
    func doesNotPrepare() throws {
        let db = try TestDatabase.notes(rows: 10)
        #expect(throws: QueryPlanError.statementFailed(code: 1, message: "no such table: notes", sql: "EXPLAIN QUERY PLAN SELECT * FROM notes")) {
            try QueryPlanInspector(connection: db.handle).plan("SELECT * FROM notes")
        }
        withKnownIssue {
            expectQueryPlan(of: "SELECT * FROM notes", on: db.handle)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined() == "the query plan could not be read: SQLite error 1: no such table: notes — while planning `EXPLAIN QUERY PLAN SELECT * FROM notes`"
        }
    }

    @Test("a statement the mirror refuses (RETURNING) is still planned and judged; the message says why there is no shape")
    func noShape() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let check = try QueryPlanInspector(connection: db.handle).plan("DELETE FROM note WHERE title = ? RETURNING id").check()
        #expect(check.summary == "full table scan of note (5,000 rows, over the 999 allowed)")
        #expect(check.statement.shapes.isEmpty)
        #expect(check.statement.shapeNote == "the shape was not read: DELETE RETURNING is not available on virtual tables")
        #expect(check.failureMessage.contains("No index suggested for: full table scan of note (5,000 rows, over the 999 allowed) (the shape was not read: DELETE RETURNING is not available on virtual tables)"))
    }
}
