import Foundation

/// Estimates what building candidate indexes adds to the snapshot, and checks that the private directory's
/// file system has room before any is built: an `SQLITE_FULL` halfway through measuring leaves a candidate
/// in the snapshot or stops the run after minutes of work.
///
/// An index entry holds the key columns and the rowid in SQLite's record format
/// (https://sqlite.org/fileformat2.html#record_format): a header of one byte per column and one for its
/// size, each integer in 1 to 8 bytes by magnitude, a real in 8, text and blobs in their length. The
/// average width of each key column is read from up to 20,000 rows of the table (a systematic sample by
/// rowid on a large table); each cell costs 4 more bytes (its size varint and its pointer), and pages
/// freshly built by `CREATE INDEX` are about 90 % full.
struct IndexSpaceCheck {
    let connection: SQLiteConnection
    let schema: Schema
    private var widths: [String: Double] = [:]

    init(connection: SQLiteConnection, schema: Schema) {
        self.connection = connection
        self.schema = schema
    }

    /// The rows read per table to measure the columns' average widths.
    static let sampledRows = 20_000
    /// How full `CREATE INDEX` leaves its pages.
    static let pageFill = 0.9

    /// The estimated bytes of `candidate` once built on the snapshot (its table's rows as they are here).
    mutating func estimatedBytes(of candidate: IndexCandidate) -> Int64 {
        guard let table = schema.table(named: candidate.table), table.rowCount > 0 else { return 0 }
        var entry = 4.0 + 1 + Double(candidate.columns.count + 1)
        entry += Self.integerBytes(Int64(table.rowCount))  // the rowid (or, roughly, the primary key)
        for column in candidate.columns {
            entry += width(of: column, in: table)
        }
        return Int64((Double(table.rowCount) * entry / Self.pageFill).rounded(.up))
    }

    /// Bytes an integer of about `value` takes in a record.
    static func integerBytes(_ value: Int64) -> Double {
        switch value.magnitude {
        case ..<128: return 1
        case ..<32_768: return 2
        case ..<8_388_608: return 3
        case ..<2_147_483_648: return 4
        case ..<140_737_488_355_328: return 6
        default: return 8
        }
    }

    /// The average bytes a key column (or expression) takes in a record, read from up to
    /// ``sampledRows`` rows; 8 when it cannot be read.
    private mutating func width(of column: IndexColumn, in table: Table) -> Double {
        let expression = column.name.map(SQLIdentifier.quote) ?? column.expression.map { "(\($0))" } ?? "NULL"
        let key = table.name.sqlFolded + "\u{1}" + expression
        if let known = widths[key] { return known }
        let width = Self.averageWidth(of: expression, in: table, connection: connection) ?? 8
        widths[key] = width
        return width
    }

    /// The average bytes `expression` (a quoted column name or a parenthesised expression) takes in a
    /// record of `table`, read from up to ``sampledRows`` rows; nil when it cannot be read.
    static func averageWidth(of expression: String, in table: Table, connection: SQLiteConnection) -> Double? {
        let step = max(1, table.rowCount / Self.sampledRows)
        let filter = table.isWithoutRowid || step == 1 ? "" : " WHERE rowid % \(step) = 0"
        let sql = """
            SELECT avg(CASE typeof(v) WHEN 'null' THEN 0 WHEN 'real' THEN 8
                WHEN 'integer' THEN (CASE WHEN v BETWEEN -128 AND 127 THEN 1 WHEN v BETWEEN -32768 AND 32767 THEN 2
                    WHEN v BETWEEN -8388608 AND 8388607 THEN 3 WHEN v BETWEEN -2147483648 AND 2147483647 THEN 4
                    WHEN v BETWEEN -140737488355328 AND 140737488355327 THEN 6 ELSE 8 END)
                ELSE length(CAST(v AS BLOB)) END)
            FROM (SELECT \(expression) AS v FROM \(SQLIdentifier.quote(table.name))\(filter) LIMIT \(Self.sampledRows))
            """
        return (try? connection.prepareResolvingStandIns(sql)).flatMap { statement in
            (try? statement.step()) == true ? statement.column(0).doubleValue : nil
        }
    }

    /// The bytes the analysis may need at once while it measures `candidates`: the `keptAtOnce` largest
    /// (the indexes chosen so far stay built while later ones are measured), one more being built, and
    /// its sort's temporary space, about its size again; and 1 MiB for journals.
    mutating func bytesNeeded(for candidates: [IndexCandidate], keptAtOnce: Int) -> Int64 {
        let largest = candidates.map { estimatedBytes(of: $0) }.max() ?? 0
        return bytesKept(for: candidates, keptAtOnce: keptAtOnce) + 2 * largest + 1_048_576
    }

    /// The estimated bytes of the `keptAtOnce` largest of `candidates`: what may stay built at once.
    mutating func bytesKept(for candidates: [IndexCandidate], keptAtOnce: Int) -> Int64 {
        candidates.map { estimatedBytes(of: $0) }.sorted(by: >).prefix(keptAtOnce).reduce(0, +)
    }

    /// Free bytes of the file system holding `directory`; nil when it cannot be told.
    static func freeBytes(in directory: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory.path) else { return nil }
        return (attributes[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
