/// Chooses the values bound to a statement's parameters when it is timed.
///
/// Observed values come first (literals from a `.sql` file, bind lines from a log). Otherwise values are
/// drawn from the snapshot's rows: for each execution one row of each table is picked (seeded, so runs
/// repeat), and every parameter compared with or written to a column of that table takes that row's
/// value. Picking whole rows keeps values that belong together together (a folder and a slug that exist
/// in that folder; a `Z_PK` with its current `Z_OPT`). Even-numbered sets pick a random row, so frequent
/// (hot) values come up as often as the data holds them; odd-numbered sets first pick a random distinct
/// value of the statement's first equality column and then a row holding it, so rare (cold) values get
/// their turn too. The keys a write must not repeat (primary, unique, of one column or several) get values
/// no row has (``FreshKeys``), except where an upsert or `INSERT OR REPLACE` is to take its conflict path:
/// the app's own values always, every other drawn set.
package struct BindingSampler {
    package let connection: SQLiteConnection
    package let schema: Schema
    private var generator: SeededGenerator
    private var rowidRanges: [String: (Int64, Int64)?] = [:]
    private var distinctValues: [String: [SQLValue]] = [:]
    private var sortedSamples: [String: ([SQLValue], Int)] = [:]
    /// New values for the keys a write must not repeat.
    private var freshKeys: FreshKeys
    /// Columns with more distinct values than this draw hot values only (listing them costs too much).
    package var coldValueLimit = 100_000

    /// `fullCopy`: the store's whole copy when `connection`'s snapshot is a sample, where fresh keys are looked up.
    package init(connection: SQLiteConnection, schema: Schema, seed: UInt64, fullCopy: SQLiteConnection? = nil) {
        self.connection = connection
        self.schema = schema
        self.generator = SeededGenerator(seed: seed)
        self.freshKeys = FreshKeys(connection: connection, fullCopy: fullCopy)
    }

    /// Where a statement's bound values come from.
    package enum Source: String, Sendable, Codable {
        case observed
        case drawn = "drawn from the data"
        case none = "no parameters"
    }

    /// `count` tuples of values for `statement`, and where they came from. `parameterCount` is SQLite's
    /// (the largest parameter number: `?5` alone makes 5), which can exceed the placeholders written.
    package mutating func samples(for statement: WorkloadStatement, shape: StatementShape?, count: Int,
                                  parameterCount: Int? = nil, expressions: [ExpressionFilter] = []) -> ([[SQLValue]], Source) {
        let parameterCount = parameterCount ?? statement.parameterCount
        guard parameterCount > 0 else { return ([], .none) }
        // A write that settles a clash with an existing key itself (an upsert, INSERT OR REPLACE) takes
        // another path when its key exists: the app's own key is the path the app took.
        let resolvesConflicts = statement.kind.isWrite && (SQLTokenList(statement.sql).resolvesKeyConflicts
            || statement.tables.contains { schema.table(named: $0).map { SQLTokenList($0.sql).declaresConflictResolution } ?? false })
        if !statement.observedBindings.isEmpty {
            var tuples = statement.observedBindings
            if statement.kind == .insert, !resolvesConflicts, let shape {
                // The app's own new keys may exist in the snapshot (the log was taken after): replayed as
                // they are, the INSERT fails on its UNIQUE key and its cost is never measured. Those keys
                // alone are replaced; a new key costs the same B-tree work.
                for index in tuples.indices {
                    freshKeys.freshen(&tuples[index], writes: shape.parameters, schema: schema, appGiven: { _ in true })
                }
            }
            return (tuples, .observed)
        }
        let fallback = SQLTokenList(statement.sql).parameterColumns()
        let targets = Dictionary((shape?.parameters ?? []).map { ($0.parameter, $0) }, uniquingKeysWith: { first, _ in first })
        let coldKey = shape?.parameters.first { target in
            guard let op = target.op, op.isEquality, let table = schema.table(named: target.table) else { return false }
            return table.rowidAlias?.name.sqlFolded != target.column.sqlFolded && target.column.sqlFolded != "rowid"
        }
        var tuples: [[SQLValue]] = []
        for index in 0..<count {
            var rows: [String: [String: SQLValue]] = [:]
            if index % 2 == 1, let coldKey, let row = coldRow(table: coldKey.table, column: coldKey.column) {
                rows[coldKey.table.sqlFolded] = row
            }
            var writeRows: [String: [String: SQLValue]] = [:]
            var lowerBounds: [String: SQLValue] = [:]
            var equalityColumns: Set<String> = []
            var tuple: [SQLValue] = []
            for parameter in 1...parameterCount {
                // A literal the app wrote into the statement (Core Data's `SELECT 0`, `LIMIT 50`) keeps its value.
                if parameter - 1 < statement.literalValues.count, let literal = statement.literalValues[parameter - 1] {
                    tuple.append(literal)
                    continue
                }
                let target = targets[parameter]
                    ?? fallback[parameter].flatMap { column in resolve(column: column, shape: shape) }
                guard let target else {
                    // Compared with an expression of a column: the expression's value on a row of the table.
                    if let filter = expressions.first(where: { $0.parameter == parameter }) {
                        tuple.append(expressionValue(filter))
                    } else {
                        tuple.append(.null)
                    }
                    continue
                }
                if target.op == .limit { tuple.append(.integer(50)); continue }
                if target.op == .offset { tuple.append(.integer(0)); continue }
                let isWrittenValue = target.op == nil
                let key = target.table.sqlFolded
                let columnKey = key + "\u{1}" + target.column.sqlFolded
                // The upper bound of a range whose lower bound was drawn: a value 1 % of the table's rows
                // later in the column's order, so the range selects rows as an app's ranges do.
                if let op = target.op, op == .lessThan || op == .lessOrEqual, let lower = lowerBounds[columnKey],
                   let upper = upperBound(after: lower, table: target.table, column: target.column) {
                    tuple.append(upper)
                    continue
                }
                var row = (isWrittenValue ? writeRows[key] : rows[key]) ?? [:]
                // A second equality or IN value on a column already given one: another row, so an
                // `IN (?, ?, ?)` list holds distinct existing values.
                if !isWrittenValue, let op = target.op, op.isEquality, equalityColumns.contains(columnKey) {
                    row = randomRow(of: target.table)
                }
                if row.isEmpty {
                    row = randomRow(of: target.table)
                    if isWrittenValue { writeRows[key] = row } else { rows[key] = row }
                }
                var value = row[target.column.sqlFolded] ?? .null
                if let op = target.op, op.isEquality { equalityColumns.insert(columnKey) }
                if let op = target.op, op == .greaterThan || op == .greaterOrEqual { lowerBounds[columnKey] = value }
                if target.op == .like || target.op == .glob, case .text(let text) = value {
                    value = .text(String(text.prefix(3)) + (target.op == .like ? "%" : "*"))
                }
                if target.op == .match {
                    value = Self.matchQuery(value, row: row, table: schema.table(named: target.table))
                }
                tuple.append(value)
            }
            // A drawn row's keys exist: an INSERT of them, or an UPDATE setting another row's unique value,
            // fails. They get new values, except in an upsert's even-numbered sets, which keep the row's
            // key so that its conflict path (the DO UPDATE, the REPLACE) is timed as well as its insert.
            // The app's literals stay as an observed value does: an INSERT's unless its key exists, an
            // UPDATE's always (the row it sets may be the one that holds them).
            if statement.kind == .insert || statement.kind == .update, let shape, !resolvesConflicts || index % 2 == 1 {
                let literals = statement.literalValues
                let isLiteral = { (parameter: Int) in parameter - 1 < literals.count && literals[parameter - 1] != nil }
                let writes = statement.kind == .update ? shape.parameters.filter { !isLiteral($0.parameter) } : shape.parameters
                freshKeys.freshen(&tuple, writes: writes, schema: schema, appGiven: isLiteral)
            }
            tuples.append(tuple)
        }
        return (tuples, .drawn)
    }

    /// A full-text query for a drawn row: the first word of the column's text, or, for the column named
    /// after the table (`note_fts MATCH ?`, whose value is no text), of the row's first text column, as a
    /// quoted phrase (`"lunch"`), which FTS3, FTS4 and FTS5 read as one term (fts5.html#fts5_strings). A
    /// drawn text as it is was no query: an empty one failed ("fts5: syntax error"), and "re: lunch?" read
    /// `re` as a column ("no such column: re"), so most drawn values failed or timed nothing.
    static func matchQuery(_ value: SQLValue, row: [String: SQLValue], table: Table?) -> SQLValue {
        var texts: [String] = []
        if case .text(let text) = value { texts.append(text) }
        for column in table?.columns ?? [] where !column.isHidden {
            if case .text(let text)? = row[column.name.sqlFolded] { texts.append(text) }
        }
        for text in texts {
            if let word = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).first {
                return .text("\"" + word + "\"")
            }
        }
        return value
    }

    /// The column's value `width` rows after `lower` in the column's order (NULLs left out), read from a
    /// sorted systematic sample of at most 20,000 of its values (one scan per column, then cached). Nil
    /// when the column has no comparable values.
    private mutating func upperBound(after lower: SQLValue, table: String, column: String) -> SQLValue? {
        guard !lower.isNull else { return nil }
        let key = table.sqlFolded + "\u{1}" + column.sqlFolded
        if sortedSamples[key] == nil {
            let rows = schema.table(named: table)?.rowCount ?? 0
            let step = max(1, rows / 20_000)
            let quotedColumn = SQLIdentifier.quote(column), quotedTable = SQLIdentifier.quote(table)
            let filter = schema.table(named: table)?.isWithoutRowid == true || step == 1 ? "" : " AND rowid % \(step) = 0"
            let values = (try? connection.query("SELECT \(quotedColumn) FROM \(quotedTable) WHERE \(quotedColumn) IS NOT NULL\(filter) ORDER BY 1")) ?? []
            sortedSamples[key] = (values.map { $0[0] }, max(1, step))
        }
        guard let (values, step) = sortedSamples[key], !values.isEmpty else { return nil }
        let tableRows = schema.table(named: table)?.rowCount ?? values.count * step
        // A drawn range spans 1 % of the table, at least 10 and at most 1,000 rows (a page of a list, a week
        // of a calendar).
        let width = min(1_000, max(10, tableRows / 100))
        // The first sampled value at or after `lower`, then `width` table rows further.
        let start = values.firstIndex { !SQLValue.orders($0, before: lower) } ?? values.count - 1
        let end = min(values.count - 1, start + max(1, width / step))
        let upper = values[end]
        return upper == lower && end == values.count - 1 ? nil : upper
    }

    /// The value of `filter`'s expression on a row of its table picked at random (NULL when there is none).
    private mutating func expressionValue(_ filter: ExpressionFilter) -> SQLValue {
        let quoted = SQLIdentifier.quote(filter.table)
        if rowidRanges[filter.table] == nil {
            let bounds = try? connection.query("SELECT min(rowid), max(rowid) FROM \(quoted)").first
            if let low = bounds?[0].integerValue, let high = bounds?[1].integerValue {
                rowidRanges[filter.table] = (low, high)
            } else {
                rowidRanges[filter.table] = .some(nil)
            }
        }
        guard let range = rowidRanges[filter.table] ?? nil else { return .null }
        let span = UInt64(bitPattern: range.1 &- range.0) &+ 1
        let pick = range.0 &+ Int64(bitPattern: span == 0 ? generator.next() : generator.next() % span)
        guard let statement = try? connection.prepareResolvingStandIns("SELECT \(filter.expression) FROM \(quoted) WHERE rowid >= ? ORDER BY rowid LIMIT 1"),
              (try? statement.bind([.integer(pick)])) != nil, (try? statement.step()) == true else { return .null }
        var value = statement.column(0)
        if filter.op == .like, case .text(let text) = value { value = .text(String(text.prefix(3)) + "%") }
        return value
    }

    /// A row holding a distinct value of `column` picked uniformly among the distinct values; nil when the
    /// column has too many distinct values to list.
    private mutating func coldRow(table: String, column: String) -> [String: SQLValue]? {
        let key = table.sqlFolded + "\u{1}" + column.sqlFolded
        if distinctValues[key] == nil {
            // Sorted, so that the list (and the value a seed picks from it) does not depend on whether an
            // index on the column exists: `DISTINCT` alone returns values in the order of whatever it scans.
            let rows = (try? connection.query("SELECT DISTINCT \(SQLIdentifier.quote(column)) FROM \(SQLIdentifier.quote(table)) ORDER BY 1 LIMIT \(coldValueLimit + 1)")) ?? []
            distinctValues[key] = rows.count > coldValueLimit ? [] : rows.map { $0[0] }
        }
        guard let values = distinctValues[key], !values.isEmpty else { return nil }
        let value = values[Int(generator.next() % UInt64(values.count))]
        // The first holder in rowid order, whichever index the lookup goes through.
        let order = schema.table(named: table)?.isWithoutRowid == true ? "" : " ORDER BY rowid"
        guard let statement = try? connection.prepare("SELECT * FROM \(SQLIdentifier.quote(table)) WHERE \(SQLIdentifier.quote(column)) IS ?\(order) LIMIT 1"),
              (try? statement.bind([value])) != nil, (try? statement.step()) == true else { return nil }
        var row: [String: SQLValue] = [:]
        for index in 0..<statement.columnCount {
            row[statement.columnName(index).sqlFolded] = statement.column(index)
        }
        return row
    }

    /// For an UPDATE's or DELETE's `tuple` whose WHERE keys (`targets`, 1-based parameters comparing by
    /// equality a key column of `table`: its rowid, a PRIMARY KEY or UNIQUE column) match no row, up to
    /// `tries` tuples with those values replaced by existing rows' (the other values, a `status = 'open'`
    /// beside the key, stay). The rows are drawn among those that meet `conditions` (the statement's other
    /// comparisons of `table`'s columns, with their values in `tuple`: a row with another status is one the
    /// write would not change either), and among all rows when none does. Nil when a row holds the keys
    /// already (nothing to replace); empty when none does and no row can stand in (the table has none).
    /// A row the app creates and then updates or deletes is not in the snapshot: timed on its own key, the
    /// write changes nothing and fires no trigger (hostile round 5, F2: 50 UPDATEs whose trigger scans a
    /// 200,000-row table were timed at 7 µs, and no index was advised). The caller keeps the first that runs
    /// and changes a row.
    package mutating func existingKeys(for tuple: [SQLValue], targets: [ParameterTarget], conditions: [ParameterTarget] = [],
                                       table: String, tries: Int = 4) -> [[SQLValue]]? {
        let keys = targets.filter { $0.parameter >= 1 && $0.parameter <= tuple.count }
        guard !keys.isEmpty else { return nil }
        let test = keys.map { "\(SQLIdentifier.quote($0.column)) IS ?" }.joined(separator: " AND ")
        let values = keys.map { tuple[$0.parameter - 1] }
        if let found = try? connection.query("SELECT 1 FROM \(SQLIdentifier.quote(table)) WHERE \(test) LIMIT 1", values), !found.isEmpty { return nil }
        var filter = Self.filter(conditions.filter { $0.parameter >= 1 && $0.parameter <= tuple.count }, values: tuple)
        var replacements: [[SQLValue]] = []
        for _ in 0..<tries {
            var row = randomRow(of: table, where: filter)
            if row.isEmpty, filter != nil {
                // No row meets the conditions read (or they do not parse as a filter): any row, and the caller sees it change none.
                filter = nil
                row = randomRow(of: table)
            }
            guard !row.isEmpty else { break }
            var replaced = tuple
            for key in keys {
                // `rowid` (and its aliases `oid`, `_rowid_`) is the row's rowid, which `randomRow` reads as "rowid".
                let name = ["oid", "_rowid_"].contains(key.column.sqlFolded) ? "rowid" : key.column.sqlFolded
                guard let value = row[name] else { return replacements }
                replaced[key.parameter - 1] = value
            }
            if !replacements.contains(replaced) { replacements.append(replaced) }
        }
        return replacements
    }

    /// A `WHERE` of `conditions` (comparisons with an operator a filter can say: `=`, `IS`, `<`, `LIKE` …;
    /// the `IN` values of one column as one list), with their values from `tuple`; nil when none can be said.
    static func filter(_ conditions: [ParameterTarget], values tuple: [SQLValue]) -> (text: String, values: [SQLValue])? {
        var terms: [String] = [], values: [SQLValue] = []
        var lists: [String: (column: String, values: [SQLValue])] = [:]
        for target in conditions.sorted(by: { $0.parameter < $1.parameter }) {
            guard let op = target.op else { continue }
            let value = tuple[target.parameter - 1]
            switch op {
            case .in: lists[target.column.sqlFolded, default: (target.column, [])].values.append(value)
            case .equal, .is, .greaterThan, .greaterOrEqual, .lessThan, .lessOrEqual, .notEqual, .isNot, .like, .glob:
                terms.append("\(SQLIdentifier.quote(target.column)) \(op.rawValue) ?")
                values.append(value)
            default: continue
            }
        }
        for (column, list) in lists.values.sorted(by: { $0.column < $1.column }) {
            terms.append("\(SQLIdentifier.quote(column)) IN (\(Array(repeating: "?", count: list.count).joined(separator: ", ")))")
            values += list
        }
        return terms.isEmpty ? nil : (terms.joined(separator: " AND "), values)
    }

    /// One row of `table` picked at random, by lower-cased column name; empty when the table is. With
    /// `filter`, the first row that meets it from a random place on (from the start when none after it does).
    private mutating func randomRow(of table: String, where filter: (text: String, values: [SQLValue])? = nil) -> [String: SQLValue] {
        let quoted = SQLIdentifier.quote(table)
        if rowidRanges[table] == nil {
            let bounds = try? connection.query("SELECT min(rowid), max(rowid) FROM \(quoted)").first
            if let low = bounds?[0].integerValue, let high = bounds?[1].integerValue {
                rowidRanges[table] = (low, high)
            } else {
                rowidRanges[table] = .some(nil)
            }
        }
        let condition = filter.map { " AND (\($0.text))" } ?? "", conditionValues = filter?.values ?? []
        var queries: [(sql: String, values: [SQLValue])]
        if let range = rowidRanges[table] ?? nil {
            // Rowids may span the whole 64-bit range (random keys): work in wrapping unsigned arithmetic.
            let span = UInt64(bitPattern: range.1 &- range.0) &+ 1
            let offset = span == 0 ? generator.next() : generator.next() % span
            let pick = range.0 &+ Int64(bitPattern: offset)
            let select = "SELECT *, rowid AS \"rowid\" FROM \(quoted) WHERE "
            queries = [(select + "rowid >= ?\(condition) ORDER BY rowid LIMIT 1", [.integer(pick)] + conditionValues),
                       (select + "1\(condition) ORDER BY rowid LIMIT 1", conditionValues)]
        } else {
            let rows = schema.table(named: table)?.rowCount ?? 0
            let offset = Int64(rows > 0 ? Int(generator.next() % UInt64(rows)) : 0)
            queries = [("SELECT * FROM \(quoted) WHERE 1\(condition) LIMIT 1 OFFSET ?", conditionValues + [.integer(offset)]),
                       ("SELECT * FROM \(quoted) WHERE 1\(condition) LIMIT 1", conditionValues)]
        }
        // Without a filter the random place always has a row; with one, the rows that meet it may all be before it.
        for query in queries.prefix(filter == nil ? 1 : 2) {
            guard let statement = try? connection.prepare(query.sql), (try? statement.bind(query.values)) != nil,
                  (try? statement.step()) == true else { continue }
            var row: [String: SQLValue] = [:]
            for column in 0..<statement.columnCount {
                row[statement.columnName(column).sqlFolded] = statement.column(column)
            }
            return row
        }
        return [:]
    }

    private func resolve(column: String, shape: StatementShape?) -> ParameterTarget? {
        for access in shape?.tables ?? [] {
            if schema.table(named: access.table)?.column(named: column) != nil {
                return ParameterTarget(parameter: 0, table: access.table, column: column, op: .equal)
            }
        }
        return nil
    }
}

extension SQLTokenList {
    /// For each 1-based `?` parameter written as `column <op> ?` (or `alias.column <op> ?`), the column.
    /// Only a fallback for parameters SQLite's run did not reach (e.g. behind a function call).
    package func parameterColumns() -> [Int: String] {
        var result: [Int: String] = [:]
        var parameter = 0
        for i in 0..<count where tokens[i].kind == .parameter {
            parameter += 1
            let op = i - 1
            guard op >= 1 else { continue }
            let isComparison = ["=", "==", "<", ">", "<=", ">=", "!=", "<>"].contains { isSymbol(op, $0) }
                || isWord(op, "LIKE") || isWord(op, "GLOB") || isWord(op, "IS")
            let name = op - 1
            if isComparison, tokens[name].kind == .word || tokens[name].kind == .quotedIdentifier {
                result[parameter] = identifier(at: name)
            }
        }
        return result
    }
}
