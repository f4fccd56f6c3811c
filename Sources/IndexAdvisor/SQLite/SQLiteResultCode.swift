/// A SQLite result code (https://sqlite.org/rescode.html): a primary code such as ``busy``, or an extended
/// code such as ``constraintUnique``, whose low 8 bits are its primary code.
///
/// In a `switch` or a `catch … where`, a primary code matches every extended code of its kind, and an
/// extended code matches only itself:
///
/// ```swift
/// switch error.extendedCode {
/// case .busy, .locked: retryLater()        // also SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_SHAREDCACHE, …
/// case .constraintUnique: reportDuplicate()
/// default: throw error
/// }
/// ```
///
/// `==` compares exactly; ``SQLiteError/code`` is always primary, ``SQLiteError/extendedCode`` may not be.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number SQLite returns, e.g. 5 for `SQLITE_BUSY`, 2067 for `SQLITE_CONSTRAINT_UNIQUE`.
    public let rawValue: Int32

    /// The code `rawValue`, as a C function returned it.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low 8 bits (itself when it is one).
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// True when this is a primary code, not an extended one.
    public var isPrimary: Bool { rawValue == rawValue & 0xFF }

    /// A primary `pattern` matches `code` and every extended code of it; an extended one only itself.
    public static func ~= (pattern: SQLiteResultCode, code: SQLiteResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primary : pattern == code
    }

    /// True when `error` is a ``SQLiteError`` whose extended code `pattern` matches:
    /// `catch SQLiteResultCode.interrupt { … }`.
    public static func ~= (pattern: SQLiteResultCode, error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return pattern ~= error.extendedCode
    }

    /// SQLite's name for the code, e.g. `SQLITE_BUSY`; `SQLITE_<number>` for a code not listed here.
    public var description: String {
        Self.names[rawValue] ?? "SQLITE_\(rawValue)"
    }

    /// `SQLITE_OK`: success.
    public static let ok = SQLiteResultCode(rawValue: 0)
    /// `SQLITE_ERROR`: a generic error, e.g. a syntax error or a missing table or function.
    public static let error = SQLiteResultCode(rawValue: 1)
    /// `SQLITE_INTERNAL`.
    public static let `internal` = SQLiteResultCode(rawValue: 2)
    /// `SQLITE_PERM`: the requested access mode could not be provided.
    public static let permission = SQLiteResultCode(rawValue: 3)
    /// `SQLITE_ABORT`: an operation was aborted.
    public static let abort = SQLiteResultCode(rawValue: 4)
    /// `SQLITE_BUSY`: another connection holds a conflicting lock on the file.
    public static let busy = SQLiteResultCode(rawValue: 5)
    /// `SQLITE_LOCKED`: a conflict within the same connection or shared cache.
    public static let locked = SQLiteResultCode(rawValue: 6)
    /// `SQLITE_NOMEM`.
    public static let noMemory = SQLiteResultCode(rawValue: 7)
    /// `SQLITE_READONLY`: a write to a read-only database.
    public static let readOnly = SQLiteResultCode(rawValue: 8)
    /// `SQLITE_INTERRUPT`: `sqlite3_interrupt` stopped the statement (a timeout or the run ending).
    public static let interrupt = SQLiteResultCode(rawValue: 9)
    /// `SQLITE_IOERR`: the operating system reported an I/O error (a short read, for one).
    public static let ioError = SQLiteResultCode(rawValue: 10)
    /// `SQLITE_CORRUPT`: the database file is damaged.
    public static let corrupt = SQLiteResultCode(rawValue: 11)
    /// `SQLITE_NOTFOUND`.
    public static let notFound = SQLiteResultCode(rawValue: 12)
    /// `SQLITE_FULL`: the disk is full.
    public static let full = SQLiteResultCode(rawValue: 13)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cannotOpen = SQLiteResultCode(rawValue: 14)
    /// `SQLITE_PROTOCOL`: a locking protocol problem.
    public static let `protocol` = SQLiteResultCode(rawValue: 15)
    /// `SQLITE_EMPTY`.
    public static let empty = SQLiteResultCode(rawValue: 16)
    /// `SQLITE_SCHEMA`: the schema changed.
    public static let schema = SQLiteResultCode(rawValue: 17)
    /// `SQLITE_TOOBIG`: a string or blob over the size limit.
    public static let tooBig = SQLiteResultCode(rawValue: 18)
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    public static let constraint = SQLiteResultCode(rawValue: 19)
    /// `SQLITE_MISMATCH`: a data type mismatch.
    public static let mismatch = SQLiteResultCode(rawValue: 20)
    /// `SQLITE_MISUSE`: the library was used incorrectly (also: text that is not what was expected).
    public static let misuse = SQLiteResultCode(rawValue: 21)
    /// `SQLITE_NOLFS`.
    public static let noLargeFileSupport = SQLiteResultCode(rawValue: 22)
    /// `SQLITE_AUTH`: the authorizer refused.
    public static let authorization = SQLiteResultCode(rawValue: 23)
    /// `SQLITE_FORMAT`.
    public static let format = SQLiteResultCode(rawValue: 24)
    /// `SQLITE_RANGE`: a parameter index out of range.
    public static let range = SQLiteResultCode(rawValue: 25)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = SQLiteResultCode(rawValue: 26)
    /// `SQLITE_NOTICE`.
    public static let notice = SQLiteResultCode(rawValue: 27)
    /// `SQLITE_WARNING`.
    public static let warning = SQLiteResultCode(rawValue: 28)
    /// `SQLITE_ROW`: `sqlite3_step` has a row.
    public static let row = SQLiteResultCode(rawValue: 100)
    /// `SQLITE_DONE`: `sqlite3_step` has finished.
    public static let done = SQLiteResultCode(rawValue: 101)

    /// `SQLITE_READONLY_DBMOVED`: the database file was moved or deleted while open.
    public static let readOnlyDatabaseMoved = SQLiteResultCode(rawValue: 1032)
    /// `SQLITE_CONSTRAINT_NOTNULL`.
    public static let constraintNotNull = SQLiteResultCode(rawValue: 1299)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let constraintPrimaryKey = SQLiteResultCode(rawValue: 1555)
    /// `SQLITE_CONSTRAINT_UNIQUE`.
    public static let constraintUnique = SQLiteResultCode(rawValue: 2067)

    private static let names: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
        5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
        10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN",
        15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
        20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT",
        25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE", 28: "SQLITE_WARNING",
        100: "SQLITE_ROW", 101: "SQLITE_DONE",
        1032: "SQLITE_READONLY_DBMOVED", 1299: "SQLITE_CONSTRAINT_NOTNULL", 1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        2067: "SQLITE_CONSTRAINT_UNIQUE",
    ]
}
