import Foundation

// MARK: Stage 1: shapes, bound values, plans and times as the store is

extension AnalysisRun {
    /// Reads each statement's shape, chooses the values it is timed with, plans and times it as the store is.
    /// - Throws: ``StoreError/sqlite(path:error:)`` when the snapshot turns out corrupt;
    ///   ``WorkloadError/noStatementAnalysable(reasons:)`` when no statement could be planned and timed.
    /// With `keepingUnparsable` (`check`), a statement SQLite cannot parse is set aside only when it is the
    /// start of one that prepares (a cut-off copy of a statement that is checked whole); any other stays, not
    /// analysable, with SQLite's reason: a gate must not pass a statement it could not plan.
    /// With `boundingTimeouts` (`analyze`), a statement one execution of which runs past the statement timeout
    /// as the store is keeps the timeout as a lower bound on its time (``Timing/stopped(atSeconds:isWrite:)``),
    /// so that candidates are measured for it; without (`check`), it is a statement that could not be timed.
    mutating func profileStatements(keepingUnparsable: Bool = false, boundingTimeouts: Bool = true) throws {
        setAsideUnparsable(keepingUnparsable: keepingUnparsable)
        let extractor = try ShapeExtractor(schema: schema)
        let planner = QueryPlanner(connection: snapshot.connection, schema: schema)
        var sampler = BindingSampler(connection: snapshot.connection, schema: schema, seed: options.seed, fullCopy: snapshot.fullCopyConnection)
        for (position, profile) in profiles.enumerated() {
            report("baseline", position, profiles.count)
            readShape(of: profile, extractor: extractor, programs: planner.programs)
            chooseValues(for: profile, sampler: &sampler)
            guard plan(profile, planner: planner) else { continue }
            try timeBaseline(profile, boundingTimeouts: boundingTimeouts)
            addExistingRowNotes(to: profile)
            addNotes(to: profile)
        }
        // Every value is chosen: the store's whole copy a sample was drawn from is no longer read.
        snapshot.releaseFullCopy()
        try reportFailures()
    }

    /// The reason counted for statements SQLite cannot parse.
    static let unparsableReason = "statement SQLite cannot parse (cut off, or not SQL)"

    /// Leaves out, before any is labelled, the statements SQLite cannot parse ("incomplete input", "syntax
    /// error", "unrecognized token") and those that do not prepare and are the start of one that does, and
    /// counts them as malformed input (``unparsable``): a log cut off mid-line is not a statement of the app
    /// (a breaking helper's log: 33 cut-off copies of one fetch were listed as S2–S35, "not timed", in the
    /// headline). A statement naming a table or column the store lacks stays, with its reason. All are kept
    /// when every statement is unparsable: the run then fails saying so.
    mutating func setAsideUnparsable(keepingUnparsable: Bool = false) {
        let connection = snapshot.connection
        func error(preparing sql: String) -> SQLiteError? {
            do {
                _ = try connection.prepareResolvingStandIns(sql)
                return nil
            } catch let error as SQLiteError {
                return error
            } catch {
                return nil
            }
        }
        // The app's own text where it differs from the runnable form, then the runnable form: literals this
        // SQLite cannot parse (`1_000`, `0x_FF`) are values in the runnable form, which may then parse, and
        // SQLite's words on the app's text are the ones to quote.
        let errors: [SQLiteError?] = profiles.map { profile in
            for text in [profile.statement.text, profile.statement.literalSyntaxText].compactMap({ $0 }) where text != profile.statement.sql {
                if let error = error(preparing: text), Self.isParseError(error) {
                    profile.textParseError = error
                    return error
                }
            }
            return error(preparing: profile.statement.sql)
        }
        let prepared = zip(profiles, errors).filter { $0.1 == nil }.map(\.0.statement.sql)
        let unparsable = zip(profiles, errors).compactMap { profile, error -> StatementProfile? in
            guard let error else { return nil }
            if !keepingUnparsable && Self.isParseError(error) { return profile }
            // Cut off where it still parses (`… FROM ZNOTE` without its alias, `t0.Z` for `t0.ZTITLE`): a
            // statement that does not prepare and is the start of one that does.
            let sql = profile.statement.sql
            return prepared.contains { $0.count > sql.count && $0.hasPrefix(sql) } ? profile : nil
        }
        guard !unparsable.isEmpty, unparsable.count < profiles.count else { return }
        let left = Set(unparsable.map { ObjectIdentifier($0) })
        profiles.removeAll { left.contains(ObjectIdentifier($0)) }
        self.unparsable = (unparsable.count, unparsable.reduce(0) { $0.addingSaturating($1.statement.count) },
                           unparsable.first.map { SQLText.oneLine($0.statement.text, limit: 120) })
    }

    /// True for SQLite's words for text it cannot parse: "incomplete input", "… syntax error",
    /// "unrecognized token" (a statement cut off, not SQL, or written for a newer SQLite).
    static func isParseError(_ error: SQLiteError) -> Bool {
        let message = error.message.lowercased()
        return error.code == .error && !message.hasPrefix("fts") && (message == "incomplete input" || message.contains("syntax error") || message.hasPrefix("unrecognized token"))
    }

    /// The statement's shape and expression filters, or a note saying why its shape could not be read.
    /// A write's shape includes the accesses of the whole program it sets off (``programAccesses(of:extractor:programs:)``).
    private func readShape(of profile: StatementProfile, extractor: ShapeExtractor, programs: WriteProgramReader) {
        let sql = profile.statement.sql
        do {
            profile.shape = try extractor.shape(of: sql)
        } catch {
            // The planner gives the real reason if the statement does not prepare at all.
            profile.notes.append(.shapeUnreadable(error: "\(error)"))
        }
        guard var shape = profile.shape else { return }
        if shape.tables.contains(where: \.isWritten) {
            shape.tables = programAccesses(of: sql, own: shape.tables, extractor: extractor, programs: programs)
            profile.shape = shape
        }
        profile.expressionFilters = ExpressionFilters.find(in: sql, shape: shape, schema: schema)
        if !shape.setAside.isEmpty {
            profile.notes.append(.shapeReadWithout(parts: shape.setAside,
                                                   tooManyParameters: shape.setAside.contains { $0.hasPrefix("an IN") || $0.hasPrefix("a VALUES") }))
        }
    }

    /// The write's `own` accesses followed by those of every statement of the program it sets off
    /// (``WriteProgram``: its triggers, its foreign keys' actions, and theirs, to any depth), and, with foreign
    /// keys enforced, each statement's lookups of the child rows of the parent rows it deletes or whose key it
    /// changes: each is the write's own, run for every row it changes, and gets candidates as a direct
    /// statement's accesses do (hostile round 7, F5: a cascade under a trigger's DELETE got none). A program's
    /// `NEW.x`, `OLD.x` and parent key values are the row's, not the statement's parameters, so a comparison
    /// with one is a join's (its value comes from the row), as a foreign key's lookup is. An access that
    /// repeats one already listed (a cascade's delete of the rows its parent's lookup found) is listed once.
    private func programAccesses(of sql: String, own: [TableAccess], extractor: ShapeExtractor, programs: WriteProgramReader) -> [TableAccess] {
        var accesses: [TableAccess] = []
        var seen: Set<String> = []
        func identity(of access: TableAccess) -> String {
            [access.table.sqlFolded, access.isInserted ? "i" : "", access.isUpdated ? "u" : "", access.isDeleted ? "d" : "",
                            access.writtenColumns.map(\.sqlFolded).sorted().joined(separator: ","),
                            access.constraints.map { "\($0.column.sqlFolded) \($0.op.rawValue) \($0.collation)" }.sorted().joined(separator: ","),
                            access.orderBy.map { "\($0.column.sqlFolded) \($0.isDescending)" }.joined(separator: ",")].joined(separator: "\u{1}")
        }
        func add(_ access: TableAccess) {
            if seen.insert(identity(of: access)).inserted { accesses.append(access) }
        }
        // A child's lookup: an `INSERT OR REPLACE` deletes the rows whose keys its row takes, as a delete does.
        func addLookups(of statement: String, _ statementAccesses: [TableAccess]) {
            guard enforcesForeignKeys else { return }
            let replaces = SQLTokenList(statement).replacesRows
            for var access in statementAccesses {
                if access.isInserted && replaces { access.isDeleted = true }
                ForeignKeys.childAccesses(of: access, parentTable: schema.table(named: access.table), foreignKeys: foreignKeys).forEach(add)
            }
        }
        // The write's own accesses stay as its shape has them, each (a self-join's two alike too).
        accesses = own
        own.forEach { _ = seen.insert(identity(of: $0)) }
        addLookups(of: sql, own)
        for statement in programs.program(of: sql).statements {
            guard let shape = try? extractor.shape(of: statement) else { continue }
            let statementAccesses = shape.tables.map { access in
                var access = access
                access.constraints = access.constraints.map { constraint in
                    guard constraint.parameter != nil else { return constraint }
                    var constraint = constraint
                    constraint.parameter = nil
                    constraint.isJoin = true
                    return constraint
                }
                return access
            }
            statementAccesses.forEach(add)
            addLookups(of: statement, statementAccesses)
        }
        return accesses
    }

    /// The value sets the statement is planned and timed with: the workload's own (heavy keys first, at most
    /// ``observedSetsTimed``) or drawn from the data.
    private func chooseValues(for profile: StatementProfile, sampler: inout BindingSampler) {
        let parameterCount = (try? snapshot.connection.prepareResolvingStandIns(profile.statement.sql))?.parameterCount
        let (samples, source) = sampler.samples(for: profile.statement, shape: profile.shape,
                                                count: options.bindingSamples, parameterCount: parameterCount,
                                                expressions: profile.expressionFilters)
        profile.bindingSource = source
        guard source == .observed, profile.statement.observedBindingWeights.count == samples.count else {
            profile.setSamples(samples)
            return
        }
        // Heavy keys (by the rows the log reported, else counted here) come first, so that neither the
        // selection nor trimming for a slow statement leaves them out; with three sets or fewer, all
        // are timed and nothing need be counted.
        let reported = profile.statement.observedBindingRows
        let heaviness = samples.count <= 3 ? Array(repeating: 0, count: samples.count)
            : reported.count == samples.count && reported.contains(where: { $0 != nil }) ? reported.map { $0 ?? 0 }
            : HeavyKeys.matchedRows(samples: samples, shape: profile.shape, schema: schema, connection: snapshot.connection)
        // Each length of IN list the workload showed is timed, weighted by its executions (issue 42).
        let chosen = ValueSetSelection.select(weights: profile.statement.observedBindingWeights, heaviness: heaviness,
                                              limit: Self.observedSetsTimed, groups: samples.map(\.count))
        var timed = chosen.map { samples[$0.position] }
        let keys = keepToExistingRows(profile, samples: &timed, sampler: &sampler)
        profile.setSamples(timed, weights: chosen.map(\.weight), keys: keys)
    }

    /// The statement's plan as the store is; false, with the profile's error set, when it does not prepare.
    /// Each value set is planned, and the one whose plan has the most full table scans (then temp B-trees) is
    /// moved first and planned for the report, `check` and the candidates: one statement's value sets can
    /// plan differently (a partial index serves `s = 'open'` and not `s = 'closed'`), and a breaking
    /// helper's workload of both passed `check` while half its executions scanned the table.
    private func plan(_ profile: StatementProfile, planner: QueryPlanner) -> Bool {
        do {
            if let error = profile.textParseError { throw error }
            // The app's own text, literals in place: SQLite plans `LIMIT 20` differently from `LIMIT ?`.
            var plan = try planner.plan(for: profile.planSQL, bindings: profile.planBindings)
            func problems(_ plan: QueryPlan) -> (Int, Int) {
                (plan.findings.filter { $0.kind == .fullTableScan && $0.isProblem }.count, plan.findings.filter { $0.kind == .tempBTree }.count)
            }
            var worst = (offset: 0, problems: problems(plan))
            var seen: Set<String> = [profile.planSQL + "\u{1}" + "\(profile.planBindings)"]
            for (offset, execution) in profile.executions.enumerated().dropFirst()
            where seen.insert(execution.sql + "\u{1}" + "\(execution.values)").inserted {
                guard let other = try? planner.plan(for: execution.sql, bindings: execution.values), problems(other) > worst.problems else { continue }
                worst = (offset, problems(other))
                plan = other
            }
            if worst.offset > 0 {
                let text = profile.executions[worst.offset].sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
                profile.notes.append(.other("Its value sets do not all plan alike: the plans shown are of \(text), the value set with the most full scans and sorts."))
            }
            profile.moveSampleFirst(worst.offset)
            profile.planBefore = plan
            return true
        } catch let error as SQLiteError where Self.isParseError(error) {
            profile.error = "SQLite \(SQLiteConnection.libraryVersion) cannot parse it (\(error.message)): SQL of a newer SQLite, cut off, or not SQL"
        } catch let error as SQLiteError {
            profile.error = "does not prepare on this store: \(error.message)"
        } catch {
            profile.error = "\(error)"
        }
        return false
    }

    /// The statement's time as the store is, with enough values that a pass takes about 50 ms, but at least 3
    /// (all when there are fewer); the profile's error when it cannot be timed.
    /// - Throws: ``StoreError/sqlite(path:error:)`` when the snapshot is corrupt or not a database;
    ///   ``StoreError/snapshotTimingFailed(directory:sql:error:)`` when its folder is full or failing.
    private func timeBaseline(_ profile: StatementProfile, boundingTimeouts: Bool) throws {
        do {
            if profile.samples.count > 3 {
                let probe = try timer.time([profile.executions[0]], isWrite: profile.isWrite, giveUpAboveSeconds: 0)
                // Decided on the counters when the selection is: a busy moment must not change the values timed.
                let fit = Int(0.05 / max(decision(probe).medianSeconds, 1e-9))
                profile.trimSamples(to: max(3, min(profile.samples.count, fit)))
            }
            profile.timingBefore = try timer.time(profile.executions, isWrite: profile.isWrite)
            profile.current = profile.timingBefore
            profile.currentPlan = profile.planBefore
        } catch MeasurementError.failed(let error) where error.code == .corrupt || error.code == .notADatabase {
            throw StoreError.sqlite(path: snapshot.storeURL.path, error: error)
        } catch let error as StoreError {
            throw error
        } catch MeasurementError.timedOut(let seconds, _) where boundingTimeouts {
            profile.timingBefore = .stopped(atSeconds: seconds, isWrite: profile.isWrite)
            profile.current = profile.timingBefore
            profile.currentPlan = profile.planBefore
        } catch {
            profile.error = "could not be timed: \(error)"
        }
    }

    /// A warning for each statement that could not be planned or timed.
    /// - Throws: ``WorkloadError/noStatementAnalysable(reasons:)`` when that is every statement.
    private mutating func reportFailures() throws {
        let failed = profiles.filter { $0.error != nil }
        for profile in failed {
            let position = profiles.firstIndex { $0 === profile }.map { "S\($0 + 1)" } ?? profile.statement.fingerprint.id
            warnings.append(.statementFailed(statement: position, sql: SQLText.oneLine(profile.statement.text, limit: 80), problem: profile.error!))
        }
        for (position, profile) in profiles.enumerated() where profile.error == nil && profile.timingBefore?.isLowerBound == true {
            let seconds = Figures.duration(profile.timingBefore?.medianSeconds ?? 0)
            warnings.append(.statementFailed(statement: "S\(position + 1)", sql: SQLText.oneLine(profile.statement.text, limit: 80),
                                             problem: "ran past --statement-timeout (\(seconds)) as the store is and was stopped: its time before is a lower bound, and the candidates are measured against it"))
        }
        // Some executions failed on the snapshot (a UNIQUE constraint the drawn values still meet, a CHECK): the
        // time is of the others only, and says so beside the statement, pick or not (hostile round 5, F5: 11 of
        // 12 value sets of an INSERT failed and it was timed as if it ran, the count in the JSON only).
        for (position, profile) in profiles.enumerated() where profile.error == nil {
            guard let failures = profile.timingBefore?.failures, failures > 0 else { continue }
            warnings.append(.statementFailed(statement: "S\(position + 1)", sql: SQLText.oneLine(profile.statement.text, limit: 80),
                                             problem: "failed in \(Figures.counted(failures, "execution")) on the snapshot (\(profile.isWrite ? "a constraint the values timed still meet, or a trigger's RAISE" : "an error SQLite raised")): its time is of the executions that ran, not the app's work"))
        }
        warnOfWritesChangingNoRow()
        if profiles.allSatisfy({ !$0.isUsable }) {
            throw WorkloadError.noStatementAnalysable(reasons: failed.map { profile in
                let location = profile.statement.sources.first.map { "\($0.file):\($0.firstLine)" } ?? "workload"
                return "(\(location)) \(profile.error ?? "is not analysable")"
            })
        }
    }

    /// The most observed value sets timed per statement.
    static let observedSetsTimed = 32

    private func addNotes(to profile: StatementProfile) {
        guard let shape = profile.shape else { return }
        for sort in shape.unindexableSorts {
            profile.notes.append(.collationSort(column: sort.column, collation: sort.collation, reason: sort.reason))
        }
        let measured = profile.timingBefore.map { StatementCost(secondsPerExecution: $0.medianSeconds, count: profile.statement.count) }
        for access in shape.tables {
            for function in access.columnFunctions where function.sqlFolded.hasPrefix("nscoredata") {
                profile.notes.append(.coreDataStringSearch(table: access.table, function: function, cost: measured))
            }
            // An expression index the plan searches (`SEARCH pi USING INDEX pi_expr (<expr>=?)`) serves the
            // function already: the note would say no index can (a breaking helper's `lower(s) = 'open'`).
            let searchedByExpression = profile.planBefore?.findings.contains { finding in
                (finding.kind == .indexSearch || finding.kind == .coveringIndexSearch)
                    && finding.table?.sqlFolded == access.table.sqlFolded && (finding.constraints ?? "").contains("<expr>")
            } ?? false
            for function in access.columnFunctions where ["instr", "lower", "upper"].contains(function.sqlFolded) && !searchedByExpression {
                profile.notes.append(.functionOnColumn(table: access.table, function: function, cost: measured))
            }
            for constraint in access.constraints where constraint.op == .like || constraint.op == .glob {
                guard let parameter = constraint.parameter, let pattern = profile.samples.first.flatMap({ parameter - 1 < $0.count ? $0[parameter - 1].textValue : nil }) else { continue }
                let wildcards: Set<Character> = constraint.op == .like ? ["%", "_"] : ["*", "?", "["]
                if let first = pattern.first, wildcards.contains(first) {
                    profile.notes.append(.leadingWildcard(column: constraint.column, op: constraint.op.rawValue, pattern: pattern, cost: measured))
                }
            }
        }
        if !shape.standIns.isEmpty {
            profile.notes.append(.standIns(shape.standIns))
        }
    }
}
