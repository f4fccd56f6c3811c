/// Lays out SQL text for reading: one clause per line (`FROM`, `WHERE`, `ORDER BY`, joins, `SET`,
/// `VALUES`…), `AND`/`OR` of a `WHERE`, `HAVING` or `ON` condition on their own lines, subqueries indented,
/// white space between tokens normalised. Only white space changes: the tokens, their order and their
/// spelling (case, quotes, literals, comments) are kept, so the text means exactly what it meant.
///
/// Token-based (``SQLTokenizer``), not a parser: text it does not understand keeps its tokens on the
/// current line.
public enum SQLFormatter {
    /// Two spaces per level of nesting.
    static let indentUnit = "  "

    /// `sql` laid out on several lines; no trailing newline.
    ///
    /// `SELECT a FROM t WHERE (x = ? AND y = ?) ORDER BY z DESC LIMIT 5` becomes
    /// ```
    /// SELECT a
    /// FROM t
    /// WHERE (x = ?
    ///   AND y = ?)
    /// ORDER BY z DESC
    /// LIMIT 5
    /// ```
    public static func format(_ sql: String) -> String {
        let utf8 = Array(sql.utf8)
        let all = SQLTokenizer.tokenize(sql)
        // Comments are kept; plain white space is not.
        let tokens = all.filter { token in
            token.kind != .trivia || !SQLTokenizer.text(of: token, in: utf8).allSatisfy(\.isWhitespace)
        }
        func text(_ i: Int) -> String { SQLTokenizer.text(of: tokens[i], in: utf8) }
        func upper(_ i: Int) -> String {
            guard i >= 0, i < tokens.count, tokens[i].kind == .word else { return "" }
            return text(i).uppercased()
        }

        var lines: [String] = []
        var line = ""
        var lineIndent = 0
        /// One entry per open parenthesis: whether it opened a subquery (indents its clauses) and the
        /// query level it belongs to.
        var parens: [(isSubquery: Bool, isGroup: Bool)] = []
        /// The clause being read at each query level (`WHERE`, `ON`, …), for breaking conditions.
        var clause: [String] = [""]
        var pendingBetween = [false]
        var previous: Int?

        func level() -> Int { parens.filter(\.isSubquery).count }
        /// True when every parenthesis since the current query level opened is a grouping one, so an
        /// AND/OR here joins conditions of the clause (not arguments of a function).
        func atConditionLevel() -> Bool {
            for paren in parens.reversed() {
                if paren.isSubquery { return true }
                if !paren.isGroup { return false }
            }
            return true
        }
        func newLine(indent: Int) {
            if !line.isEmpty { lines.append(String(repeating: indentUnit, count: lineIndent) + line) }
            line = ""
            lineIndent = indent
        }
        func append(_ piece: String, spaced: Bool) {
            if !line.isEmpty && spaced { line += " " }
            line += piece
        }

        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            let word = upper(i)
            let piece = text(i)
            if token.kind == .trivia {
                // A comment: kept where it was; a line comment ends its line.
                append(piece.trimmingTrailingNewlines, spaced: true)
                if piece.hasPrefix("--") { newLine(indent: level()) }
                previous = i
                i += 1
                continue
            }
            let depth = level()
            let clauseStart = startsClause(at: i, upper: upper)
            if let clauseStart, atConditionLevel() || clauseStart == "SELECT" && parens.last?.isSubquery == true {
                let isFirst = line.isEmpty && lines.isEmpty
                let followsOpen = previous.map { text($0) == "(" } ?? false
                if !isFirst && !followsOpen { newLine(indent: depth) }
                clause[clause.count - 1] = clauseStart
                pendingBetween[pendingBetween.count - 1] = false
            } else if (word == "AND" || word == "OR"), ["WHERE", "HAVING", "ON"].contains(clause.last ?? ""), atConditionLevel() {
                if word == "AND" && pendingBetween.last == true {
                    pendingBetween[pendingBetween.count - 1] = false
                } else {
                    newLine(indent: depth + 1)
                }
            } else if word == "BETWEEN" {
                pendingBetween[pendingBetween.count - 1] = true
            } else if word == "ON", atConditionLevel() {
                // A join's condition: its AND/OR go on their own lines like a WHERE's.
                clause[clause.count - 1] = "ON"
            }

            append(piece, spaced: needsSpace(before: i, previous: previous, text: text, upper: upper))

            if piece == "(" && token.kind == .symbol {
                let next = upper(i + 1)
                let isSubquery = next == "SELECT" || next == "WITH" || next == "VALUES"
                let before = previous.map(upper) ?? ""
                let isCall = previous.map { tokens[$0].kind == .word || tokens[$0].kind == .quotedIdentifier } == true
                    && !groupingKeywords.contains(before)
                parens.append((isSubquery, !isCall))
                if isSubquery {
                    clause.append("")
                    pendingBetween.append(false)
                }
            } else if piece == ")" && token.kind == .symbol, let closed = parens.popLast(), closed.isSubquery {
                clause.removeLast()
                pendingBetween.removeLast()
            }
            previous = i
            i += 1
        }
        newLine(indent: 0)
        return lines.joined(separator: "\n")
    }

    /// Words after which `(` groups an expression or a list rather than calling a function.
    static let groupingKeywords: Set<String> = [
        "WHERE", "AND", "OR", "NOT", "ON", "IN", "EXISTS", "HAVING", "SELECT", "FROM", "JOIN", "WHEN", "THEN", "ELSE",
        "CASE", "BY", "SET", "VALUES", "AS", "IS", "BETWEEN", "LIKE", "GLOB", "USING", "RETURNING", "LIMIT", "OFFSET",
    ]

    /// The clause keyword (`ORDER BY`, `LEFT JOIN`, …) that starts at token `i`, if one does.
    static func startsClause(at i: Int, upper: (Int) -> String) -> String? {
        let word = upper(i)
        switch word {
        case "SELECT", "FROM", "WHERE", "HAVING", "LIMIT", "SET", "VALUES", "RETURNING", "WINDOW", "UNION", "INTERSECT", "EXCEPT":
            // `UNION ALL` keeps ALL on its line; `INSERT … SELECT` and `(SELECT` start lines too.
            if word == "SET", upper(i - 1) == "DO" || upper(i - 2) == "DO" { return nil }
            if word == "FROM", upper(i - 1) == "DELETE" { return nil }
            return word
        case "ORDER", "GROUP":
            return upper(i + 1) == "BY" ? word + " BY" : nil
        case "JOIN":
            // The first word of `LEFT OUTER JOIN` starts the line, not JOIN.
            return ["LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "NATURAL"].contains(upper(i - 1)) ? nil : "JOIN"
        case "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL":
            var j = i + 1
            while ["OUTER", "INNER", "LEFT", "RIGHT", "FULL"].contains(upper(j)) { j += 1 }
            return upper(j) == "JOIN" ? "JOIN" : nil
        case "ON":
            // `ON CONFLICT` is a clause; a join's ON condition stays on the join's line.
            return upper(i + 1) == "CONFLICT" ? "ON CONFLICT" : nil
        default:
            return nil
        }
    }

    /// Whether a space separates token `i` from the one before it.
    private static func needsSpace(before i: Int, previous: Int?, text: (Int) -> String, upper: (Int) -> String) -> Bool {
        guard let previous else { return false }
        let current = text(i)
        let before = text(previous)
        if current == "," || current == ")" || current == "." || current == ";" { return false }
        if before == "(" || before == "." { return false }
        if current == "(" {
            // `count(`, `ZNOTE(`: a call or a column list follows its name directly; keywords keep a space.
            let word = upper(previous)
            return word.isEmpty ? !(before.last.map { $0.isLetter || $0.isNumber || $0 == "\"" || $0 == "`" || $0 == "]" } ?? false) : groupingKeywords.contains(word)
        }
        return true
    }
}

extension String {
    /// The string without the line breaks at its end.
    fileprivate var trimmingTrailingNewlines: String {
        var result = self
        while result.last?.isNewline == true { result.removeLast() }
        return result
    }
}
