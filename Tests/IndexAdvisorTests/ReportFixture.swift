@testable import IndexAdvisor

/// Analysis results built by hand, for testing the renderers without analysing a store.
enum ReportFixture {
    /// Names and SQL that try to break out of every format: HTML tags, a closing `</style>`, quotes for
    /// attributes, backticks and pipes for Markdown, a line break for SQL comments.
    static let table = "<script>alert(1)</script>"
    static let column = "</style><b>x"
    static let pipeColumn = "a|b`c"
    static let index = "idx_\"onmouseover=\"alert(1)'x"
    static let fileName = "<img src=x onerror=alert(3)>.sqlite"
    static let sql = "SELECT * FROM \"<script>alert(1)</script>\" WHERE \"</style><b>x\" = ? AND \"a|b`c\" = '``` & <img src=x onerror=alert(2)>' ORDER BY 1 LIMIT 5"

    static func timing(_ median: Double, runs: Int = 7, executions: Int = 3, steps: Double? = nil) -> Timing {
        Timing(medianSeconds: median, p25Seconds: median * 0.98, p75Seconds: median * 1.03, minSeconds: median * 0.95,
               maxSeconds: median * 1.1, runs: runs, executionsPerRun: executions, rowsPerExecution: 1, failures: 0,
               vmStepsPerExecution: steps)
    }

    /// A Core Data result with one recommendation, one redundant index to drop, a uniqueness proposal, two
    /// rejected candidates and a write. Its totals are the statements' weighted times summed, as an
    /// analysis makes them (``ReportChecker/checkTotals(_:)``).
    static func result(hostile: Bool = true) -> AnalysisResult {
        let table = hostile ? Self.table : "ZNOTE"
        let column = hostile ? Self.column : "ZFOLDERID"
        let second = hostile ? Self.pipeColumn : "ZUPDATEDAT"
        let name = hostile ? "Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt" : "Z_Note_SwiftDataIndexOnBinaryfolderIDupdatedAt"
        let sql = hostile ? Self.sql : "SELECT * FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ? AND t0.ZUPDATEDAT > ?) ORDER BY t0.ZUPDATEDAT DESC LIMIT 5"
        let scan = PlanFinding(kind: .fullTableScan, table: table, alias: "t0", index: nil, constraints: nil, purpose: nil,
                               detail: "SCAN \(table)", tableRows: 100_000)
        let sort = PlanFinding(kind: .tempBTree, table: nil, alias: nil, index: nil, constraints: nil, purpose: "ORDER BY",
                               detail: "USE TEMP B-TREE FOR ORDER BY", tableRows: nil)
        let search = PlanFinding(kind: .indexSearch, table: table, alias: "t0", index: name, constraints: "\(column)=?",
                                 detail: "SEARCH \(table) USING INDEX \(name) (\(column)=?)", tableRows: 100_000)
        let before = QueryPlan(steps: [.init(id: 2, parent: 0, detail: scan.detail), .init(id: 9, parent: 0, detail: sort.detail)], findings: [scan, sort])
        let after = QueryPlan(steps: [.init(id: 3, parent: 0, detail: search.detail)], findings: [search])
        let read = StatementReport(
            id: "00000000000000a1", sql: sql, parameterizedSQL: sql, kind: .select, count: 400, tables: [table],
            shapeSummary: "\(table): \(column) =; ORDER BY \(second)", bindingSource: "drawn from the data",
            planBefore: before, planAfter: after, timingBefore: timing(0.0185), timingAfter: timing(0.0000275, executions: 18),
            weightedSecondsBefore: 7.4, weightedSecondsAfter: 0.011, observedTiming: ObservedTiming(count: 3, totalSeconds: 0.06, medianSeconds: 0.02),
            observedRows: 5, usesRecommendations: [name],
            notes: hostile ? [.other("note with *emphasis*, [a link](http://example.com), <b>html</b> & `code`")] : [], error: nil)
        let write = StatementReport(
            id: "00000000000000b2", sql: "UPDATE \(SQLIdentifier.quote(table)) SET \(SQLIdentifier.quote(second)) = ? WHERE Z_PK = ?",
            parameterizedSQL: "UPDATE x SET y = ? WHERE Z_PK = ?", kind: .update, count: 150, tables: [table],
            shapeSummary: nil, bindingSource: "drawn from the data",
            planBefore: QueryPlan(steps: [.init(id: 2, parent: 0, detail: "SEARCH \(table) USING INTEGER PRIMARY KEY (rowid=?)")],
                                  findings: [PlanFinding(kind: .rowidLookup, table: table, alias: nil, index: nil, constraints: "rowid=?",
                                                         detail: "SEARCH \(table) USING INTEGER PRIMARY KEY (rowid=?)", tableRows: 100_000)]),
            planAfter: nil, timingBefore: timing(0.0000036, executions: 400), timingAfter: timing(0.0000115, executions: 120),
            weightedSecondsBefore: 0.00054, weightedSecondsAfter: 0.001725, observedTiming: nil, observedRows: nil,
            usesRecommendations: [], notes: [], error: nil)
        let broken = StatementReport(
            id: "00000000000000c3", sql: "SELECT * FROM gone WHERE x = 1", parameterizedSQL: "SELECT * FROM gone WHERE x = ?", kind: .select,
            count: 1, tables: [], shapeSummary: nil, bindingSource: "no parameters", planBefore: nil, planAfter: nil, timingBefore: nil,
            timingAfter: nil, weightedSecondsBefore: 0, weightedSecondsAfter: 0, observedTiming: nil, observedRows: nil,
            usesRecommendations: [], notes: [], error: "does not prepare on this store: no such table: gone")
        let recommendation = Recommendation(
            rank: 1, name: name, table: table,
            columns: [RecommendedColumn(name: column, isDescending: false, collation: "BINARY", keyPath: "\\.folderID"),
                      RecommendedColumn(name: second, isDescending: false, collation: "BINARY", keyPath: "\\.updatedAt")],
            partialPredicate: nil,
            sql: "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quote(name)) ON \(SQLIdentifier.quote(table)) (\(SQLIdentifier.quote(column)), \(SQLIdentifier.quote(second)))",
            entity: "Note", swiftDataIndex: #"#Index<Note>([\.folderID, \.updatedAt])"#, keyPathsAreGuessed: true,
            buildSeconds: 0.1072, bytes: 3_040_000, readSecondsSaved: 7.126, writeSecondsAdded: 0.00119, netSecondsSaved: 7.12481,
            effects: [StatementEffect(statementID: read.id, count: 400, before: timing(0.0185), after: timing(0.0000275), isSignificant: true),
                      StatementEffect(statementID: write.id, count: 150, before: timing(0.0000036), after: timing(0.0000115), isSignificant: true)],
            columnStatistics: [ColumnStatistics(table: table, columns: [column], distinctValues: 200, nullFraction: 0, mostCommonShare: 0.01,
                                                sampledRows: 100_000, isSampled: false)],
            notes: hostile ? [.other("\(second) changes on 65% of the writes | and <i>this</i>")] : [])
        return AnalysisResult(
            tool: ToolInfo(name: "indexadvisor", version: "0.1.0", sqliteVersion: "3.40.1", generatedAt: "2026-01-02T03:04:05Z", analysisSeconds: 15.5),
            store: StoreSummary(fileName: hostile ? fileName : "notes.sqlite", bytes: 47_290_000, snapshotMethod: "immutable", snapshotSeconds: 0.07,
                                isCoreData: true, isCloudKitSynced: false, hasStatistics: false, sampledTables: [],
                                tables: [TableSummary(name: table, entities: ["Note"], rows: 100_000, sampledRows: nil, columns: 11,
                                                      indexes: [IndexSummary(name: hostile ? index : "ZNOTE_ZFOLDERID", columns: [column], isUnique: false,
                                                                             partialPredicate: nil, bytes: 1_200_000)],
                                                      columnStatistics: [])]),
            workload: WorkloadSummary(files: [hostile ? "</style>workload.log" : "workload.log"], linesRead: 2_233, statementsRead: 2_212,
                                      distinctStatements: 16, analysedStatements: 2, skipped: hostile ? ["<b>odd</b> line": 2] : [:],
                                      skippedExamples: [], housekeepingStatements: 691),
            method: MethodSummary(repeats: 7, minimumRunSeconds: 0.002, bindingSamples: 12, statementTimeoutSeconds: 10, seed: 1,
                                  description: "Each time is the median of 7 runs."),
            statements: [read, write, broken],
            recommendations: [recommendation],
            rejectedCandidates: [
                RejectedCandidate(sql: "CREATE INDEX x ON y (z)", table: table, columns: [second], partialPredicate: nil,
                                  readSecondsSaved: 0.0009, writeSecondsAdded: 0.00108, rejection: .other("its cost (writes) outweighs <the> time | it saves")),
                RejectedCandidate(sql: "CREATE INDEX x2 ON y (z)", table: table, columns: ["ZISARCHIVED"], partialPredicate: "ZISARCHIVED = 0",
                                  readSecondsSaved: 0, writeSecondsAdded: 0, rejection: .other("not measured: 2 distinct values")),
            ],
            existingIndexes: [ExistingIndexFinding(kind: .redundant, index: hostile ? index : "ZNOTE_ZFOLDERID", table: table, columns: [column],
                                                   supersededBy: name, bytes: 1_200_000,
                                                   dropSQL: "DROP INDEX IF EXISTS \(SQLIdentifier.quote(hostile ? index : "ZNOTE_ZFOLDERID"))",
                                                   writeSecondsSaved: 0.0004, readSecondsAdded: 0,
                                                   effects: [StatementEffect(statementID: write.id, count: 150, before: timing(0.0000115), after: timing(0.0000089), isSignificant: true)])],
            uniqueness: [UniquenessFinding(origin: .proposed, table: table, columns: [column], violatingRows: 0, duplicateValues: 0, nullRows: 0,
                                           tableRows: 100_000, swiftDataUnique: #"#Unique<Note>([\.folderID])"#,
                                           verdict: .other(hostile ? "looked up like an identifier <u>and</u> unique" : "looked up like an identifier and unique"))],
            totals: Totals(readSecondsBefore: 7.4, readSecondsAfter: 0.011, writeSecondsBefore: 0.00054, writeSecondsAfter: 0.001725,
                           fullScansBefore: 1, fullScansAfter: 0, tempBTreeSortsBefore: 1, tempBTreeSortsAfter: 0),
            warnings: hostile ? [.other("S3 (SELECT * FROM gone…) does not prepare\nsecond line <script>")] : [])
    }
}
