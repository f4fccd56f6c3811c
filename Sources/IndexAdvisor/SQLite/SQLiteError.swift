/// An error returned by SQLite, with the result code, SQLite's message and the SQL that failed.
///
/// Prints like `SQLite error 1 (SQLITE_ERROR): no such table: t — while executing `SELECT * FROM t``.
/// Result codes are listed on https://sqlite.org/rescode.html.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (the low 8 bits of `extendedCode`), e.g. 1 for `SQLITE_ERROR`, 26 for `SQLITE_NOTADB`.
    public var code: Int32 { extendedCode & 0xFF }
    /// The extended result code, e.g. 1032 for `SQLITE_READONLY_DBMOVED`.
    public let extendedCode: Int32
    /// SQLite's own message (`sqlite3_errmsg`), or the generic text for the code.
    public let message: String
    /// The statement that failed, when the failure came from a statement.
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message.isEmpty ? "unspecified error" : message
        self.sql = sql
    }

    /// The symbolic name of `code`, e.g. `SQLITE_BUSY`.
    public var codeName: String {
        switch code {
        case 1: return "SQLITE_ERROR"
        case 2: return "SQLITE_INTERNAL"
        case 3: return "SQLITE_PERM"
        case 4: return "SQLITE_ABORT"
        case 5: return "SQLITE_BUSY"
        case 6: return "SQLITE_LOCKED"
        case 7: return "SQLITE_NOMEM"
        case 8: return "SQLITE_READONLY"
        case 9: return "SQLITE_INTERRUPT"
        case 10: return "SQLITE_IOERR"
        case 11: return "SQLITE_CORRUPT"
        case 13: return "SQLITE_FULL"
        case 14: return "SQLITE_CANTOPEN"
        case 15: return "SQLITE_PROTOCOL"
        case 17: return "SQLITE_SCHEMA"
        case 18: return "SQLITE_TOOBIG"
        case 19: return "SQLITE_CONSTRAINT"
        case 20: return "SQLITE_MISMATCH"
        case 21: return "SQLITE_MISUSE"
        case 23: return "SQLITE_AUTH"
        case 25: return "SQLITE_RANGE"
        case 26: return "SQLITE_NOTADB"
        default: return "SQLITE_\(code)"
        }
    }

    public var description: String {
        var text = "SQLite error \(code) (\(codeName)): \(message)"
        if let sql {
            text += " — while executing `\(SQLText.oneLine(sql, limit: 300))`"
        }
        return text
    }
}

/// Small helpers for showing SQL text in one-line messages.
package enum SQLText {
    /// `sql` with runs of white space folded to one space, cut to `limit` characters with an ellipsis.
    package static func oneLine(_ sql: String, limit: Int = 200) -> String {
        let folded = sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if folded.count <= limit { return folded }
        return String(folded.prefix(limit)) + "…"
    }
}
