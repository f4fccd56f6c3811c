/// An error returned by SQLite, with the result code, SQLite's message and the SQL that failed.
///
/// Prints like `SQLite error 1 (SQLITE_ERROR): no such table: t — while executing `SELECT * FROM t``.
/// Result codes are listed on https://sqlite.org/rescode.html.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (the low 8 bits of `extendedCode`), e.g. ``SQLiteResultCode/error``,
    /// ``SQLiteResultCode/notADatabase``.
    public var code: SQLiteResultCode { extendedCode.primary }
    /// The extended result code, e.g. ``SQLiteResultCode/readOnlyDatabaseMoved``; the primary code when
    /// SQLite gave no more detail. `switch error.extendedCode { case .busy: … }` matches both.
    public let extendedCode: SQLiteResultCode
    /// SQLite's own message (`sqlite3_errmsg`), or the generic text for the code.
    public let message: String
    /// The statement that failed, when the failure came from a statement.
    public let sql: String?

    /// An error with SQLite's (extended) result code, its message (empty reads "unspecified error") and the
    /// statement that failed, if any.
    public init(extendedCode: SQLiteResultCode, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message.isEmpty ? "unspecified error" : message
        self.sql = sql
    }

    /// The symbolic name of `code`, e.g. `SQLITE_BUSY`.
    public var codeName: String { code.description }

    public var description: String {
        var text = "SQLite error \(code.rawValue) (\(codeName)): \(message)"
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
