import CSQLite

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

    /// The extended code number `number` of `primary`, as sqlite3.h defines them
    /// (`SQLITE_CONSTRAINT_UNIQUE` is `SQLITE_CONSTRAINT | (8<<8)`).
    init(_ primary: SQLiteResultCode, extended number: Int32) {
        self.init(rawValue: primary.rawValue | number << 8)
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
        Self.names[self] ?? "SQLITE_\(rawValue)"
    }

    /// `SQLITE_OK`: success.
    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error, e.g. a syntax error or a missing table or function.
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`.
    public static let `internal` = SQLiteResultCode(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_PERM`: the requested access mode could not be provided.
    public static let permission = SQLiteResultCode(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT`: an operation was aborted.
    public static let abort = SQLiteResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: another connection holds a conflicting lock on the file.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict within the same connection or shared cache.
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`.
    public static let noMemory = SQLiteResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: a write to a read-only database.
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: `sqlite3_interrupt` stopped the statement (a timeout or the run ending).
    public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: the operating system reported an I/O error (a short read, for one).
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is damaged.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_NOTFOUND`.
    public static let notFound = SQLiteResultCode(rawValue: SQLITE_NOTFOUND)
    /// `SQLITE_FULL`: the disk is full.
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cannotOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_PROTOCOL`: a locking protocol problem.
    public static let `protocol` = SQLiteResultCode(rawValue: SQLITE_PROTOCOL)
    /// `SQLITE_EMPTY`.
    public static let empty = SQLiteResultCode(rawValue: SQLITE_EMPTY)
    /// `SQLITE_SCHEMA`: the schema changed.
    public static let schema = SQLiteResultCode(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG`: a string or blob over the size limit.
    public static let tooBig = SQLiteResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: a data type mismatch.
    public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the library was used incorrectly (also: text that is not what was expected).
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_NOLFS`.
    public static let noLargeFileSupport = SQLiteResultCode(rawValue: SQLITE_NOLFS)
    /// `SQLITE_AUTH`: the authorizer refused.
    public static let authorization = SQLiteResultCode(rawValue: SQLITE_AUTH)
    /// `SQLITE_FORMAT`.
    public static let format = SQLiteResultCode(rawValue: SQLITE_FORMAT)
    /// `SQLITE_RANGE`: a parameter index out of range.
    public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_NOTICE`.
    public static let notice = SQLiteResultCode(rawValue: SQLITE_NOTICE)
    /// `SQLITE_WARNING`.
    public static let warning = SQLiteResultCode(rawValue: SQLITE_WARNING)
    /// `SQLITE_ROW`: `sqlite3_step` has a row.
    public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
    /// `SQLITE_DONE`: `sqlite3_step` has finished.
    public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)

    /// `SQLITE_READONLY_DBMOVED`: the database file was moved or deleted while open.
    public static let readOnlyDatabaseMoved = SQLiteResultCode(.readOnly, extended: 4)
    /// `SQLITE_CONSTRAINT_NOTNULL`.
    public static let constraintNotNull = SQLiteResultCode(.constraint, extended: 5)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let constraintPrimaryKey = SQLiteResultCode(.constraint, extended: 6)
    /// `SQLITE_CONSTRAINT_UNIQUE`.
    public static let constraintUnique = SQLiteResultCode(.constraint, extended: 8)

    /// SQLite's names of the codes above.
    private static let names: [SQLiteResultCode: String] = [
        .ok: "SQLITE_OK", .error: "SQLITE_ERROR", .internal: "SQLITE_INTERNAL", .permission: "SQLITE_PERM",
        .abort: "SQLITE_ABORT", .busy: "SQLITE_BUSY", .locked: "SQLITE_LOCKED", .noMemory: "SQLITE_NOMEM",
        .readOnly: "SQLITE_READONLY", .interrupt: "SQLITE_INTERRUPT", .ioError: "SQLITE_IOERR", .corrupt: "SQLITE_CORRUPT",
        .notFound: "SQLITE_NOTFOUND", .full: "SQLITE_FULL", .cannotOpen: "SQLITE_CANTOPEN", .protocol: "SQLITE_PROTOCOL",
        .empty: "SQLITE_EMPTY", .schema: "SQLITE_SCHEMA", .tooBig: "SQLITE_TOOBIG", .constraint: "SQLITE_CONSTRAINT",
        .mismatch: "SQLITE_MISMATCH", .misuse: "SQLITE_MISUSE", .noLargeFileSupport: "SQLITE_NOLFS",
        .authorization: "SQLITE_AUTH", .format: "SQLITE_FORMAT", .range: "SQLITE_RANGE", .notADatabase: "SQLITE_NOTADB",
        .notice: "SQLITE_NOTICE", .warning: "SQLITE_WARNING", .row: "SQLITE_ROW", .done: "SQLITE_DONE",
        .readOnlyDatabaseMoved: "SQLITE_READONLY_DBMOVED", .constraintNotNull: "SQLITE_CONSTRAINT_NOTNULL",
        .constraintPrimaryKey: "SQLITE_CONSTRAINT_PRIMARYKEY", .constraintUnique: "SQLITE_CONSTRAINT_UNIQUE",
    ]
}
