import Foundation
import IndexAdvisor

/// How a statement's cost is taken.
package enum CostMeasure: Sendable, Equatable {
    /// Seconds: the fastest of `runs` timed runs after one warm-up run (load only ever slows a run).
    case wallClock(runs: Int)
    /// SQLite's work counters: one unit per virtual-machine step (`SQLITE_STMTSTATUS_VM_STEP`,
    /// https://sqlite.org/c3ref/c_stmtstatus_counter.html) and one per page the statement asked its page
    /// cache for (`SQLITE_DBSTATUS_CACHE_HIT` + `_MISS`, c3ref/c_dbstatus_options.html), so that a B-tree an
    /// index adds to every insert shows. The same on every run for the same plan, data and values, whatever
    /// the machine's load; for the benchmark's own tests.
    case counters

    package var unit: String { self == .counters ? "work units (VM steps + pages)" : "s" }
}

/// Runs one statement with bound values on a connection and says what it cost (``CostMeasure``).
/// Reads are stepped to the end. Writes run either inside a savepoint that is rolled back (the search's
/// model, which must leave the copy as it was) or as committed transactions of their own (the scorer).
///
/// An execution that runs past ``cap`` is interrupted (`sqlite3_interrupt` through the connection's progress
/// handler, https://sqlite.org/c3ref/interrupt.html; an interrupted write is rolled back by SQLite) and
/// priced at the cap: a lower bound on its cost, so that a plan that reads a large table once per outer
/// row (minutes or hours) ends a measurement instead of the run. The texts of such statements are kept in
/// ``capped`` for the report to mark every total they enter as "at least".
package final class ExecutionTimer {
    let connection: SQLiteConnection
    let measure: CostMeasure
    /// Most seconds one execution may run; nil for no limit.
    package let cap: Double?
    /// The statements (their text) an execution of which reached ``cap``.
    package private(set) var capped: Set<String> = []
    private var prepared: [String: SQLiteStatement] = [:]

    package init(connection: SQLiteConnection, measure: CostMeasure, cap: Double? = nil) {
        self.connection = connection
        self.measure = measure
        self.cap = cap
    }

    /// Forgets the prepared statements (after the schema changed, SQLite prepares them again anyway).
    package func reset() { prepared.removeAll() }

    func statement(_ sql: String) throws -> SQLiteStatement {
        if let known = prepared[sql] { return known }
        let statement = try connection.prepare(sql)
        prepared[sql] = statement
        return statement
    }

    /// One run: the seconds or steps it took (at a cap: the cap, or the steps taken until it).
    func once(_ sql: String, values: [SQLValue], isWrite: Bool, commits: Bool) throws -> Double {
        let statement = try self.statement(sql)
        if !values.isEmpty { try statement.bind(values) }
        defer { statement.reset() }
        if isWrite, !commits { try connection.execute("SAVEPOINT bench") }
        _ = statement.virtualMachineSteps(reset: true)
        _ = connection.pageLookups(reset: true)
        let start = DispatchTime.now().uptimeNanoseconds
        if let cap { connection.statementDeadline = start + UInt64(cap * 1e9) }
        defer { connection.statementDeadline = nil }
        var reachedCap = false
        do {
            while try statement.step() {}
        } catch let error as SQLiteError where cap != nil && error.code == .interrupt {
            reachedCap = true
            capped.insert(sql)
        } catch {
            if isWrite, !commits { try? connection.execute("ROLLBACK TO bench; RELEASE bench") }
            throw error
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let steps = Double(statement.virtualMachineSteps(reset: true) + connection.pageLookups(reset: true))
        if isWrite, !commits {
            // An interrupted write inside a transaction rolls the whole transaction back (c3ref/interrupt.html):
            // the savepoint may be gone already.
            if reachedCap { try? connection.execute("ROLLBACK TO bench; RELEASE bench") } else { try connection.execute("ROLLBACK TO bench; RELEASE bench") }
        }
        if reachedCap, measure != .counters { return cap! }
        return measure == .counters ? steps : elapsed
    }

    /// The cost of one execution of `sql` with `values`. A rolled-back write or a read is warmed up once and
    /// timed `runs` times (fast statements grouped so a timed run lasts about a millisecond), the fastest
    /// counting; a committed write is run once, as it changes the data. A warm-up that reaches ``cap`` is
    /// not repeated: the cost is the cap.
    /// - Throws: ``SQLiteError`` when the statement fails.
    package func cost(_ sql: String, values: [SQLValue], isWrite: Bool, commits: Bool = false) throws -> Double {
        switch measure {
        case .counters:
            return try once(sql, values: values, isWrite: isWrite, commits: commits)
        case .wallClock(let runs):
            if isWrite, commits { return try once(sql, values: values, isWrite: true, commits: true) }
            let first = try once(sql, values: values, isWrite: isWrite, commits: false)
            // A warm-up stopped at the cap is the cost: no timed run would finish either.
            if let cap, first >= cap { return cap }
            let group = max(1, min(100, Int(0.001 / max(first, 1e-7))))
            var best = Double.infinity
            for _ in 0..<max(1, runs) {
                var sum = 0.0
                for _ in 0..<group { sum += try once(sql, values: values, isWrite: isWrite, commits: false) }
                best = min(best, sum / Double(group))
            }
            return best
        }
    }
}
