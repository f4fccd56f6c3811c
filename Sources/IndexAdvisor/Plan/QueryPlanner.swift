import QueryPlanText

/// Runs `EXPLAIN QUERY PLAN` for statements on one connection (the snapshot, or a what-if clone).
package struct QueryPlanner {
    package let connection: SQLiteConnection
    /// Row counts by lower-cased table name, attached to the findings.
    package var rowCounts: [String: Int]
    /// The schema's table names by lower-cased name: a plan row may name a table the statement does not
    /// (the child table a parent's delete searches when foreign keys are enforced, foreignkeys.html#fk_indexes).
    private var tableNames: [String: String]
    /// Each view's `CREATE VIEW` text by lower-cased name, for the aliases its body gives plan rows.
    private var viewBodies: [String: String]
    /// What each write sets off (``WriteProgram``), read once per statement: a write's plan includes the
    /// programs of the triggers it fires and of the foreign-key actions it sets off, to any depth, which
    /// `EXPLAIN QUERY PLAN` leaves out.
    package let programs: WriteProgramReader

    package init(connection: SQLiteConnection, schema: Schema? = nil) {
        self.connection = connection
        self.rowCounts = Dictionary((schema?.tables ?? []).map { ($0.name.sqlFolded, $0.rowCount) }, uniquingKeysWith: { a, _ in a })
        self.tableNames = Dictionary((schema?.tables ?? []).map { ($0.name.sqlFolded, $0.name) }, uniquingKeysWith: { a, _ in a })
        self.viewBodies = Dictionary((schema?.views ?? []).map { ($0.name.sqlFolded, $0.sql) }, uniquingKeysWith: { a, _ in a })
        self.programs = WriteProgramReader(connection: connection, schema: schema)
    }

    /// The plan SQLite chooses for `sql` with `bindings` bound (bound values can change the plan, e.g. for
    /// LIKE prefixes and partial indexes; SQLite re-plans a statement when they do), followed by a step for
    /// each program the write sets off (``WriteProgram``): `TRIGGER name` for a trigger it fires and
    /// `FOREIGN KEY child(columns) ON DELETE CASCADE` for a foreign key's action, however deep, each with the
    /// plans of its statements under it, so that a scan a trigger or a cascade makes is the write's own.
    /// - Throws: ``SQLiteError`` when the statement does not prepare.
    package func plan(for sql: String, bindings: [SQLValue] = []) throws -> QueryPlan {
        var plan = try statementPlan(for: sql, bindings: bindings)
        let program = programs.program(of: sql)
        for part in program.parts {
            var next = (plan.steps.map(\.id).max() ?? 0) + 1
            let partStep = next
            plan.steps.append(QueryPlan.Step(id: partStep, parent: 0, detail: part.label))
            plan.findings.append(PlanFinding(kind: .other, detail: part.label))
            next += 1
            for statement in part.statements {
                // A statement the trigger runs that does not plan here (it names what only the app has) adds nothing.
                guard let body = try? statementPlan(for: statement, bindings: []) else { continue }
                let offset = next
                for (step, finding) in zip(body.steps, body.findings) {
                    plan.steps.append(QueryPlan.Step(id: step.id + offset, parent: step.parent == 0 ? partStep : step.parent + offset, detail: step.detail))
                    plan.findings.append(finding)
                }
                next = (plan.steps.map(\.id).max() ?? next) + 1
            }
        }
        // The programs past the bound are not planned: a step says so, and `check` fails the write as not
        // checkable (hostile round 8, F9: a scan in the 1,001st trigger passed).
        if program.isCut {
            let id = (plan.steps.map(\.id).max() ?? 0) + 1
            plan.steps.append(QueryPlan.Step(id: id, parent: 0, detail: Self.unplannedProgramsStep))
            plan.findings.append(PlanFinding(kind: .other, detail: Self.unplannedProgramsStep))
        }
        return plan
    }

    /// The step that ends the plan of a write that sets off more trigger and foreign-key programs than
    /// ``WriteProgram/maximumParts``: those past it are not in the plan.
    package static let unplannedProgramsStep = "PROGRAMS NOT PLANNED: this write sets off more than \(Figures.count(WriteProgram.maximumParts)) trigger and foreign-key programs; the rest are not in this plan"

    /// True for a step that stands for a program the write sets off (a trigger, a foreign key's action):
    /// the steps under it run for each row the write changes.
    package static func isProgramStep(_ detail: String) -> Bool {
        detail.hasPrefix("TRIGGER ") || detail.hasPrefix("FOREIGN KEY ")
    }

    /// `findings` with each min/max loop (``PlanRowReader/isMinMaxWalk(_:)``) that stops at its first row read as
    /// a search (``PlanRowReader/stopsAtFirstRow(_:program:rootPages:)``): `max(id)` reads the table's last row,
    /// not the table. Runs `EXPLAIN` only when there are such steps.
    private func readingMinMaxLoops(_ findings: [PlanFinding], steps: [QueryPlan.Step], sql: String, bindings: [SQLValue]) throws -> [PlanFinding] {
        let walks = steps.indices.filter { PlanRowReader.isMinMaxWalk(steps[$0].detail) }
        guard !walks.isEmpty else { return findings }
        let program = try connection.prepareResolvingStandIns("EXPLAIN " + sql)
        try program.bind(bindings)
        var instructions: [PlanRowReader.Instruction] = []
        while try program.step() {
            instructions.append(.init(program.column(1).textValue ?? "", Int(program.column(3).integerValue ?? 0),
                                      p1: Int(program.column(2).integerValue ?? 0)))
        }
        var roots: [String: Int] = [:]
        for row in try connection.query("SELECT name, rootpage FROM sqlite_schema WHERE type IN ('table', 'index')") {
            if let name = row[0].textValue, let root = row[1].integerValue { roots[name.sqlFolded] = Int(root) }
        }
        let stops = PlanRowReader.stopsAtFirstRow(walks.map { findings[$0].index ?? findings[$0].table }, program: instructions, rootPages: roots)
        var read = findings
        for (walk, stopsAtFirst) in zip(walks, stops) where stopsAtFirst {
            read[walk].kind = PlanRowReader.oneRowKind(of: steps[walk].detail)
        }
        return read
    }

    /// The tables each alias or name in `sql` may stand for (``SQLTokenList/tableAliasCandidates()``), with those
    /// of the views it reads, to any depth: SQLite flattens a view into the statement, and its plan rows then
    /// name the view body's aliases (`CREATE VIEW recent AS SELECT b.* FROM big b` plans as `SCAN b`; hostile
    /// round 8, F7). The statement's own come first.
    private func aliasCandidates(of sql: String) -> [String: [String]] {
        var candidates = SQLTokenList(sql).tableAliasCandidates()
        guard !viewBodies.isEmpty else { return candidates }
        var pending = candidates.values.flatMap { $0 }
        var seen = Set<String>()
        while let name = pending.popLast(), seen.count < 256 {
            guard let body = viewBodies[name.sqlFolded], seen.insert(name.sqlFolded).inserted else { continue }
            for (key, tables) in SQLTokenList(body).tableAliasCandidates() {
                for table in tables where !(candidates[key]?.contains(table) ?? false) { candidates[key, default: []].append(table) }
                pending += tables
            }
        }
        return candidates
    }

    /// `EXPLAIN QUERY PLAN` of `sql` alone, read into findings.
    private func statementPlan(for sql: String, bindings: [SQLValue]) throws -> QueryPlan {
        let statement = try connection.prepareResolvingStandIns("EXPLAIN QUERY PLAN " + sql)
        try statement.bind(bindings)
        var steps: [QueryPlan.Step] = []
        while try statement.step() {
            steps.append(QueryPlan.Step(id: Int(statement.column(0).integerValue ?? 0),
                                        parent: Int(statement.column(1).integerValue ?? 0),
                                        detail: statement.column(3).textValue ?? ""))
        }
        // The statement's own aliases first: `FROM note AS folder` names `note` wherever the plan says `folder`.
        let aliases = SQLTokenList.choosing(aliasCandidates(of: sql), rows: { rowCounts[$0.sqlFolded] ?? 0 }).merging(tableNames) { own, _ in own }
        // Index names only when a step names an index (a plan row cannot quote a name that holds " (").
        let indexNames = steps.contains(where: { $0.detail.contains(" INDEX ") }) ? connection.indexNames() : []
        let classified = try readingMinMaxLoops(steps.map { PlanClassifier.finding(for: $0.detail, aliases: aliases, indexNames: indexNames) },
                                                steps: steps, sql: sql, bindings: bindings)
        return QueryPlan(steps: steps, findings: classified.map { classified in
            var finding = classified
            finding.tableRows = finding.table.flatMap { rowCounts[$0.sqlFolded] }
            // A CTE, a view's subquery or a temporary table is not a table of the store.
            if !rowCounts.isEmpty, finding.tableRows == nil, finding.kind == .fullTableScan {
                finding.table = nil
                finding.kind = .other
            }
            return finding
        })
    }
}

extension SQLTokenList {
    /// Lower-cased aliases and table names in FROM/JOIN/UPDATE/INTO clauses, mapped to table names:
    /// `FROM ZNOTE t0` gives `t0 → ZNOTE` and `znote → ZNOTE`. Used only to name the table behind a plan row.
    /// An alias wins over a table name spelled the same: a plan row names an aliased table by its alias, so in
    /// `FROM a AS b JOIN b AS a` the row `SCAN b` is table `a` (a breaking helper's `check` passed a full scan of
    /// the 60,000-row `a` as one of the 500-row `b`). One alias naming several tables (query builders number
    /// each subquery's from `t0` again) names the one `rows` gives most rows: a plan row cannot be told apart
    /// by its name, and the gate must not take the largest for the smallest (hostile round 8, F6).
    package func tableAliases(rows: (String) -> Int = { _ in 0 }) -> [String: String] {
        Self.choosing(tableAliasCandidates(), rows: rows)
    }

    /// For each name of `candidates`, the table `rows` gives most rows; the first named on a tie.
    package static func choosing(_ candidates: [String: [String]], rows: (String) -> Int) -> [String: String] {
        candidates.compactMapValues { tables in
            tables.enumerated().max { a, b in (rows(a.element), -a.offset) < (rows(b.element), -b.offset) }?.element
        }
    }

    /// Every table each lower-cased alias or table name stands for in the text, in order of appearance; an
    /// alias comes before a table spelled the same. The FROM clause is followed into parentheses: a join
    /// group (`JOIN (big b JOIN other o …)`, `FROM (big b)`) names tables, a subquery has its own FROM, and
    /// the list goes on after either (`FROM s, (SELECT …) x, big b`; hostile round 8, F11).
    package func tableAliasCandidates() -> [String: [String]] {
        let stop: Set<String> = ["WHERE", "JOIN", "ON", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER",
                                 "ORDER", "GROUP", "LIMIT", "USING", "INDEXED", "NOT", "UNION", "EXCEPT", "INTERSECT",
                                 "SET", "VALUES", "SELECT", "DEFAULT", "HAVING", "WINDOW", "RETURNING", "AS", "OFFSET", "WITH",
                                 "FROM", "INTO", "UPDATE"]
        var tables: [String: [String]] = [:]
        var aliases: [String: [String]] = [:]
        func isName(_ i: Int) -> Bool {
            guard i < count else { return false }
            if tokens[i].kind == .quotedIdentifier { return true }
            return tokens[i].kind == .word && !stop.contains(text(at: i).uppercased())
        }
        func add(_ table: String, to map: inout [String: [String]], key: String) {
            if !(map[key]?.contains(table) ?? false) { map[key, default: []].append(table) }
        }
        var i = 0
        var inFrom = false
        // In a join's ON or USING condition, where a parenthesis is an expression, until the next JOIN or comma.
        var inCondition = false
        // The FROM state outside each open parenthesis.
        var outer: [Bool] = []
        while i < count {
            if isWord(i, "ON") || isWord(i, "USING") { inCondition = true }
            if isWord(i, "JOIN") || (inFrom && isSymbol(i, ",")) { inCondition = false }
            if isSymbol(i, "(") {
                outer.append(inFrom)
                // A parenthesis in a FROM list that opens on a name is a join group: its names are tables. One
                // right after a name is a call (`json_each(…)`), one in a join's condition an expression.
                inFrom = inFrom && !inCondition && isName(i + 1) && !(i > 0 && isName(i - 1))
                if inFrom {
                    i += 1
                    continue
                }
            } else if isSymbol(i, ")") {
                inFrom = outer.popLast() ?? false
            }
            let introducer = isWord(i, "FROM") || isWord(i, "JOIN") || isWord(i, "UPDATE") || isWord(i, "INTO")
                || (inFrom && isSymbol(i, ","))
            if isWord(i, "FROM") { inFrom = true }
            if isWord(i, "WHERE") || isWord(i, "GROUP") || isWord(i, "ORDER") || isWord(i, "LIMIT") { inFrom = false }
            // A join group's first name follows its `(` (consumed above with `inFrom` set).
            let groupStart = i > 0 && isSymbol(i - 1, "(") && inFrom
            if introducer || groupStart, isName(groupStart ? i : i + 1) {
                var nameIndex = groupStart ? i : i + 1
                // schema.table
                if isSymbol(nameIndex + 1, "."), isName(nameIndex + 2) { nameIndex += 2 }
                let table = identifier(at: nameIndex)
                add(table, to: &tables, key: table.sqlFolded)
                var next = nameIndex + 1
                if isWord(next, "AS") { next += 1 }
                if isName(next), !isSymbol(next + 1, "(") {
                    add(table, to: &aliases, key: identifier(at: next).sqlFolded)
                }
                i = nameIndex + 1
                continue
            }
            i += 1
        }
        return tables.merging(aliases) { table, alias in alias + table.filter { !alias.contains($0) } }
    }
}
