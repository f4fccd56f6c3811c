/// What a generated column's value is computed from, for the keys a write must make new.
///
/// No `INSERT` writes a generated column (`s INTEGER GENERATED ALWAYS AS (a * 2 + b) STORED`, or `VIRTUAL`):
/// a unique index on it, or on an expression of it, is made new through the columns it is computed from.
/// The key part is then looked up as the index holds it (`s = …`, so the index serves the look-up) against
/// its generation expression with the written values in it (`(1001 * 2 + 0)`).
extension Table {
    /// Each generated column's expression (the text between the parentheses after `AS`), by folded name;
    /// empty when the table has none.
    var generationExpressions: [String: String] {
        guard columns.contains(where: \.isGenerated) else { return [:] }
        let tokens = SQLTokenList(sql)
        guard let open = (0..<tokens.count).first(where: { tokens.isSymbol($0, "(") }) else { return [:] }
        var result: [String: String] = [:]
        for item in tokens.items(inParenthesisAt: open) {
            let name = tokens.identifier(at: item.lowerBound)
            guard column(named: name)?.isGenerated == true else { continue }
            // `name type GENERATED ALWAYS AS (expression) STORED`: the first `AS (` outside parentheses.
            var depth = 0
            for i in item {
                if depth == 0, i > item.lowerBound, tokens.isWord(i, "AS"), tokens.isSymbol(i + 1, "(") {
                    let close = tokens.matchingParenthesis(from: i + 1)
                    if close > i + 2 { result[name.sqlFolded] = tokens.text(from: i + 2, to: close - 1) }
                    break
                }
                if tokens.isSymbol(i, "(") { depth += 1 } else if tokens.isSymbol(i, ")") { depth -= 1 }
            }
        }
        return result
    }

    /// `expression` with every generated column it names replaced by `(its expression)`, until it names
    /// written columns only (a generated column may be computed from another); nil when it names none.
    func expandingGeneratedColumns(in expression: String) -> String? {
        let generated = generationExpressions
        guard !generated.isEmpty else { return nil }
        var text = expression
        var changed = false
        for _ in 0..<columns.count {
            let list = SQLTokenList(text)
            var replaced = false
            let parts = (0..<list.count).map { i -> String in
                guard list.isNameToken(i), !list.isSymbol(i + 1, "("), let source = generated[list.identifier(at: i).sqlFolded] else { return list.text(at: i) }
                replaced = true
                return "(\(source))"
            }
            guard replaced else { break }
            text = parts.joined(separator: " ")
            changed = true
        }
        return changed ? text : nil
    }
}
