import Foundation
import Testing
@testable import IndexAdvisor

/// Issue 39, item 10: a line of the app's own output that starts with `=`, `<`, `>`, `|`, `,` or `)` was joined
/// to the statement before it as a wrapped line (an object's description, a banner), and the statement no
/// longer parsed. Such a line joins only when SQLite still parses the statement with it.
@Suite("App output that starts with a symbol is not part of a statement")
struct AppOutputLineTests {
    static let statement = "SELECT 0, t0.Z_PK, t0.ZDUE FROM ZCHORE t0 WHERE t0.ZHOUSE = ? ORDER BY t0.ZDUE"

    @Test("the line is skipped and the statement keeps its text, with its bind and time", arguments: [
        "<Chore: 0x600002b5c1e0> (entity: Chore; id: 0x9f2e80b1c3d4e5a6 <x-coredata://6C1B/Chore/p41>; data: <fault>)",
        "=== sync finished ===",
        "==> refreshed 14 chores",
        ">>> background refresh took 12 ms",
        "> [Chores] 3 overdue",
        "| house 7 | chores 14 |",
        ", then 2 more retries",
        ") finished in 3 ms",
        "<<< leaving ChoreListView",
    ])
    func appOutputLine(line: String) {
        let log = """
            CoreData: sql: \(Self.statement)
            \(line)
            CoreData: details: SQLite bind[0] = (int64)7
            CoreData: annotation: sql connection fetch time: 0.0008s
            CoreData: sql: \(Self.statement)
            CoreData: details: SQLite bind[0] = (int64)2
            \(line)
            CoreData: annotation: sql connection fetch time: 0.0006s

            """
        let workload = WorkloadLoader.parse(log, file: "chores.log")
        #expect(workload.statements.map(\.text) == [Self.statement])
        #expect(workload.statements.first?.count == 2)
        #expect(workload.statements.first?.observedBindings == [[.integer(0), .integer(7)], [.integer(0), .integer(2)]])
        #expect(workload.diagnostics.skipped == [CoreDataLogReader.notCoreData: 2])
        // Each execution parses.
        let connection = try? SQLiteConnection.inMemory()
        try? connection?.execute("CREATE TABLE ZCHORE(Z_PK INTEGER PRIMARY KEY, ZDUE INTEGER, ZHOUSE INTEGER)")
        #expect((try? connection?.prepare(workload.statements.first?.sql ?? "")) != nil)
    }

    @Test("a wrapped statement's symbol lines still join", arguments: [
        ("CoreData: sql: SELECT t0.Z_PK FROM ZCHORE t0 WHERE t0.ZHOUSE\n= ? ORDER BY t0.ZDUE", "SELECT t0.Z_PK FROM ZCHORE t0 WHERE t0.ZHOUSE = ? ORDER BY t0.ZDUE"),
        ("CoreData: sql: SELECT t0.Z_PK FROM ZCHORE t0 WHERE t0.ZDUE\n>= ? AND t0.ZDUE\n< ?", "SELECT t0.Z_PK FROM ZCHORE t0 WHERE t0.ZDUE >= ? AND t0.ZDUE < ?"),
        ("CoreData: sql: SELECT t0.ZNAME\n|| ? FROM ZCHORE t0", "SELECT t0.ZNAME || ? FROM ZCHORE t0"),
        ("CoreData: sql: SELECT COUNT( DISTINCT t0.ZHOUSE\n) FROM ZCHORE t0", "SELECT COUNT( DISTINCT t0.ZHOUSE ) FROM ZCHORE t0"),
        ("CoreData: sql: INSERT INTO ZCHORE(Z_PK, ZDUE\n, ZHOUSE) VALUES(?, ?, ?)", "INSERT INTO ZCHORE(Z_PK, ZDUE , ZHOUSE) VALUES(?, ?, ?)"),
    ])
    func wrappedStatement(input: String, sql: String) {
        let workload = WorkloadLoader.parse(input + "\nCoreData: annotation: sql connection fetch time: 0.0010s\n", file: "wrap.log")
        #expect(workload.statements.map(\.text) == [sql])
        #expect(workload.diagnostics.skipped.isEmpty)
    }
}
