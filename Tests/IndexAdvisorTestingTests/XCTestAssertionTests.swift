import IndexAdvisorTesting
import XCTest

/// The XCTest entry points, end to end: each failure they report reaches the test case's failure recording,
/// which this case captures (instead of failing) to check its message, file and line.
final class XCTestAssertionTests: XCTestCase {
    private var captured: [(message: String, file: String, line: Int)] = []

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        captured.append((issue.compactDescription, issue.sourceCodeContext.location?.fileURL.path ?? "", issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        captured.append((description, filePath, lineNumber))
    }
    #endif

    /// The failures captured since the last call, each message without XCTFail's `failed - ` prefix.
    private func failures() -> [(message: String, file: String, line: Int)] {
        defer { captured = [] }
        return captured.map { failure in
            var failure = failure
            if failure.message.hasPrefix("failed - ") { failure.message.removeFirst("failed - ".count) }
            return failure
        }
    }

    func testAssertQueryPlanFailsOnAFullScanAndPassesWithTheIndex() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let sql = "SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC"
        let line = #line + 1
        assertQueryPlan(of: sql, bindings: [7], on: db.handle)
        let recorded = failures()
        // What the assertion captured is checked with plain Swift, not XCTAssert: this case captures its failures.
        guard recorded.count == 1 else { return fail("expected 1 failure, got \(recorded.count)") }
        check(recorded[0].line == line, "line \(recorded[0].line), expected \(line)")
        check(recorded[0].file.hasSuffix("XCTestAssertionTests.swift"), recorded[0].file)
        check(recorded[0].message.contains("Fails: full table scan of note (5,000 rows, over the 999 allowed), temp B-tree for ORDER BY"), recorded[0].message)
        check(recorded[0].message.contains(#"Suggested index: CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at""#), recorded[0].message)

        try db.execute(#"CREATE INDEX "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at")"#)
        assertQueryPlan(of: sql, bindings: [7], on: db.handle, .usingIndex("idx_note_folder_id_updated_at"))
        check(failures().isEmpty, "no failure once the index exists")
    }

    func testAssertQueryPlansRecordsOneFailureForTheScope() throws {
        let db = try TestDatabase.notes(rows: 5_000)
        let line = #line + 1
        try assertQueryPlans(on: db.handle) { try RecordingScopeTests.appCode(db) }
        let recorded = failures()
        guard recorded.count == 1 else { return fail("expected 1 failure, got \(recorded.count)") }
        check(recorded[0].line == line, "line \(recorded[0].line), expected \(line)")
        check(recorded[0].message.hasPrefix("2 of 3 statements run in the recording fail their query-plan requirements:\n- full table scan of note"), recorded[0].message)

        try db.execute(#"CREATE INDEX "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at"); CREATE INDEX note_title ON note(title)"#)
        try assertQueryPlans(on: db.handle) { try RecordingScopeTests.appCode(db) }
        check(failures().isEmpty, "no failure once the indexes exist")
    }

    func testAssertQueryPlanOnAStoreFile() throws {
        let directory = try TemporaryDirectory()
        let store = try StoreFileTests.coreDataStore(in: directory)
        assertQueryPlan(of: StoreFileTests.fetch, inStoreAt: store)
        let recorded = failures()
        check(recorded.count == 1 && recorded[0].message.contains("#Index<Note>"), "\(recorded)")
    }

    /// A failure of this test itself, reported past the capture.
    private func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        #if canImport(ObjectiveC)
        super.record(XCTIssue(type: .assertionFailure, compactDescription: message))
        #else
        super.recordFailure(withDescription: message, inFile: "\(file)", atLine: Int(line), expected: true)
        #endif
    }

    private func check(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        if !condition { fail(message(), file: file, line: line) }
    }
}
