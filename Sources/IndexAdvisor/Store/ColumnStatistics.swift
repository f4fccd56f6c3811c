import Foundation
import Locking

/// Distribution facts about one column (or a column list), computed with indexadvisor's own queries on
/// the snapshot — never written into `sqlite_stat1`, so the snapshot plans as the user's store does.
public struct ColumnStatistics: Sendable, Codable, Equatable {
    public var table: String
    /// One column, or the columns of an index prefix.
    public var columns: [String]
    /// Distinct non-NULL values among the sampled rows (for several columns: distinct tuples, NULLs included).
    public var distinctValues: Int
    /// Share of sampled rows where the (first) column is NULL, 0…1.
    public var nullFraction: Double
    /// Share of sampled rows holding the most common value, 0…1 (1/distinct for uniform data).
    public var mostCommonShare: Double
    /// Rows the figures come from.
    public var sampledRows: Int
    /// True when `sampledRows` is less than the table's row count.
    public var isSampled: Bool
    /// The WHERE the rows were counted under: a partial index's predicate, whose figures are for the rows the
    /// index holds (`sampledRows` of them), not the table's. Nil for the whole table.
    public var rowFilter: String? = nil

    /// The share of rows an equality on a present value matches, on average: (1 − NULL share) / distinct
    /// values. Lower is more selective; a column that is mostly NULL is selective for its present values.
    public var matchedFraction: Double {
        distinctValues > 0 ? (columns.count == 1 ? 1 - nullFraction : 1) / Double(distinctValues) : 1
    }
}

/// Computes ``ColumnStatistics`` with `COUNT(DISTINCT …)` queries, on a deterministic sample of at most
/// `sampleLimit` rows (every k-th rowid) for large tables.
package struct ColumnStatisticsReader {
    package let connection: SQLiteConnection
    package var sampleLimit = 200_000
    private var cache: [String: ColumnStatistics] = [:]

    package init(connection: SQLiteConnection) {
        self.connection = connection
    }

    private var shares: [String: [SQLValue: Double]] = [:]
    private var widths: [String: Double] = [:]

    /// The average bytes `column` takes in a record of `table` (``IndexSpaceCheck/averageWidth(of:in:connection:)``);
    /// 8 when it cannot be read.
    package mutating func averageWidth(table: Table, column: String) -> Double {
        let key = table.name.sqlFolded + "\u{1}" + column.sqlFolded
        if let known = widths[key] { return known }
        let width = IndexSpaceCheck.averageWidth(of: SQLIdentifier.quote(column), in: table, connection: connection) ?? 8
        widths[key] = width
        return width
    }

    /// For a column with at most `limit` distinct values, the share of rows (0…1) holding each value;
    /// nil for columns with more values. Counted on the same sample as ``statistics(table:columns:)``.
    package mutating func valueShares(table: Table, column: String, limit: Int = 32) -> [SQLValue: Double]? {
        let key = table.name.sqlFolded + "\u{1}" + column.sqlFolded
        if let cached = shares[key] { return cached.isEmpty ? nil : cached }
        // The column's statistics, when already read from the same sample, count its groups (its distinct
        // values, and NULL as one more): past `limit`, the query below would find too many too, and it
        // would sort the whole sample again to say so (issue 18).
        if let known = cache[([table.name, column]).map { $0.sqlFolded }.joined(separator: "\u{1}")],
           known.distinctValues + (known.nullFraction > 0 ? 1 : 0) > limit {
            shares[key] = [:]
            return nil
        }
        let quoted = SQLIdentifier.quote(column)
        let source = "\(SQLIdentifier.quote(table.name))" + (sampleFilter(of: table).map { " WHERE " + $0 } ?? "")
        let rows = (try? connection.query("SELECT \(quoted), count(*) FROM \(source) GROUP BY 1 LIMIT \(limit + 1)")) ?? []
        let total = rows.reduce(0) { $0 + Int($1[1].integerValue ?? 0) }
        guard rows.count <= limit, total > 0 else {
            shares[key] = [:]
            return nil
        }
        let result = Dictionary(rows.map { ($0[0], Double($0[1].integerValue ?? 0) / Double(total)) }, uniquingKeysWith: { a, _ in a })
        shares[key] = result
        return result
    }

    /// The share of rows (0…1) holding `value` in `column`, from ``valueShares(table:column:limit:)`` when the column
    /// has few values, else counted on the same sample; nil when it cannot be read.
    package mutating func share(of value: SQLValue, table: Table, column: String) -> Double? {
        if let shares = valueShares(table: table, column: column) { return shares[value] ?? 0 }
        return share(matching: "\(SQLIdentifier.quote(column)) IS ?", bindings: [value], table: table)
    }

    private var predicateShares: [String: Double?] = [:]

    /// The share of `table`'s rows (0…1) for which `predicate` (an SQL expression on its columns) is true, counted
    /// on the sample ``statistics(table:columns:)`` reads; nil when it cannot be read. Kept per predicate and table.
    package mutating func share(matching predicate: String, bindings: [SQLValue] = [], table: Table) -> Double? {
        let key = table.name.sqlFolded + "\u{1}" + predicate + "\u{1}" + bindings.map(\.sqlLiteral).joined(separator: ",")
        if let known = predicateShares[key] { return known }
        let sql = "SELECT count(*), coalesce(sum(\(predicate)), 0) FROM \(SQLIdentifier.quote(table.name))"
            + (sampleFilter(of: table).map { " WHERE " + $0 } ?? "")
        var found: Double?
        if let row = (try? connection.query(sql, bindings))?.first, let total = row[0].integerValue, total > 0 {
            found = Double(row[1].integerValue ?? 0) / Double(total)
        }
        predicateShares[key] = found
        return found
    }

    /// The WHERE term that keeps every k-th row (by a hash of the rowid) so that at most ``sampleLimit`` rows are
    /// read; nil when the table is read whole (small enough, or WITHOUT ROWID).
    private func sampleFilter(of table: Table) -> String? {
        guard table.rowCount > sampleLimit, !table.isWithoutRowid else { return nil }
        let step = (table.rowCount + sampleLimit - 1) / sampleLimit
        return "(rowid * 2654435761) % 4294967291 % \(step) = 0"
    }

    /// The `sqlite_stat1.stat` text `ANALYZE` would write for an index on `columns` of `table`: the table's
    /// row count, then for each column prefix the average rows per distinct value (rounded up), from the
    /// sampled distinct counts.
    package mutating func statRow(table: Table, columns: [String]) -> String? {
        guard !columns.isEmpty else { return nil }
        var parts = [String(max(1, table.rowCount))]
        for length in 1...columns.count {
            guard let prefix = statistics(table: table, columns: Array(columns.prefix(length))), prefix.sampledRows > 0 else { return nil }
            let distinct = max(1, prefix.distinctValues)
            parts.append(String(max(1, Int((Double(prefix.sampledRows) / Double(distinct)).rounded(.up)))))
        }
        return parts.joined(separator: " ")
    }

    /// One figure to read ahead with ``prefetch(_:workers:open:)``: the statistics of `columns` of `table`,
    /// and for a single column its value shares too when `shares` is true.
    package struct Request: Sendable {
        package var table: Table
        package var columns: [String]
        package var shares: Bool
        /// Counted among the rows this SQL expression holds for (``ColumnStatistics/rowFilter``).
        package var filter: String?

        package init(table: Table, columns: [String], shares: Bool = false, filter: String? = nil) {
            self.table = table
            self.columns = columns
            self.shares = shares
            self.filter = filter
        }
    }

    private static func key(_ table: Table, _ columns: [String], filter: String? = nil) -> String {
        ([table.name] + columns).map { $0.sqlFolded }.joined(separator: "\u{1}") + (filter.map { "\u{2}" + $0 } ?? "")
    }

    /// Reads the statistics (and value shares) of `requests` that are not known yet on up to `workers`
    /// connections at once, each opened by `open` on the same snapshot, and keeps them as if they had been
    /// read here: the same queries on the same rows give the same figures. Each is a sort of the table's
    /// sample, and nothing is timed while statistics are read, so a second core shortens the wait without
    /// touching a measurement (issue 18). When the system would not start the workers now, nothing is read
    /// ahead. What a worker cannot read (a connection that does not open, a
    /// query that fails) is left to be read here when it is asked for.
    package mutating func prefetch(_ requests: [Request], workers: Int, open: @Sendable () throws -> SQLiteConnection) {
        var seen = Set<String>()
        let pending = requests.filter { request in
            !request.columns.isEmpty && cache[Self.key(request.table, request.columns, filter: request.filter)] == nil
                && seen.insert(Self.key(request.table, request.columns, filter: request.filter)).inserted
        }
        let threads = min(workers, pending.count)
        // Dispatch waits for ever for a thread the system refuses (`ulimit -u`, `ulimit -v`): without the
        // threads, everything is read here instead.
        guard threads >= 2, ThreadStart.canRun(threads - 1) else { return }
        let next = LockedValue(0)
        let found = LockedValue<[(Int, ColumnStatistics, [SQLValue: Double]?)]>([])
        let limit = sampleLimit
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            guard let connection = try? open() else { return }
            var reader = ColumnStatisticsReader(connection: connection)
            reader.sampleLimit = limit
            while true {
                let index = next.withLock { value -> Int in
                    value += 1
                    return value - 1
                }
                guard index < pending.count else { return }
                let request = pending[index]
                guard let statistics = reader.statistics(table: request.table, columns: request.columns, filter: request.filter) else { continue }
                let shares = request.shares && request.columns.count == 1 && request.filter == nil
                    ? reader.valueShares(table: request.table, column: request.columns[0]) ?? [:] : nil
                found.withLock { $0.append((index, statistics, shares)) }
            }
        }
        for (index, statistics, shares) in found.withLock({ $0 }) {
            let request = pending[index]
            cache[Self.key(request.table, request.columns, filter: request.filter)] = statistics
            if let shares { self.shares[request.table.name.sqlFolded + "\u{1}" + request.columns[0].sqlFolded] = shares }
        }
    }

    /// Statistics for `columns` of `table`, among the rows `rowFilter` (an SQL expression: a partial index's
    /// predicate) holds for when given; nil if the columns cannot be read.
    package mutating func statistics(table: Table, columns: [String], filter rowFilter: String? = nil) -> ColumnStatistics? {
        let key = Self.key(table, columns, filter: rowFilter)
        if let cached = cache[key] { return cached }
        guard !columns.isEmpty else { return nil }
        let quotedTable = SQLIdentifier.quote(table.name)
        let list = columns.map(SQLIdentifier.quote).joined(separator: ", ")
        let filter = sampleFilter(of: table)
        let isSampled = filter != nil
        let terms = [filter, rowFilter.map { "(\($0))" }].compactMap { $0 }
        let sample = "SELECT \(list) FROM \(quotedTable)" + (terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND "))
        if let rowFilter {
            // The rows a partial index holds (the same grouping pass, on them): their own figures.
            var statistics = groupedStatistics(table: table, columns: columns, sample: sample, isSampled: isSampled)
            statistics?.rowFilter = rowFilter
            cache[key] = statistics
            return statistics
        }
        if columns.count == 1, let column = table.column(named: columns[0]), column.isRowidAlias {
            // The rowid: never NULL and never repeated, so every figure follows from the sample's row count,
            // which SQLite counts without sorting anything (issue 18).
            let counted = try? connection.scalar("SELECT count(*) FROM \(quotedTable)" + (filter.map { " WHERE " + $0 } ?? ""))
            guard let rows = counted?.integerValue, rows > 0 else { return nil }
            let statistics = ColumnStatistics(table: table.name, columns: columns, distinctValues: Int(rows), nullFraction: 0,
                                              mostCommonShare: 1 / Double(rows), sampledRows: Int(rows), isSampled: isSampled)
            cache[key] = statistics
            return statistics
        }
        let statistics = groupedStatistics(table: table, columns: columns, sample: sample, isSampled: isSampled)
        cache[key] = statistics
        return statistics
    }

    /// The figures of `columns` over the rows `sample` selects, in one grouping pass.
    private func groupedStatistics(table: Table, columns: [String], sample: String, isSampled: Bool) -> ColumnStatistics? {
        let list = columns.map(SQLIdentifier.quote).joined(separator: ", ")
        let first = SQLIdentifier.quote(columns[0])
        // One grouping pass gives all four figures (it used to be three scans and two sorts; issue 18): rows,
        // rows whose first column is NULL, distinct values (count(DISTINCT) skips a NULL for one column,
        // DISTINCT over several keeps NULL combinations, as GROUP BY does), and the most common value's rows.
        let distinctNulls = columns.count == 1 ? "sum(\(first) IS NULL)" : "0"
        guard let totals = try? connection.query("""
                SELECT sum("indexadvisor_rows"), sum(CASE WHEN \(first) IS NULL THEN "indexadvisor_rows" ELSE 0 END),
                       count(*) - \(distinctNulls), max("indexadvisor_rows")
                FROM (SELECT \(list), count(*) AS "indexadvisor_rows" FROM (\(sample)) GROUP BY \(list))
                """).first,
              let largest = totals[3].integerValue, largest > 0
        else { return nil }
        let distinct = totals[2]
        let common = totals[3]
        let rows = Int(totals[0].integerValue ?? 0)
        let statistics = ColumnStatistics(
            table: table.name, columns: columns,
            distinctValues: Int(distinct.integerValue ?? 0),
            nullFraction: rows > 0 ? Double(totals[1].integerValue ?? 0) / Double(rows) : 0,
            mostCommonShare: rows > 0 ? Double(common.integerValue ?? 0) / Double(rows) : 0,
            sampledRows: rows, isSampled: isSampled)
        return statistics
    }
}
