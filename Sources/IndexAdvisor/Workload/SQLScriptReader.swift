/// Reads a `.sql` workload: statements separated by `;`, each optionally preceded by a `-- freq: N`
/// comment giving how many times the app runs it (1 when absent).
package enum SQLScriptReader {
    /// Adds every statement of `text` to `builder`; `file` names the input in source locations.
    package static func read(_ text: String, file: String, into builder: inout WorkloadBuilder) {
        let tokens = SQLTokenizer.tokenize(text)
        let utf8 = Array(text.utf8)
        var line = 1
        var position = 0
        func advance(to offset: Int) {
            while position < offset {
                if utf8[position] == 0x0A { line += 1 }
                position += 1
            }
        }
        var pendingWeight: Int?
        var statementStart: Int?
        var startLine = 1
        var triggerDepth = 0
        var lastWordEnd = 0
        builder.diagnostics.linesRead += utf8.reduce(into: 1) { count, byte in if byte == 0x0A { count += 1 } }
        if !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }

        func finish(at end: Int) {
            guard let start = statementStart else { return }
            let sql = String(decoding: utf8[start..<end], as: UTF8.self)
            builder.add(sql: sql, weight: pendingWeight ?? 1,
                        location: SourceRange(file: file, firstLine: startLine, lastLine: line))
            statementStart = nil
            pendingWeight = nil
            triggerDepth = 0
        }

        for (index, token) in tokens.enumerated() {
            advance(to: token.start)
            switch token.kind {
            case .trivia:
                guard statementStart == nil else { break }
                switch frequency(in: utf8[token.start..<token.end]) {
                case .weight(let weight): pendingWeight = weight
                case .unreadable(let text):
                    builder.diagnostics.skip("unreadable '-- freq:' value '\(text)' (the statement counts once)", at: "\(file):\(line)")
                case .none: break
                }
            case .semicolon:
                if triggerDepth > 0 {
                    continue
                }
                finish(at: lastWordEnd)
            default:
                if statementStart == nil {
                    statementStart = token.start
                    startLine = line
                    // CREATE TRIGGER bodies hold semicolons until END.
                    let word = String(decoding: utf8[token.start..<token.end], as: UTF8.self).uppercased()
                    if word == "CREATE", tokens[(index + 1)...].prefix(6).contains(where: {
                        $0.kind == .word && String(decoding: utf8[$0.start..<$0.end], as: UTF8.self).uppercased() == "TRIGGER"
                    }) {
                        triggerDepth = 1
                    }
                }
                if triggerDepth > 0, token.kind == .word,
                   String(decoding: utf8[token.start..<token.end], as: UTF8.self).uppercased() == "END" {
                    triggerDepth = 0
                }
                lastWordEnd = token.end
            }
        }
        advance(to: utf8.count)
        if let last = tokens.last(where: { $0.kind != .trivia || utf8[$0.start] != 0x20 }), isUnterminated(last, in: utf8) {
            builder.diagnostics.skip("an unterminated string, quoted name or comment runs to the end of the file; what follows it was not read",
                                     at: "\(file):\(line)")
        }
        finish(at: lastWordEnd)
    }

    /// True for a string, quoted identifier or block comment that the file ends inside of.
    static func isUnterminated(_ token: SQLToken, in utf8: [UInt8]) -> Bool {
        let length = token.end - token.start
        let first = utf8[token.start], last = utf8[token.end - 1]
        switch token.kind {
        case .string, .quotedIdentifier:
            let close = first == UInt8(ascii: "[") ? UInt8(ascii: "]") : first
            return length < 2 || last != close
        case .blob:
            return length < 3 || last != UInt8(ascii: "'")
        case .trivia:
            return first == UInt8(ascii: "/") && length >= 2 && utf8[token.start + 1] == UInt8(ascii: "*")
                && !(length >= 4 && utf8[token.end - 2] == UInt8(ascii: "*") && last == UInt8(ascii: "/"))
        default:
            return false
        }
    }

    enum Frequency: Equatable {
        case none
        case weight(Int)
        /// A `-- freq:` comment whose value is not a whole number from 1 to 1,000,000,000.
        case unreadable(String)
    }

    /// N from a comment of the form `-- freq: N` (case-insensitive), if the trivia holds one (the last wins).
    static func frequency(in bytes: ArraySlice<UInt8>) -> Frequency {
        let text = String(decoding: bytes, as: UTF8.self)
        var result = Frequency.none
        for line in text.split(whereSeparator: \.isNewline) {
            var rest = line.drop(while: { $0.isWhitespace })
            guard rest.hasPrefix("--") else { continue }
            rest = rest.dropFirst(2).drop(while: { $0.isWhitespace })
            guard rest.lowercased().hasPrefix("freq:") || rest.lowercased().hasPrefix("freq ") || rest.lowercased().hasPrefix("freq=") else { continue }
            rest = rest.dropFirst(4).drop(while: { $0.isWhitespace || $0 == ":" || $0 == "=" })
            let value = rest.prefix(while: { !$0.isWhitespace })
            if let number = Int(value), number >= 1, number <= 1_000_000_000 {
                result = .weight(number)
            } else {
                result = .unreadable(String(value.prefix(40)))
            }
        }
        return result
    }
}
