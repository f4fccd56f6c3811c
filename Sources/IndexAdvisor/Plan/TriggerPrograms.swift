import CSQLite

/// One trigger of a store as statements the planner can plan on their own: the body's statements with
/// each `NEW.column` and `OLD.column` made a parameter (in a trigger program they are the row's values,
/// as a join's outer value is) and each `RAISE(…)` made `NULL` (outside a trigger SQLite refuses it).
/// https://sqlite.org/lang_createtrigger.html
package struct TriggerProgram: Sendable, Equatable {
    /// The trigger's name as `sqlite_schema` has it.
    package var name: String
    /// The table (or view) it is on.
    package var table: String
    /// The body's statements, in order, ready to plan.
    package var statements: [String]
}

/// The triggers a write fires, read from SQLite itself.
///
/// `EXPLAIN QUERY PLAN` shows what a foreign key's enforcement searches but not trigger programs: an
/// `UPDATE t … WHERE id = ?` whose `AFTER UPDATE` trigger updates `audit … WHERE what = new.b` plans as one
/// rowid search while each execution reads the whole of `audit`. SQLite codes every trigger a statement fires
/// (its event, its `UPDATE OF` columns, an upsert's `DO UPDATE`, the triggers those programs fire in turn)
/// when it prepares the statement, and names the trigger responsible for each access it asks the authorizer
/// about (https://sqlite.org/c3ref/set_authorizer.html, the sixth argument): those names are the triggers fired.
package enum TriggerPrograms {
    /// Every trigger of `connection`'s main schema, by folded name.
    package static func read(from connection: SQLiteConnection) -> [String: TriggerProgram] {
        let rows = (try? connection.query("SELECT name, tbl_name, sql FROM main.sqlite_schema WHERE type = 'trigger' AND sql IS NOT NULL")) ?? []
        var programs: [String: TriggerProgram] = [:]
        for row in rows {
            guard let name = row[0].textValue, let table = row[1].textValue, let sql = row[2].textValue else { continue }
            programs[name.sqlFolded] = TriggerProgram(name: name, table: table, statements: bodyStatements(of: sql))
        }
        return programs
    }

    /// The statements of a `CREATE TRIGGER … BEGIN s1; s2; … END` text, each with `NEW.x`/`OLD.x` as `?` and
    /// `RAISE(…)` as `NULL`, after its WHEN clause as `SELECT <expression>` when that reads a table; empty when
    /// the text has no body.
    package static func bodyStatements(of sql: String) -> [String] {
        let list = SQLTokenList(sql)
        guard let begin = list.firstTopLevelWord("BEGIN"), list.count > begin + 1 else { return [] }
        let end = list.isWord(list.count - 1, "END") ? list.count - 1 : (list.isSemicolon(list.count - 1) && list.isWord(list.count - 2, "END") ? list.count - 2 : list.count)
        var statements: [String] = []
        // A WHEN clause that reads a table (`WHEN EXISTS (SELECT 1 FROM blocked WHERE email = NEW.email)`) runs for
        // every row the write changes, whether it then holds or not: its query is part of the program (hostile
        // round 5, F3: an unindexed EXISTS there took 11 ms per one-row UPDATE, in no plan). One that reads no
        // table costs nothing to plan and is left out.
        if let when = list.firstTopLevelWord("WHEN"), when + 1 < begin,
           (when + 1..<begin).contains(where: { list.isWord($0, "SELECT") }) {
            statements.append("SELECT " + rewrite(list, from: when + 1, to: begin - 1))
        }
        var start = begin + 1
        var i = start
        func flush(_ last: Int) {
            if start <= last { statements.append(rewrite(list, from: start, to: last)) }
        }
        while i < end {
            if list.isSemicolon(i) {
                flush(i - 1)
                start = i + 1
            }
            i += 1
        }
        flush(end - 1)
        return statements
    }

    /// The text of tokens `from…to` with `NEW.x`/`OLD.x` replaced by `?` and `RAISE(…)` by `NULL`.
    private static func rewrite(_ list: SQLTokenList, from: Int, to: Int) -> String {
        var pieces: [String] = []
        var i = from
        while i <= to {
            if list.isNameToken(i), ["new", "old"].contains(list.identifier(at: i).sqlFolded), list.isSymbol(i + 1, "."), i + 2 <= to, list.isNameToken(i + 2) {
                pieces.append("?")
                i += 3
                continue
            }
            if list.isWord(i, "RAISE"), list.isSymbol(i + 1, "(") {
                pieces.append("NULL")
                i = list.matchingParenthesis(from: i + 1) + 1
                continue
            }
            pieces.append(list.text(at: i))
            i += 1
        }
        return pieces.joined(separator: " ")
    }

    /// The names (folded) of the triggers among `programs` that `sql` fires, in the order SQLite codes them,
    /// nested ones included; empty when `programs` is, or when the statement does not prepare.
    package static func fired(by sql: String, on connection: SQLiteConnection, among programs: [String: TriggerProgram]) -> [String] {
        guard !programs.isEmpty else { return [] }
        let collector = TriggerNameCollector(known: Set(programs.keys))
        return withExtendedLifetime(collector) {
            sqlite3_set_authorizer(connection.handle, { context, _, _, _, _, source in
                if let context, let source {
                    Unmanaged<TriggerNameCollector>.fromOpaque(context).takeUnretainedValue().add(String(cString: source))
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(collector).toOpaque())
            defer { sqlite3_set_authorizer(connection.handle, nil, nil) }
            _ = try? connection.prepareResolvingStandIns(sql)
            return collector.names
        }
    }
}

/// The trigger names the authorizer reports, each once.
private final class TriggerNameCollector {
    let known: Set<String>
    var names: [String] = []
    init(known: Set<String>) { self.known = known }
    func add(_ name: String) {
        let folded = name.sqlFolded
        if known.contains(folded), !names.contains(folded) { names.append(folded) }
    }
}
