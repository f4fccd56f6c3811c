/// Advice for statements no plain index fixes as written, measured in the final state (recommended indexes
/// built): the statement as it is and, where a rewrite can run here, the rewrite
/// (https://sqlite.org/optoverview.html explains each rule).
///
/// - A sort under a collation no index carries → the same statement sorted with the binary collation.
/// - `col LIKE 'abc%'` (case-insensitive, so a BINARY index cannot serve it) → `col GLOB 'abc*'`.
/// - A substring search (leading wildcard, Core Data's `NSCoreDataStringSearch`, `instr`) → full-text search.
/// - `OR` across columns scanning the table → an index on each column, measured in a savepoint.
/// - A subquery that still scans its table for each outer row.
/// - A recommended index with mixed directions, which SwiftData cannot declare.
struct QueryRewrites {
    let snapshot: StoreSnapshot
    let schema: Schema
    let timer: StatementTimer
    /// How a verdict sees a timing (``Timing/decisionView`` to decide on SQLite's counters).
    var decide: (Timing) -> Timing = { $0 }
    /// When the verdicts are decided on SQLite's counters, which one pass gives exactly: the timer that takes
    /// that pass (``StatementTimer/repeats`` 0). A rewrite is then timed in full only when its pass says it
    /// is advised, since a rewrite that is not advised shows no figure (issue 18).
    var screening: StatementTimer?

    /// Times `sql` as a rewrite of a statement: with ``screening``, one pass first, and when `isAdvised`
    /// rejects it, that pass is the answer; otherwise (and without ``screening``) the full timing of ``timer``.
    func timeRewrite(_ sql: String, samples: [[SQLValue]], isAdvised: (Timing) -> Bool) throws -> Timing {
        if let screening {
            let pass = try screening.time(sql, samples: samples, isWrite: false)
            if !isAdvised(pass) { return pass }
        }
        return try timer.time(sql, samples: samples, isWrite: false)
    }

    func run(profiles: [StatementProfile], recommendations: [IndexCandidate]) -> [QueryAdvice] {
        var advice: [QueryAdvice] = []
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        for profile in profiles where profile.isUsable {
            guard let shape = profile.shape else { continue }
            let timing = profile.timingAfter ?? profile.timingBefore
            if let sort = shape.unindexableSorts.first, let timing,
               let collation = collationSortAdvice(profile, sort: sort, timing: timing, planner: planner) {
                advice.append(collation)
            }
            for access in shape.tables {
                advice += caseInsensitiveLikeAdvice(profile, access: access, timing: timing, planner: planner)
                if let search = substringSearchAdvice(profile, access: access, timing: timing) { advice.append(search) }
            }
            if let or = orAcrossColumnsAdvice(profile, shape: shape, timing: timing) { advice.append(or) }
            // Subqueries that scan their table once per outer row.
            if let plan = profile.planAfter ?? profile.planBefore, Self.subqueryScans(plan) {
                advice.append(QueryAdvice(kind: .subquery, statementID: profile.statement.fingerprint.id, finding: .subquery,
                                          timing: timing, rewrite: nil, rewriteTiming: nil, rewritePlan: nil))
            }
        }
        for candidate in recommendations where Set(candidate.columns.map(\.isDescending)).count > 1 {
            let order = candidate.columns.map { "\($0.displayName)\($0.isDescending ? " DESC" : "")" }
            // The statement whose mixed ORDER BY the index serves: the report names it (a new user's report
            // printed "### : mixed sort directions" and an empty bullet for an advice with no statement).
            guard let sorted = Self.mixedSortStatement(for: candidate, profiles: profiles) else { continue }
            advice.append(QueryAdvice(kind: .mixedSortDirections, statementID: sorted.statement.fingerprint.id,
                                      finding: .mixedSortDirections(table: candidate.table, columns: order),
                                      timing: sorted.timingAfter ?? sorted.timingBefore, rewrite: nil, rewriteTiming: nil, rewritePlan: nil))
        }
        return advice
    }

    /// The heaviest statement (executions × time) whose ORDER BY on `candidate`'s table mixes directions
    /// and is a run of `candidate`'s key in the same directions; nil when none is.
    static func mixedSortStatement(for candidate: IndexCandidate, profiles: [StatementProfile]) -> StatementProfile? {
        let key = candidate.columns.compactMap { column in column.name.map { ($0.sqlFolded, column.isDescending) } }
        return profiles.filter { profile in
            guard profile.isUsable, let access = profile.shape?.access(to: candidate.table),
                  Set(access.orderBy.map(\.isDescending)).count > 1 else { return false }
            let sort = access.orderBy.map { ($0.column.sqlFolded, $0.isDescending) }
            return (0...max(0, key.count - sort.count)).contains { start in
                start + sort.count <= key.count && zip(key[start..<start + sort.count], sort).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            }
        }.max { a, b in
            a.weight * ((a.timingBefore?.medianSeconds) ?? 0) < b.weight * ((b.timingBefore?.medianSeconds) ?? 0)
        }
    }

    /// Collation sorts: the statement sorted with the binary collation, measured with an index on the sort
    /// column (built in a savepoint that is rolled back); advised only when that is measurably faster: a
    /// filter that reads the whole table anyway gains nothing from the order.
    private func collationSortAdvice(_ profile: StatementProfile, sort: UnindexableSort, timing: Timing,
                                     planner: QueryPlanner) -> QueryAdvice? {
        let rewrite = SQLTokenList(profile.statement.sql).removingOrderByCollations()
        let connection = snapshot.connection
        var measured: (Timing, QueryPlan?)?
        if let table = sort.table, (try? connection.execute("SAVEPOINT indexadvisor_sort")) != nil {
            let index = IndexCandidate(table: table, columns: [IndexColumn(name: sort.column)])
            if (try? connection.execute(index.createSQL(name: "indexadvisor_sort_candidate"))) != nil,
               let rewriteTiming = try? timeRewrite(rewrite, samples: profile.samples, isAdvised: { decide(timing).isSlower(than: decide($0)) }) {
                measured = (rewriteTiming, try? planner.plan(for: rewrite, bindings: profile.samples.first ?? []))
            }
            _ = try? connection.execute("ROLLBACK TO indexadvisor_sort; RELEASE indexadvisor_sort")
            snapshot.checkpoint()
        }
        guard let (rewriteTiming, plan) = measured, decide(timing).isSlower(than: decide(rewriteTiming)) else { return nil }
        // Shown as the app issued it (its literals in place), so it can be pasted and run.
        let shown = SQLTokenList(profile.statement.text).removingOrderByCollations()
        return QueryAdvice(kind: .collationSort, statementID: profile.statement.fingerprint.id,
                           finding: .collationSort(column: sort.column, collation: sort.collation),
                           timing: timing, rewrite: shown, rewriteTiming: rewriteTiming, rewritePlan: plan)
    }

    /// Case-insensitive LIKE with a plain prefix: GLOB keeps the index usable. Advised only when the rewrite is
    /// measurably faster than the statement in the final state: a NOCASE column or index, or a partial index
    /// on the LIKE, already serves it, and GLOB would then read more (a breaking helper's store: 1,385×
    /// slower, advised all the same).
    private func caseInsensitiveLikeAdvice(_ profile: StatementProfile, access: TableAccess, timing: Timing?,
                                           planner: QueryPlanner) -> [QueryAdvice] {
        let sql = profile.statement.sql
        var advice: [QueryAdvice] = []
        for constraint in access.constraints where constraint.op == .like {
            guard let parameter = constraint.parameter,
                  let pattern = profile.samples.first?[safe: parameter - 1]?.textValue,
                  let prefix = Self.plainPrefix(of: pattern),
                  let rewritten = Self.replacingLike(in: sql, parameter: parameter) else { continue }
            let samples = profile.samples.map { tuple -> [SQLValue] in
                var tuple = tuple
                if let text = tuple[safe: parameter - 1]?.textValue, let p = Self.plainPrefix(of: text) { tuple[parameter - 1] = .text(p + "*") }
                return tuple
            }
            guard let timing,
                  let rewriteTiming = try? timeRewrite(rewritten, samples: samples, isAdvised: { decide(timing).isSlower(than: decide($0)) }),
                  decide(timing).isSlower(than: decide(rewriteTiming)) else { continue }
            advice.append(QueryAdvice(
                kind: .caseInsensitiveLike, statementID: profile.statement.fingerprint.id,
                finding: .caseInsensitiveLike(column: constraint.column, pattern: pattern, prefix: prefix),
                timing: timing, rewrite: rewritten, rewriteTiming: rewriteTiming,
                rewritePlan: try? planner.plan(for: rewritten, bindings: samples.first ?? [])))
        }
        return advice
    }

    /// Substring searches no B-tree serves: a leading wildcard, `instr`, Core Data's string search.
    private func substringSearchAdvice(_ profile: StatementProfile, access: TableAccess, timing: Timing?) -> QueryAdvice? {
        let leadingWildcard = access.constraints.first { constraint in
            guard constraint.op == .like || constraint.op == .glob, let parameter = constraint.parameter,
                  let first = profile.samples.first?[safe: parameter - 1]?.textValue?.first else { return false }
            return constraint.op == .like ? (first == "%" || first == "_") : (first == "*" || first == "?")
        }
        let searchFunctions = access.columnFunctions.filter { ["instr"].contains($0.sqlFolded) || $0.sqlFolded.hasPrefix("nscoredata") }
        guard leadingWildcard != nil || !searchFunctions.isEmpty else { return nil }
        let search = leadingWildcard.map { SubstringSearch.leadingWildcard(column: $0.column, op: $0.op.rawValue) } ?? .functions(searchFunctions)
        return QueryAdvice(kind: .substringSearch, statementID: profile.statement.fingerprint.id,
                           finding: .substringSearch(table: access.table, search: search),
                           timing: timing, rewrite: nil, rewriteTiming: nil, rewritePlan: nil)
    }

    /// OR across columns that still scans: measured with an index on each column.
    private func orAcrossColumnsAdvice(_ profile: StatementProfile, shape: StatementShape, timing: Timing?) -> QueryAdvice? {
        guard let plan = profile.planAfter ?? profile.planBefore, plan.findings.contains(where: { $0.kind == .fullTableScan && $0.isProblem }),
              let (table, columns) = orColumns(sql: profile.statement.sql, shape: shape), columns.count >= 2,
              let measured = measureWithIndexes(table: table, columns: columns, profile: profile) else { return nil }
        return QueryAdvice(kind: .orAcrossColumns, statementID: profile.statement.fingerprint.id,
                           finding: .orAcrossColumns(table: table, columns: columns),
                           timing: timing, rewrite: measured.sql, rewriteTiming: measured.timing, rewritePlan: measured.plan)
    }

    /// The part of a LIKE pattern before its only wildcard, a trailing `%`; nil for other patterns or when
    /// the prefix holds GLOB's own wildcards.
    static func plainPrefix(of pattern: String) -> String? {
        guard pattern.hasSuffix("%"), pattern.count > 1 else { return nil }
        let prefix = pattern.dropLast()
        guard !prefix.contains(where: { "%_*?[".contains($0) }) else { return nil }
        return String(prefix)
    }

    /// `sql` with the LIKE before parameter `parameter` turned into GLOB; nil when that parameter does not
    /// follow a LIKE (or an ESCAPE clause follows it).
    static func replacingLike(in sql: String, parameter: Int) -> String? {
        let tokens = SQLTokenList(sql)
        var count = 0
        for i in 0..<tokens.count where tokens.tokens[i].kind == .parameter {
            count += 1
            guard count == parameter else { continue }
            guard i > 0, tokens.isWord(i - 1, "LIKE"), !tokens.isWord(i + 1, "ESCAPE") else { return nil }
            let like = tokens.tokens[i - 1]
            return String(decoding: tokens.utf8[..<like.start], as: UTF8.self) + "GLOB" + String(decoding: tokens.utf8[like.end...], as: UTF8.self)
        }
        return nil
    }

    /// True when a subquery step of the plan has a full table scan under it.
    static func subqueryScans(_ plan: QueryPlan) -> Bool {
        for (index, step) in plan.steps.enumerated() where plan.findings[index].kind == .subquery {
            var stack = [step.id]
            while let parent = stack.popLast() {
                for (childIndex, child) in plan.steps.enumerated() where child.parent == parent {
                    if plan.findings[childIndex].kind == .fullTableScan && plan.findings[childIndex].isProblem { return true }
                    stack.append(child.id)
                }
            }
        }
        return false
    }

    /// The columns of one table joined by OR in the statement's filter (`a = ? OR b = ?`), when there are several.
    private func orColumns(sql: String, shape: StatementShape) -> (String, [String])? {
        let tokens = SQLTokenList(sql)
        guard (0..<tokens.count).contains(where: { tokens.isWord($0, "OR") }), shape.tables.count == 1,
              let table = schema.table(named: shape.tables[0].table) else { return nil }
        var columns: [String] = []
        for i in 0..<tokens.count where tokens.isWord(i, "OR") {
            for j in [i - 3, i - 2, i + 1, i + 2, i + 3] where j >= 0 && j < tokens.count {
                let kind = tokens.tokens[j].kind
                guard kind == .word || kind == .quotedIdentifier, !tokens.isSymbol(j + 1, "("), !tokens.isSymbol(j + 1, "."),
                      let column = table.column(named: tokens.identifier(at: j)), !column.isRowidAlias,
                      !columns.contains(where: { $0.sqlFolded == column.name.sqlFolded }) else { continue }
                columns.append(column.name)
            }
        }
        return columns.count >= 2 ? (table.name, columns) : nil
    }

    /// Times the statement with a single-column index on each of `columns`, built for real and dropped after
    /// (see ``ChangeComparison``).
    private func measureWithIndexes(table: String, columns: [String], profile: StatementProfile) -> (sql: String, timing: Timing, plan: QueryPlan?)? {
        // Numbered: names made from the columns' letters alone collide (`"a b"` and `ab`).
        let names = columns.indices.map { "indexadvisor_or_\($0)" }
        let creates = zip(names, columns).map { name, column in
            IndexCandidate(table: table, columns: [IndexColumn(name: column)]).createSQL(name: name, ifNotExists: true)
        }
        var plan: QueryPlan?
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        // Plan while the indexes exist: apply, plan, and let the comparison time it.
        guard (try? creates.forEach { try snapshot.connection.execute($0) }) != nil else { return nil }
        plan = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings)
        for name in names { _ = try? snapshot.connection.execute("DROP INDEX IF EXISTS \(SQLIdentifier.quote(name))") }
        snapshot.checkpoint()
        guard let (_, with) = ChangeComparison(snapshot: snapshot, timer: timer).compare(
            apply: creates, revert: names.map { "DROP INDEX IF EXISTS \(SQLIdentifier.quote($0))" },
            executions: profile.executions, isWrite: false) else { return nil }
        // What the user runs: the same indexes under readable names, quoted like every generated identifier,
        // and not a name the schema already has (IF NOT EXISTS would then skip it; a table's name fails).
        var taken = Set(((try? snapshot.connection.query("SELECT name FROM sqlite_master")) ?? []).compactMap { $0.first?.textValue?.sqlFolded })
        let shown = columns.map { column -> String in
            var name = "idx_\(table)_\(column)", suffix = 2
            while taken.contains(name.sqlFolded) { name = "idx_\(table)_\(column)_\(suffix)"; suffix += 1 }
            taken.insert(name.sqlFolded)
            return IndexCandidate(table: table, columns: [IndexColumn(name: column)]).createSQL(name: name, ifNotExists: true)
        }
        return (shown.joined(separator: ";\n") + ";", with, plan)
    }
}
