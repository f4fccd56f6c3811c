/// Values for a timed write's keys that no row of the snapshot holds, so that the write runs.
///
/// An INSERT (or an UPDATE's `SET`) that gives a key of its table a value a row already has fails with
/// "UNIQUE constraint failed", and its cost is never measured. The keys are the rowid alias (`INTEGER PRIMARY
/// KEY`), the `PRIMARY KEY` (of a `WITHOUT ROWID` table too), every `UNIQUE` constraint and every unique
/// index: on columns, on expressions of one column or several (`lower(first) || '/' || last`, `(a, lower(b))`),
/// partial or not. A key of several columns is one value: `(book, shelf)` is new when one of its columns
/// is, so one column, the first the statement writes, takes a value past that column's largest (its
/// smallest, counting down, when the largest integer is taken), and the others keep theirs: a new pair of an
/// existing shelf, as a join table gets. A column already made new makes every key of columns it is in new;
/// a key with an expression part is looked up with the values written, and its column takes the next fresh
/// value while a row holds it: first the next few, then values further and further past the largest (16,
/// 32, 64 … on), so that an expression that changes in big steps (`date(ts, 'unixepoch')`, one per day)
/// reaches a value no row has. A key on a generated column, or on an expression of one, is made new through
/// the columns it is computed from (``Table/expandingGeneratedColumns(in:)``).
///
/// On a sampled snapshot the keys are looked up, and the largest values read, in the store's full copy
/// (``StoreSnapshot/fullCopyConnection``): a value fresh on the sample alone may be a row's of the store,
/// and the report's timed values are to run on the store as they ran on the sample.
///
/// Values drawn from the data are a row's, so their keys always exist and are always replaced. Values the
/// app gave (a literal of its text, a bound value from its log) are replaced only when their key exists
/// in the snapshot (a log recorded before the copy was taken): otherwise they are timed as the app ran them.
/// A fresh value is an ordinary value of the column's kind: the largest integer plus one, the largest text
/// with digits after it (`'k9999'` → `'k99990'`), never a marker that would show in the report's timed text.
/// A text that does not make a unique expression new, or that the expression fails on (`substr(code, 1, 4)`
/// keeps the largest code's prefix, `doc ->> '$.k'` reads `'{"k":9}0'` as malformed JSON), is followed by
/// texts like the row's or the app's (``KeyCandidates``: its leading characters, or the numbers and texts
/// of its JSON document, drawn again), each asked of SQLite: the written row's expression evaluated, and
/// looked up among the rows'. When none of them is free the value stays, and the write is disclosed as not timed.
package struct FreshKeys {
    package let connection: SQLiteConnection
    /// Where keys are looked up and the largest values read: the store's full copy when the snapshot is a
    /// sample (its rows are a subset, so a key no row of the copy has is no row's of the sample either).
    private let lookups: SQLiteConnection
    /// Fresh values handed out so far, and each column's largest and smallest value, per table, column and collation.
    private var counters: [String: Int] = [:]
    private var extremes: [String: (maximum: SQLValue?, minimum: SQLValue?)] = [:]
    /// Texts like a row's, for the expressions a text past the largest does not make new.
    private var others: KeyCandidates

    package init(connection: SQLiteConnection, fullCopy: SQLiteConnection? = nil) {
        self.connection = connection
        self.lookups = fullCopy ?? connection
        self.others = KeyCandidates(connection: connection)
    }

    /// A key the table keeps unique: its parts in key order, each with the collation it compares under, and
    /// the partial index's `WHERE`.
    package struct Key: Equatable, Sendable {
        package var columns: [Column]
        package var predicate: String?

        /// One part of a key: a column, or an expression of any of the table's columns.
        package struct Column: Equatable, Sendable {
            /// The column, or every column the expression names, in the order they first appear.
            package var names: [String]
            package var collation: String
            /// For a part that is an expression (`lower(email)`, `lower(first) || '/' || last`): its text, whose
            /// value the key is. A fresh value of one of its columns usually gives a fresh value of it, and is
            /// checked to (``freshen(_:writes:schema:appGiven:)``). For a generated column, its quoted name.
            package var expression: String? = nil
            /// For a part on a generated column (or an expression of one): `expression` in the columns a write
            /// gives, each generated column replaced by what it is computed from; the written values go into it.
            package var source: String? = nil
        }

        /// Every column the key's parts name, each once, in key order.
        package var names: [String] {
            var seen: Set<String> = []
            return columns.flatMap(\.names).filter { seen.insert($0.sqlFolded).inserted }
        }

        /// True when a part is an expression: a fresh column value is then checked against the rows.
        package var hasExpression: Bool { columns.contains { $0.expression != nil } }
    }

    /// `table`'s keys, those of fewer columns first (a column made new for one of them may settle a wider one):
    /// the rowid alias, then every unique index (those of `UNIQUE` and `PRIMARY KEY` constraints too), on
    /// columns, on expressions of any of its columns, partial or not.
    package static func keys(of table: Table) -> [Key] {
        var keys: [Key] = []
        if let alias = table.rowidAlias { keys.append(Key(columns: [Key.Column(names: [alias.name], collation: "BINARY")])) }
        for index in table.indexes where index.isUnique {
            let columns = index.columns.compactMap { column -> Key.Column? in
                if let name = column.name, table.column(named: name)?.isGenerated != true {
                    return Key.Column(names: [name], collation: column.collation)
                }
                guard let expression = column.expression ?? column.name.map(SQLIdentifier.quote) else { return nil }
                let source = table.expandingGeneratedColumns(in: expression)
                let names = Self.columns(of: source ?? expression, in: table)
                // A generated column the expansion left (computed from itself, or unreadable) is no write's.
                guard !names.isEmpty, !names.contains(where: { table.column(named: $0)?.isGenerated == true }) else { return nil }
                return Key.Column(names: names, collation: column.collation, expression: expression, source: source)
            }
            // An expression of no column is no column's to replace; the rowid in a key is the table's own.
            guard !columns.isEmpty, columns.count == index.columns.count,
                  !columns.contains(where: { $0.names.contains { $0.sqlFolded == "rowid" } }) else { continue }
            keys.append(Key(columns: columns, predicate: index.partialPredicate))
        }
        return keys.enumerated().sorted { ($0.element.names.count, $0.offset) < ($1.element.names.count, $1.offset) }.map(\.element)
    }

    /// The columns of `table` that `expression` names, in the order they first appear (a unique index on
    /// `lower(first) || '/' || last` names `first` and `last`); empty when it names none.
    static func columns(of expression: String, in table: Table) -> [String] {
        let list = SQLTokenList(expression)
        var seen: Set<String> = []
        return (0..<list.count).filter { list.isNameToken($0) && !list.isSymbol($0 + 1, "(") }.compactMap { i in
            let folded = list.identifier(at: i).sqlFolded
            guard let column = table.columns.first(where: { $0.name.sqlFolded == folded }), seen.insert(folded).inserted else { return nil }
            return column.name
        }
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
    /// parameters only when a row of the snapshot holds the key already. A key with an expression part gets
    /// fresh values of its first written column until neither the rows nor an earlier row of the same
    /// multi-row `VALUES` hold such a key (at most ``expressionAttempts``, further and further past the
    /// largest value: ``jump(_:)``; for a text, like the one it replaces after the first: ``KeyCandidates``):
    /// `a % 10` repeats for most fresh values of `a`, `date(ts, 'unixepoch')` for all those of the same
    /// day, `substr(code, 1, 4)` for all texts past the largest code. When none is free the value stays.
    package mutating func freshen(_ tuple: inout [SQLValue], writes: [ParameterTarget], schema: Schema, appGiven: (Int) -> Bool) {
        // The keys with an expression that earlier rows of this tuple give, per table and key.
        var given: [String: [[String: SQLValue]]] = [:]
        for row in Self.rows(of: writes) {
            guard let name = row.first?.table, let table = schema.table(named: name) else { continue }
            var replaced: Set<String> = []
            for (position, key) in Self.keys(of: table).enumerated() {
                let names = key.names
                let written = names.compactMap { column in
                    row.first { $0.column.sqlFolded == column.sqlFolded && $0.parameter - 1 < tuple.count }.map { (column, $0) }
                }
                guard let (column, target) = written.first else { continue }
                func value(of column: String) -> SQLValue? {
                    written.first { $0.0.sqlFolded == column.sqlFolded }.map { tuple[$0.1.parameter - 1] }
                }
                let givenKey = table.name.sqlFolded + "\u{1}\(position)"
                func values() -> [String: SQLValue] {
                    Dictionary(written.map { ($0.0.sqlFolded, tuple[$0.1.parameter - 1]) }, uniquingKeysWith: { first, _ in first })
                }
                func isTaken() -> Bool {
                    let current = values()
                    return exists(key, in: table, value: value(of:))
                        || given[givenKey, default: []].contains { repeats(key, current, $0) }
                }
                defer { if key.hasExpression { given[givenKey, default: []].append(values()) } }
                if written.contains(where: { replaced.contains($0.0.sqlFolded) }) {
                    // A column made new makes a key of columns new; an expression of it may still repeat one.
                    guard key.hasExpression, isTaken() else { continue }
                }
                if written.contains(where: { appGiven($0.1.parameter) }) {
                    // The app's own values run as they are unless the whole key is a row's already.
                    guard written.count == names.count, exists(key, in: table, value: value(of:)) else { continue }
                }
                let collation = key.columns.first { $0.expression == nil && $0.names == [column] }?.collation ?? "BINARY"
                let start = tuple[target.parameter - 1]
                var isFree = !key.hasExpression
                for attempt in 0..<(key.hasExpression ? Self.expressionAttempts : 1) {
                    // Past the largest first; a text then like the row's or the app's (``KeyCandidates``).
                    let like = attempt < Self.textsPastLargest ? nil : others.value(like: start, attempt: attempt + 1 - Self.textsPastLargest)
                    guard let fresh = like ?? freshValue(for: column, collation: collation, in: table, jump: Self.jump(attempt)) else { break }
                    tuple[target.parameter - 1] = fresh
                    if !key.hasExpression || !isTaken() { isFree = true; break }
                }
                // No value tried is free: the value stays, and the write fails as it would (disclosed as not timed).
                guard isFree else { tuple[target.parameter - 1] = start; continue }
                replaced.insert(column.sqlFolded)
            }
        }
    }

    /// The most fresh values tried for a key with an expression part: the next 16, then ever further (``jump(_:)``).
    static let expressionAttempts = 64

    /// How many texts past the largest a key with an expression part tries before texts like the row's
    /// (``KeyCandidates``): the next few do under `lower(nick)` (`'kit2'` when `'KIT0'` and `'Kit1'` are
    /// rows), none does under `substr(code, 1, 4)` or `doc ->> '$.k'`.
    static let textsPastLargest = 4

    /// How much further past the next fresh number attempt `attempt` goes: 0 for the first 16 (a free slot
    /// of `a % 1000` is among the next few), then 16, 32, 64 … 2⁵¹, so that a key that changes only every
    /// 86,400 (a day of seconds) or 2,678,400 (a month) is reached in a few more look-ups.
    static func jump(_ attempt: Int) -> Int64 {
        attempt < 16 ? 0 : Int64(16) << min(62 - 4, attempt - 16)
    }

    /// True when a row of `table` holds the key that `value` (a column's value in the written row, nil when the
    /// statement does not write it) gives. A part the written values do not settle (an expression of a column
    /// the statement leaves to its default) is left out of the comparison; with no part left, false. NULL
    /// never repeats a column's key: no row has it.
    private func exists(_ key: Key, in table: Table, value: (String) -> SQLValue?) -> Bool {
        var terms: [String] = []
        var bound: [SQLValue] = []
        // The written row's expressions, evaluated even when no row is compared: a value they fail on
        // (`'{"k":9}0' ->> '$.k'`: malformed JSON) fails the INSERT too.
        var evaluated: [String] = []
        for part in key.columns {
            let collation = "COLLATE \(SQLIdentifier.quote(part.collation))"
            if let expression = part.expression {
                // The row's expression against the expression of the values (each a literal in its copy: a
                // column may appear in it more than once).
                var values: [String: SQLValue] = [:]
                for name in part.names {
                    if let known = value(name) { values[name.sqlFolded] = known }
                }
                guard values.count == part.names.count else { continue }
                let written = Self.substituting(values, in: part.source ?? expression)
                terms.append("(\(expression)) = (\(written)) \(collation)")
                evaluated.append(", (\(written))")
            } else if let name = part.names.first, let known = value(name) {
                if known.isNull { return false }
                terms.append("\(SQLIdentifier.quote(name)) = ? \(collation)")
                bound.append(known)
            }
        }
        guard !terms.isEmpty else { return false }
        let filter = (terms + (key.predicate.map { ["(\($0))"] } ?? [])).joined(separator: " AND ")
        // When the look-up fails the values are taken to exist: a new key costs the write the same B-tree work.
        // (Not `try?`, which would read "no row" as a failure too.)
        do {
            return try lookups.scalar("SELECT EXISTS (SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE \(filter))\(evaluated.joined())", bound)?.integerValue != 0
        } catch {
            return true
        }
    }

    /// True when the written values `first` and `second` (by folded column name) give `key` the same value:
    /// each part settled by both compared under its collation. A failed comparison counts as the same.
    private func repeats(_ key: Key, _ first: [String: SQLValue], _ second: [String: SQLValue]) -> Bool {
        var terms: [String] = []
        for part in key.columns {
            guard part.names.allSatisfy({ first[$0.sqlFolded] != nil && second[$0.sqlFolded] != nil }) else { continue }
            let text = part.source ?? part.expression ?? SQLIdentifier.quote(part.names[0])
            terms.append("(\(Self.substituting(first, in: text))) = (\(Self.substituting(second, in: text))) COLLATE \(SQLIdentifier.quote(part.collation))")
        }
        guard !terms.isEmpty else { return false }
        do {
            return try connection.scalar("SELECT 1 WHERE \(terms.joined(separator: " AND "))") != nil
        } catch {
            return true
        }
    }

    /// `expression` with every reference to a column of `values` (by folded name) replaced by its value as a literal.
    static func substituting(_ values: [String: SQLValue], in expression: String) -> String {
        let list = SQLTokenList(expression)
        return (0..<list.count).map { i in
            guard list.isNameToken(i), !list.isSymbol(i + 1, "("), let value = values[list.identifier(at: i).sqlFolded] else { return list.text(at: i) }
            return value.sqlLiteral
        }.joined(separator: " ")
    }

    /// A value of `column` that no row has; every call gives another, so the rows of a multi-row `VALUES` get
    /// distinct keys too; a number goes `jump` further still (text gets no further: its fresh values already
    /// differ in a digit). Nil when the column's integers fill both ends of the 64-bit range, or the jump
    /// runs past it.
    private mutating func freshValue(for column: String, collation: String, in table: Table, jump: Int64 = 0) -> SQLValue? {
        let key = table.name.sqlFolded + "\u{1}" + column.sqlFolded + "\u{1}" + collation.sqlFolded
        let index = counters[key, default: 0]
        counters[key] = index + 1
        if extremes[key] == nil {
            let term = "\(SQLIdentifier.quote(column)) COLLATE \(SQLIdentifier.quote(collation))"
            let row = (try? lookups.query("SELECT max(\(term)), min(\(term)) FROM \(SQLIdentifier.quote(table.name))"))?.first
            extremes[key] = (row?[0], row?[1])
        }
        switch extremes[key]?.maximum {
        case .integer(let value)?:
            let step = Int64(index).addingReportingOverflow(jump)
            if step.overflow { return nil }
            if value < Int64.max - 1_000_000 {
                let fresh = value.addingReportingOverflow(1 + step.partialValue)
                return fresh.overflow ? nil : .integer(fresh.partialValue)
            }
            // The largest key is taken: count down from the smallest instead.
            let minimum = extremes[key]?.minimum?.integerValue ?? 0
            guard minimum > Int64.min + 1_000_000 else { return nil }
            let fresh = minimum.subtractingReportingOverflow(1 + step.partialValue)
            return fresh.overflow ? nil : .integer(fresh.partialValue)
        case .real(let value)?: return .real(value + 1 + Double(index) + Double(jump))
        // The largest text with more after it sorts after it under BINARY, NOCASE and RTRIM alike.
        case .text(let value)?: return .text(value + String(index))
        case .blob(let bytes)?: return .blob(bytes + Array(String(index).utf8))
        default: return .integer(1 + Int64(index))
        }
    }
}
