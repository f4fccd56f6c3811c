import CSQLite

/// A prepared statement (`sqlite3_stmt*`), finalized when the object is released.
package final class SQLiteStatement {
    let handle: OpaquePointer
    /// Kept so that the connection outlives its statements.
    package let connection: SQLiteConnection
    /// The SQL the statement was prepared from.
    package let sql: String

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of parameters (`?`, `?NNN`, `:name`…); the largest index (https://sqlite.org/c3ref/bind_parameter_count.html).
    package var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }
    /// The number of result columns.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }
    /// True when the statement makes no direct change to the database (https://sqlite.org/c3ref/stmt_readonly.html).
    package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Rewinds the statement and binds `values` to parameters 1…n; extra parameters stay NULL, extra
    /// values are ignored.
    /// - Throws: ``SQLiteError`` from `sqlite3_bind_*`.
    package func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        try connection.check(sqlite3_clear_bindings(handle), sql: sql)
        for (offset, value) in values.prefix(parameterCount).enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    package func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            rc = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            rc = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            rc = text.withCString { pointer in
                sqlite3_bind_text(handle, index, pointer, Int32(clamping: text.utf8.count), ia_sqlite_transient())
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                rc = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                rc = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(clamping: buffer.count), ia_sqlite_transient())
                }
            }
        }
        try connection.check(rc, sql: sql)
    }

    /// Advances to the next row: true when a row is available, false when the statement is done.
    /// - Throws: ``SQLiteError`` for any other result; the statement is reset so it can run again.
    @discardableResult
    package func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(for: rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Steps through every row and returns how many there were; the statement is reset afterwards.
    @discardableResult
    package func run() throws -> Int {
        defer { sqlite3_reset(handle) }
        var rows = 0
        while try step() { rows += 1 }
        return rows
    }

    /// Virtual machine steps this statement ran since the last call with `reset` (https://sqlite.org/c3ref/stmt_status.html,
    /// `SQLITE_STMTSTATUS_VM_STEP`): deterministic for the same plan, data and bound values.
    package func virtualMachineSteps(reset: Bool) -> Int64 {
        Int64(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, reset ? 1 : 0))
    }

    /// Rewinds the statement so it can run again with the same or new bindings.
    package func reset() {
        sqlite3_reset(handle)
    }

    /// The name of result column `index` (0-based).
    package func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The value of result column `index` (0-based) in the current row.
    package func column(_ index: Int) -> SQLValue {
        let i = Int32(index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, i))
            guard let pointer = sqlite3_column_text(handle, i) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, i))
            guard count > 0, let pointer = sqlite3_column_blob(handle, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    /// Every column of the current row.
    package func row() -> [SQLValue] {
        (0..<columnCount).map(column)
    }
}
