internal import CSQLite
import Foundation

/// The connection statements are planned on, with just the C API the helper needs.
///
/// Either the app's own connection, borrowed (never closed, nothing registered on it), or one the helper
/// opened itself (closed in `deinit`): a store file read-only, or the in-memory mirror database. Only an
/// owned connection gets stand-ins for what the app registers on its own connections: functions
/// (`no such function: NSCoreDataStringSearch`), collations (`NSCollateLocaleSensitive`, through
/// `sqlite3_collation_needed`) and Core Data's key-list tables (`_Z_intarray0`). A plan does not depend on
/// what a function or collation computes, only on its name.
final class PlanningConnection {
    let handle: OpaquePointer
    private let isOwned: Bool
    private var standInFunctions: Set<String> = []

    /// The app's connection, borrowed for the calls made on it.
    init(borrowing handle: OpaquePointer) {
        self.handle = handle
        isOwned = false
    }

    /// Opens the store at `url` with `SQLITE_OPEN_READONLY` (https://sqlite.org/c3ref/open.html).
    /// - Throws: ``QueryPlanError/storeNotOpened(code:message:path:)``.
    convenience init(readOnlyStoreAt url: URL) throws(QueryPlanError) {
        try self.init(opening: url.path, flags: SQLITE_OPEN_READONLY)
    }

    /// A new, empty in-memory database.
    static func inMemory() throws(QueryPlanError) -> PlanningConnection {
        try PlanningConnection(opening: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    }

    private init(opening path: String, flags: Int32) throws(QueryPlanError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw .storeNotOpened(code: rc, message: message, path: path)
        }
        handle = db
        isOwned = true
        // Any collation a statement names is given a stand-in that compares bytes, as BINARY does.
        sqlite3_collation_needed(db, nil) { _, db, _, name in
            guard let db, let name else { return }
            sqlite3_create_collation_v2(db, name, SQLITE_UTF8, nil, { _, leftLength, left, rightLength, right in
                let common = Int(min(leftLength, rightLength))
                guard common > 0, let left, let right else { return leftLength - rightLength }
                let order = memcmp(left, right, common)
                return order != 0 ? order : leftLength - rightLength
            }, nil)
        }
    }

    deinit {
        if isOwned { sqlite3_close_v2(handle) }
    }

    /// The rows of `sql` with `bindings` bound in order, each as its columns' values.
    /// - Throws: ``QueryPlanError/statementFailed(code:message:sql:)`` when it does not prepare or fails to run.
    func query(_ sql: String, bindings: [SQLiteValue] = []) throws(QueryPlanError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for (offset, value) in bindings.enumerated() where offset < Int(sqlite3_bind_parameter_count(statement)) {
            bind(value, at: Int32(offset + 1), to: statement)
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw failure(rc, sql) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    /// Runs `sql` (one or more statements without results).
    func execute(_ sql: String) throws(QueryPlanError) {
        let rc = sqlite3_exec(handle, Self.marker + sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc, sql) }
    }

    /// The number of rows in `table` (`SELECT count(*)`).
    func rowCount(of table: String) throws(QueryPlanError) -> Int {
        guard case .integer(let count)? = try query("SELECT count(*) FROM \(quote(table))").first?.first else { return 0 }
        return Int(count)
    }

    /// Leads the text of every statement the helper prepares, so that a recording open on the same connection
    /// leaves them out (``RecordingTap``).
    static let marker = "/* IndexAdvisorTesting */ "

    private func prepare(_ sql: String) throws(QueryPlanError) -> OpaquePointer {
        var attempts = 0
        while true {
            var statement: OpaquePointer?
            let rc = sqlite3_prepare_v2(handle, Self.marker + sql, -1, &statement, nil)
            if rc == SQLITE_OK, let statement { return statement }
            sqlite3_finalize(statement)
            let message = String(cString: sqlite3_errmsg(handle))
            attempts += 1
            guard isOwned, attempts < 32, rc == SQLITE_ERROR, try standIn(for: message) else {
                throw .statementFailed(code: rc, message: message, sql: sql)
            }
        }
    }

    /// Registers a stand-in for what `message` says is missing; false when it names nothing a stand-in can be.
    private func standIn(for message: String) throws(QueryPlanError) -> Bool {
        if let name = Self.name(after: "no such function: ", in: message), standInFunctions.insert(name).inserted {
            let rc = sqlite3_create_function_v2(handle, name, -1, SQLITE_UTF8, nil, { context, _, _ in
                sqlite3_result_null(context)
            }, nil, nil, nil)
            return rc == SQLITE_OK
        }
        if let name = Self.name(after: "no such table: ", in: message) {
            let table = name.split(separator: ".").last.map(String.init) ?? name
            guard table.lowercased().hasPrefix("_z_intarray") else { return false }
            try execute("CREATE TEMP TABLE IF NOT EXISTS \(quote(table)) (value INTEGER PRIMARY KEY)")
            return true
        }
        return false
    }

    private static func name(after prefix: String, in message: String) -> String? {
        guard let range = message.range(of: prefix) else { return nil }
        let name = message[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    private func failure(_ rc: Int32, _ sql: String) -> QueryPlanError {
        .statementFailed(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    private func bind(_ value: SQLiteValue, at index: Int32, to statement: OpaquePointer) {
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let value): sqlite3_bind_int64(statement, index, value)
        case .real(let value): sqlite3_bind_double(statement, index, value)
        case .text(let value): sqlite3_bind_text(statement, index, value, -1, ia_sqlite_transient())
        case .blob(let bytes): sqlite3_bind_blob(statement, index, bytes, Int32(bytes.count), ia_sqlite_transient())
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}

/// `name` as a double-quoted SQL identifier: `my "t"` becomes `"my ""t"""`.
func quote(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

extension SQLiteValue {
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
