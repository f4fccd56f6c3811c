internal import CSQLite

/// The `sqlite3_module` behind the mirror tables (https://sqlite.org/vtab.html): each has the name and columns
/// of one of the app's tables and no rows. Statements are only prepared against them, never run, so the one
/// callback that matters is `xBestIndex`, where SQLite's planner hands each table the constraints of the
/// statement's WHERE and ON terms on its columns (column and operator) and the ORDER BY it could deliver
/// (https://sqlite.org/vtab.html#the_xbestindex_method). The others exist so that any statement prepares.
enum MirrorModule {
    static let name = "indexadvisor_testing_mirror"

    /// One module value for every mirror database; never freed, never changed after creation.
    nonisolated(unsafe) static let shared: UnsafeMutablePointer<sqlite3_module> = {
        let pointer = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        pointer.initialize(to: make())
        return pointer
    }()

    private static func make() -> sqlite3_module {
        var module = sqlite3_module()
        module.iVersion = 1
        module.xCreate = connect
        module.xConnect = connect
        module.xBestIndex = { vtab, info in
            guard let vtab, let info else { return SQLITE_ERROR }
            let (recorder, table) = MirrorModule.recorder(of: vtab)
            recorder.bestIndex(table: table, info: info)
            return SQLITE_OK
        }
        module.xDisconnect = { vtab in
            sqlite3_free(vtab)
            return SQLITE_OK
        }
        module.xDestroy = module.xDisconnect
        module.xOpen = { _, cursorOut in
            guard let cursorOut, let memory = sqlite3_malloc(Int32(MemoryLayout<IAVirtualCursor>.size)) else { return SQLITE_NOMEM }
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<IAVirtualCursor>.size)
            cursorOut.pointee = memory.assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        module.xClose = { cursor in
            sqlite3_free(cursor)
            return SQLITE_OK
        }
        module.xFilter = { _, _, _, _, _ in SQLITE_OK }
        module.xNext = { _ in SQLITE_OK }
        // No rows.
        module.xEof = { _ in 1 }
        module.xColumn = { _, context, _ in
            sqlite3_result_null(context)
            return SQLITE_OK
        }
        module.xRowid = { _, rowid in
            rowid?.pointee = 0
            return SQLITE_OK
        }
        // Present so that INSERT, UPDATE and DELETE prepare; never called.
        module.xUpdate = { _, _, _, _ in SQLITE_OK }
        return module
    }

    /// `xCreate`/`xConnect`: `argv[3]` is the mirrored table's position in the recorder; `aux` the recorder.
    private static let connect: @convention(c) (
        OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<UnsafePointer<CChar>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32 = { db, aux, argc, argv, vtabOut, _ in
        guard let db, let aux, let vtabOut, argc >= 4, let argument = argv?[3],
              let table = Int(String(cString: argument)) else { return SQLITE_ERROR }
        let recorder = Unmanaged<MirrorRecorder>.fromOpaque(aux).takeUnretainedValue()
        guard table >= 0, table < recorder.declarations.count else { return SQLITE_ERROR }
        let rc = sqlite3_declare_vtab(db, recorder.declarations[table])
        guard rc == SQLITE_OK else { return rc }
        guard let memory = sqlite3_malloc(Int32(MemoryLayout<IAVirtualTable>.size)) else { return SQLITE_NOMEM }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<IAVirtualTable>.size)
        let vtab = memory.assumingMemoryBound(to: IAVirtualTable.self)
        vtab.pointee.context = aux
        vtab.pointee.tableIndex = Int32(table)
        vtabOut.pointee = memory.assumingMemoryBound(to: sqlite3_vtab.self)
        return SQLITE_OK
    }

    private static func recorder(of vtab: UnsafeMutablePointer<sqlite3_vtab>) -> (MirrorRecorder, Int) {
        let table = UnsafeMutableRawPointer(vtab).assumingMemoryBound(to: IAVirtualTable.self)
        return (Unmanaged<MirrorRecorder>.fromOpaque(table.pointee.context).takeUnretainedValue(), Int(table.pointee.tableIndex))
    }
}

/// What `xBestIndex` was handed, call by call, while one statement was prepared on the mirror database.
final class MirrorRecorder {
    /// One `xBestIndex` call: which mirror table, the constraints (column number, `-1` for the rowid, and
    /// `SQLITE_INDEX_CONSTRAINT_*` operator) and the ORDER BY terms (column number, descending).
    struct Call {
        var table: Int
        var constraints: [(column: Int32, op: Int32)]
        var orderBy: [(column: Int32, isDescending: Bool)]
    }

    /// The `CREATE TABLE x(…)` text each mirror table declares, by position.
    var declarations: [String] = []
    /// The calls so far; a call's position is the `idxNum` it returned, which `EXPLAIN QUERY PLAN` prints
    /// (`SCAN n VIRTUAL TABLE INDEX 3:`), so that a plan row's name is tied to its table.
    var calls: [Call] = []

    func bestIndex(table: Int, info: UnsafeMutablePointer<sqlite3_index_info>) {
        var call = Call(table: table, constraints: [], orderBy: [])
        var usable: Int32 = 0
        for i in 0..<Int(info.pointee.nConstraint) {
            let constraint = info.pointee.aConstraint[i]
            call.constraints.append((constraint.iColumn, Int32(constraint.op)))
            if constraint.usable != 0 {
                usable += 1
                info.pointee.aConstraintUsage[i].argvIndex = usable
                info.pointee.aConstraintUsage[i].omit = 1
            }
        }
        for j in 0..<Int(info.pointee.nOrderBy) {
            call.orderBy.append((info.pointee.aOrderBy[j].iColumn, info.pointee.aOrderBy[j].desc != 0))
        }
        info.pointee.orderByConsumed = info.pointee.nOrderBy > 0 ? 1 : 0
        // More usable constraints are cheaper, so the planner takes the call that sees the most of them.
        info.pointee.estimatedCost = 1_000_000 / Double(1 + usable * usable)
        info.pointee.estimatedRows = 10
        info.pointee.idxNum = Int32(calls.count)
        calls.append(call)
    }
}
