import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39, item 5: a write timed on a snapshot whose folder filled up failed with `SQLITE_FULL`, was
/// listed as "could not be timed", and the run ended in exit 0 with advice made without that write's cost;
/// `check` weighed it by its share of the executions and passed. The run stops instead, as it does when an
/// index cannot be built there.
@Suite("A full snapshot folder while timing stops the run")
struct SnapshotFullTimingTests {
    static let schema = """
        CREATE TABLE photo(id INTEGER PRIMARY KEY, album INTEGER, taken INTEGER, thumb BLOB);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
        INSERT INTO photo SELECT i, i % 60, 1700000000 + i, randomblob(40) FROM n;
        """
    /// A read that scans, and a rare write that needs new pages (its thumbnail spills to overflow pages).
    static let workload = """
        -- freq: 500
        SELECT id, taken FROM photo WHERE album = 12 ORDER BY taken;
        -- freq: 2
        INSERT INTO photo(album, taken, thumb) VALUES (7, 1800000000, randomblob(30000));
        """

    @Test("analyze and check (profile) throw snapshotTimingFailed naming the folder and the write; the store untouched, nothing left")
    func fullWhileTimingAWrite() throws {
        let store = try FixtureStore(Self.schema)
        let before = try store.fileState()
        let parent = try TemporaryDirectory()
        var options = quickOptions(temporaryDirectory: parent.url)
        options.snapshotGrowthPages = 0
        let workload = WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql)
        for (name, run) in [("analyze", { try Advisor.analyze(storeAt: store.url, workload: workload, options: options) }),
                            ("check", { try Advisor.profile(storeAt: store.url, workload: workload, options: options) })] {
            do {
                _ = try run()
                Issue.record("\(name) ended without an error")
            } catch let error as StoreError {
                guard case .snapshotTimingFailed(let directory, let sql, let sqliteError) = error else { Issue.record("\(name): \(error)"); continue }
                #expect(directory.hasPrefix(parent.url.path + "/indexadvisor-"), "\(directory)")
                #expect(sql.hasPrefix("INSERT INTO photo"))
                #expect(sqliteError.code == .full)
                #expect(error.description.contains("the advice would leave its cost out, so the analysis stopped; nothing was written; free space there or choose another folder with --temp-dir"))
                #expect(!error.description.contains("\n"))
            }
            #expect(runDirectories(in: parent.url).isEmpty)
            #expect(try store.fileState() == before)
        }
        // With room, the same workload is analysed and the write is timed.
        options.snapshotGrowthPages = nil
        let result = try Advisor.analyze(storeAt: store.url, workload: workload, options: options)
        #expect(result.statements.allSatisfy { $0.error == nil && $0.timingBefore != nil })
    }
}
