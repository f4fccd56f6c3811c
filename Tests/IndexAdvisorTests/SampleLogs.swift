/// Sample Core Data SQL debug output written for these tests (entity `Note` in `ZNOTE`, made-up values):
/// levels 1 to 4, with and without the console's timestamp and `Process[pid:tid]` prefix, a `log stream`
/// style line, a unified-log line tagged `[com.apple.coredata…]` without the `CoreData:` marker, colour
/// codes, other subsystems' lines in between, a statement broken over lines, a level-3 row dump whose
/// descriptions span lines and contain SQL-looking text, and level-4 plans in two layouts.
enum SampleLogs {
    static let listFetch = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZNOTE t0 WHERE  t0.ZFOLDER = ? ORDER BY t0.ZMODIFIED DESC LIMIT 50"
    static let countFetch = "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 WHERE  t0.ZTITLE = ?"
    static let insert = "INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZFOLDER, ZMODIFIED, ZTITLE) VALUES(?, ?, ?, ?, ?, ?)"
    static let titleUpdate = "UPDATE ZNOTE SET ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"

    /// 63 lines.
    static let allLevels = """
        2024-05-01 10:00:00.100 Notes[4242:1234567] CoreData: sql: pragma cache_size=200
        2024-05-01 10:00:00.101 Notes[4242:1234567] CoreData: annotation: sql execution time: 0.0001s
        2024-05-01 10:00:00.102 Notes[4242:1234567] CoreData: sql: SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA
        2024-05-01 10:00:00.200 Notes[4242:1234567] CoreData: sql: \(listFetch)
        2024-05-01 10:00:00.201 Notes[4242:1234567] CoreData: annotation: sql connection fetch time: 0.0040s
        2024-05-01 10:00:00.202 Notes[4242:1234567] CoreData: annotation: total fetch execution time: 0.0050s for 50 rows.
        2024-05-01 10:00:00.250 Notes[4242:7a1b] [Networking] GET /sync finished in 210 ms
        CoreData: sql: \(listFetch)
        CoreData: details: SQLite bind[0] = 17
        CoreData: annotation: sql connection fetch time: 0.0020s
        CoreData: annotation: fetch using NSSQLiteStatement <0x600002c4d7a0> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK' returned 12 rows
        CoreData: annotation: total fetch execution time: 0.0030s for 12 rows.
        CoreData: sql: \(listFetch)
        CoreData: details: SQLite bind[0] = 23
        CoreData: annotation: sql connection fetch time: 0.0060s
        CoreData: annotation: fetch using NSSQLiteStatement <0x600002c4d7a0> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK' returned 2 rows with values: (
            "<Note: 0x600003a1c0a0> (entity: Note; id: 0xa1b2 <x-coredata://6C1E/Note/p17>; data: {
            title = \\"DELETE FROM ZNOTE WHERE (1\\";
            body = \\"sql: SELECT 1\\";
        })",
            "<Note: 0x600003a1c0f0> (entity: Note; id: 0xa1b3 <x-coredata://6C1E/Note/p18>; data: <fault>)"
        )
        CoreData: annotation: total fetch execution time: 0.0070s for 2 rows.
        CoreData: sql: \(listFetch)
        CoreData: details: SQLite bind[0] = 17
        CoreData: annotation: sql connection fetch time: 0.0030s
        CoreData: annotation: total fetch execution time: 0.0040s for 50 rows.
        CoreData: details: SQLite: EXPLAIN QUERY PLAN \(listFetch)
        CoreData: details: 3 0 0 SEARCH t0 USING INDEX ZNOTE_ZFOLDER_INDEX (ZFOLDER=?)
        CoreData: details: 7 0 0 USE TEMP B-TREE FOR ORDER BY
        2024-05-01 10:00:01.500000+0200 0x1a2b3c   Debug       0x0                  4242   0    Notes: (CoreData) CoreData: sql: \(countFetch)
        2024-05-01 10:00:01.500100+0200 0x1a2b3c   Debug       0x0                  4242   0    Notes: (CoreData) CoreData: details: SQLite bind[0] = "Groceries"
        2024-05-01 10:00:01.500200+0200 0x1a2b3c   Debug       0x0                  4242   0    Notes: (CoreData) CoreData: annotation: total count request execution time: 0.0031s for count of 240.
        CoreData: details: SQLite: EXPLAIN QUERY PLAN \(countFetch)
        QUERY PLAN
        `--SCAN t0
        2024-05-01 10:00:01.600 Df Notes[4242:1a2b3c] [com.apple.coredata:sql] sql: \(countFetch)
        2024-05-01 10:00:01.601 Df Notes[4242:1a2b3c] [com.apple.coredata:sql] details: SQLite bind[0] = "Work"
        CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE
            t0.ZFOLDER IS NULL AND
            t0.ZTRASHED = ?
        CoreData: details: SQLite bind[0] = 0
        CoreData: annotation: fetch using NSSQLiteStatement <0x600002c4d7b0> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK FROM ZNOTE t0' returned 3 rows
        2024-05-01 10:00:02.000 Notes[4242:1234567] [UIKit] Scene did become active
        \u{1B}[32mCoreData: sql: BEGIN EXCLUSIVE\u{1B}[0m
        CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?
        CoreData: details: SQLite bind[0] = 1
        CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?
        CoreData: sql: \(insert)
        CoreData: details: SQLite bind[0] = 101
        CoreData: details: SQLite bind[1] = 1
        CoreData: details: SQLite bind[2] = 1
        CoreData: details: SQLite bind[3] = nil
        CoreData: details: SQLite bind[4] = 736300000.5
        CoreData: details: SQLite bind[5] = "Shopping list"
        CoreData: annotation: sql execution time: 0.0002s
        CoreData: sql: \(titleUpdate)
        CoreData: sql: \(titleUpdate)
        CoreData: sql: UPDATE ZNOTE SET ZMODIFIED = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?
        CoreData: sql: DELETE FROM ZNOTE WHERE Z_PK = ? AND Z_OPT = ?
        CoreData: sql: COMMIT
        CoreData: sql: pragma page_count
        CoreData: annotation: sql execution time: 0.0001s
        """
}
