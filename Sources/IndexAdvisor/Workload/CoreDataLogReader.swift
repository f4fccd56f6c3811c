import Foundation

/// Reads Core Data / SwiftData SQL debug output (`-com.apple.CoreData.SQLDebug 1…4`).
///
/// Lines carry the marker `CoreData: ` anywhere (Xcode's console, `log stream`, NSLog prefixes such as
/// `2024-05-01 10:00:00.123 Notes[4242:1234567]`), or start with `sql:` / `annotation:` / `details:` when
/// the marker was stripped. Handled: `sql:` statements, `details: SQLite bind[i] = …` values,
/// `sql connection fetch time: 0.0123s` durations, `… for N rows.` row counts and `on entity 'Note'`.
/// Lines without the marker continue the statement before them, unless they look like another
/// subsystem's log line (they start with a date or a `Process[pid:tid]` prefix); those are skipped
/// and counted. Line shapes are described in the design notes' Core Data log reference.
package enum CoreDataLogReader {
    package static func read(_ text: String, file: String, into builder: inout WorkloadBuilder) {
        if !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }
        var pending: PendingStatement?

        func flush() {
            guard let statement = pending else { return }
            pending = nil
            builder.add(sql: statement.sql, bindings: statement.bindings.isEmpty ? nil : statement.bindings,
                        durationSeconds: statement.seconds, rows: statement.rows, entityName: statement.entity,
                        location: SourceRange(file: file, firstLine: statement.firstLine, lastLine: statement.lastLine))
        }

        var lineNumber = 0
        for rawBytes in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var rawLine = String(decoding: rawBytes, as: UTF8.self)
            if rawLine.hasSuffix("\r") { rawLine.removeLast() }
            lineNumber += 1
            builder.diagnostics.linesRead += 1
            let line = stripANSI(rawLine)
            guard let (level, message) = coreDataMessage(in: line) else {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                if var statement = pending, statement.isOpen, !looksLikeLogLine(trimmed), isPrintable(trimmed),
                   line.first == " " || line.first == "\t" || expectsMore(statement.sql) {
                    statement.sql += " " + trimmed
                    statement.lastLine = lineNumber
                    pending = statement
                } else {
                    builder.diagnostics.skip("not a Core Data line", at: "\(file):\(lineNumber)")
                }
                continue
            }
            switch level {
            case "sql":
                flush()
                pending = PendingStatement(sql: message, firstLine: lineNumber, lastLine: lineNumber)
            case "details":
                if let value = bindValue(in: message) {
                    pending?.bindings.append(value)
                    pending?.lastLine = lineNumber
                } else if message.hasPrefix("SQLite bind") {
                    builder.diagnostics.skip("unreadable bind line", at: "\(file):\(lineNumber)")
                }
                pending?.isOpen = false
            case "annotation":
                pending?.isOpen = false
                pending?.lastLine = lineNumber
                if let seconds = seconds(after: "sql connection fetch time:", in: message)
                    ?? seconds(after: "sql execution time:", in: message) {
                    pending?.seconds = seconds
                } else if message.contains("total fetch execution time:") {
                    if pending?.seconds == nil { pending?.seconds = seconds(after: "total fetch execution time:", in: message) }
                    if let rows = integer(after: " for ", in: message) { pending?.rows = rows }
                } else if message.contains("count request execution time:") {
                    if pending?.seconds == nil { pending?.seconds = seconds(after: "execution time:", in: message) }
                } else if let range = message.range(of: "on entity '") {
                    let rest = message[range.upperBound...]
                    if let end = rest.firstIndex(of: "'") { pending?.entity = String(rest[..<end]) }
                    if let rows = integer(after: " returned ", in: message) { pending?.rows = rows }
                }
            default:
                pending?.isOpen = false
            }
        }
        flush()
    }

    private struct PendingStatement {
        var sql: String
        var bindings: [SQLValue] = []
        var seconds: Double?
        var rows: Int?
        var entity: String?
        var firstLine: Int
        var lastLine: Int
        /// True until an annotation or detail line follows: only then can a line continue the SQL.
        var isOpen = true
    }

    /// The level word (`sql`, `annotation`, `details`, …) and the message after it, when the line is Core Data's.
    static func coreDataMessage(in line: String) -> (String, String)? {
        var rest: Substring
        if let marker = line.range(of: "CoreData: ") {
            rest = line[marker.upperBound...]
        } else {
            rest = Substring(line).drop(while: { $0 == " " || $0 == "\t" })
            guard rest.hasPrefix("sql: ") || rest.hasPrefix("annotation: ") || rest.hasPrefix("details: ") else { return nil }
        }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let level = rest[..<colon]
        guard !level.isEmpty, level.count <= 12, level.allSatisfy(\.isLetter) else { return nil }
        let message = rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return (String(level), message)
    }

    /// The value of a `SQLite bind[i] = value` line: numbers, `"text"`, `nil`, `<hex bytes>`; other text as text.
    static func bindValue(in message: String) -> SQLValue? {
        guard message.hasPrefix("SQLite bind["), let equals = message.range(of: "] = ") else { return nil }
        let raw = message[equals.upperBound...].trimmingCharacters(in: .whitespaces)
        if raw == "nil" || raw == "NULL" || raw == "(null)" { return .null }
        if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") { return .text(String(raw.dropFirst().dropLast())) }
        if raw.hasPrefix("<"), raw.hasSuffix(">") {
            let hex = raw.dropFirst().dropLast().filter { !$0.isWhitespace }
            if !hex.isEmpty, hex.allSatisfy(\.isHexDigit) { return .blob(SQLValue.bytes(fromHex: String(hex))) }
        }
        if let integer = Int64(raw) { return .integer(integer) }
        if let real = Double(raw) { return .real(real) }
        return .text(raw)
    }

    static func seconds(after label: String, in message: String) -> Double? {
        guard let range = message.range(of: label) else { return nil }
        let number = message[range.upperBound...].drop(while: { $0 == " " }).prefix(while: { $0.isNumber || $0 == "." || $0 == "e" || $0 == "-" })
        return Double(number)
    }

    static func integer(after label: String, in message: String) -> Int? {
        guard let range = message.range(of: label, options: .backwards) else { return nil }
        let digits = message[range.upperBound...].drop(while: { $0 == " " }).prefix(while: \.isNumber)
        return Int(digits)
    }

    /// True when `sql` cannot end here: unbalanced parentheses, or it ends with a word or symbol that
    /// needs something after it (`WHERE`, `AND`, `,`, `(`, `=`…).
    static func expectsMore(_ sql: String) -> Bool {
        let list = SQLTokenList(sql)
        var depth = 0
        for i in 0..<list.count {
            if list.isSymbol(i, "(") { depth += 1 } else if list.isSymbol(i, ")") { depth -= 1 }
        }
        if depth > 0 { return true }
        guard list.count > 0 else { return false }
        let last = list.count - 1
        if list.tokens[last].kind == .symbol { return list.text(at: last) != ")" && list.text(at: last) != "*" }
        let words = ["WHERE", "AND", "OR", "ON", "BY", "SET", "VALUES", "FROM", "SELECT", "JOIN", "NOT", "IN", "IS",
                     "LIKE", "GLOB", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "AS", "INTO", "LIMIT", "OFFSET", "HAVING", "DISTINCT"]
        return words.contains { list.isWord(last, $0) }
    }

    /// True when the line has no control characters and no replacement characters from invalid UTF-8.
    static func isPrintable(_ line: String) -> Bool {
        !line.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0xFFFD || $0.value == 0x7F }
    }

    /// True for a line that starts like another log record (a date, or `Name[pid:tid]`).
    static func looksLikeLogLine(_ line: String) -> Bool {
        let bytes = Array(line.utf8.prefix(40))
        if bytes.count >= 10, bytes[0...3].allSatisfy({ $0 >= 48 && $0 <= 57 }), bytes[4] == UInt8(ascii: "-") {
            return true
        }
        if let open = bytes.firstIndex(of: UInt8(ascii: "[")), open > 0,
           let close = bytes[open...].firstIndex(of: UInt8(ascii: "]")),
           bytes[(open + 1)..<close].contains(UInt8(ascii: ":")),
           bytes[(open + 1)..<close].allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "x") }) {
            return true
        }
        return false
    }

    /// `line` without ANSI colour escapes (`ESC [ … m`), as `SyntaxColoredLogging` adds them.
    static func stripANSI(_ line: String) -> String {
        guard line.utf8.contains(0x1B) else { return line }
        var result: [UInt8] = []
        var bytes = Array(line.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == 0x1B, bytes.first == UInt8(ascii: "[") {
                bytes = bytes.dropFirst()
                while let next = bytes.popFirst(), !(next >= 0x40 && next <= 0x7E) {}
                continue
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
