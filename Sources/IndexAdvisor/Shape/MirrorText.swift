/// A workload statement made preparable against the shape database's mirror tables, and what was set
/// aside to make it so.
///
/// The store accepts statements that virtual tables refuse or that exceed a limit of the parameterised
/// text, though their shape is plain:
/// - `… RETURNING …` ("RETURNING is not available on virtual tables"): the clause only reads the rows
///   written, so it is cut; it changes no constraint the planner offers.
/// - an UPSERT, `INSERT … ON CONFLICT (…) DO UPDATE SET … | DO NOTHING` ("UPSERT not implemented for
///   virtual table"): the clause is cut, the INSERT keeps its shape, and the columns its `DO UPDATE SET`
///   changes are recorded as updated, because on a conflict the row's index entries move.
/// - more parameters than SQLite allows (`SQLITE_LIMIT_VARIABLE_NUMBER`: a 300,000-value `IN` list or a
///   70,000-row `VALUES` whose literals became `?`): each long list of plain `?` is cut to its first
///   items and each repeated `VALUES` row to the first; every parameter cut takes the column of the one
///   it repeats (the first item of its list, the same position of the first row). Statements with over
///   256 parameters are compacted so too, silently, because the shape is the same and quicker to read.
///
/// Parameters keep their numbers: the clauses cut come last, and `?` numbering is positional.
struct MirrorText {
    /// The text to prepare against the mirrors.
    var sql: String
    /// Columns an UPSERT's `DO UPDATE SET` changes, when the statement had one (`DO NOTHING`: empty).
    var upsertUpdates: [String]?
    /// For a compacted text: the original number of each parameter of ``sql``, in order.
    var originalParameter: [Int]?
    /// For a compacted text: each parameter cut, with the original parameter whose column it shares.
    var repeats: [(parameter: Int, like: Int?)] = []
    /// What was cut, for the report: `RETURNING`, `ON CONFLICT`, or the lists compacted.
    var adjustments: [String] = []

    /// `sql` prepared for the mirrors; `parameterLimit` is the connection's `SQLITE_LIMIT_VARIABLE_NUMBER`.
    init(_ sql: String, parameterLimit: Int) {
        self.sql = sql
        var tokens = SQLTokenList(sql)
        let parameters = tokens.tokens.indices.filter { tokens.tokens[$0].kind == .parameter }
        // Long lists are compacted below the limit too: the mirror reports each row's values one call at
        // a time, and a 2,000-row VALUES would outlast the shape run's deadline. Only a list over the limit
        // is named in the report; otherwise the shape is exactly the whole statement's.
        if parameters.count > min(parameterLimit, Self.compactedAbove), parameters.allSatisfy({ tokens.text(at: $0) == "?" }) {
            compact(tokens)
            tokens = SQLTokenList(self.sql)
            if parameters.count <= parameterLimit { adjustments = [] }
        }
        cutClauses(tokens)
    }

    // MARK: RETURNING and UPSERT

    private mutating func cutClauses(_ tokens: SQLTokenList) {
        guard tokens.count > 0 else { return }
        let isInsert = tokens.isWord(0, "INSERT") || tokens.isWord(0, "REPLACE") || tokens.isWord(0, "WITH")
        var cut: Int?
        var depth = 0
        var i = 0
        while i < tokens.count {
            if tokens.isSymbol(i, "(") { depth += 1 } else if tokens.isSymbol(i, ")") { depth -= 1 }
            if depth == 0 {
                if tokens.isWord(i, "RETURNING") {
                    cut = min(cut ?? i, i)
                    adjustments.append("RETURNING")
                    break
                }
                if isInsert, tokens.isWord(i, "ON"), tokens.isWord(i + 1, "CONFLICT"),
                   tokens.isSymbol(i + 2, "(") || tokens.isWord(i + 2, "DO") {
                    if cut == nil {
                        cut = i
                        adjustments.append("ON CONFLICT")
                        upsertUpdates = []
                    }
                    var j = i + 2
                    if tokens.isSymbol(j, "(") { j = tokens.matchingParenthesis(from: j) + 1 }
                    // The conflict target's own WHERE (a partial index's) comes before DO.
                    while j < tokens.count, !tokens.isWord(j, "DO") {
                        if tokens.isSymbol(j, "(") { j = tokens.matchingParenthesis(from: j) }
                        j += 1
                    }
                    if tokens.isWord(j + 1, "UPDATE"), tokens.isWord(j + 2, "SET") {
                        let (columns, end) = Self.assignedColumns(tokens, from: j + 3)
                        for column in columns where !(upsertUpdates ?? []).contains(where: { $0.sqlFolded == column.sqlFolded }) {
                            upsertUpdates?.append(column)
                        }
                        i = end
                        continue
                    }
                    i = j + 1
                    continue
                }
            }
            i += 1
        }
        guard let cut else { return }
        let end = cut > 0 ? tokens.tokens[cut - 1].end : 0
        sql = String(decoding: tokens.utf8[..<end], as: UTF8.self)
    }

    /// The columns a `SET` list assigns (`a = …, (b, c) = (…)`), and the token after the list.
    static func assignedColumns(_ tokens: SQLTokenList, from start: Int) -> ([String], Int) {
        var columns: [String] = []
        var i = start
        var expectingTarget = true
        while i < tokens.count {
            if tokens.isSymbol(i, "(") {
                if expectingTarget {
                    let close = tokens.matchingParenthesis(from: i)
                    for item in tokens.items(inParenthesisAt: i) where item.count == 1 { columns.append(tokens.identifier(at: item.lowerBound)) }
                    i = close + 1
                    expectingTarget = false
                    continue
                }
                i = tokens.matchingParenthesis(from: i) + 1
                continue
            }
            if tokens.isSymbol(i, ")") || tokens.isWord(i, "WHERE") || tokens.isWord(i, "ON") || tokens.isWord(i, "RETURNING")
                || tokens.tokens[i].kind == .semicolon {
                break
            }
            if tokens.isSymbol(i, ",") {
                expectingTarget = true
            } else if expectingTarget, tokens.tokens[i].kind == .word || tokens.tokens[i].kind == .quotedIdentifier {
                columns.append(tokens.identifier(at: i))
                expectingTarget = false
            }
            i += 1
        }
        return (columns, i)
    }

    // MARK: Lists longer than SQLite's parameter limit

    /// Statements with more parameters than this have their long lists compacted (see `init`).
    static let compactedAbove = 256

    /// The items of a list kept whole when it is compacted.
    static let keptListItems = 3

    private mutating func compact(_ tokens: SQLTokenList) {
        var parameterNumber: [Int: Int] = [:]
        for (offset, i) in tokens.tokens.indices.filter({ tokens.tokens[$0].kind == .parameter }).enumerated() {
            parameterNumber[i] = offset + 1
        }
        func isParameter(_ range: ClosedRange<Int>) -> Bool {
            range.count == 1 && tokens.tokens[range.lowerBound].kind == .parameter
        }
        /// Byte ranges to drop, in order.
        var drops: [Range<Int>] = []
        /// Each parameter dropped (by its number), with the parameter whose column it shares.
        var likeOf: [Int: Int?] = [:]
        var i = 0
        while i < tokens.count {
            if tokens.isWord(i, "IN"), tokens.isSymbol(i + 1, "(") {
                let items = tokens.items(inParenthesisAt: i + 1)
                if items.count > Self.keptListItems, items.allSatisfy(isParameter) {
                    let first = parameterNumber[items[0].lowerBound]
                    for item in items.dropFirst(Self.keptListItems) { likeOf[parameterNumber[item.lowerBound]!] = first }
                    // From the end of the last item kept to the end of the list's last item.
                    drops.append(tokens.tokens[items[Self.keptListItems - 1].upperBound].end..<tokens.tokens[items.last!.upperBound].end)
                    adjustments.append("an IN list of \(Figures.count(items.count)) values")
                }
                i = tokens.matchingParenthesis(from: i + 1) + 1
                continue
            }
            if tokens.isWord(i, "VALUES"), tokens.isSymbol(i + 1, "(") {
                var rows: [(open: Int, close: Int)] = []
                var j = i + 1
                while tokens.isSymbol(j, "(") {
                    let close = tokens.matchingParenthesis(from: j)
                    rows.append((j, close))
                    guard tokens.isSymbol(close + 1, ","), tokens.isSymbol(close + 2, "(") else { break }
                    j = close + 2
                }
                let firstItems = tokens.items(inParenthesisAt: rows[0].open)
                let laterRows = rows.dropFirst().map { tokens.items(inParenthesisAt: $0.open) }
                if !laterRows.isEmpty, laterRows.allSatisfy({ $0.count == firstItems.count && $0.allSatisfy(isParameter) }) {
                    let like = firstItems.map { isParameter($0) ? parameterNumber[$0.lowerBound] : nil }
                    for items in laterRows {
                        for (position, item) in items.enumerated() { likeOf[parameterNumber[item.lowerBound]!] = like[position] }
                    }
                    drops.append(tokens.tokens[rows[0].close].end..<tokens.tokens[rows.last!.close].end)
                    adjustments.append("a VALUES list of \(Figures.count(rows.count)) rows")
                }
                i = rows.last!.close + 1
                continue
            }
            i += 1
        }
        guard !drops.isEmpty else { return }
        var text: [UInt8] = []
        var position = 0
        for drop in drops {
            text += tokens.utf8[position..<drop.lowerBound]
            position = drop.upperBound
        }
        text += tokens.utf8[position...]
        sql = String(decoding: text, as: UTF8.self)
        let numbers = parameterNumber.values.sorted()
        originalParameter = numbers.filter { likeOf[$0] == nil }
        repeats = numbers.compactMap { number in likeOf[number].map { (number, $0) } }
    }
}
