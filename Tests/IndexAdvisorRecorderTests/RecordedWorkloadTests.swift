import CSQLite
import Foundation
import Testing
@testable import IndexAdvisor
@testable import IndexAdvisorRecorder

@Suite("Recorded workloads in JSON Lines")
struct RecordedWorkloadTests {
    @Test("the recorded file loads into the workload model with the recorded counts, timings, rows and values, and is analysed")
    func roundTrip() throws {
        let scratch = try Scratch()
        let store = try scratch.store()
        let connection = try RawConnection(path: store.path)
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        let lookup = try connection.prepare(WorkloadRecorderTests.lookup)
        for i in 0..<300 { try lookup.run([Int64(i % 50)]) }
        let rename = try connection.prepare(WorkloadRecorderTests.rename)
        for i in 0..<40 { try rename.run(["title \(i)", Int64(i)]) }
        let file = WorkloadRecorder.outputURL(forStore: store)
        #expect(file.lastPathComponent == "notes.sqlite.workload.jsonl")
        try recorder.write(to: file)
        let recorded = recorder.statements
        connection.close()
        _ = (lookup, rename)

        #expect(WorkloadFormat.detect(try String(contentsOf: file, encoding: .utf8)[...]) == .jsonl)
        let workload = try WorkloadLoader.load([file])
        #expect(workload.diagnostics.skippedCount == 0)
        #expect(workload.diagnostics.linesRead == recorded.count + 1)
        for record in recorded {
            let statement = try #require(workload.statements.first { $0.fingerprint.id == record.fingerprint })
            #expect(statement.count == record.count)
            #expect(statement.sql == record.sql)
            let timing = try #require(statement.observedTiming)
            #expect(timing.count == record.count)
            #expect(abs(timing.totalSeconds - Double(record.totalNanoseconds) / 1e9) < 1e-12)
            #expect(abs(timing.medianSeconds - Double(record.medianNanoseconds) / 1e9) < 1e-12)
            #expect(statement.observedRows == Int((Double(record.rows) / Double(record.count)).rounded()))
            #expect(statement.observedBindings == record.samples.map { $0.map(sqlValue) })
            #expect(abs(try #require(statement.firstSeen).timeIntervalSince(record.firstSeen)) < 0.001)
            #expect(abs(try #require(statement.lastSeen).timeIntervalSince(record.lastSeen)) < 0.001)
            let source = try #require(statement.sources.first)
            #expect(statement.sources.count == 1)
            #expect(source.file == file.lastPathComponent)
            #expect(source.firstLine == source.lastLine)
        }
        let select = try #require(workload.statements.first { $0.kind == .select })
        #expect(select.count == 300)
        #expect(select.observedRows == 5)
        #expect(workload.statements.first { $0.kind == .update }?.count == 40)

        var options = AnalysisOptions()
        options.costSource = .sqliteCounters  // picks that do not depend on the machine's load
        options.repeats = 3
        options.bindingSamples = 4
        let result = try Advisor.analyze(storeAt: store, workload: workload, options: options)
        let analysed = try #require(result.statements.first { $0.parameterizedSQL == select.sql })
        #expect(analysed.count == 300)
        #expect(analysed.observedTiming == select.observedTiming)
        #expect(analysed.error == nil)
    }

    @Test("the same statement from a log, a .sql file and the recorder has one fingerprint; counts and values add up")
    func oneFingerprint() throws {
        let scratch = try Scratch()
        let store = try scratch.store()
        let connection = try RawConnection(path: store.path)
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        let lookup = try connection.prepare(WorkloadRecorderTests.lookup)
        for folder in [3, 4, 3, 4, 3, 4, 3, 4, 3, 4] { try lookup.run([Int64(folder)]) }
        let jsonl = scratch.url.appendingPathComponent("recorded.jsonl")
        try recorder.write(to: jsonl)
        connection.close()
        _ = lookup
        let log = scratch.url.appendingPathComponent("app.log")
        try Data("""
            2024-05-01 10:00:00.200 Notes[4242:1234567] CoreData: sql: SELECT id, title FROM note WHERE folder = ? ORDER BY id LIMIT 5
            2024-05-01 10:00:00.201 Notes[4242:1234567] CoreData: details: SQLite bind[0] = 7
            2024-05-01 10:00:00.202 Notes[4242:1234567] CoreData: annotation: sql connection fetch time: 0.0020s
            CoreData: sql: SELECT id, title FROM note WHERE folder = ? ORDER BY id LIMIT 5
            CoreData: details: SQLite bind[0] = 8
            CoreData: annotation: sql connection fetch time: 0.0040s

            """.utf8).write(to: log)
        let script = scratch.url.appendingPathComponent("queries.sql")
        try Data("-- freq: 3\nselect id, title from note\n  where folder = 12 order by id limit 5;\n".utf8).write(to: script)

        let workload = try WorkloadLoader.load([log, script, jsonl])
        #expect(workload.statements.count == 1)
        let statement = try #require(workload.statements.first)
        #expect(statement.fingerprint.id == Fingerprinter.normalize(WorkloadRecorderTests.lookup).fingerprint.id)
        #expect(statement.count == 2 + 3 + 10)
        #expect(statement.observedTiming?.count == 2 + 10)
        #expect(statement.observedBindings == [[.integer(7), .integer(5)], [.integer(8), .integer(5)], [.integer(12), .integer(5)],
                                               [.integer(3), .integer(5)], [.integer(4), .integer(5)]])
        #expect(statement.sources.map(\.file) == ["app.log", "queries.sql", "recorded.jsonl"])
        #expect(workload.diagnostics.files == ["app.log", "queries.sql", "recorded.jsonl"])
    }

    @Test("values of every storage class and awkward text survive the JSON Lines file")
    func values() throws {
        let scratch = try Scratch()
        let connection = try RawConnection(path: scratch.url.appendingPathComponent("v.sqlite").path)
        try connection.execute("CREATE TABLE v (a, b, c, d, e)")
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        let insert = try connection.prepare("INSERT INTO v VALUES (?, ?, ?, ?, ?)")
        let text = "quote \" backslash \\ newline \n tab \t 'single' é 🙂 \u{01}"
        try insert.run([Int64.min, 2.0, text, [UInt8]([0, 255, 16]), nil])
        try insert.run([Int64(-5), -0.125, "", [UInt8](), 1e300])
        let file = scratch.url.appendingPathComponent("v.jsonl")
        try recorder.write(to: file)
        connection.close()
        _ = insert
        let workload = try WorkloadLoader.load([file])
        let statement = try #require(workload.statements.first)
        #expect(statement.observedBindings == [
            [.integer(Int64.min), .real(2.0), .text(text), .blob([0, 255, 16]), .null],
            [.integer(-5), .real(-0.125), .text(""), .blob([]), .real(1e300)],
        ])
        #expect(statement.count == 2)
        #expect(statement.observedRows == 1)
    }
}

/// The library's value for a recorded one.
func sqlValue(_ value: RecordedValue) -> SQLValue {
    switch value {
    case .null: return .null
    case .integer(let integer): return .integer(integer)
    case .real(let real): return .real(real)
    case .text(let text): return .text(text)
    case .blob(let bytes): return .blob(bytes)
    }
}

/// Hostile round 8, F5: GRDB turns foreign keys on before `prepareDatabase`, where the recorder is attached, so
/// a recording held no pragma and was analysed with them off: a parent's DELETE was planned without its scan of
/// the child table. The recorder writes what the connection enforced as it attached, and the analysis follows it.
@Suite("A recording says whether the app's connection enforced foreign keys")
struct RecordedForeignKeysTests {
    @Test("foreign keys on before attach: the header says so, and the parent's DELETE is planned with its child scan")
    func enforcedBeforeAttach() throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("league.sqlite")
        let connection = try RawConnection(path: path.path)
        defer { connection.close() }
        try connection.execute("""
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE score (id INTEGER PRIMARY KEY, player_id INTEGER REFERENCES player(id), points INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO player SELECT i, 'p' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO score SELECT i, 1 + i % 300, i % 90 FROM n;
            PRAGMA foreign_keys = ON;
            """)
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        let delete = try connection.prepare("DELETE FROM player WHERE id = ?")
        for id in 350..<360 { try delete.run([Int64(id)]) }
        let file = WorkloadRecorder.outputURL(forStore: path)
        try recorder.write(to: file)
        let header = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasSuffix(",\"foreign_keys\":true}"), "\(header)")
        #expect(!recorder.statements.contains { $0.sql.uppercased().hasPrefix("PRAGMA") })
        let workload = try WorkloadLoader.load([file])
        #expect(workload.recordedForeignKeys == true)
        var options = AnalysisOptions()
        options.costSource = .sqliteCounters
        let result = try Advisor.profile(storeAt: path, workload: workload, options: options)
        let planned = try #require(result.statements.first { $0.kind == .delete })
        #expect(planned.planBefore?.steps.map(\.detail).contains("SCAN score") == true, "\(planned.planBefore?.steps.map(\.detail) ?? [])")
        #expect(result.method.foreignKeyEnforcement == .workloadPragma)
    }

    @Test("a header that says false, or none, leaves them off where no key declares an action")
    func notEnforced() throws {
        let off = WorkloadLoader.parse("{\"type\":\"header\",\"format\":\"indexadvisor-workload\",\"version\":1,\"foreign_keys\":false}\n{\"sql\":\"DELETE FROM player WHERE id = ?\",\"count\":3}\n", file: "w.jsonl", format: .jsonl)
        #expect(off.recordedForeignKeys == false)
        #expect(ForeignKeys.workloadSetting(off) == false)
        let none = WorkloadLoader.parse("{\"sql\":\"DELETE FROM player WHERE id = ?\",\"count\":3}\n", file: "w.jsonl", format: .jsonl)
        #expect(none.recordedForeignKeys == nil)
        #expect(ForeignKeys.workloadSetting(none) == nil)
        // A pragma the workload holds comes after the header's state.
        var later = off
        later.statements += WorkloadLoader.parse("PRAGMA foreign_keys = ON;\n", file: "p.sql", format: .sql).statements
        #expect(ForeignKeys.workloadSetting(later) == true)
    }
}
