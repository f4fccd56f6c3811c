/// Puts the heavy keys of a skewed workload among the value sets that are timed.
///
/// A statement's cost over a workload is in its heavy keys: a COUNT over the children of a parent with
/// most of the rows costs far more, once indexed, than the same COUNT for a small parent. When the
/// source reported no row counts per execution, the rows each value set selects are counted on the
/// snapshot through its equality parameters (one grouped count per column), and the value sets are
/// ordered heaviest first after the first occurrence, so that trimming a slow statement's samples keeps
/// the heavy ones.
enum HeavyKeys {
    /// For each sample, the most rows any of its equality parameters matches in its column (0 when it has
    /// none that can be counted).
    static func matchedRows(samples: [[SQLValue]], shape: StatementShape?, schema: Schema, connection: SQLiteConnection) -> [Int] {
        var matched = Array(repeating: 0, count: samples.count)
        let targets = (shape?.parameters ?? []).filter { target in
            guard let op = target.op, op == .equal || op == .in || op == .is,
                  let table = schema.table(named: target.table), table.column(named: target.column) != nil else { return false }
            return table.rowidAlias?.name.sqlFolded != target.column.sqlFolded
        }
        for target in targets {
            let values = Array(Set(samples.compactMap { $0.indices.contains(target.parameter - 1) ? $0[target.parameter - 1] : nil }.filter { !$0.isNull }))
            guard !values.isEmpty, values.count <= 500 else { continue }
            let column = SQLIdentifier.quote(target.column)
            let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
            guard let rows = try? connection.query("SELECT \(column), count(*) FROM \(SQLIdentifier.quote(target.table)) WHERE \(column) IN (\(placeholders)) GROUP BY 1", values) else { continue }
            var counts: [SQLValue: Int] = [:]
            for row in rows { counts[row[0]] = Int(row[1].integerValue ?? 0) }
            for (index, sample) in samples.enumerated() where sample.indices.contains(target.parameter - 1) {
                matched[index] = max(matched[index], counts[sample[target.parameter - 1]] ?? 0)
            }
        }
        return matched
    }

    /// The positions of `samples` in timing order: the first (the app's statement as first seen), then
    /// by `heaviness`, largest first, ties in their order.
    static func order(heaviness: [Int]) -> [Int] {
        guard heaviness.count > 1 else { return Array(heaviness.indices) }
        return [0] + heaviness.indices.dropFirst().sorted { heaviness[$0] != heaviness[$1] ? heaviness[$0] > heaviness[$1] : $0 < $1 }
    }
}
