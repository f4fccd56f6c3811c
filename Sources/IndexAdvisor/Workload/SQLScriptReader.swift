/// Reads a `.sql` workload: statements separated by `;`, each optionally preceded by a `-- freq: N`
/// comment giving how many times the app runs it (1 when absent), or followed by one on the line of its `;`.
/// `/* freq: N */` works the same. A second frequency for one statement is counted as a skipped line (the
/// last one counts), so that a slip in the file shows in the report.
///
/// Streams: feed it chunks with ``feed(_:into:)`` and call ``finish(into:)``; it holds one statement at a
/// time (at most ``keptStatementBytes``), so a large script costs no more memory than its largest
/// statement. A longer statement is set aside with its executions (``SetAsideStatement``): `check` fails it
/// when it is hot. Semicolons inside strings, quoted names, comments and `CREATE TRIGGER … END` bodies do not
/// split statements (https://sqlite.org/lang_createtrigger.html).
package struct SQLScriptReader {
    /// Where the splitter is in the SQL text.
    private enum State: Equatable {
        case normal
        case quoted(close: UInt8)
        case lineComment
        case blockComment
    }

    /// The longest statement indexadvisor reads (its memory bound: a statement's tokens, literals and mirror
    /// text cost many times its bytes); a longer one is set aside and counted.
    package static let maxStatementBytes = 16 << 20
    /// The longest statement kept: ``maxStatementBytes``, or SQLite's own limit (SQLITE_LIMIT_SQL_LENGTH) when
    /// that is less, since SQLite refuses a longer one.
    package static var keptStatementBytes: Int { min(maxStatementBytes, SQLiteLimits.sqlLength) }
    /// Bytes of a statement set aside for its length kept to read its `-- freq:` comments and first words.
    static let setAsidePrefixBytes = 64 << 10

    let file: String
    private var state = State.normal
    private var previous: UInt8 = 0
    private var segment: [UInt8] = []
    private var segmentTooLong = false
    /// Bytes of the segment read, those of a segment too long to keep too.
    private var segmentBytes = 0
    /// The line the current segment starts on, and the line the reader is on.
    private var segmentLine = 1
    private var line = 1
    private var sawBytes = false
    private var lastByte: UInt8 = 0
    /// The byte before was `\r`: a `\n` now ends the same line (`\r\n`).
    private var afterCR = false
    private var pendingWeight: Int?
    /// The last statement read, held until the text after its `;` is read: a `-- freq: N` on the same
    /// line as the `;` (`SELECT …; -- freq: 50`) is that statement's.
    /// Its weight is nil until a `-- freq:` comment gives one.
    /// `setAside` holds the reason and id of a statement set aside for its length (`sql` its excerpt).
    private var held: (sql: String, weight: Int?, location: SourceRange, setAside: (reason: String, id: String)?)?

    package init(file: String) {
        self.file = file
    }

    /// Reads all of `text` (for tests and text already in memory).
    package static func read(_ text: String, file: String, into builder: inout WorkloadBuilder) {
        var reader = SQLScriptReader(file: file)
        var copy = text
        copy.withUTF8 { reader.feed($0, into: &builder) }
        reader.finish(into: &builder)
    }

    /// Reads the next chunk of the script.
    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into builder: inout WorkloadBuilder) {
        if !sawBytes, !chunk.isEmpty {
            sawBytes = true
            if !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }
        }
        var segmentStart = 0
        var i = 0
        while i < chunk.count {
            let c = chunk[i]
            // Every line end counts once: `\n`, `\r\n` and a lone `\r`.
            if c == 0x0A {
                if !afterCR { line += 1 }
                afterCR = false
            } else if c == 0x0D {
                line += 1
                afterCR = true
            } else {
                afterCR = false
            }
            switch state {
            case .normal:
                if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "`") {
                    state = .quoted(close: c)
                } else if c == UInt8(ascii: "[") {
                    state = .quoted(close: UInt8(ascii: "]"))
                } else if c == UInt8(ascii: "-"), previous == UInt8(ascii: "-") {
                    state = .lineComment
                } else if c == UInt8(ascii: "*"), previous == UInt8(ascii: "/") {
                    state = .blockComment
                    previous = 0
                    i += 1
                    continue
                } else if c == UInt8(ascii: ";") {
                    append(chunk.slice(segmentStart, i))
                    segmentStart = i + 1
                    if !endSegment(into: &builder) {
                        // A trigger body goes on: keep the semicolon in it.
                        append(chunk.slice(i, i + 1))
                    }
                }
            case .quoted(let close):
                if c == close { state = .normal }
            case .lineComment:
                if c == 0x0A || c == 0x0D { state = .normal }
            case .blockComment:
                if c == UInt8(ascii: "/"), previous == UInt8(ascii: "*") {
                    state = .normal
                    previous = 0
                    i += 1
                    continue
                }
            }
            previous = c
            i += 1
        }
        append(chunk.slice(segmentStart))
        if let last = chunk.last { lastByte = last }
    }

    /// Reads the last statement (one without a final `;`) and counts the lines.
    package mutating func finish(into builder: inout WorkloadBuilder) {
        if !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }
        let endsWithBreak = lastByte == 0x0A || lastByte == 0x0D
        builder.diagnostics.linesRead += sawBytes ? (endsWithBreak ? line - 1 : line) : 0
        switch state {
        case .quoted, .blockComment:
            // The file's last line (a final newline does not start another).
            builder.diagnostics.skip("an unterminated string, quoted name or comment runs to the end of the file; what follows it was not read",
                                     at: "\(file):\(endsWithBreak ? line - 1 : line)")
            // A statement cut by an open string or name is not read; one followed by an open comment is.
            normalizeLoneCRs()
            if let (cut, isComment) = lastUnterminatedStart() { segment.removeSubrange((isComment ? cut : 0)...) }
        default:
            break
        }
        state = .normal
        _ = endSegment(into: &builder, atEnd: true)
        releaseHeld(into: &builder)
    }

    /// Adds the held statement, with the weight a `-- freq:` comment on its `;`'s line gives it, if any
    /// (`trailing`: the trivia that opens the segment after it).
    private mutating func releaseHeld(trailing: ArraySlice<SQLToken> = [], into builder: inout WorkloadBuilder) {
        guard var statement = held else { return }
        held = nil
        for token in trailing where isComment(token) && newlines(0, token.start) == 0 {
            readFrequency(token, line: segmentLine, into: &statement.weight, builder: &builder)
        }
        if let (reason, id) = statement.setAside {
            builder.diagnostics.setAside(reason: reason, id: id, excerpt: statement.sql, weight: statement.weight ?? 1,
                                         at: "\(file):\(statement.location.firstLine)")
        } else {
            builder.add(sql: statement.sql, weight: statement.weight ?? 1, location: statement.location)
        }
    }

    /// The leading trivia of the segment without the comments on its first line when a statement is held:
    /// those are the held statement's (``releaseHeld(trailing:into:)``), not the next one's.
    private func leading(_ trivia: ArraySlice<SQLToken>, afterHeld: Bool) -> ArraySlice<SQLToken> {
        guard afterHeld else { return trivia }
        return trivia.drop { newlines(0, $0.start) == 0 }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        segmentBytes += bytes.count
        if !segmentTooLong, segmentBytes > Self.keptStatementBytes {
            // Only the first bytes stay: its frequency comments and first words (hostile round 7, F2).
            segmentTooLong = true
            if segment.count > Self.setAsidePrefixBytes { segment.removeSubrange(Self.setAsidePrefixBytes...) }
        }
        if segmentTooLong {
            let room = Self.setAsidePrefixBytes - segment.count
            if room > 0 { segment.append(contentsOf: bytes.prefix(room)) }
            return
        }
        segment.append(contentsOf: bytes)
    }

    /// Handles the text up to a `;`. Returns false when it is an unfinished `CREATE TRIGGER` (the caller
    /// keeps accumulating).
    private mutating func endSegment(into builder: inout WorkloadBuilder, atEnd: Bool = false) -> Bool {
        defer { previous = 0 }
        let endLine = line
        if segmentTooLong {
            holdTooLong(into: &builder)
            resetSegment(nextLine: endLine)
            return true
        }
        normalizeLoneCRs()
        let tokens = segment.withUnsafeBufferPointer { SQLTokenizer.tokenize($0) }
        let afterHeld = held != nil
        guard let first = tokens.firstIndex(where: { $0.kind != .trivia }) else {
            releaseHeld(trailing: tokens[...], into: &builder)
            readFrequencies(leading(tokens[...], afterHeld: afterHeld), into: &builder)
            resetSegment(nextLine: endLine)
            return true
        }
        if !atEnd, isOpenTrigger(tokens) { return false }
        releaseHeld(trailing: tokens[..<first], into: &builder)
        readFrequencies(leading(tokens[..<first], afterHeld: afterHeld), into: &builder)
        let lastToken = tokens.last { $0.kind != .trivia }!
        let startLine = segmentLine + newlines(0, tokens[first].start)
        let lastLine = startLine + newlines(tokens[first].start, lastToken.end)
        let sql = String(decoding: segment[tokens[first].start..<lastToken.end], as: UTF8.self)
        held = (sql, pendingWeight, SourceRange(file: file, firstLine: startLine, lastLine: lastLine), nil)
        pendingWeight = nil
        resetSegment(nextLine: endLine)
        return true
    }

    /// Holds the statement too long to keep whose first bytes are the segment, as one set aside, with the
    /// frequency its leading comments give (a `-- freq:` on the line of its `;` too, as for any statement).
    private mutating func holdTooLong(into builder: inout WorkloadBuilder) {
        normalizeLoneCRs()
        let tokens = segment.withUnsafeBufferPointer { SQLTokenizer.tokenize($0) }
        let afterHeld = held != nil
        let first = tokens.firstIndex { $0.kind != .trivia }
        let leadingTrivia = tokens[..<(first ?? 0)]
        releaseHeld(trailing: leadingTrivia, into: &builder)
        readFrequencies(leading(leadingTrivia, afterHeld: afterHeld), into: &builder)
        let start = first.map { tokens[$0].start } ?? 0
        let excerpt = String(decoding: segment[start...].prefix(SetAsideStatement.excerptBytes), as: UTF8.self)
        let reason = SetAsideStatement.tooLongReason(bytes: segmentBytes - start, keptBytes: Self.keptStatementBytes)
        let startLine = segmentLine + newlines(0, start)
        held = (excerpt, pendingWeight, SourceRange(file: file, firstLine: startLine, lastLine: startLine),
                (reason, Fingerprinter.normalize(excerpt).fingerprint.id))
        pendingWeight = nil
    }

    /// Turns each lone `\r` (CR-only line ends) into `\n`: SQLite ends a `--` comment only at `\n`, so
    /// otherwise a `-- freq:` comment would run to the end of the file.
    private mutating func normalizeLoneCRs() {
        guard segment.withUnsafeBufferPointer({ $0.contains(byte: 0x0D) }) else { return }
        for i in segment.indices where segment[i] == 0x0D && (i + 1 == segment.count || segment[i + 1] != 0x0A) {
            segment[i] = 0x0A
        }
    }

    private mutating func resetSegment(nextLine: Int) {
        segment.removeAll(keepingCapacity: segment.capacity <= 1 << 20)
        segmentTooLong = false
        segmentBytes = 0
        segmentLine = nextLine
    }

    /// `-- freq: N` comments among leading trivia set the next statement's weight (the last one wins).
    private mutating func readFrequencies(_ trivia: ArraySlice<SQLToken>, into builder: inout WorkloadBuilder) {
        for token in trivia where isComment(token) {
            readFrequency(token, line: segmentLine + newlines(0, token.start), into: &pendingWeight, builder: &builder)
        }
    }

    /// Reads the frequencies in the comment `token` (on `line`) into `weight`, the last one winning; an
    /// unreadable value, and a frequency for a `weight` already given, are counted as skipped lines.
    private func readFrequency(_ token: SQLToken, line: Int, into weight: inout Int?, builder: inout WorkloadBuilder) {
        for frequency in Self.frequencies(in: segment[token.start..<token.end]) {
            switch frequency {
            case .weight(let value):
                if weight != nil { builder.diagnostics.skip(Self.secondFrequency(value), at: "\(file):\(line)") }
                weight = value
            case .unreadable(let text):
                builder.diagnostics.skip("unreadable '-- freq:' value '\(text)' (the statement counts once)", at: "\(file):\(line)")
            }
        }
    }

    /// True for a `--` or `/* */` comment.
    private func isComment(_ token: SQLToken) -> Bool {
        token.kind == .trivia && (segment[token.start] == UInt8(ascii: "-") || segment[token.start] == UInt8(ascii: "/"))
    }

    /// The skip reason for a second frequency given to one statement.
    static func secondFrequency(_ weight: Int) -> String {
        "a second '-- freq:' comment for one statement (the last one, \(weight), counts)"
    }

    /// True for `CREATE [TEMP] TRIGGER …` whose body (`BEGIN … END`) is not closed yet: the `END` that closes
    /// it is the one that is not a `CASE … END` (a breaking helper's `… THEN RAISE(IGNORE) END; END;` was split
    /// at the first `END;`, and the second counted as a COMMIT).
    private func isOpenTrigger(_ tokens: [SQLToken]) -> Bool {
        let words = tokens.lazy.filter { $0.kind != .trivia }
        guard let first = words.first, word(first) == "CREATE" else { return false }
        guard words.prefix(6).contains(where: { $0.kind == .word && word($0) == "TRIGGER" }) else { return false }
        var depth = 0
        var inBody = false
        // Only words of 3 to 5 bytes can be BEGIN, CASE or END: no string is made for the others (this runs at
        // every `;` of an open trigger).
        for token in words where token.kind == .word && (3...5).contains(token.end - token.start) {
            switch word(token) {
            case "BEGIN" where !inBody:
                inBody = true
                depth = 1
            case "CASE" where inBody: depth += 1
            case "END" where inBody: depth -= 1
            default: break
            }
        }
        return !(inBody && depth <= 0)
    }

    private func word(_ token: SQLToken) -> String {
        String(decoding: segment[token.start..<token.end], as: UTF8.self).uppercased()
    }

    /// Line ends in the segment between `from` and `to` (`\n`, `\r\n`, a lone `\r`).
    private func newlines(_ from: Int, _ to: Int) -> Int {
        var count = 0
        var i = from
        while i < to {
            if segment[i] == 0x0D || (segment[i] == 0x0A && (i == 0 || segment[i - 1] != 0x0D)) { count += 1 }
            i += 1
        }
        return count
    }

    /// Where the string, quoted name or comment that the file ends inside of starts in the segment, and
    /// whether it is a comment.
    private func lastUnterminatedStart() -> (Int, Bool)? {
        let tokens = segment.withUnsafeBufferPointer { SQLTokenizer.tokenize($0) }
        guard let last = tokens.last(where: { $0.kind != .trivia || segment[$0.start] == UInt8(ascii: "/") }) else { return nil }
        switch last.kind {
        case .string, .quotedIdentifier, .blob: return (last.start, false)
        case .trivia: return (last.start, true)
        default: return nil
        }
    }

    enum Frequency: Equatable {
        case weight(Int)
        /// A `-- freq:` comment whose value is not a whole number from 1 to 1,000,000,000.
        case unreadable(String)
    }

    /// Every frequency a `-- freq: N` or `/* freq: N */` comment (case-insensitive) gives, in order (a block
    /// comment may hold several lines).
    static func frequencies(in bytes: ArraySlice<UInt8>) -> [Frequency] {
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        let isBlock = text.hasPrefix("/*")
        if isBlock {
            text = text.dropFirst(2)
            if text.hasSuffix("*/") { text = text.dropLast(2) }
        }
        var result: [Frequency] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var rest = line.drop(while: { $0.isWhitespace || (isBlock && $0 == "*") })
            if !isBlock {
                guard rest.hasPrefix("--") else { continue }
                rest = rest.dropFirst(2)
            }
            rest = rest.drop(while: { $0.isWhitespace })
            guard rest.lowercased().hasPrefix("freq:") || rest.lowercased().hasPrefix("freq ") || rest.lowercased().hasPrefix("freq=") else { continue }
            rest = rest.dropFirst(4).drop(while: { $0.isWhitespace || $0 == ":" || $0 == "=" })
            let value = rest.prefix(while: { !$0.isWhitespace })
            if let number = Int(value), number >= 1, number <= WorkloadBuilder.maximumWeight {
                result.append(.weight(number))
            } else {
                result.append(.unreadable(String(value.prefix(40))))
            }
        }
        return result
    }
}
