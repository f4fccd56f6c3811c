/// Values for a timed write's keys that no row of the snapshot holds, so that the write runs.
///
/// An INSERT (or an UPDATE's `SET`) that gives a key of its table a value a row already has fails with
/// "UNIQUE constraint failed", and its cost is never measured. The keys are the rowid alias (`INTEGER PRIMARY
/// KEY`), the `PRIMARY KEY` (of a `WITHOUT ROWID` table too), every `UNIQUE` constraint and every unique
/// index on columns. A key of several columns is one value: `(book, shelf)` is new when one of its columns
/// is, so one column, the first the statement writes, takes a value past that column's largest (its
/// smallest, counting down, when the largest integer is taken), and the others keep theirs: a new pair of an
/// existing shelf, as a join table gets. A column already made new makes every key it is in new.
///
/// Values drawn from the data are a row's, so their keys always exist and are always replaced. Values the
/// app gave (a literal of its text, a bound value from its log) are replaced only when their key exists
/// in the snapshot (a log recorded before the copy was taken): otherwise they are timed as the app ran them.
/// A fresh value is an ordinary value of the column's kind: the largest integer plus one, the largest text
/// with digits after it (`'k9999'` → `'k99990'`), never a marker that would show in the report's timed text.
package struct FreshKeys {
    package let connection: SQLiteConnection
    /// Fresh values handed out so far, and each column's largest and smallest value, per table, column and collation.
    private var counters: [String: Int] = [:]
    private var extremes: [String: (maximum: SQLValue?, minimum: SQLValue?)] = [:]

    package init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// A key the table keeps unique: its columns in key order with the collation each compares under, and
    /// the partial index's `WHERE`.
    package struct Key: Equatable, Sendable {
        package var columns: [Column]
        package var predicate: String?

        package struct Column: Equatable, Sendable {
            package var name: String
            package var collation: String
            /// For a unique index on an expression of this one column (`lower(email)`): the expression, whose
            /// value the key is; a fresh value of the column gives a fresh value of the expression.
            package var expression: String? = nil
        }
    }

    /// `table`'s keys, those of fewer columns first (a column made new for one of them may settle a wider one).
    package static func keys(of table: Table) -> [Key] {
        var keys: [Key] = []
        if let alias = table.rowidAlias { keys.append(Key(columns: [Key.Column(name: alias.name, collation: "BINARY")])) }
        for index in table.indexes where index.isUnique {
            let columns = index.columns.compactMap { column in
                column.name.map { Key.Column(name: $0, collation: column.collation) }
                    ?? column.expression.flatMap { expression in
                        soleColumn(of: expression, in: table).map { Key.Column(name: $0, collation: "BINARY", expression: expression) }
                    }
            }
            // An expression of several columns (or none) is no column's to replace; the rowid in a key is the table's own.
            guard !columns.isEmpty, columns.count == index.columns.count, !columns.contains(where: { $0.name.sqlFolded == "rowid" }) else { continue }
            keys.append(Key(columns: columns, predicate: index.partialPredicate))
        }
        return keys.enumerated().sorted { ($0.element.columns.count, $0.offset) < ($1.element.columns.count, $1.offset) }.map(\.element)
    }

    /// The one column of `table` that `expression` names (a unique index on `lower(email)`), nil when it
    /// names none or several.
    static func soleColumn(of expression: String, in table: Table) -> String? {
        let list = SQLTokenList(expression)
        let names = Set(table.columns.map(\.name.sqlFolded))
        let named = Set((0..<list.count).filter { list.isNameToken($0) && !list.isSymbol($0 + 1, "(") }.map { list.identifier(at: $0).sqlFolded })
            .intersection(names)
        guard named.count == 1, let folded = named.first else { return nil }
        return table.columns.first { $0.name.sqlFolded == folded }?.name
    }

    /// The written values of `writes` (parameters with no comparison) split into the rows of a multi-row
    /// `VALUES`, per table: a row ends where a column comes again.
    package static func rows(of writes: [ParameterTarget]) -> [[ParameterTarget]] {
        var rows: [[ParameterTarget]] = []
        var current: [String: Int] = [:]
        var seen: [String: Set<String>] = [:]
        for target in writes.filter({ $0.op == nil }).sorted(by: { $0.parameter < $1.parameter }) {
            let table = target.table.sqlFolded, column = target.column.sqlFolded
            if let row = current[table], seen[table]?.contains(column) == false {
                rows[row].append(target)
                seen[table]?.insert(column)
            } else {
                current[table] = rows.count
                seen[table] = [column]
                rows.append([target])
            }
        }
        return rows
    }

    /// Replaces in `tuple` (one value per parameter, 1-based numbers in `writes`) a value of each key of the
    /// written table whose values exist: always for values drawn from the data, for those of `appGiven`
    /// parameters only when a row of the snapshot holds the key already.
    package mutating func freshen(_ tuple: inout [SQLValue], writes: [ParameterTarget], schema: Schema, appGiven: (Int) -> Bool) {
        for row in Self.rows(of: writes) {
            guard let name = row.first?.table, let table = schema.table(named: name) else { continue }
            var replaced: Set<String> = []
            for key in Self.keys(of: table) {
                let written = key.columns.compactMap { column in
                    row.first { $0.column.sqlFolded == column.name.sqlFolded && $0.parameter - 1 < tuple.count }.map { (column, $0) }
                }
                guard let (column, target) = written.first,
                      !written.contains(where: { replaced.contains($0.0.name.sqlFolded) }) else { continue }
                if written.contains(where: { appGiven($0.1.parameter) }) {
                    // The app's own values run as they are unless the whole key is a row's already.
                    guard written.count == key.columns.count,
                          exists(key, values: written.map { tuple[$0.1.parameter - 1] }, in: table) else { continue }
                }
                guard let value = freshValue(for: column, in: table) else { continue }
                tuple[target.parameter - 1] = value
                replaced.insert(column.name.sqlFolded)
            }
        }
    }

    /// True when a row of `table` has `values` for `key`'s columns (NULL never repeats a key: no row has it).
    private func exists(_ key: Key, values: [SQLValue], in table: Table) -> Bool {
        guard !values.contains(where: \.isNull) else { return false }
        // An expression key compares the expression of the row with the expression of the value (the value is a
        // literal in its copy of the expression: the column may appear in it more than once).
        let terms = zip(key.columns, values).map { column, value in
            column.expression.map { "(\($0)) = (\(Self.substituting(value, for: column.name, in: $0)))" }
                ?? "\(SQLIdentifier.quote(column.name)) = ? COLLATE \(SQLIdentifier.quote(column.collation))"
        } + (key.predicate.map { ["(\($0))"] } ?? [])
        let bound = zip(key.columns, values).filter { $0.0.expression == nil }.map(\.1)
        let sql = "SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE \(terms.joined(separator: " AND ")) LIMIT 1"
        // When the look-up fails the values are taken to exist: a new key costs the write the same B-tree work.
        // (Not `try?`, which would read "no row" as a failure too.)
        do {
            return try connection.scalar(sql, bound) != nil
        } catch {
            return true
        }
    }

    /// `expression` with every reference to `column` replaced by `value` as a literal.
    static func substituting(_ value: SQLValue, for column: String, in expression: String) -> String {
        let list = SQLTokenList(expression)
        return (0..<list.count).map { i in
            list.isNameToken(i) && !list.isSymbol(i + 1, "(") && list.identifier(at: i).sqlFolded == column.sqlFolded ? value.sqlLiteral : list.text(at: i)
        }.joined(separator: " ")
    }

    /// A value of `column` that no row has; every call gives another, so the rows of a multi-row `VALUES` get
    /// distinct keys too. Nil when the column's integers fill both ends of the 64-bit range.
    private mutating func freshValue(for column: Key.Column, in table: Table) -> SQLValue? {
        let key = table.name.sqlFolded + "\u{1}" + column.name.sqlFolded + "\u{1}" + column.collation.sqlFolded
        let index = counters[key, default: 0]
        counters[key] = index + 1
        if extremes[key] == nil {
            let term = "\(SQLIdentifier.quote(column.name)) COLLATE \(SQLIdentifier.quote(column.collation))"
            let row = (try? connection.query("SELECT max(\(term)), min(\(term)) FROM \(SQLIdentifier.quote(table.name))"))?.first
            extremes[key] = (row?[0], row?[1])
        }
        switch extremes[key]?.maximum {
        case .integer(let value)?:
            if value < Int64.max - 1_000_000 { return .integer(value + 1 + Int64(index)) }
            // The largest key is taken: count down from the smallest instead.
            let minimum = extremes[key]?.minimum?.integerValue ?? 0
            return minimum > Int64.min + 1_000_000 ? .integer(minimum - 1 - Int64(index)) : nil
        case .real(let value)?: return .real(value + 1 + Double(index))
        // The largest text with more after it sorts after it under BINARY, NOCASE and RTRIM alike.
        case .text(let value)?: return .text(value + String(index))
        case .blob(let bytes)?: return .blob(bytes + Array(String(index).utf8))
        default: return .integer(1 + Int64(index))
        }
    }
}
