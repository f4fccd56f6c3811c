import QueryPlanText

/// Runs `EXPLAIN QUERY PLAN` for statements on one connection (the snapshot, or a what-if clone).
package struct QueryPlanner {
    package let connection: SQLiteConnection
    /// Row counts by lower-cased table name, attached to the findings.
    package var rowCounts: [String: Int]
    /// The schema's table names by lower-cased name: a plan row may name a table the statement does not
    /// (the child table a parent's delete searches when foreign keys are enforced, foreignkeys.html#fk_indexes).
    private var tableNames: [String: String]
    /// What each write sets off (``WriteProgram``), read once per statement: a write's plan includes the
    /// programs of the triggers it fires and of the foreign-key actions it sets off, to any depth, which
    /// `EXPLAIN QUERY PLAN` leaves out.
    package let programs: WriteProgramReader

    package init(connection: SQLiteConnection, schema: Schema? = nil) {
        self.connection = connection
        self.rowCounts = Dictionary((schema?.tables ?? []).map { ($0.name.sqlFolded, $0.rowCount) }, uniquingKeysWith: { a, _ in a })
        self.tableNames = Dictionary((schema?.tables ?? []).map { ($0.name.sqlFolded, $0.name) }, uniquingKeysWith: { a, _ in a })
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
        let aliases = SQLTokenList(sql).tableAliases().merging(tableNames) { own, _ in own }
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
    /// the 60,000-row `a` as one of the 500-row `b`).
    package func tableAliases() -> [String: String] {
        let stop: Set<String> = ["WHERE", "JOIN", "ON", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER",
                                 "ORDER", "GROUP", "LIMIT", "USING", "INDEXED", "NOT", "UNION", "EXCEPT", "INTERSECT",
                                 "SET", "VALUES", "SELECT", "DEFAULT", "HAVING", "WINDOW", "RETURNING", "AS", "OFFSET"]
        var result: [String: String] = [:]
        var aliases: [String: String] = [:]
        func isName(_ i: Int) -> Bool {
            guard i < count else { return false }
            if tokens[i].kind == .quotedIdentifier { return true }
            return tokens[i].kind == .word && !stop.contains(text(at: i).uppercased())
        }
        var i = 0
        var inFrom = false
        while i < count {
            let introducer = isWord(i, "FROM") || isWord(i, "JOIN") || isWord(i, "UPDATE") || isWord(i, "INTO")
                || (inFrom && isSymbol(i, ","))
            if isWord(i, "FROM") { inFrom = true }
            if isWord(i, "WHERE") || isWord(i, "GROUP") || isWord(i, "ORDER") || isWord(i, "LIMIT") || isSymbol(i, ")") {
                inFrom = false
            }
            if introducer, isName(i + 1) {
                var nameIndex = i + 1
                // schema.table
                if isSymbol(nameIndex + 1, "."), isName(nameIndex + 2) { nameIndex += 2 }
                let table = identifier(at: nameIndex)
                result[table.sqlFolded] = table
                var next = nameIndex + 1
                if isWord(next, "AS") { next += 1 }
                if isName(next), !isSymbol(next + 1, "(") {
                    aliases[identifier(at: next).sqlFolded] = table
                }
                i = nameIndex + 1
                continue
            }
            i += 1
        }
        return result.merging(aliases) { _, alias in alias }
    }
}
