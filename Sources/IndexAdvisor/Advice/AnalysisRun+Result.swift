import Foundation

/// What ``AnalysisRun/result(storeURL:started:measured:)`` needs from the snapshot, measured before the
/// result is assembled so that assembling it reads nothing.
struct ResultMeasurements {
    /// Each index's size in bytes (`dbstat`), scaled to the store's rows for a sampled table.
    var indexSizes: [String: Int64]
    /// The uniqueness audit (declared rules and identity-like columns) against the data.
    var uniqueness: [UniquenessFinding]
    /// The column statistics the result reports, read ahead (``ColumnStatisticsReader/prefetch(_:workers:open:)``).
    var statistics: ColumnStatisticsReader
}

extension AnalysisRun {
    /// Measures what the result reports about the final state: index sizes and the uniqueness audit.
    func resultMeasurements() -> ResultMeasurements {
        var statistics = self.statistics
        statistics.prefetch(resultStatisticsRequests(), workers: Self.statisticsWorkers, open: snapshot.openReader)
        return ResultMeasurements(indexSizes: indexSizes(),
                                  uniqueness: UniquenessAudit(schema: schema, connection: snapshot.connection).audit(declared: options.uniqueRules, profiles: profiles),
                                  statistics: statistics)
    }

    /// The result every report renders, from what the run measured: pure, no I/O (the index sizes and the
    /// uniqueness audit are measured first, by ``resultMeasurements()``).
    func result(storeURL: URL, started: UInt64, measured: ResultMeasurements) -> AnalysisResult {
        let naming = SwiftDataNaming(schema: schema)
        var statistics = measured.statistics
        let recommendations = recommendationReports(naming: naming, statistics: &statistics)
        let statements = statementReports()
        let tables = tableSummaries(sizes: measured.indexSizes, statistics: &statistics)
        let usable = statements.filter { $0.error == nil }
        let formatter = ISO8601DateFormatter()
        return AnalysisResult(
            tool: ToolInfo(name: "indexadvisor", version: IndexAdvisor.version, sqliteVersion: SQLiteConnection.libraryVersion,
                           generatedAt: formatter.string(from: Date()),
                           analysisSeconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9),
            store: StoreSummary(fileName: storeURL.lastPathComponent, bytes: snapshot.storeBytes,
                                snapshotMethod: snapshot.method.rawValue, snapshotSeconds: snapshot.copySeconds,
                                isCoreData: schema.coreData != nil, isCloudKitSynced: schema.coreData?.isCloudKitSynced ?? false,
                                hasStatistics: schema.hasStatistics, sampledTables: sampledTables, tables: tables,
                                cachedModel: schema.coreData?.cachedModel,
                                keyPathSpellings: schema.coreData == nil ? nil : keyPathSpellings(naming: naming, uniqueness: measured.uniqueness)),
            workload: workloadSummary(analysedStatements: usable.count),
            method: MethodSummary(
                repeats: options.repeats, minimumRunSeconds: options.minimumRunSeconds, bindingSamples: options.bindingSamples,
                statementTimeoutSeconds: options.statementTimeout, seed: options.seed, costSource: options.costSource,
                decidesOnCounters: options.costSource == .wallClock && options.decideOnCounters,
                sqliteVersion: SQLiteConnection.libraryVersion, foreignKeyEnforcement: foreignKeyEnforcement,
                recursiveTriggers: recursiveTriggers ? true : nil, minimumBenefitShare: options.minimumBenefitShare),
            statements: statements, recommendations: recommendations,
            alternatives: schema.coreData == nil ? nil : alternativeIndexes(naming: naming, taken: Set(picks.map { $0.name.sqlFolded })),
            rejectedCandidates: rejected,
            existingIndexes: existingIndexes,
            uniqueness: measured.uniqueness,
            queryAdvice: queryAdvice, schemaReview: schemaFindings,
            totals: Self.totals(usable, fromSample: !sampledTables.isEmpty), warnings: snapshot.warnings + warnings)
            .describingWorkload(workload)
            .chargingFinalState()
            .proposingConstraintsForCoreData()
    }

    /// True when `name` is a partial index: one of the store's, or a pick with a WHERE.
    func isPartialIndex(_ name: String) -> Bool {
        if let pick = picks.first(where: { $0.name.sqlFolded == name.sqlFolded }) { return pick.measured.candidate.partialPredicate != nil }
        return schema.index(named: name)?.isPartial ?? false
    }

    /// The store's partial indexes (folded names) that hold more than half their table's rows: a walk of one of
    /// them reads nearly the table (`WHERE deleted_at IS NULL` over rows none of which is deleted), so it is
    /// judged as a full scan of any other index is (hostile round 8, F3). Entries are counted from `dbstat`
    /// (every cell of an index b-tree is an entry, https://sqlite.org/dbstat.html); an index it cannot count
    /// is left out (then its walk reads only the rows its WHERE admits, as before). Only the indexes some plan
    /// walks whole are counted: each count reads the index.
    func widePartialIndexes() -> Set<String> {
        let walked = Set(profiles.flatMap { profile in
            [profile.planBefore, profile.planAfter].compactMap { $0 }.flatMap(\.findings)
                .filter { $0.kind == .fullIndexScan }.compactMap { $0.index?.sqlFolded }
        })
        var wide = Set<String>()
        for index in schema.indexes where index.isPartial && walked.contains(index.name.sqlFolded) {
            guard let rows = schema.table(named: index.table)?.rowCount, rows > 0,
                  let entries = (try? snapshot.connection.scalar("SELECT sum(ncell) FROM dbstat WHERE name = ?", [.text(index.name)]))?.integerValue,
                  Double(entries) > 0.5 * Double(rows) else { continue }
            wide.insert(index.name.sqlFolded)
        }
        return wide
    }

    /// The workload's summary, with the statements SQLite cannot parse counted among what was skipped and
    /// not among the distinct statements (``setAsideUnparsable()``).
    func workloadSummary(analysedStatements: Int) -> WorkloadSummary {
        var summary = WorkloadSummary(workload, analysedStatements: analysedStatements)
        guard unparsable.executions > 0 else { return summary }
        summary.distinctStatements -= unparsable.statements
        summary.skipped[Self.unparsableReason, default: 0] += unparsable.executions
        if let example = unparsable.example { summary.skippedExamples.append(Self.unparsableReason + ": " + example) }
        return summary
    }

    /// The picks as the report lists them, in the migration's order (stage 3 put them in it, ``picksInMigrationOrder``; ``AnalysisResult/recommendations``), with their key columns' prefix statistics.
    private func recommendationReports(naming: SwiftDataNaming, statistics: inout ColumnStatisticsReader) -> [Recommendation] {
        picks.enumerated().map { rank, pick -> Recommendation in
            let candidate = pick.measured.candidate
            let entity = (subEntity(servedBy: pick) ?? schema.coreData?.rootEntity(ofTable: candidate.table))?.name
            let (columns, guessed) = recommendedColumns(candidate, naming: naming)
            let table = schema.table(named: candidate.table)
            let prefixStatistics = table.map { table in
                (1...candidate.columns.count).compactMap { length in
                    // A partial index's figures are for the rows it holds (a new user read a toRead-only index's
                    // cardinality as the whole table's).
                    statistics.statistics(table: table, columns: candidate.columns.prefix(length).compactMap(\.name), filter: candidate.partialPredicate)
                }
            } ?? []
            return Recommendation(
                rank: rank + 1, name: pick.name, table: candidate.table, columns: columns,
                partialPredicate: candidate.partialPredicate,
                sql: candidate.createSQL(name: pick.name, ifNotExists: true), entity: entity,
                swiftDataIndex: entity.flatMap { SwiftDataCode.indexMacro(entity: $0, columns: columns, candidate: candidate) },
                keyPathsAreGuessed: guessed, buildSeconds: storeBuildSeconds(pick.measured.buildSeconds, table: candidate.table),
                bytes: storeBytes(pick.measured.bytes, table: candidate.table),
                readSecondsSaved: pick.score.readSecondsSaved, writeSecondsAdded: pick.score.writeSecondsAdded,
                netSecondsSaved: pick.score.netSeconds,
                readSecondsSavedBound: pick.score.readBound.stored, writeSecondsAddedBound: pick.score.writeBound.stored,
                sampleScale: sample(of: candidate.table)?.sizeFactor,
                sampleBuildSeconds: sample(of: candidate.table).map { _ in pick.measured.buildSeconds },
                sampleBytes: sample(of: candidate.table).map { _ in pick.measured.bytes },
                effects: pick.score.effects, columnStatistics: prefixStatistics,
                notes: (pick.neededBy.map { [$0.note] } ?? []) + entityColumnNote(for: candidate)
                    + churns(for: candidate).map(PickNote.churn) + untimedWriteNotes(for: candidate))
        }
    }

    /// Each analysed statement as the report lists it, in workload order; a flagged one no pick serves says
    /// why, and so does a read that takes a tenth of the workload's time or more (a new user's hottest read,
    /// 22 % of the time through an index it already had, got no word on why it got none).
    private func statementReports() -> [StatementReport] {
        let pickNames = Set(picks.map { $0.name.sqlFolded })
        let wide = widePartialIndexes()
        let readsItsShare = { (name: String) in isPartialIndex(name) && !wide.contains(name.sqlFolded) }
        let total = profiles.filter(\.isUsable).reduce(0.0) { $0 + $1.weight * ($1.timingBefore?.medianSeconds ?? 0) }
        return profiles.enumerated().map { position, profile -> StatementReport in
            let used = (profile.planAfter?.indexesUsed ?? []).filter { pickNames.contains($0.sqlFolded) }
            var notes = profile.notes
            let isHot = profile.isRead && total > 0 && profile.weight * (profile.timingBefore?.medianSeconds ?? 0) >= total / 10
            if profile.isUsable, profile.planBefore?.hasProblem == true || isHot, used.isEmpty {
                notes.append(.noRecommendation(noRecommendationReason(for: position)))
            }
            return StatementReport(
                id: profile.statement.fingerprint.id, sql: profile.statement.text,
                parameterizedSQL: profile.statement.sql, valueSetsSeen: valueSetsSeen(profile), valueSetsTimed: profile.samples.isEmpty ? nil : profile.samples.count,
                valueSetsOnExistingRows: profile.isUsable ? profile.existingRowKeys.flatMap { $0.onExistingRows > 0 ? $0.onExistingRows : nil } : nil,
                valueSetsChangingNoRow: profile.isUsable ? profile.existingRowKeys.flatMap { $0.matchingNoRow > 0 ? $0.matchingNoRow : nil } : nil,
                inListLengthsSeen: profile.statement.observedBindings.isEmpty || profile.statement.inListLengths.count < 2 ? nil : profile.statement.inListLengths,
                timedExecutions: profile.isUsable ? profile.executions.map { TimedExecution(sql: $0.sql, values: $0.values, weight: $0.weight) } : nil,
                kind: profile.statement.kind,
                count: profile.statement.count, tables: (profile.shape?.tables.map(\.table) ?? []).reduce(into: [String]()) { names, name in
                    if !names.contains(where: { $0.sqlFolded == name.sqlFolded }) { names.append(name) }
                },
                shapeSummary: profile.shape.map(Self.summary), bindingSource: profile.bindingSource.rawValue,
                planBefore: profile.markingFilteredScans(profile.planBefore, isPartial: readsItsShare),
                planAfter: profile.markingFilteredScans(profile.planAfter, isPartial: readsItsShare),
                timingBefore: profile.timingBefore, timingAfter: profile.timingAfter,
                weightedSecondsBefore: profile.weight * (profile.timingBefore?.medianSeconds ?? 0),
                weightedSecondsAfter: profile.weight * (profile.timingAfter?.medianSeconds ?? 0),
                observedTiming: profile.statement.observedTiming, observedRows: profile.statement.observedRows,
                usesRecommendations: used,
                notes: notes, error: profile.error)
        }
    }

    /// Each table of the store with its rows (the store's, not the sample's), indexes and sizes, and the
    /// statistics of the columns the workload filters or sorts on.
    private func tableSummaries(sizes: [String: Int64], statistics: inout ColumnStatisticsReader) -> [TableSummary] {
        let workloadColumns = columnsUsedByWorkload()
        return schema.tables.map { table -> TableSummary in
            let columns = workloadColumns[table.name.sqlFolded] ?? []
            return TableSummary(
                name: table.name, entities: schema.coreData?.entities(inTable: table.name).map(\.name) ?? [],
                rows: storeSchema?.table(named: table.name)?.rowCount ?? table.rowCount,
                sampledRows: sampledTables.first { $0.table == table.name }?.sampledRows, columns: table.columns.count,
                indexes: table.indexes.map { IndexSummary(name: $0.name, columns: $0.columnNames, isUnique: $0.isUnique,
                                                          partialPredicate: $0.partialPredicate, bytes: sizes[$0.name]) },
                columnStatistics: columns.compactMap { statistics.statistics(table: table, columns: [$0]) })
        }
    }

    /// The workload's totals over the statements that were analysed (`usable`): weighted read and write
    /// time before and after, and the full scans and temp B-tree sorts their plans flag.
    private static func totals(_ usable: [StatementReport], fromSample: Bool) -> Totals {
        func count(_ kind: PlanFinding.Kind, _ plan: (StatementReport) -> QueryPlan?) -> Int {
            Totals.count(kind, in: usable, plan)
        }
        return Totals(
            readSecondsBefore: usable.filter { $0.kind.isRead }.reduce(0) { $0 + $1.weightedSecondsBefore },
            readSecondsAfter: usable.filter { $0.kind.isRead }.reduce(0) { $0 + $1.weightedSecondsAfter },
            writeSecondsBefore: usable.filter { $0.kind.isWrite }.reduce(0) { $0 + $1.weightedSecondsBefore },
            writeSecondsAfter: usable.filter { $0.kind.isWrite }.reduce(0) { $0 + $1.weightedSecondsAfter },
            fullScansBefore: count(.fullTableScan, \.planBefore), fullScansAfter: count(.fullTableScan, \.planAfter),
            tempBTreeSortsBefore: count(.tempBTree, \.planBefore), tempBTreeSortsAfter: count(.tempBTree, \.planAfter),
            timesFromSample: fromSample ? true : nil)
    }

    /// Why foreign keys were enforced on the snapshot, for the method: nil when they were not.
    var foreignKeyEnforcement: ForeignKeyEnforcement? {
        guard enforcesForeignKeys else { return nil }
        return ForeignKeys.workloadSetting(workload) == true ? .workloadPragma : .declaredAction
    }

    /// A candidate's key columns as a report shows them, with SwiftData key paths on entity tables; and
    /// whether any key path was guessed from a column name. Core Data's own columns (`Z_ENT`, `Z_OPT`, `Z_PK`)
    /// are no property and get no key path: a report printed `\.z_ent` and, for it, said the key paths of a
    /// table the model maps were guesses (hostile round 6, F9).
    func recommendedColumns(_ candidate: IndexCandidate, naming: SwiftDataNaming) -> ([RecommendedColumn], Bool) {
        let isEntityTable = schema.coreData?.rootEntity(ofTable: candidate.table) != nil
        var guessed = false
        let columns = candidate.columns.map { column -> RecommendedColumn in
            var keyPath: String?
            if isEntityTable, let name = column.name, !RecommendedColumn.isCoreDataColumn(name) {
                let (property, isGuess) = naming.propertyName(forColumn: name)
                keyPath = "\\." + property
                guessed = guessed || isGuess
            }
            return RecommendedColumn(name: column.displayName, isDescending: column.isDescending,
                                     collation: column.collation, keyPath: keyPath)
        }
        return (columns, guessed)
    }

    /// The chosen ``alternatives`` as the report lists them.
    func alternativeIndexes(naming: SwiftDataNaming, taken: Set<String>) -> [AlternativeIndex] {
        let used = Set(profiles.flatMap { $0.planAfter?.indexesUsed ?? [] }.map(\.sqlFolded))
        var names = takenNames.union(taken)
        return alternatives.map { choice in
            let candidate = choice.measured.candidate
            let name = indexName(for: candidate, taken: names)
            names.insert(name.sqlFolded)
            let (columns, _) = recommendedColumns(candidate, naming: naming)
            let keyNames = Set(candidate.columns.compactMap { $0.name?.sqlFolded })
            // Not an index Core Data makes for a relationship or a hierarchy: the model cannot drop it, as the
            // existing-index review says (a new user's alternative said "drop that index (in the model too)").
            let replaces = (schema.table(named: candidate.table)?.indexes ?? []).filter { index in
                !index.isUnique && !used.contains(index.name.sqlFolded)
                    && index.columns.first?.name.map { keyNames.contains($0.sqlFolded) } == true
                    && ExistingIndexReview.caveat(for: index, schema: schema, connection: snapshot.connection) != .ownedByCoreData
            }.map(\.name)
            return AlternativeIndex(
                name: name, table: candidate.table, columns: columns, partialPredicate: candidate.partialPredicate,
                sql: candidate.createSQL(name: name, ifNotExists: true),
                entity: schema.coreData?.rootEntity(ofTable: candidate.table)?.name,
                readSecondsSaved: choice.score.readSecondsSaved, writeSecondsAdded: choice.score.writeSecondsAdded,
                netSecondsSaved: choice.score.netSeconds,
                readSecondsSavedBound: choice.score.readBound.stored, writeSecondsAddedBound: choice.score.writeBound.stored, bytes: storeBytes(choice.measured.bytes, table: candidate.table),
                buildSeconds: storeBuildSeconds(choice.measured.buildSeconds, table: candidate.table),
                effects: choice.score.effects, replaces: replaces,
                howToShip: AlternativeShipping.advice(for: candidate, naming: naming))
        }
    }

    /// Distinct value sets the workload showed for `profile`'s statement; nil when it showed none.
    func valueSetsSeen(_ profile: StatementProfile) -> Int? {
        let statement = profile.statement
        return statement.observedBindings.isEmpty ? nil : max(statement.distinctValueSets, statement.observedBindings.count)
    }


    /// A note for each write to `candidate`'s table that did not run on the snapshot (every execution
    /// failed, or some did): its cost is missing from the write time above, which is then a lower bound.
    func untimedWriteNotes(for candidate: IndexCandidate) -> [PickNote] {
        let table = candidate.table.sqlFolded
        return profiles.enumerated().compactMap { position, profile in
            guard profile.isWrite, profile.statement.tables.contains(where: { $0.sqlFolded == table }) else { return nil }
            if let error = profile.error {
                return .untimedWrite(statement: "S\(position + 1)", sql: profile.statement.text, error: error)
            }
            if let failures = profile.timingBefore?.failures, failures > 0 {
                return .failedWrites(failures: failures, statement: "S\(position + 1)", sql: profile.statement.text)
            }
            return nil
        }
    }

    /// Each key column of `candidate` that at least 30 % of the writes to its table change (UPDATE … SET it,
    /// or an upsert's DO UPDATE SET; weighted by frequency).
    func churns(for candidate: IndexCandidate) -> [ColumnChurn] {
        let table = candidate.table.sqlFolded
        let writes = profiles.filter { $0.isUsable && $0.writtenTables.contains(table) }
        let total = writes.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return [] }
        var churns: [ColumnChurn] = []
        for column in candidate.columns.compactMap(\.name) {
            let changing = writes.filter { profile in
                profile.shape?.access(to: candidate.table).map { access in
                    access.updatedColumns.contains { $0.sqlFolded == column.sqlFolded }
                } ?? false
            }.reduce(0) { $0 + $1.weight }
            let share = changing / total
            if share >= 0.3 {
                churns.append(ColumnChurn(column: column, share: share, table: candidate.table, partialPredicate: candidate.partialPredicate))
            }
        }
        return churns
    }

    /// Why the statement at `position` (flagged, and using no recommendation) got no index, pointing only at
    /// what the report holds.
    private func noRecommendationReason(for position: Int) -> NoRecommendationReason {
        let profile = profiles[position]
        let unmeasured = unmeasuredCandidates[position] ?? 0
        guard candidatesGenerated else { return .notAnalysed }
        if let offset = alternatives.firstIndex(where: { $0.measured.users.contains(position) }) {
            let alternative = alternatives[offset].measured
            return .alternativeHelps(number: offset + 1, table: alternative.candidate.table,
                                     columns: alternative.candidate.columns.map(\.displayName),
                                     partialPredicate: alternative.candidate.partialPredicate,
                                     beforeSeconds: (profile.current ?? profile.timingBefore)?.medianSeconds,
                                     afterSeconds: alternative.after[position]?.medianSeconds)
        }
        if unmeasured > 0 {
            return .candidatesUnmeasured(unmeasured: unmeasured, maxCandidates: options.maxCandidatesMeasured,
                                         timeBudgetSeconds: budgetSpent ? Int(options.timeBudgetSeconds ?? 0) : nil)
        }
        guard let shape = profile.shape else { return .shapeUnreadable }
        let tables = shape.tables
        if let small = tables.compactMap({ schema.table(named: $0.table) }).first(where: { $0.rowCount < 1000 }),
           tables.count == 1 {
            return .smallTable(table: small.name, rows: small.rowCount)
        }
        if queryAdvice.contains(where: { $0.kind == .statistics && $0.statementID == profile.statement.fingerprint.id && $0.caveat == nil }) {
            return .statisticsSuffice
        }
        if !shape.unindexableSorts.isEmpty || tables.contains(where: { !$0.columnFunctions.isEmpty }) {
            return .slowAsWritten
        }
        if tables.allSatisfy({ $0.constraints.isEmpty && $0.orderBy.isEmpty }) && profile.expressionFilters.isEmpty {
            return .nothingToIndex
        }
        if candidatesProposed[position, default: 0] == 0 {
            // An index serves =, IN, IS, IS NULL, ranges, LIKE/GLOB prefixes, IS NOT NULL (partial) and ORDER BY
            // (optoverview.html); `!=`, `IS NOT`, REGEXP and MATCH it cannot.
            let servable = tables.contains { access in
                !access.orderBy.isEmpty || access.constraints.contains { $0.op.isEquality || $0.op.isRange || [.like, .glob, .isNotNull].contains($0.op) }
            }
            // A virtual table (FTS5, R-Tree) is searched by its module (vtab.html): an index cannot serve it;
            // its shadow tables are the module's own.
            let virtual = tables.filter { schema.table(named: $0.table)?.isVirtual == true && !$0.constraints.isEmpty }.map(\.table)
            let shadow = tables.filter { schema.table(named: $0.table)?.isShadow == true }.map(\.table)
            if !virtual.isEmpty || !shadow.isEmpty {
                let others = tables.contains { access in
                    schema.table(named: access.table)?.isIndexable == true
                        && (!access.orderBy.isEmpty || access.constraints.contains { $0.op.isEquality || $0.op.isRange })
                }
                return .virtualTableSearch(tables: virtual, shadow: shadow, othersCovered: others)
            }
            return servable ? .existingIndexesCover : .unindexableTerms(Set(tables.flatMap { $0.constraints.map(\.op.rawValue) }).sorted())
        }
        return rejectedCandidateHelping(profile.statement.fingerprint.id) ?? .noCandidateHelped
    }

    /// The first rejected candidate that made the statement `id` measurably faster when it was measured, as a
    /// reason: "no candidate … made it measurably faster" beside that candidate's saving contradicted the figure.
    private func rejectedCandidateHelping(_ id: String) -> NoRecommendationReason? {
        for candidate in rejected {
            guard let effect = candidate.speedups.first(where: { $0.statementID == id }) else { continue }
            return .rejectedCandidateHelps(table: candidate.table, columns: candidate.columns, partialPredicate: candidate.partialPredicate,
                                           beforeSeconds: effect.before.medianSeconds, afterSeconds: effect.after.medianSeconds,
                                           reason: candidate.rejection.text)
        }
        return nil
    }

    /// Columns the workload filters or sorts on, per lower-cased table name.
    func columnsUsedByWorkload() -> [String: [String]] {
        var result: [String: [String]] = [:]
        for profile in profiles {
            for access in profile.shape?.tables ?? [] {
                var columns = result[access.table.sqlFolded] ?? []
                for name in access.constraints.map(\.column) + access.orderBy.map(\.column)
                where !name.isEmpty && name != "rowid" && !columns.contains(name) {
                    columns.append(name)
                }
                result[access.table.sqlFolded] = columns
            }
        }
        return result
    }

    /// On a table an entity hierarchy shares: the one sub-entity every statement the pick serves fetches
    /// (their `Z_ENT = ?` value), whose model class declares the key paths (`#Index<Task>`, not the root's
    /// `#Index<Item>`). Nil when the table holds one entity, or the statements fetch several or none.
    func subEntity(servedBy pick: IndexSelection.Pick) -> CoreDataModel.Entity? {
        let table = pick.measured.candidate.table
        guard let model = schema.coreData, model.entities(inTable: table).count > 1 else { return nil }
        var numbers = Set<Int>()
        for effect in pick.score.effects where effect.planAfter?.indexesUsed.contains(where: { $0.sqlFolded == pick.name.sqlFolded }) ?? false {
            guard let profile = profiles.first(where: { $0.statement.fingerprint.id == effect.statementID }),
                  let constraint = profile.shape?.access(to: table)?.constraints.first(where: { $0.op == .equal && $0.column.sqlFolded == "z_ent" }),
                  let parameter = constraint.parameter,
                  let values = profile.samples.first ?? profile.statement.observedBindings.first,
                  let number = values[safe: parameter - 1]?.integerValue else { return nil }
            numbers.insert(Int(number))
        }
        guard numbers.count == 1, let number = numbers.first else { return nil }
        return model.entities.first { $0.number == number && $0.table.sqlFolded == table.sqlFolded }
    }
}
