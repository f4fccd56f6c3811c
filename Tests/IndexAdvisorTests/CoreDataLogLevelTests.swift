import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Core Data SQL debug logs, levels 1 to 4")
struct CoreDataLogLevelTests {
    let workload = WorkloadLoader.parse(SampleLogs.allLevels, file: "levels.log")

    func statement(_ sql: String) throws -> WorkloadStatement {
        let id = Fingerprinter.normalize(sql).fingerprint.id
        return try #require(workload.statements.first { $0.fingerprint.id == id })
    }

    @Test("lines, statements and skipped lines are counted with their reasons")
    func counts() {
        #expect(WorkloadFormat.detect(SampleLogs.allLevels[...]) == .coreDataLog)
        #expect(workload.diagnostics.files == ["levels.log"])
        #expect(workload.diagnostics.linesRead == 63)
        #expect(workload.diagnostics.statementsRead == 19)
        #expect(workload.diagnostics.skipped == ["not a Core Data line": 2, "level-3 row values (not SQL)": 6])
        #expect(workload.statements.map(\.kind) == [.pragma, .select, .select, .select, .select, .transaction, .select,
                                                    .update, .insert, .update, .update, .delete, .transaction, .pragma])
        #expect(workload.statements.map(\.count) == [1, 1, 4, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1])
    }

    @Test("a fetch seen four times: its durations, binds, rows, entity, sources and the device's plan")
    func listFetch() throws {
        let fetch = try statement(SampleLogs.listFetch)
        #expect(fetch.count == 4)
        #expect(fetch.sql == "SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? ORDER BY t0.ZMODIFIED DESC LIMIT ?")
        #expect(fetch.parameterCount == 3)
        // The level-1 occurrence has no binds; the third bind of 17 repeats the first tuple.
        #expect(fetch.observedBindings == [[.integer(0), .integer(17), .integer(50)], [.integer(0), .integer(23), .integer(50)]])
        let timing = try #require(fetch.observedTiming)
        #expect(timing.count == 4)
        #expect(abs(timing.totalSeconds - 0.0150) < 1e-12)
        #expect(abs(timing.medianSeconds - 0.0035) < 1e-12)
        #expect(fetch.observedRows == 50)
        #expect(fetch.entityName == "Note")
        #expect(fetch.tables == ["ZNOTE"])
        #expect(fetch.sources == [SourceRange(file: "levels.log", firstLine: 4, lastLine: 6),
                                  SourceRange(file: "levels.log", firstLine: 8, lastLine: 27)])
        #expect(fetch.devicePlan == ["SEARCH t0 USING INDEX ZNOTE_ZFOLDER_INDEX (ZFOLDER=?)", "USE TEMP B-TREE FOR ORDER BY"])
    }

    @Test("a count request from log stream and from a unified-log line without the CoreData: marker")
    func countRequest() throws {
        let count = try statement(SampleLogs.countFetch)
        #expect(count.count == 2)
        #expect(count.observedBindings == [[.text("Groceries")], [.text("Work")]])
        #expect(count.observedTiming == ObservedTiming(count: 1, totalSeconds: 0.0031, medianSeconds: 0.0031))
        #expect(count.devicePlan == ["SCAN t0"])
        #expect(count.sources == [SourceRange(file: "levels.log", firstLine: 31, lastLine: 33),
                                  SourceRange(file: "levels.log", firstLine: 37, lastLine: 38)])
    }

    @Test("a statement broken over lines is joined; its literal and its bind make one tuple")
    func multiLine() throws {
        let fetch = try statement("SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER IS NULL AND t0.ZTRASHED = ?")
        #expect(fetch.sql == "SELECT ?, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDER IS NULL AND t0.ZTRASHED = ?")
        #expect(fetch.observedBindings == [[.integer(0), .integer(0)]])
        #expect(fetch.observedRows == 3)
        #expect(fetch.sources == [SourceRange(file: "levels.log", firstLine: 39, lastLine: 43)])
    }

    @Test("writes and transactions are counted per table and per updated column; bookkeeping is set aside")
    func writes() throws {
        let insert = try statement(SampleLogs.insert)
        #expect(insert.observedBindings == [[.integer(101), .integer(1), .integer(1), .null, .real(736_300_000.5), .text("Shopping list")]])
        #expect(insert.observedTiming?.totalSeconds == 0.0002)
        let update = try statement(SampleLogs.titleUpdate)
        #expect(update.count == 2)
        #expect(update.updatedColumns == ["ZTITLE", "Z_OPT"])
        let writes = workload.writesByTable
        #expect(writes.map(\.table) == ["ZNOTE", "Z_PRIMARYKEY"])
        #expect(writes[0].inserts == 1 && writes[0].updates == 3 && writes[0].deletes == 1)
        #expect(writes[0].updatedColumns == ["ZTITLE": 2, "Z_OPT": 3, "ZMODIFIED": 1])
        #expect(writes[1].updatedColumns == ["Z_MAX": 1])
        #expect(workload.transactions.begins == 1 && workload.transactions.commits == 1 && workload.transactions.rollbacks == 0)
        let housekeeping = workload.statements.filter(\.isHousekeeping).map(\.tables)
        #expect(housekeeping == [["Z_METADATA"], ["Z_PRIMARYKEY"], ["Z_PRIMARYKEY"]])
        #expect(workload.analysedStatements.count == 7)
        #expect(!workload.analysedStatements.contains { $0.kind == .pragma || $0.kind == .transaction || $0.isHousekeeping })
    }

    @Test("the same log read in one piece and in chunks of every small size gives the same workload")
    func chunked() {
        let bytes = Array(SampleLogs.allLevels.utf8)
        for size in [1, 2, 3, 7, 64, 1000] {
            var builder = WorkloadBuilder()
            var reader = CoreDataLogReader(file: "levels.log")
            var splitter = LineSplitter()
            bytes.withUnsafeBufferPointer { all in
                var start = 0
                while start < all.count {
                    splitter.feed(all.slice(start, start + size)) { reader.line($0, cut: $1, into: &builder) }
                    start += size
                }
            }
            splitter.finish { reader.line($0, cut: $1, into: &builder) }
            reader.finish(into: &builder)
            let chunked = builder.build()
            var expected = workload.diagnostics
            expected.formats = []  // the loader's, not the reader's
            #expect(chunked.diagnostics == expected, "chunk size \(size)")
            #expect(chunked.statements.map(\.fingerprint) == workload.statements.map(\.fingerprint), "chunk size \(size)")
            #expect(chunked.statements.map(\.observedBindings) == workload.statements.map(\.observedBindings), "chunk size \(size)")
        }
    }
}

@Suite("Logged times out of range")
struct LoggedTimeRangeTests {
    // Regression (breaking round): `fetch time: 1e308s` was taken as a time; summed, the workload's total
    // became infinite, JSON output failed with an encoding error and reports printed "inf s".
    @Test("a logged time over a day is not a time: the statement keeps its count, the totals stay finite")
    func absurdTimes() {
        let workload = WorkloadLoader.parse("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDERID = 3
            CoreData: annotation: sql connection fetch time: 1e308s
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZFOLDERID = 5
            CoreData: annotation: sql connection fetch time: 90000s
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZREMOTEID = 'abc'
            CoreData: annotation: sql connection fetch time: 0.0010s
            """, file: "huge.log", format: .coreDataLog)
        let folder = workload.statements.first { $0.sql.contains("ZFOLDERID") }
        #expect(folder?.count == 2)
        #expect(folder?.observedTiming == nil)
        let remote = workload.statements.first { $0.sql.contains("ZREMOTEID") }
        #expect(remote?.observedTiming?.totalSeconds == 0.001)
    }

    // Regression (breaking round, stop 28): a time of 19 or more digits overflowed the decimal reader's
    // mantissa and killed the process (SIGILL) on one pasted line.
    @Test("a logged time with twenty digits or more is read, not a crash", arguments: [
        ("0.0100000000000000000000s", 0.01), ("99999999999999999999s", nil), ("0.000000000000000000000012s", 1.2e-23),
        ("000000000000000000000000000000.5s", 0.5),
    ] as [(String, Double?)])
    func manyDigits(time: String, seconds: Double?) throws {
        let workload = WorkloadLoader.parse("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.ZISPINNED = 1
            CoreData: annotation: sql connection fetch time: \(time)
            """, file: "digits.log", format: .coreDataLog)
        let statement = try #require(workload.statements.first)
        #expect(statement.count == 1)
        if let seconds {
            let read = try #require(statement.observedTiming?.totalSeconds)
            #expect(abs(read - seconds) <= seconds * 1e-12)
        } else {
            #expect(statement.observedTiming == nil)  // over a day: not a time
        }
        #expect(Array("12345678901234567890123.25".utf8).withUnsafeBufferPointer { $0.decimal(at: 0) } == 12345678901234567890123.25)
    }
}
