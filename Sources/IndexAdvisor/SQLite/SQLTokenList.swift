/// SQL text with its tokens (trivia removed), and the few structural look-ups indexadvisor needs on
/// `CREATE TABLE` / `CREATE INDEX` text and on `ORDER BY` clauses. Not a SQL parser: statement shapes
/// come from SQLite itself (see `ShapeExtractor`).
package struct SQLTokenList {
    package let text: String
    package let utf8: [UInt8]
    /// Tokens without white space and comments.
    package let tokens: [SQLToken]
    /// For each token that is `(`, the index of the token that closes it (the last token when none does);
    /// -1 for every other token. Found in one pass, so that ``matchingParenthesis(from:)`` costs nothing
    /// (a scan per parenthesis made a statement nested N deep cost N² steps: hostile round 7, F7).
    private let closes: [Int]

    package init(_ text: String) {
        self.text = text
        let utf8 = Array(text.utf8)
        self.utf8 = utf8
        let tokens = SQLTokenizer.tokenize(text).filter { $0.kind != .trivia }
        self.tokens = tokens
        self.closes = Self.closingParentheses(tokens, in: utf8)
    }

    private static func closingParentheses(_ tokens: [SQLToken], in utf8: [UInt8]) -> [Int] {
        var closes = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (i, token) in tokens.enumerated() where token.kind == .symbol && token.end - token.start == 1 {
            if utf8[token.start] == UInt8(ascii: "(") {
                open.append(i)
                closes[i] = tokens.count - 1
            } else if utf8[token.start] == UInt8(ascii: ")"), let opened = open.popLast() {
                closes[opened] = i
            }
        }
        return closes
    }

    package var count: Int { tokens.count }

    /// The source text of token `i`.
    package func text(at i: Int) -> String {
        SQLTokenizer.text(of: tokens[i], in: utf8)
    }

    /// The source text from the start of token `from` to the end of token `to` (inclusive).
    package func text(from: Int, to: Int) -> String {
        guard from <= to, from < tokens.count else { return "" }
        return String(decoding: utf8[tokens[from].start..<tokens[to].end], as: UTF8.self)
    }

    /// True when token `i` is the bare word `word` (ASCII case-insensitive).
    package func isWord(_ i: Int, _ word: String) -> Bool {
        guard i >= 0, i < tokens.count, tokens[i].kind == .word else { return false }
        let token = tokens[i]
        guard token.end - token.start == word.utf8.count else { return false }
        var j = token.start
        for byte in word.utf8 {
            if utf8[j] | 0x20 != byte | 0x20 { return false }
            j += 1
        }
        return true
    }

    /// True when the statement skips rows before its LIMIT: an `OFFSET`, or `LIMIT offset, count`
    /// (lang_select.html#limitoffset).
    package var hasOffset: Bool {
        guard let limit = tokens.indices.last(where: { isWord($0, "LIMIT") }) else { return false }
        return tokens.indices.contains { isWord($0, "OFFSET") } || tokens.indices.contains { $0 > limit && isSymbol($0, ",") }
    }

    /// True when token `i` is the symbol `symbol`.
    package func isSymbol(_ i: Int, _ symbol: String) -> Bool {
        guard i >= 0, i < tokens.count, tokens[i].kind == .symbol else { return false }
        return text(at: i) == symbol
    }

    /// True when token `i` is a `;` (a token of its own kind, not a symbol).
    package func isSemicolon(_ i: Int) -> Bool {
        i >= 0 && i < tokens.count && tokens[i].kind == .semicolon
    }

    /// True when token `i` is a word or a quoted identifier (any word: keywords are not set apart).
    package func isNameToken(_ i: Int) -> Bool {
        i >= 0 && i < tokens.count && (tokens[i].kind == .word || tokens[i].kind == .quotedIdentifier)
    }

    /// The identifier at token `i` with quotes removed (`"a""b"` → `a"b`, `[x]` → `x`).
    package func identifier(at i: Int) -> String {
        Self.unquote(text(at: i))
    }

    /// An identifier or string token's text without its quotes.
    package static func unquote(_ raw: String) -> String {
        guard let first = raw.first, raw.count >= 2 else { return raw }
        switch first {
        case "\"", "`", "'":
            let inner = raw.dropFirst().dropLast()
            return inner.replacingOccurrences(of: String(first) + String(first), with: String(first))
        case "[":
            return String(raw.dropFirst().dropLast())
        default:
            return raw
        }
    }

    /// The index of the `)` that closes the `(` at token `i`, found as the list was made (the last token when
    /// none closes it); nil when token `i` is not a `(`.
    package func closingIndex(of i: Int) -> Int? {
        i >= 0 && i < closes.count && closes[i] >= 0 ? closes[i] : nil
    }

    /// The index of the token that closes the parenthesis opened at `open`, or the last token.
    package func matchingParenthesis(from open: Int) -> Int {
        if open >= 0, open < closes.count, closes[open] >= 0 { return closes[open] }
        var depth = 0
        var i = open
        while i < tokens.count {
            if isSymbol(i, "(") { depth += 1 }
            if isSymbol(i, ")") {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return tokens.count - 1
    }

    /// The comma-separated items between the parenthesis at `open` and its match, as token ranges.
    package func items(inParenthesisAt open: Int) -> [ClosedRange<Int>] {
        let close = matchingParenthesis(from: open)
        var items: [ClosedRange<Int>] = []
        var depth = 0
        var start = open + 1
        var i = open + 1
        while i < close {
            if isSymbol(i, "(") { depth += 1 }
            if isSymbol(i, ")") { depth -= 1 }
            if depth == 0, isSymbol(i, ",") {
                if start <= i - 1 { items.append(start...(i - 1)) }
                start = i + 1
            }
            i += 1
        }
        if start <= close - 1 { items.append(start...(close - 1)) }
        return items
    }

    /// The first token index of `word` at parenthesis depth 0, searching from `start`.
    package func firstTopLevelWord(_ word: String, from start: Int = 0) -> Int? {
        var depth = 0
        for i in start..<tokens.count {
            if isSymbol(i, "(") { depth += 1 } else if isSymbol(i, ")") { depth -= 1 }
            if depth == 0, isWord(i, word) { return i }
        }
        return nil
    }

    /// The terms of the last top-level `ORDER BY` clause, as token ranges (empty when there is none).
    package func topLevelOrderByTerms() -> [ClosedRange<Int>] {
        var depth = 0
        var orderBy: Int?
        for i in 0..<tokens.count {
            if isSymbol(i, "(") { depth += 1 } else if isSymbol(i, ")") { depth -= 1 }
            if depth == 0, isWord(i, "ORDER"), isWord(i + 1, "BY") { orderBy = i + 2 }
        }
        guard let start = orderBy else { return [] }
        var terms: [ClosedRange<Int>] = []
        var termStart = start
        depth = 0
        var i = start
        while i < tokens.count {
            if isSymbol(i, "(") { depth += 1 } else if isSymbol(i, ")") {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0 {
                if isSymbol(i, ",") {
                    if termStart < i { terms.append(termStart...(i - 1)) }
                    termStart = i + 1
                } else if isWord(i, "LIMIT") || isWord(i, "OFFSET") || tokens[i].kind == .semicolon {
                    break
                }
            }
            i += 1
        }
        if termStart < i { terms.append(termStart...(i - 1)) }
        return terms
    }

    /// The collation named by a `COLLATE name` inside `range`, if any.
    package func collation(in range: ClosedRange<Int>) -> String? {
        for i in range where isWord(i, "COLLATE") && i + 1 <= range.upperBound {
            return identifier(at: i + 1)
        }
        return nil
    }

    /// The text with every `COLLATE name` inside the top-level ORDER BY clause removed.
    package func removingOrderByCollations() -> String {
        var cuts: [Range<Int>] = []
        for term in topLevelOrderByTerms() {
            // From the end of the sorted expression, so the white space before COLLATE goes too.
            for i in term where isWord(i, "COLLATE") && i + 1 <= term.upperBound && i > term.lowerBound {
                cuts.append(tokens[i - 1].end..<tokens[i + 1].end)
            }
        }
        guard !cuts.isEmpty else { return text }
        var bytes: [UInt8] = []
        var position = 0
        for cut in cuts {
            bytes.append(contentsOf: utf8[position..<cut.lowerBound])
            position = cut.upperBound
        }
        bytes.append(contentsOf: utf8[position...])
        return String(decoding: bytes, as: UTF8.self)
    }
}
