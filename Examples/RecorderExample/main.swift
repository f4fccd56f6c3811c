// The recorder on a raw `sqlite3 *`, as an app without GRDB or SQLite.swift uses it. The test suite
// builds and runs this program (RecorderExampleTests), so the README's steps keep compiling.
//
//   indexadvisor-recorder-example STORE   → runs a few statements on STORE, writes STORE.workload.jsonl
//
// The `sqlite3 *` comes from the SQLite C API: on Apple platforms `import SQLite3` (the SDK's module);
// on Linux a system-library target of your own package that links libsqlite3 (this repository's is
// `CSQLite`: Sources/CSQLite/module.modulemap and shim.h).
import Foundation
import IndexAdvisorRecorder
#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// Runs `sql` on `db` once per value, binding it to the statement's one `?`.
func run(_ db: OpaquePointer, _ sql: String, values: [Int64]) {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
        fatalError("prepare failed: \(String(cString: sqlite3_errmsg(db)))")
    }
    defer { sqlite3_finalize(statement) }
    for value in values {
        sqlite3_bind_int64(statement, 1, value)
        while sqlite3_step(statement) == SQLITE_ROW {}
        sqlite3_reset(statement)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: indexadvisor-recorder-example STORE\n".utf8))
    exit(2)
}
let store = URL(fileURLWithPath: arguments[1])
var handle: OpaquePointer?
guard sqlite3_open_v2(store.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db = handle else {
    fatalError("cannot open \(store.path)")
}
let recorder = WorkloadRecorder()
do {
    try recorder.attach(db)
} catch {
    fatalError("cannot record: \(error)")
}
sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS item(id INTEGER PRIMARY KEY, owner INTEGER, name TEXT)", nil, nil, nil)
run(db, "INSERT INTO item(owner, name) VALUES (?, 'x')", values: Array(1...20))
run(db, "SELECT id, name FROM item WHERE owner = ? ORDER BY name", values: [3, 7, 7, 12])
let output = WorkloadRecorder.outputURL(forStore: store)
do {
    try recorder.write(to: output)
} catch {
    fatalError("cannot write \(output.path): \(error)")
}
sqlite3_close(db)
print(output.path)
