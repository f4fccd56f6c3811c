import Foundation
import IndexAdvisor

/// Writes a realistic Core Data SQL debug log of a notes app, deterministically (a fixed seed): fetches
/// that fire faults, list and batch fetches, counts, searches, saves with their transaction and key
/// allocation, at levels 1 to 4 (bind values, level-3 row dumps, level-4 plans), in three line styles
/// (NSLog prefix, bare, `log stream`), with other subsystems' lines in between and a few statements
/// broken over lines.
struct CoreDataLogGenerator {
    /// What was written.
    struct Summary {
        var bytes = 0
        var lines = 0
        /// Lines carrying `CoreData: sql:` (what `grep -c` counts).
        var sqlLines = 0
    }

    private var random = SeededGenerator(seed: 20_240_501)
    private var out: [UInt8] = []
    private var summary = Summary()
    private var clock = 36_000_000 // milliseconds since midnight
    private var style = 0

    /// Writes about `bytes` bytes of log to `url`.
    static func write(bytes target: Int, to url: URL) throws -> Summary {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchmarkError("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var generator = CoreDataLogGenerator()
        generator.out.reserveCapacity(5 << 20)
        while generator.summary.bytes + generator.out.count < target {
            generator.event()
            if generator.out.count >= 4 << 20 {
                try handle.write(contentsOf: generator.out)
                generator.summary.bytes += generator.out.count
                generator.out.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: generator.out)
        generator.summary.bytes += generator.out.count
        return generator.summary
    }

    private mutating func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func number(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }

    /// One thing the app does.
    private mutating func event() {
        if summary.lines % 5000 == 0 { style = number(0...2) }
        clock += number(0...40)
        let roll = number(0..<100)
        switch roll {
        case 0..<35: faultFire()
        case 35..<55: listFetch()
        case 55..<63: batchFetch()
        case 63..<68: tagFetch()
        case 68..<73: countFetch()
        case 73..<78: search()
        case 78..<90: save()
        case 90..<98: foreign()
        default: multiLine()
        }
    }

    private mutating func faultFire() {
        sql("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZBODY, t0.ZFOLDER, t0.ZMODIFIED FROM ZNOTE t0 WHERE  t0.Z_PK = ? ")
        bind(0, String(number(1...100_000)))
        fetchTimes(rows: 1)
    }

    private mutating func listFetch() {
        sql("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZMODIFIED, t0.ZFOLDER FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? AND  t0.ZTRASHED = ? ORDER BY t0.ZMODIFIED DESC LIMIT 50")
        bind(0, String(number(1...400)))
        bind(1, "0")
        let rows = number(0...50)
        core("annotation", "sql connection fetch time: \(seconds())s")
        if number(0..<4) == 0 {
            // Level 3: the rows, each description on one or several lines.
            core("annotation", "fetch using NSSQLiteStatement <0x6000\(hex())> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? ' returned 3 rows with values: (")
            for index in 0..<3 {
                let comma = index < 2 ? "," : ""
                if index == 0 {
                    raw("    \"<Note: 0x6000\(hex())> (entity: Note; id: 0x\(hex()) <x-coredata://6C1E4B7A/Note/p\(number(1...100_000))>; data: {")
                    raw("    title = \\\"Meeting (notes) \(number(1...99))\\\";")
                    raw("    folder = \\\"0x\(hex()) <x-coredata://6C1E4B7A/Folder/p\(number(1...400))>\\\";")
                    raw("})\"\(comma)")
                } else {
                    raw("    \"<Note: 0x6000\(hex())> (entity: Note; id: 0x\(hex()) <x-coredata://6C1E4B7A/Note/p\(number(1...100_000))>; data: <fault>)\"\(comma)")
                }
            }
            raw(")")
        } else {
            core("annotation", "fetch using NSSQLiteStatement <0x6000\(hex())> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? ' returned \(rows) rows")
        }
        core("annotation", "total fetch execution time: \(seconds())s for \(rows) rows.")
        if number(0..<10) == 0 {
            core("details", "SQLite: EXPLAIN QUERY PLAN SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZMODIFIED, t0.ZFOLDER FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? AND  t0.ZTRASHED = ? ORDER BY t0.ZMODIFIED DESC LIMIT 50")
            core("details", "3 0 0 SEARCH t0 USING INDEX ZNOTE_ZFOLDER_INDEX (ZFOLDER=?)")
            core("details", "7 0 0 USE TEMP B-TREE FOR ORDER BY")
        }
    }

    private mutating func batchFetch() {
        core("annotation", "Bound intarray _Z_intarray0")
        core("annotation", "Bound intarray values.")
        sql("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZBODY FROM ZNOTE t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT 20")
        fetchTimes(rows: 20)
    }

    private mutating func tagFetch() {
        let count = number(1...12)
        let list = (0..<count).map { _ in "?" }.joined(separator: ",")
        sql("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZTAG t0 WHERE  t0.Z_PK IN (\(list)) ")
        for index in 0..<count { bind(index, String(number(1...5000))) }
        fetchTimes(rows: count)
    }

    private mutating func countFetch() {
        sql("SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 WHERE  t0.ZFOLDER = ?")
        bind(0, String(number(1...400)))
        core("annotation", "count request <NSFetchRequest: 0x6000\(hex())> (entity: Note; predicate: (folder == 17); sortDescriptors: ((null)); type: NSCountResultType; ) returned \(number(0...900))")
        core("annotation", "total count request execution time: \(seconds())s for count of \(number(0...900)).")
    }

    private mutating func search() {
        sql("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZNOTE t0 WHERE  NSCoreDataStringSearch( t0.ZTITLE, ?, 417, 1) ORDER BY t0.ZTITLE COLLATE NSCollateFinderlike LIMIT 100")
        bind(0, "\"meet\(number(0...99))\"")
        fetchTimes(rows: number(0...100))
    }

    private mutating func save() {
        sql("BEGIN EXCLUSIVE")
        sql("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        bind(0, "1")
        sql("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
        let key = number(1...1_000_000)
        sql("INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZFOLDER, ZTRASHED, ZMODIFIED, ZTITLE, ZBODY) VALUES(?, ?, ?, ?, ?, ?, ?, ?)")
        for (index, value) in ["\(key)", "1", "1", "\(number(1...400))", "0", "7363\(number(10000...99999)).5", "\"New note \(key)\"", "nil"].enumerated() {
            bind(index, value)
        }
        core("annotation", "sql execution time: \(seconds())s")
        sql("UPDATE ZNOTE SET ZTITLE = ?, ZMODIFIED = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
        if number(0..<3) == 0 { sql("DELETE FROM ZNOTE WHERE Z_PK = ? AND Z_OPT = ?") }
        sql("COMMIT")
        sql("pragma page_count")
        core("annotation", "sql execution time: 0.0001s")
    }

    private mutating func foreign() {
        switch number(0..<3) {
        case 0: raw("\(timestamp()) Notes[4242:7a1b] [Networking] GET /sync/\(number(1...999)) finished in \(number(10...900)) ms")
        case 1: raw("\(timestamp()) Notes[4242:1234567] [UIKit] Scene did become active")
        default: raw("\(timestamp()) Notes[4242:1234567] [Sync] merged \(number(1...40)) changes from the cloud")
        }
    }

    private mutating func multiLine() {
        sql("SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZNOTE t0 WHERE")
        raw("    t0.ZFOLDER IS NULL AND")
        raw("    t0.ZTRASHED = ?")
        bind(0, "0")
        fetchTimes(rows: number(0...30))
    }

    // MARK: Lines

    private mutating func fetchTimes(rows: Int) {
        core("annotation", "sql connection fetch time: \(seconds())s")
        core("annotation", "total fetch execution time: \(seconds())s for \(rows) rows.")
    }

    private mutating func sql(_ text: String) {
        summary.sqlLines += 1
        core("sql", text)
    }

    private mutating func bind(_ index: Int, _ value: String) {
        core("details", "SQLite bind[\(index)] = \(value)")
    }

    /// A Core Data line in the current style.
    private mutating func core(_ level: String, _ message: String) {
        switch style {
        case 0: raw("\(timestamp()) Notes[4242:1234567] CoreData: \(level): \(message)")
        case 1: raw("CoreData: \(level): \(message)")
        default: raw("\(timestamp())000+0200 0x1a2b3c   Debug       0x0                  4242   0    Notes: (CoreData) CoreData: \(level): \(message)")
        }
    }

    private mutating func raw(_ line: String) {
        out.append(contentsOf: line.utf8)
        out.append(0x0A)
        summary.lines += 1
    }

    private func timestamp() -> String {
        let ms = clock % 1000, s = (clock / 1000) % 60, m = (clock / 60_000) % 60, h = (clock / 3_600_000) % 24
        return "2024-05-01 \(two(h)):\(two(m)):\(two(s)).\(ms < 10 ? "00" : (ms < 100 ? "0" : ""))\(ms)"
    }

    private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// A duration as Core Data prints it: `0.0123`.
    private mutating func seconds() -> String {
        let tenths = number(1...250)
        return "0.0" + (tenths < 10 ? "00" : (tenths < 100 ? "0" : "")) + String(tenths)
    }

    private mutating func hex() -> String { String(number(0x1000_0000...0x7fff_ffff), radix: 16) }
}
