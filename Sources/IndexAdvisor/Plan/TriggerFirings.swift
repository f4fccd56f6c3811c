import CSQLite

/// Which triggers' programs a write's executions actually ran, so that a trigger whose `WHEN` clause held for
/// none of them is not part of the write's plan (issue 39: an `UPDATE … SET status = 'open'` failed `check`
/// with the full scan of a trigger that runs only `WHEN NEW.status = 'done'`).
///
/// ``TriggerPrograms/fired(by:on:among:)`` names every trigger SQLite codes for a statement, which is every
/// trigger its event could fire: the `WHEN` clause is coded inside the trigger's program and decided per row.
/// What ran is read from SQLite's trace while the write's value sets execute on the snapshot, each once, as
/// they are timed (in a savepoint that is rolled back; ``StatementTimer``). `SQLITE_TRACE_STMT` reports
/// `-- TRIGGER name` each time a trigger's program starts, before its `WHEN` clause is tested, and
/// `-- <statement>` as each statement of its body starts (https://sqlite.org/c3ref/trace_v2.html, SQLite
/// 3.22 and later): a trigger ran its body when the line after its own is its body's first statement. With
/// nested triggers the line after a trigger whose `WHEN` failed is its parent's next statement; a line that is
/// no statement of any trigger counts as the trigger's own, so a doubt keeps the trigger in the plan.
package struct TriggerFirings: Sendable, Equatable {
    /// By statement text: the folded names of the triggers whose body ran for one of its executions.
    private var ran: [String: Set<String>] = [:]

    package init() {}

    /// Records that the executions of the statement whose texts are `texts` ran the bodies of `triggers`
    /// (folded names) and of no other trigger.
    package mutating func record(_ triggers: Set<String>, for texts: [String]) {
        for text in texts { ran[text] = triggers }
    }

    /// False when executions of `sql` were observed and none ran the body of the trigger `name` (folded);
    /// true otherwise (a statement never executed plans every trigger SQLite codes for it).
    package func runs(_ name: String, for sql: String) -> Bool {
        ran[sql].map { $0.contains(name.sqlFolded) } ?? true
    }

    /// The folded names of the triggers among `programs` whose body ran for at least one of `executions`,
    /// each executed once by `timer` inside a savepoint rolled back (the snapshot keeps its rows), in order
    /// until every trigger of `expected` has run; nil when that could not be told: an execution failed or
    /// was stopped, or this SQLite does not trace a trigger's statements.
    package static func observe(_ executions: [Execution], timer: StatementTimer, programs: [String: TriggerProgram],
                                expected: Set<String>) -> Set<String>? {
        guard !executions.isEmpty, !programs.isEmpty, sqlite3_libversion_number() >= 3_022_000 else { return nil }
        var once = timer
        once.repeats = 0
        once.costSource = .wallClock
        once.preemptionProbe = nil
        let trace = TraceLines()
        let handle = timer.connection.handle
        return withExtendedLifetime(trace) { () -> Set<String>? in
            guard sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, text in
                guard let context, let text else { return 0 }
                let characters = text.assumingMemoryBound(to: CChar.self)
                // The statement's own text is `sqlite3_sql`'s; a trigger's lines are comments SQLite writes.
                let isTopLevel = statement.map { sqlite3_sql(OpaquePointer($0)) == UnsafePointer(characters) } ?? false
                Unmanaged<TraceLines>.fromOpaque(context).takeUnretainedValue()
                    .add(isTopLevel ? nil : String(cString: characters))
                return 0
            }, Unmanaged.passUnretained(trace).toOpaque()) == SQLITE_OK else { return nil }
            defer { sqlite3_trace_v2(handle, 0, nil, nil) }
            var ran: Set<String> = []
            for execution in executions {
                trace.lines.removeAll()
                // One that fails or is stopped may have stopped before a trigger that would have run.
                guard (try? once.time([execution], isWrite: true)) != nil else { return nil }
                ran.formUnion(ranBodies(trace: trace.lines, programs: programs))
                if ran.isSuperset(of: expected) { break }
            }
            return ran
        }
    }

    /// The folded names of the triggers among `programs` whose body ran, read from a trace's lines in order
    /// (nil for a statement's own text, else SQLite's `-- …` comment).
    static func ranBodies(trace lines: [String?], programs: [String: TriggerProgram]) -> Set<String> {
        let bodies = Set(programs.values.flatMap(\.statements))
        var ran: Set<String> = []
        for (position, line) in lines.enumerated() {
            guard let line, line.hasPrefix("-- TRIGGER ") else { continue }
            let name = String(line.dropFirst("-- TRIGGER ".count)).sqlFolded
            guard let program = programs[name], position + 1 < lines.count,
                  let next = lines[position + 1], next.hasPrefix("-- "), !next.hasPrefix("-- TRIGGER ") else { continue }
            let statement = TriggerPrograms.bodyStatements(of: "BEGIN \(next.dropFirst(3)) END").first ?? ""
            if statement == program.statements.first || !bodies.contains(statement) { ran.insert(name) }
        }
        return ran
    }
}

/// The lines SQLite's trace reported: nil for a statement's own text, else its comment.
private final class TraceLines {
    var lines: [String?] = []
    func add(_ line: String?) {
        // Only a trigger's lines and where a statement starts matter: a statement's text is not kept.
        lines.append(line.flatMap { $0.hasPrefix("--") ? $0 : nil })
    }
}
