import CSQLite
import Foundation
import Testing
@testable import IndexAdvisor
@testable import IndexAdvisorRecorder

/// A temporary directory removed with the object.
final class Scratch: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A store with 1,000 notes in 50 folders (20 each), indexed by folder.
    func store() throws -> URL {
        let path = url.appendingPathComponent("notes.sqlite")
        let connection = try RawConnection(path: path.path)
        defer { connection.close() }
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE note (id INTEGER PRIMARY KEY, folder INTEGER NOT NULL, title TEXT, body BLOB);
            CREATE INDEX note_folder ON note(folder);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
            INSERT INTO note SELECT i, i % 50, 'note ' || i, randomblob(8) FROM n;
            """)
        return path
    }
}

@Suite("In-process recorder")
struct WorkloadRecorderTests {
    static let lookup = "SELECT id, title FROM note WHERE folder = ? ORDER BY id LIMIT 5"
    static let rename = "UPDATE note SET title = ? WHERE id = ?"

    @Test("a GRDB-like pool: statements prepared once, run many times on four threads, each run recorded with its duration")
    func pool() throws {
        let scratch = try Scratch()
        let store = try scratch.store()
        let recorder = WorkloadRecorder()
        // Four reader connections, one per thread (DatabasePool), and one writer shared under a lock (DatabaseQueue).
        let readers = try (0..<4).map { _ in try RawConnection(path: store.path) }
        let writer = try RawConnection(path: store.path)
        let writerLock = NSLock()
        for connection in readers + [writer] { try recorder.attach(connection.handle) }
        #expect(recorder.attachedConnections == 5)
        let rename = try writer.prepare(Self.rename)
        let elapsed = Elapsed()
        let failures = Elapsed()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            do {
                let lookup = try readers[thread].prepare(Self.lookup)
                let start = DispatchTime.now().uptimeNanoseconds
                for i in 0..<250 {
                    let rows = try lookup.run([Int64((thread * 250 + i) % 50)])
                    if rows != 5 { failures.add(1) }
                    if i % 10 == 0 {
                        try writerLock.withLock { _ = try rename.run(["renamed \(thread)-\(i)", Int64(thread * 250 + i)]) }
                    }
                }
                elapsed.add(DispatchTime.now().uptimeNanoseconds - start)
            } catch {
                failures.add(1_000_000)
            }
        }
        #expect(failures.value == 0)
        let statements = recorder.statements
        let lookup = try #require(statements.first { $0.sql.hasPrefix("SELECT id, title") })
        #expect(lookup.count == 1000)
        #expect(lookup.rows == 5000)
        #expect(lookup.kind == "select")
        #expect(lookup.sql == "SELECT id, title FROM note WHERE folder = ? ORDER BY id LIMIT ?")
        #expect(lookup.fingerprint == Fingerprinter.normalize(Self.lookup).fingerprint.id)
        #expect(lookup.totalNanoseconds > 0)
        #expect(lookup.totalNanoseconds <= elapsed.value)
        #expect(lookup.medianNanoseconds > 0)
        #expect(lookup.medianNanoseconds <= lookup.totalNanoseconds / 100)
        #expect(lookup.samples.count == 8)
        #expect(lookup.samples.allSatisfy { $0.count == 2 && $0[1] == .integer(5) })
        #expect(lookup.firstSeen <= lookup.lastSeen)
        let update = try #require(statements.first { $0.kind == "update" })
        #expect(update.count == 100)
        #expect(update.rows == 100)
        #expect(update.samples.first?.first.map { if case .text(let text) = $0 { return text.hasPrefix("renamed ") } else { return false } } == true)
        #expect(recorder.droppedExecutions == 0)
        for connection in readers { connection.close() }
        // Closing a connection ends its recording (sqlite3_close_v2 even with a statement still open).
        #expect(recorder.attachedConnections == 1)
        writer.close()
        #expect(recorder.attachedConnections == 0)
        _ = rename
    }

    @Test("a run stopped early (the app read one row and reset) still counts, with the rows read")
    func earlyReset() throws {
        let scratch = try Scratch()
        let connection = try RawConnection(path: try scratch.store().path)
        defer { connection.close() }
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        let statement = try connection.prepare("SELECT * FROM note WHERE folder = ?")
        for folder in 0..<10 { try statement.run([Int64(folder)], maxRows: 1) }
        let recorded = try #require(recorder.statements.first)
        #expect(recorded.count == 10)
        #expect(recorded.rows == 10)
    }

    @Test("detach stops recording; attaching twice records once")
    func detach() throws {
        let scratch = try Scratch()
        let connection = try RawConnection(path: try scratch.store().path)
        defer { connection.close() }
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        try recorder.attach(connection.handle)
        try connection.execute("SELECT count(*) FROM note")
        recorder.detach(connection.handle)
        try connection.execute("SELECT count(*) FROM note")
        #expect(recorder.statements.map(\.count) == [1])
        #expect(recorder.attachedConnections == 0)
    }

    @Test("after a reset, a statement prepared before it is recorded again from zero")
    func resetKeepsRecording() throws {
        let scratch = try Scratch()
        let connection = try RawConnection(path: try scratch.store().path)
        defer { connection.close() }
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        let statement = try connection.prepare("SELECT * FROM note WHERE id = ?")
        for id in 0..<5 { try statement.run([Int64(id)]) }
        #expect(recorder.statements.map(\.count) == [5])
        recorder.reset()
        #expect(recorder.statements.isEmpty)
        for id in 0..<3 { try statement.run([Int64(id)]) }
        #expect(recorder.statements.map(\.count) == [3])
        #expect(recorder.statements.first?.rows == 3)
    }

    @Test("memory is bounded: new statements beyond the cap are counted as dropped")
    func limits() throws {
        let scratch = try Scratch()
        let connection = try RawConnection(path: try scratch.store().path)
        defer { connection.close() }
        let recorder = WorkloadRecorder(limits: .init(maxStatements: 2, timingSamples: 4, valueSamples: 1))
        try recorder.attach(connection.handle)
        try connection.execute("SELECT 1 FROM note WHERE id = 1; SELECT 2 FROM note WHERE id = 2; SELECT id FROM note WHERE folder = 3; SELECT id FROM note WHERE folder = 4")
        // `SELECT 1 …` and `SELECT 2 …` share a fingerprint; folder lookups are the second; nothing is dropped.
        #expect(recorder.statements.map(\.count) == [2, 2])
        #expect(recorder.statements[0].samples.count == 1)
        try connection.execute("SELECT title FROM note WHERE id = 9; DELETE FROM note WHERE id = 9")
        #expect(recorder.droppedExecutions == 2)
        recorder.reset()
        try connection.execute("SELECT title FROM note WHERE id = 8")
        #expect(recorder.statements.map(\.sql) == ["SELECT title FROM note WHERE id = ?"])
    }
}

/// A thread-safe sum.
final class Elapsed: @unchecked Sendable {
    private let lock = NSLock()
    private var total: UInt64 = 0
    func add(_ value: UInt64) { lock.withLock { total += value } }
    var value: UInt64 { lock.withLock { total } }
}

/// Hostile round 8, F24: `sqlite3_expanded_sql` writes a bound BLOB as hex, and the recorder kept such samples
/// whole (a 10 MB image per insert: 1.7 GB of memory and a 671 MB file). An execution whose text with its
/// values passes 64 KiB gives no sample; it is still counted and timed, and small ones keep theirs.
@Suite("The recorder's value samples are bounded in bytes")
struct RecorderSampleBytesTests {
    @Test("a 2 MB BLOB's inserts are counted with no sample; the small key lookup beside them keeps its values; the connection's length limit is put back")
    func largeValuesNotSampled() throws {
        let scratch = try Scratch()
        let connection = try RawConnection(path: try scratch.store().path)
        defer { connection.close() }
        let recorder = WorkloadRecorder()
        try recorder.attach(connection.handle)
        let limit = sqlite3_limit(connection.handle, SQLITE_LIMIT_LENGTH, -1)
        let insert = try connection.prepare("INSERT INTO note (folder, title, body) VALUES (?, ?, ?)")
        let image = [UInt8](repeating: 0xAB, count: 2 * 1024 * 1024)
        for i in 0..<5 { try insert.run([Int64(7), "photo \(i)", image]) }
        let lookup = try connection.prepare("SELECT title FROM note WHERE id = ?")
        try lookup.run([Int64(42)])
        #expect(sqlite3_limit(connection.handle, SQLITE_LIMIT_LENGTH, -1) == limit)
        let inserts = try #require(recorder.statements.first { $0.sql.hasPrefix("INSERT") })
        #expect(inserts.count == 5)
        #expect(inserts.samples.isEmpty)
        let lookups = try #require(recorder.statements.first { $0.sql.hasPrefix("SELECT title") })
        #expect(lookups.samples.first?.first == .integer(42))
        let file = scratch.url.appendingPathComponent("notes.workload.jsonl")
        try recorder.write(to: file)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(bytes < 64 * 1024, "\(bytes) bytes")
    }
}
