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

    // The primary codes of sqlite3.h, grouped by what they mean for a caller (https://sqlite.org/rescode.html).
    // Several to a declaration: each group's comment says what each of its codes means.

    /// Results that are no error: `SQLITE_OK` (success), `SQLITE_ROW` (`sqlite3_step` has a row),
    /// `SQLITE_DONE` (`sqlite3_step` has finished).
    public static let ok = Self(rawValue: SQLITE_OK), row = Self(rawValue: SQLITE_ROW), done = Self(rawValue: SQLITE_DONE)
    /// Errors in the SQL or in the calls: `SQLITE_ERROR` (a syntax error, a missing table or function),
    /// `SQLITE_MISUSE` (the library used incorrectly; also text that is not what was expected),
    /// `SQLITE_RANGE` (a parameter index out of range), `SQLITE_MISMATCH` (a data type mismatch),
    /// `SQLITE_TOOBIG` (a string or blob over the size limit), `SQLITE_SCHEMA` (the schema changed).
    public static let error = Self(rawValue: SQLITE_ERROR), misuse = Self(rawValue: SQLITE_MISUSE), range = Self(rawValue: SQLITE_RANGE),
        mismatch = Self(rawValue: SQLITE_MISMATCH), tooBig = Self(rawValue: SQLITE_TOOBIG), schema = Self(rawValue: SQLITE_SCHEMA)
    /// Conflicts with other work on the file: `SQLITE_BUSY` (another connection holds a conflicting lock),
    /// `SQLITE_LOCKED` (a conflict within the same connection or shared cache), `SQLITE_INTERRUPT`
    /// (`sqlite3_interrupt` stopped the statement: a timeout or the run ending), `SQLITE_ABORT` (an
    /// operation was aborted), `SQLITE_PROTOCOL` (a locking protocol problem).
    public static let busy = Self(rawValue: SQLITE_BUSY), locked = Self(rawValue: SQLITE_LOCKED), interrupt = Self(rawValue: SQLITE_INTERRUPT),
        abort = Self(rawValue: SQLITE_ABORT), `protocol` = Self(rawValue: SQLITE_PROTOCOL)
    /// Problems with the file: `SQLITE_CANTOPEN` (it could not be opened), `SQLITE_NOTADB` (it is not a
    /// database), `SQLITE_CORRUPT` (it is damaged), `SQLITE_READONLY` (a write to a read-only database),
    /// `SQLITE_PERM` (the requested access mode could not be provided), `SQLITE_IOERR` (the operating
    /// system reported an I/O error, a short read for one), `SQLITE_FULL` (the disk is full),
    /// `SQLITE_NOLFS` (no large file support), `SQLITE_FORMAT` (unused), `SQLITE_EMPTY` (unused).
    public static let cannotOpen = Self(rawValue: SQLITE_CANTOPEN), notADatabase = Self(rawValue: SQLITE_NOTADB),
        corrupt = Self(rawValue: SQLITE_CORRUPT), readOnly = Self(rawValue: SQLITE_READONLY), permission = Self(rawValue: SQLITE_PERM),
        ioError = Self(rawValue: SQLITE_IOERR), full = Self(rawValue: SQLITE_FULL), noLargeFileSupport = Self(rawValue: SQLITE_NOLFS),
        format = Self(rawValue: SQLITE_FORMAT), empty = Self(rawValue: SQLITE_EMPTY)
    /// Everything else: `SQLITE_CONSTRAINT` (a constraint was violated), `SQLITE_AUTH` (the authorizer
    /// refused), `SQLITE_NOMEM` (out of memory), `SQLITE_INTERNAL` (an internal malfunction),
    /// `SQLITE_NOTFOUND` (a file control or system call not known), `SQLITE_NOTICE` and `SQLITE_WARNING`
    /// (for the error log only).
    public static let constraint = Self(rawValue: SQLITE_CONSTRAINT), authorization = Self(rawValue: SQLITE_AUTH),
        noMemory = Self(rawValue: SQLITE_NOMEM), `internal` = Self(rawValue: SQLITE_INTERNAL), notFound = Self(rawValue: SQLITE_NOTFOUND),
        notice = Self(rawValue: SQLITE_NOTICE), warning = Self(rawValue: SQLITE_WARNING)

    /// The extended codes the library matches: `SQLITE_READONLY_DBMOVED` (the database file was moved or
    /// deleted while open), `SQLITE_CONSTRAINT_NOTNULL`, `SQLITE_CONSTRAINT_PRIMARYKEY`, `SQLITE_CONSTRAINT_UNIQUE`.
    public static let readOnlyDatabaseMoved = Self(.readOnly, extended: 4), constraintNotNull = Self(.constraint, extended: 5),
        constraintPrimaryKey = Self(.constraint, extended: 6), constraintUnique = Self(.constraint, extended: 8)

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
