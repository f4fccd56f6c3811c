import CSQLite
import Foundation
import Locking

/// One SQLite database connection (`sqlite3*`), closed when the object is released.
///
/// Not thread-safe: use a connection from one thread at a time. Every SQLite call that can fail goes
/// through `check(_:sql:)`, which throws ``SQLiteError`` with the code, message and SQL.
package final class SQLiteConnection {
    /// How to open a database file (https://sqlite.org/c3ref/open.html).
    package enum OpenMode: Sendable {
        /// `SQLITE_OPEN_READONLY`: no write is possible through this connection.
        case readOnly
        /// `SQLITE_OPEN_READWRITE`: the file must exist.
        case readWrite
        /// `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`.
        case readWriteCreate
    }

    /// The path or URI the connection was opened with; `:memory:` for an in-memory database.
    package let path: String
    let handle: OpaquePointer

    /// Collations SQLite asked for that no one had registered, each given a stand-in (see `installStandIns()`).
    package private(set) var standInCollations: Set<String> = []
    /// Functions given a stand-in with `registerStandInFunction(named:)`.
    package private(set) var standInFunctions: Set<String> = []
    /// When set, a running statement is interrupted (`SQLITE_INTERRUPT`) once the monotonic clock passes
    /// this deadline, in nanoseconds of `DispatchTime.now().uptimeNanoseconds`.
    package var statementDeadline: UInt64?

    /// Opens `path` (a file path, `:memory:`, or a `file:` URI when `uri` is true).
    /// - Throws: ``SQLiteError`` from `sqlite3_open_v2`; the handle is closed before throwing.
    package init(path: String, mode: OpenMode, uri: Bool = false) throws {
        var flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        flags |= SQLITE_OPEN_NOMUTEX
        if uri { flags |= SQLITE_OPEN_URI }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let extended = db.map { sqlite3_extended_errcode($0) } ?? rc
            sqlite3_close_v2(db)
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: extended), message: message)
        }
        self.path = path
        self.handle = db
        sqlite3_extended_result_codes(db, 1)
        // No statement on an indexadvisor connection may reach another database file: a crafted schema or
        // workload must not ATTACH anything. The sampler lifts this for its one ATTACH (`allowAttach()`).
        sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0)
        OpenConnections.shared.add(db)
        installProgressHandler()
    }

    /// Stops SQLite in this process for good: every running statement is interrupted (`sqlite3_interrupt`,
    /// safe from any thread), and from now on every statement is interrupted at its first progress callback
    /// and none can be prepared. The signal handler calls it before it deletes the private directory, so that
    /// no statement recreates a journal there. There is no way back.
    package static func stopAll() {
        OpenConnections.shared.stopAll()
    }

    /// True once `stopAll()` has run.
    package static var isStopped: Bool { OpenConnections.shared.isStopped }

    /// Allows exactly one attached database on this connection (used to copy from the snapshot).
    package func allowAttach() {
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 1)
    }

    /// An in-memory database.
    package static func inMemory() throws -> SQLiteConnection {
        try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
    }

    deinit {
        OpenConnections.shared.remove(handle)
        sqlite3_close_v2(handle)
    }

    /// Interrupts a statement once `statementDeadline` has passed, or once `stopAll()` has run.
    private func installProgressHandler() {
        sqlite3_progress_handler(handle, 1000, { context in
            guard let context else { return 0 }
            if OpenConnections.shared.isStopped { return 1 }
            let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
            guard let deadline = connection.statementDeadline else { return 0 }
            return DispatchTime.now().uptimeNanoseconds > deadline ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Throws ``SQLiteError`` unless `rc` is `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE`.
    package func check(_ rc: Int32, sql: String? = nil) throws {
        guard rc != SQLITE_OK, rc != SQLITE_ROW, rc != SQLITE_DONE else { return }
        throw error(for: rc, sql: sql)
    }

    /// The error for a result code, with this connection's current message.
    package func error(for rc: Int32, sql: String?) -> SQLiteError {
        let message = String(cString: sqlite3_errmsg(handle))
        let extended = SQLiteResultCode(rawValue: sqlite3_extended_errcode(handle))
        let code = SQLiteResultCode(rawValue: rc)
        // sqlite3_errmsg describes the most recent call; fall back to the code's text if it disagrees.
        if extended.primary == code.primary {
            return SQLiteError(extendedCode: extended, message: message, sql: sql)
        }
        return SQLiteError(extendedCode: code, message: String(cString: sqlite3_errstr(rc)), sql: sql)
    }

    /// Runs one or more statements that return no rows of interest (`sqlite3_exec`).
    package func execute(_ sql: String) throws {
        if Self.isStopped { throw SQLiteError(extendedCode: .interrupt, message: "interrupted: the run is ending", sql: sql) }
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: sqlite3_extended_errcode(handle)), message: text, sql: sql)
        }
    }

    /// Runs SQL that came from a store's `sqlite_schema`: exactly one statement, which must start with
    /// `CREATE` (a table, index, view or trigger definition). Anything after the first statement, or any
    /// other kind of statement, is refused: schema text is data, and a crafted store must not be able to
    /// make indexadvisor run statements of its choosing.
    /// A function the definition calls that this connection lacks (an app's function in a CHECK, a generated
    /// column or an expression index) gets a stand-in (`registerStandInFunction(named:)`), as for statements.
    /// - Throws: ``SQLiteError`` (`SQLITE_MISUSE`) for text that is not a single CREATE statement, or SQLite's error.
    package func executeDefinition(_ sql: String) throws {
        var attempts = 0
        while true {
            do {
                return try executeDefinitionOnce(sql)
            } catch let error as SQLiteError where error.code == .error && attempts < 32 {
                attempts += 1
                guard let range = error.message.range(of: "no such function: ") else { throw error }
                let name = String(error.message[range.upperBound...])
                guard !name.isEmpty, !standInFunctions.contains(name) else { throw error }
                try registerStandInFunction(named: name)
            }
        }
    }

    private func executeDefinitionOnce(_ sql: String) throws {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let rc = sql.withCString { text in
            let result = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            if let tail, result == SQLITE_OK {
                let rest = String(cString: tail)
                let trimmed = SQLTokenizer.tokenize(rest).filter { $0.kind != .trivia && $0.kind != .semicolon }
                if !trimmed.isEmpty { return SQLITE_MISUSE }
            }
            return result
        }
        defer { sqlite3_finalize(statement) }
        if rc == SQLITE_MISUSE {
            throw SQLiteError(extendedCode: .misuse, message: "schema text holds more than one statement; refused", sql: sql)
        }
        try check(rc, sql: sql)
        guard let statement else { return }
        let first = SQLTokenList(sql)
        guard first.isWord(0, "CREATE") else {
            throw SQLiteError(extendedCode: .misuse, message: "schema text is not a CREATE statement; refused", sql: sql)
        }
        let step = sqlite3_step(statement)
        if step != SQLITE_DONE && step != SQLITE_ROW { throw error(for: step, sql: sql) }
    }

    /// Compiles the first statement in `sql`.
    /// - Throws: ``SQLiteError`` when SQLite rejects it, or when `sql` holds no statement.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        if Self.isStopped { throw SQLiteError(extendedCode: .interrupt, message: "interrupted: the run is ending", sql: sql) }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        if rc != SQLITE_OK {
            sqlite3_finalize(statement)
            throw error(for: rc, sql: sql)
        }
        guard let statement else {
            throw SQLiteError(extendedCode: .misuse, message: "no statement in the text", sql: sql)
        }
        return SQLiteStatement(handle: statement, connection: self, sql: sql)
    }

    /// Every row of `sql` with `values` bound, as arrays of values.
    package func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [[SQLValue]] = []
        while try statement.step() {
            rows.append(statement.row())
        }
        return rows
    }

    /// The first column of the first row of `sql`, or nil when there is no row.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.column(0) : nil
    }

    /// Pages this connection requested from its page cache (hits plus misses) since the last call with
    /// `reset` (https://sqlite.org/c3ref/c_dbstatus_options.html, `SQLITE_DBSTATUS_CACHE_HIT` and `_MISS`):
    /// the B-tree pages a statement visited, whether or not they were cached.
    package func pageLookups(reset: Bool) -> Int64 {
        var hits: Int32 = 0, misses: Int32 = 0, highwater: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_HIT, &hits, &highwater, reset ? 1 : 0)
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &misses, &highwater, reset ? 1 : 0)
        return Int64(hits) + Int64(misses)
    }

    /// Page-cache misses since the counters were last reset (``pageLookups(reset:)`` with `reset` true):
    /// the pages SQLite had to read from the file (or the WAL).
    package func pageCacheMisses() -> Int64 {
        var misses: Int32 = 0, highwater: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &misses, &highwater, 0)
        return Int64(misses)
    }

    /// How many pages this connection's page cache holds (`PRAGMA cache_size`, in pages, or in KiB when
    /// negative: https://sqlite.org/pragma.html#pragma_cache_size); nil when it cannot be read.
    package func pageCacheCapacity() -> Int64? {
        guard let size = (try? scalar("PRAGMA cache_size"))?.integerValue else { return nil }
        if size >= 0 { return size }
        guard let pageSize = (try? scalar("PRAGMA page_size"))?.integerValue, pageSize > 0 else { return nil }
        return -size * 1024 / pageSize
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// True when no transaction is open on the connection (https://sqlite.org/c3ref/get_autocommit.html): a
    /// `SAVEPOINT` now begins one, which `ROLLBACK` ends without committing anything.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The names of the indexes in the main and temp schemas, read again only when either's `PRAGMA
    /// schema_version` says it changed (https://sqlite.org/pragma.html#pragma_schema_version): plans are read many times between two index builds.
    package func indexNames() -> [String] {
        let version = ["main", "temp"].map { (try? scalar("PRAGMA \($0).schema_version"))?.integerValue ?? -1 }
        if let cached = indexNameCache, cached.version == version { return cached.names }
        let names = ((try? query("SELECT name FROM sqlite_master WHERE type = 'index' UNION ALL SELECT name FROM sqlite_temp_master WHERE type = 'index'")) ?? [])
            .compactMap { $0.first?.textValue }
        indexNameCache = (version, names)
        return names
    }
    private var indexNameCache: (version: [Int64], names: [String])?

    /// Waits up to `milliseconds` for a lock held by another connection (https://sqlite.org/c3ref/busy_timeout.html).
    package func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// The linked SQLite library's version, e.g. "3.40.1".
    package static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Copies the whole `main` database of this connection into `destination`'s `main` with the online
    /// backup API (https://sqlite.org/backup.html). The copy is one consistent read transaction of the
    /// source, so it includes committed WAL frames and nothing uncommitted.
    /// - Throws: ``SQLiteError`` from `sqlite3_backup_*`, e.g. `SQLITE_BUSY` when the source stays locked.
    package func backup(into destination: SQLiteConnection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.error(for: sqlite3_errcode(destination.handle), sql: nil)
        }
        var rc: SQLiteResultCode
        // Until done or failed; busy or locked is a failure too: the source's busy handler has already
        // waited its timeout.
        repeat {
            rc = SQLiteResultCode(rawValue: sqlite3_backup_step(backup, -1))
        } while rc == .ok
        let finish = sqlite3_backup_finish(backup)
        switch rc {
        case .done:
            try destination.check(finish)
        case .busy, .locked:
            throw SQLiteError(extendedCode: rc, message: "the store is locked by another connection")
        default:
            throw SQLiteError(extendedCode: rc, message: String(cString: sqlite3_errstr(rc.rawValue)))
        }
    }

    // MARK: Stand-ins for functions and collations that only an app's own connection has

    /// Gives every collation SQLite cannot find a stand-in (case-insensitive byte order), and records its name.
    ///
    /// Core Data registers `NSCollate…` collations on its own connection; statements logged from it
    /// do not prepare elsewhere without them (https://sqlite.org/c3ref/collation_needed.html).
    package func installStandIns() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_collation_needed(handle, context) { context, db, _, name in
            guard let context, let db, let name else { return }
            let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
            sqlite3_create_collation_v2(db, name, SQLITE_UTF8, nil, standInCollationCompare, nil)
            connection.standInCollations.insert(String(cString: name))
        }
    }

    /// Registers `indexadvisor_mix(x)`: SplitMix64's finaliser of the integer `x`, as a non-negative integer.
    /// Deterministic and well mixed, so `indexadvisor_mix(rowid) % k = 0` keeps a 1-in-k sample that does not
    /// follow patterns in the rowids (https://prng.di.unimi.it/splitmix64.c).
    package func registerMixFunction() throws {
        let rc = sqlite3_create_function_v2(handle, "indexadvisor_mix", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, argv in
            var z = UInt64(bitPattern: sqlite3_value_int64(argv![0])) &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            sqlite3_result_int64(context, Int64(bitPattern: z >> 1))
        }, nil, nil, nil)
        try check(rc)
    }

    /// Registers a stand-in for an application-defined SQL function named `name` (any argument count).
    ///
    /// Functions whose name starts with `NSCoreData` (Core Data's string search and LIKE) get a
    /// case- and diacritic-insensitive substring match of argument 2 in argument 1 (as `CONTAINS[cd]`), returning 0 or 1, so that their
    /// cost and selectivity are close to the real ones; any other function returns NULL.
    package func registerStandInFunction(named name: String) throws {
        let isStringSearch = name.lowercased().hasPrefix("nscoredata")
        let rc = isStringSearch
            ? sqlite3_create_function_v2(handle, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                         standInStringSearch, nil, nil, nil)
            : sqlite3_create_function_v2(handle, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                         standInNull, nil, nil, nil)
        try check(rc)
        standInFunctions.insert(name)
    }
}

/// Case-insensitive (ASCII) byte comparison, then by length.
private func standInCollationCompare(
    _: UnsafeMutableRawPointer?, _ leftCount: Int32, _ left: UnsafeRawPointer?,
    _ rightCount: Int32, _ right: UnsafeRawPointer?
) -> Int32 {
    let count = Int(min(leftCount, rightCount))
    let l = left?.assumingMemoryBound(to: UInt8.self)
    let r = right?.assumingMemoryBound(to: UInt8.self)
    for i in 0..<count {
        var a = l![i], b = r![i]
        if a >= 65 && a <= 90 { a += 32 }
        if b >= 65 && b <= 90 { b += 32 }
        if a != b { return a < b ? -1 : 1 }
    }
    return leftCount == rightCount ? 0 : (leftCount < rightCount ? -1 : 1)
}

private func standInStringSearch(_ context: OpaquePointer?, _ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?) {
    guard argc >= 2, let argv,
          let haystackPointer = sqlite3_value_text(argv[0]),
          let needlePointer = sqlite3_value_text(argv[1]) else {
        sqlite3_result_null(context)
        return
    }
    // ASCII text (the common case) needs no Unicode folding: a byte search that ignores ASCII case matches
    // the same rows, at a fraction of the cost. Folding every row through Foundation made a new user's
    // substring search on 300,000 tasks 670 ms–1.2 s per execution, where the device's log said 151 ms:
    // the stand-in's own cost, not the statement's, was timed.
    let haystackCount = Int(sqlite3_value_bytes(argv[0]))
    let needleCount = Int(sqlite3_value_bytes(argv[1]))
    let hay = UnsafeBufferPointer(start: haystackPointer, count: haystackCount)
    let pin = UnsafeBufferPointer(start: needlePointer, count: needleCount)
    if hay.allSatisfy({ $0 < 0x80 }), pin.allSatisfy({ $0 < 0x80 }) {
        sqlite3_result_int(context, asciiContainsIgnoringCase(hay, pin.filter { $0 != UInt8(ascii: "*") && $0 != UInt8(ascii: "%") }) ? 1 : 0)
        return
    }
    // Folded as CONTAINS[cd] compares (the form Core Data's string search is used in): "Müller" contains
    // "mull". Folding case alone matched a twelfth as many rows of a held-out contact list, so a `LIMIT 50`
    // search walked the whole sort index instead of stopping early, and was timed 3× slower than it runs.
    let haystack = String(cString: haystackPointer).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    var needle = String(cString: needlePointer).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    needle.removeAll { $0 == "*" || $0 == "%" }
    sqlite3_result_int(context, needle.isEmpty || haystack.contains(needle) ? 1 : 0)
}

/// True when `needle` occurs in `haystack`, ASCII letters compared without case; an empty needle occurs.
private func asciiContainsIgnoringCase(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard needle.count <= haystack.count else { return false }
    @inline(__always) func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c + 32 : c }
    let folded = needle.map(lower)
    let first = folded[0]
    var i = 0
    let last = haystack.count - folded.count
    while i <= last {
        if lower(haystack[i]) == first {
            var j = 1
            while j < folded.count && lower(haystack[i + j]) == folded[j] { j += 1 }
            if j == folded.count { return true }
        }
        i += 1
    }
    return false
}

private func standInNull(_ context: OpaquePointer?, _: Int32, _: UnsafeMutablePointer<OpaquePointer?>?) {
    sqlite3_result_null(context)
}

/// The handles of every open connection, so that `SQLiteConnection.stopAll()` can interrupt them from the
/// signal handler's thread. A handle leaves the set before it is closed, under the same lock.
private final class OpenConnections: Sendable {
    static let shared = OpenConnections()
    /// The open handles' addresses (`sqlite3 *`).
    private let handles = LockedValue<Set<UInt>>([])
    /// Its own lock, apart from the handles': read on every progress callback (every 1,000
    /// virtual-machine steps), it is then uncontended.
    private let stopped = LockedValue(false)

    var isStopped: Bool { stopped.withLock { $0 } }

    func add(_ handle: OpaquePointer) {
        handles.withLock { _ = $0.insert(UInt(bitPattern: handle)) }
    }

    func remove(_ handle: OpaquePointer) {
        handles.withLock { _ = $0.remove(UInt(bitPattern: handle)) }
    }

    func stopAll() {
        stopped.withLock { $0 = true }
        handles.withLock { handles in
            for address in handles {
                if let handle = OpaquePointer(bitPattern: address) { sqlite3_interrupt(handle) }
            }
        }
    }
}
