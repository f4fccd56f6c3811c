import Foundation
import IndexAdvisorTesting
import Testing

@Suite("Query-plan recording scopes")
struct RecordingScopeTests {
    /// What an app's data layer runs: a fetch by folder three times with other values, a lookup by primary key,
    /// a count by title and a pragma.
    static func appCode(_ db: TestDatabase) throws {
        try db.run("SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC", values: [[3], [4], [3]])
        try db.run("SELECT title FROM note WHERE id = ?", values: [[10]])
        try db.run("SELECT count(*) FROM note WHERE title = 'note 7'")
        try db.run("SELECT count(*) FROM note WHERE title = 'note 8'")
        try db.run("PRAGMA user_version")
    }

    @Test("a scope lists each offending statement once, by fingerprint, with its runs and the suggested index")
    func offendingStatements() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let recording = try QueryPlanRecording.start(on: db.handle)
        try Self.appCode(db)
        let report = recording.finish()
        #expect(report.statements.map(\.executions) == [3, 1, 2])
        #expect(report.statements[0].runs.map(\.bindings) == [[3], [4]])
        #expect(report.statements[2].runs.map(\.sql) == ["SELECT count(*) FROM note WHERE title = 'note 7'", "SELECT count(*) FROM note WHERE title = 'note 8'"])
        #expect(report.statements[2].sql == "SELECT count(*) FROM note WHERE title = 'note 7'")
        #expect(report.findings.map(\.line) == [
            #"full table scan of note (5,000 rows, over the 999 allowed), temp B-tree for ORDER BY — SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC (×3) → CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at");"#,
            #"full table scan of note (5,000 rows, over the 999 allowed) — SELECT count(*) FROM note WHERE title = 'note 7' (×2) → CREATE INDEX IF NOT EXISTS "idx_note_title" ON "note" ("title");"#,
        ])
        let message = report.failureMessage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(message.prefix(3) == ["2 of 3 statements run in the recording fail their query-plan requirements:",
                                      "- " + report.findings[0].line, "- " + report.findings[1].line])
        #expect(message[3] == "")
        #expect(message[4] == "Query plan of: SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC")
        #expect(message[5] == "Bound values: 3")
        // The recording has stopped: what runs now is not recorded.
        try db.run("SELECT * FROM note WHERE is_archived = 1")
        #expect(recording.stop().count == 3)
    }

    @Test("expectQueryPlans records one issue at the scope's line, and none once the indexes exist")
    func scope() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let line = #line + 2
        try withKnownIssue {
            try expectQueryPlans(on: db.handle) { try Self.appCode(db) }
        } matching: { issue in
            let comment = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line
                && comment.hasPrefix("2 of 3 statements run in the recording fail their query-plan requirements:\n- full table scan of note (5,000 rows")
        }
        try db.execute(#"CREATE INDEX "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at"); CREATE INDEX note_title ON note(title)"#)
        // Passes: an issue recorded here would fail the test.
        let result = try expectQueryPlans(on: db.handle) { () throws -> Int in
            try Self.appCode(db)
            return 42
        }
        #expect(result == 42)
    }

    @Test("the async scope records too, and rethrows the body's error after checking the plans")
    func asyncScope() async throws {
        let db = try TestDatabase.notes(rows: 2_000)
        try await withKnownIssue {
            try await expectQueryPlans(on: db.handle) {
                await Task.yield()
                try db.run("SELECT * FROM note WHERE title = ?", values: [[1]])
                throw TestError("the body failed")
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("- full table scan of note (2,000 rows, over the 999 allowed) — SELECT * FROM note WHERE title = ? (×1)")
                || issue.error is TestError
        }
    }

    @Test("a run that plans worse than the others is found: a partial index serves one value and not another",
          arguments: [false, true])
    func runs(bound: Bool) throws {
        let db = try TestDatabase.notes(rows: 5_000)
        try db.execute("CREATE INDEX note_archived ON note(folder_id) WHERE is_archived = 1")
        let recording = try QueryPlanRecording.start(on: db.handle)
        if bound {
            try db.run("SELECT * FROM note WHERE folder_id = ? AND is_archived = ?", values: [[3, 1], [4, 1], [4, 0]])
        } else {
            try db.execute("SELECT * FROM note WHERE folder_id = 3 AND is_archived = 1")
            try db.execute("SELECT * FROM note WHERE folder_id = 4 AND is_archived = 0")
        }
        let report = recording.finish()
        #expect(report.statements.count == 1)
        #expect(report.statements[0].executions == (bound ? 3 : 2))
        let finding = try #require(report.findings.first)
        if bound {
            #expect(finding.check?.statement.bindings == [4, 0])
        } else {
            #expect(finding.check?.statement.sql == "SELECT * FROM note WHERE folder_id = 4 AND is_archived = 0")
        }
        #expect(finding.check?.summary == "full table scan of note (5,000 rows, over the 999 allowed)")
    }

    @Test("a statement that no longer prepares when the scope ends is listed with SQLite's reason")
    func vanishedTable() throws {
        let db = try TestDatabase.notes(rows: 10)
        let recording = try QueryPlanRecording.start(on: db.handle)
        try db.execute("CREATE TEMP TABLE scratch (a); INSERT INTO scratch VALUES (1); SELECT * FROM scratch; DROP TABLE scratch")
        let report = recording.finish()
        #expect(report.findings.map(\.line) == [
            "does not plan at the end of the recording: no such table: scratch — INSERT INTO scratch VALUES (1) (×1)",
            "does not plan at the end of the recording: no such table: scratch — SELECT * FROM scratch (×1)",
        ])
    }

    @Test("the helper's own statements are not recorded: an expectation inside a scope adds nothing to it")
    func expectationInsideScope() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        try db.execute("CREATE INDEX note_title ON note(title)")
        let recording = try QueryPlanRecording.start(on: db.handle)
        expectQueryPlan(of: "SELECT * FROM note WHERE title = ?", on: db.handle, .usingIndex("note_title"))
        try db.run("SELECT id FROM note WHERE title = ?", values: [[1]])
        let report = recording.finish()
        #expect(report.statements.map(\.sql) == ["SELECT id FROM note WHERE title = ?"])
        #expect(report.passed)
    }

    @Test("one recording per connection; a closed connection ends it without a crash")
    func oneRecordingAndClosing() throws {
        let db = try TestDatabase.notes(rows: 10)
        let recording = try QueryPlanRecording.start(on: db.handle)
        #expect(throws: QueryPlanError.alreadyRecording) { _ = try QueryPlanRecording.start(on: db.handle) }
        recording.stop()
        let again = try QueryPlanRecording.start(on: db.handle)
        #expect(again.finish().passed)

        var other: TestDatabase? = try TestDatabase.notes(rows: 10)
        let closing = try QueryPlanRecording.start(on: other!.handle)
        try other!.run("SELECT * FROM note")
        other = nil
        let report = closing.finish()
        #expect(report.connectionClosed)
        #expect(report.statements.count == 1)
        #expect(report.failureMessage == "the connection closed before the query-plan recording finished: its 1 statements could not be planned")
    }
}
