/// The column statistics each stage will ask for, read ahead on two connections at once (issue 18):
/// ``ColumnStatisticsReader/prefetch(_:workers:open:)``.
extension AnalysisRun {
    /// Connections that read statistics at once: the machines the analysis targets have two cores or more.
    static let statisticsWorkers = 2

    /// What ``CandidateGenerator`` reads first for each statement that gets candidates: the statistics of
    /// each equality column it may put in a key, most selective first, and their value shares when the
    /// statement binds values (the same conditions as the generator's; one it skips is only read early).
    func candidateStatisticsRequests() -> [ColumnStatisticsReader.Request] {
        var requests: [ColumnStatisticsReader.Request] = []
        for profile in profiles where profile.isUsable && profile.deservesCandidates {
            for access in profile.shape?.tables ?? [] {
                guard let table = schema.table(named: access.table), table.isIndexable,
                      table.rowCount >= PlanFinding.smallTableRows else { continue }
                let rowid = table.rowidAlias?.name.sqlFolded
                let isEntityTable = schema.coreData?.rootEntity(ofTable: table.name) != nil
                for constraint in access.constraints where constraint.op.isEquality {
                    let column = constraint.column.sqlFolded
                    guard !column.isEmpty, column != "rowid", column != rowid, table.column(named: constraint.column) != nil,
                          !isEntityTable || !["z_ent", "z_opt"].contains(column) else { continue }
                    requests.append(ColumnStatisticsReader.Request(
                        table: table, columns: [constraint.column],
                        shares: constraint.op != .isNull && constraint.parameter != nil && !profile.samples.isEmpty))
                }
            }
        }
        return requests
    }

    /// What ``result(storeURL:started:)`` reads: every key prefix of each recommendation, and each column
    /// the workload filters or sorts on.
    func resultStatisticsRequests() -> [ColumnStatisticsReader.Request] {
        var requests: [ColumnStatisticsReader.Request] = []
        for pick in picks {
            let candidate = pick.measured.candidate
            guard let table = schema.table(named: candidate.table) else { continue }
            let names = candidate.columns.compactMap(\.name)
            for length in 1...max(1, candidate.columns.count) where length <= names.count {
                requests.append(ColumnStatisticsReader.Request(table: table, columns: Array(names.prefix(length)), filter: candidate.partialPredicate))
            }
        }
        let workloadColumns = columnsUsedByWorkload()
        for table in schema.tables {
            for column in workloadColumns[table.name.sqlFolded] ?? [] {
                requests.append(ColumnStatisticsReader.Request(table: table, columns: [column]))
            }
        }
        return requests
    }
}
