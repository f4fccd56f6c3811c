import CSQLite
import Foundation

/// A bare `sqlite3 *` opened the way GRDB opens its connections (`SQLITE_OPEN_NOMUTEX`: the library
/// serialises access itself), with just enough of the C API for the recorder tests.
final class RawConnection: @unchecked Sendable {
    let handle: OpaquePointer

    init(path: String) throws {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else { throw TestFailure("open \(path): \(rc)") }
        handle = db
    }

    func close() {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else { throw TestFailure("\(sql): \(message.map { String(cString: $0) } ?? "\(rc)")") }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw TestFailure("prepare \(sql): \(rc)") }
        return RawStatement(statement)
    }
}

/// A prepared statement, prepared once and run many times (GRDB's cached statements).
final class RawStatement: @unchecked Sendable {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` (Int64, Double, String or nil) in order, steps to the end (or `maxRows` rows), resets;
    /// the number of rows read.
    @discardableResult
    func run(_ values: [Any?], maxRows: Int = .max) throws -> Int {
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case let value as Int64: sqlite3_bind_int64(handle, index, value)
            case let value as Int: sqlite3_bind_int64(handle, index, Int64(value))
            case let value as Double: sqlite3_bind_double(handle, index, value)
            case let value as String: sqlite3_bind_text(handle, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case let value as [UInt8]: sqlite3_bind_blob(handle, index, value, Int32(value.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            default: sqlite3_bind_null(handle, index)
            }
        }
        var rows = 0
        defer { sqlite3_reset(handle) }
        while rows < maxRows {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw TestFailure("step: \(rc)") }
            rows += 1
        }
        return rows
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
