/// Everything a write sets off beyond its own statement, to any depth: the triggers it fires and the
/// actions of the foreign keys whose parent rows it deletes or changes, then what those programs' writes
/// set off in turn (a cascade under a cascade, a cascade under a trigger, a trigger under a cascade).
///
/// `EXPLAIN QUERY PLAN` shows a write's own rows and its searches of the child rows of each foreign key
/// it touches (foreignkeys.html#fk_indexes), but neither trigger programs nor the programs SQLite codes
/// for `ON DELETE`/`ON UPDATE` actions: `DELETE FROM gp WHERE id = ?` with `mid` cascading from `gp` and
/// `leaf` from `mid` plans as a rowid search and a search of `mid`, while each execution scans `leaf` once
/// per `mid` row it deletes (hostile round 7, F1: 2.1 M VM steps per execution, which `check` passed).
package struct WriteProgram: Sendable, Equatable {
    /// One program the write runs: a trigger's body, or a foreign key's action on the child rows.
    package struct Part: Sendable, Equatable {
        /// The plan row that stands for it: `TRIGGER name`, or `FOREIGN KEY child(columns) ON DELETE CASCADE`.
        package var label: String
        /// Its statements, ready to plan on their own (a trigger's `NEW.x`/`OLD.x` and the parent row's key
        /// values as parameters: the values come from the row, as a join's outer value does).
        package var statements: [String]
        /// How many programs down it runs: 1 for what the write itself sets off.
        package var depth: Int
    }

    /// The programs, each once, in the order they were reached (breadth first).
    package var parts: [Part]
    /// True when ``maximumParts`` stopped the expansion before every program was reached.
    package var isCut: Bool

    /// Every statement the write runs besides its own.
    package var statements: [String] { parts.flatMap(\.statements) }

    /// The most programs followed for one write. Each trigger and each foreign key's action is followed
    /// once (which ends every cycle: a table that refers to itself, two tables that refer to each other,
    /// triggers that write each other's tables), so this only bounds a schema of thousands of them.
    package static let maximumParts = 1_000

    /// The programs `sql` sets off. `triggers` are the connection's (``TriggerPrograms``); `foreignKeys`
    /// those it enforces (empty when it does not); `writes` gives a statement's table accesses, of which
    /// the deleted and updated ones set off the foreign keys' actions (nil when it has no shape).
    static func of(_ sql: String, connection: SQLiteConnection, triggers: [String: TriggerProgram],
                   foreignKeys: [ForeignKey], parentTables: [String: Table], writes: (String) -> [TableAccess]?) -> WriteProgram {
        var parts: [Part] = []
        var seenTriggers: Set<String> = []
        var seenActions: Set<String> = []
        var queue: [(sql: String, depth: Int)] = [(sql, 0)]
        var next = 0
        var isCut = false
        func add(_ part: Part) -> Bool {
            guard parts.count < maximumParts else {
                isCut = true
                return false
            }
            parts.append(part)
            queue += part.statements.map { ($0, part.depth) }
            return true
        }
        expansion: while next < queue.count {
            let (statement, depth) = queue[next]
            next += 1
            // SQLite names every trigger it codes into the statement, nested ones (under triggers and under
            // foreign-key actions) included; those reached already are not followed again.
            for name in TriggerPrograms.fired(by: statement, on: connection, among: triggers) where seenTriggers.insert(name).inserted {
                guard let program = triggers[name] else { continue }
                guard add(Part(label: "TRIGGER \(program.name)", statements: program.statements, depth: depth + 1)) else { break expansion }
            }
            guard !foreignKeys.isEmpty, let accesses = writes(statement) else { continue }
            for access in accesses where access.isDeleted || access.isUpdated {
                for action in ForeignKeys.actions(of: access, parentTable: parentTables[access.table.sqlFolded], foreignKeys: foreignKeys)
                where seenActions.insert(action.identity).inserted {
                    guard add(Part(label: action.label, statements: [action.sql], depth: depth + 1)) else { break expansion }
                }
            }
        }
        return WriteProgram(parts: parts, isCut: isCut)
    }
}

/// What a foreign key's `ON DELETE`/`ON UPDATE` action does to the child rows of one parent row, as a
/// statement of its own: SQLite codes the action as such a statement (fkey.c, `fkActionTrigger`).
struct ForeignKeyAction: Sendable, Equatable {
    var key: ForeignKey
    /// True for the `ON DELETE` action, false for `ON UPDATE`.
    var onDelete: Bool

    /// The action's name: `CASCADE`, `SET NULL` or `SET DEFAULT`.
    var action: String { (onDelete ? key.onDelete : key.onUpdate).uppercased() }

    /// Names the key and the event: each is followed once per write.
    var identity: String {
        ([key.child, key.parent] + key.columns + key.parentColumns).map(\.sqlFolded).joined(separator: "\u{1}") + (onDelete ? "\u{1}D" : "\u{1}U")
    }

    /// The plan row that stands for the action: `FOREIGN KEY leaf(mid_id) ON DELETE CASCADE`.
    var label: String {
        "FOREIGN KEY \(key.child)(\(key.columns.joined(separator: ", "))) ON \(onDelete ? "DELETE" : "UPDATE") \(action)"
    }

    /// The statement the action runs for one parent row: its child rows found by the key's columns, each a
    /// parameter (the parent row's value); deleted (`ON DELETE CASCADE`), given the parent's new key (`ON
    /// UPDATE CASCADE`), NULL (`SET NULL`) or their default (`SET DEFAULT`, a value as a parameter).
    var sql: String {
        let table = SQLIdentifier.quote(key.child)
        let columns = key.columns.map { SQLIdentifier.quote($0) }
        let filter = " WHERE " + columns.map { "\($0) = ?" }.joined(separator: " AND ")
        if onDelete && action == "CASCADE" { return "DELETE FROM \(table)" + filter }
        let value = action == "SET NULL" ? "NULL" : "?"
        return "UPDATE \(table) SET " + columns.map { "\($0) = \(value)" }.joined(separator: ", ") + filter
    }
}
