import CSQLite
import Foundation
import IndexAdvisorRecorder

/// `recorder-overhead`: 100,000 indexed lookups through one prepared statement, with and without the
/// recorder attached to the connection. Runs alternate so that both see the same machine state.
struct RecorderOverheadBenchmark: Benchmark {
    let name = "recorder-overhead"
    let summary = "100,000 indexed lookups (prepare once, bind/step/reset; a 100,000-row file database in WAL mode), traced by IndexAdvisorRecorder vs untraced"

    func run(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let lookups = context.integer("--lookups", 100_000)
        let path = context.directory.appendingPathComponent("lookups.sqlite").path
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
            throw BenchmarkError("cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        // WAL, as Core Data and GRDB's DatabasePool use: a read transaction per lookup, no file lock calls.
        try Self.exec(db, """
            PRAGMA journal_mode = WAL;
            CREATE TABLE note (id INTEGER PRIMARY KEY, code INTEGER NOT NULL, title TEXT NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
            INSERT INTO note SELECT i, (i * 7919) % 100000, 'note ' || i FROM n;
            CREATE INDEX note_code ON note(code);
            """)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, "SELECT id, title FROM note WHERE code = ?", -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else { throw BenchmarkError("cannot prepare the lookup") }
        defer { sqlite3_finalize(statement) }
        var found = 0
        func loop() {
            found = 0
            for i in 0..<lookups {
                sqlite3_bind_int64(statement, 1, Int64((i &* 31) % 100_000))
                while sqlite3_step(statement) == SQLITE_ROW { found += 1 }
                sqlite3_reset(statement)
            }
        }
        let recorder = WorkloadRecorder()
        context.say("timing \(lookups) lookups, untraced and traced, alternating (\(context.samples) samples each after a warm-up)")
        loop()
        try recorder.attach(db)
        loop()
        recorder.detach(db)
        recorder.reset()
        var untraced: [Double] = []
        var traced: [Double] = []
        for _ in 0..<context.samples {
            untraced += measureOnce(loop)
            try recorder.attach(db)
            traced += measureOnce(loop)
            recorder.detach(db)
        }
        guard found == lookups else { throw BenchmarkError("expected \(lookups) rows, found \(found)") }
        let recorded = recorder.statements.first
        let plain = TimingSamples(name: "\(lookups) lookups, untraced", seconds: untraced)
        let withRecorder = TimingSamples(name: "\(lookups) lookups, recorder attached", seconds: traced)
        var result = BenchmarkResult()
        let ratio = withRecorder.median / plain.median
        result.ratios.append(Ratio(name: "recorder-overhead: traced / untraced", value: ratio,
                                   meaning: "median loop time with the recorder ÷ without (lower is better)", target: nil, met: nil))
        result.timings = [plain, withRecorder]
        result.figures = [
            ("per lookup", String(format: "%.0f ns untraced, %.0f ns traced (+%.0f ns)", plain.median / Double(lookups) * 1e9,
                                  withRecorder.median / Double(lookups) * 1e9, (withRecorder.median - plain.median) / Double(lookups) * 1e9)),
            ("recorded", "\(recorded?.count ?? 0) executions of \(recorded?.sql ?? "nothing") (\(context.samples) traced loops), "
                + "\(recorded?.rows ?? 0) rows, median \(recorded?.medianNanoseconds ?? 0) ns"),
        ]
        if recorded?.count != lookups * context.samples {
            result.notes.append("RECORDED COUNT DIFFERS: expected \(lookups * context.samples)")
        }
        return result
    }

    private func measureOnce(_ body: () -> Void) -> [Double] {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return [Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9]
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw BenchmarkError(message.map { String(cString: $0) } ?? "sqlite3_exec failed")
        }
    }
}
