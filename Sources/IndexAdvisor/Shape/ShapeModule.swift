import CSQLite

/// The `sqlite3_module` behind the shape database's mirror tables (https://sqlite.org/vtab.html).
///
/// Each mirror table has the columns of a real table and no rows of its own. SQLite calls it while it
/// plans (`xBestIndex`: every usable constraint with its operator and collation, and the ORDER BY) and
/// while it runs (`xFilter`, `xUpdate`: the values that reach each column). Every callback hands over
/// to the ``ShapeRecorder`` whose pointer the table carries.
enum ShapeModule {
    static let name = "indexadvisor_shape"

    /// One module value for every shape database; never freed, never changed after creation.
    nonisolated(unsafe) static let shared: UnsafeMutablePointer<sqlite3_module> = {
        let pointer = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        pointer.initialize(to: make())
        return pointer
    }()

    /// A module value; the caller keeps it alive as long as the connection.
    static func make() -> sqlite3_module {
        var module = sqlite3_module()
        module.iVersion = 1
        module.xCreate = connect
        module.xConnect = connect
        module.xBestIndex = { vtab, info in
            guard let vtab, let info else { return SQLITE_ERROR }
            let (recorder, table) = ShapeModule.recorder(of: vtab)
            return recorder.bestIndex(table: table, info: info)
        }
        module.xDisconnect = { vtab in
            sqlite3_free(vtab)
            return SQLITE_OK
        }
        module.xDestroy = { vtab in
            sqlite3_free(vtab)
            return SQLITE_OK
        }
        module.xOpen = { _, cursorOut in
            guard let cursorOut,
                  let memory = sqlite3_malloc(Int32(MemoryLayout<IAVirtualCursor>.size)) else { return SQLITE_NOMEM }
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<IAVirtualCursor>.size)
            cursorOut.pointee = memory.assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        module.xClose = { cursor in
            sqlite3_free(cursor)
            return SQLITE_OK
        }
        module.xFilter = { cursor, idxNum, _, argc, argv in
            guard let cursor, let vtab = cursor.pointee.pVtab else { return SQLITE_ERROR }
            let (recorder, table) = ShapeModule.recorder(of: vtab)
            let arguments = (0..<Int(argc)).map { argv?[$0] }
            recorder.filter(table: table, plan: Int(idxNum), arguments: arguments)
            UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: IAVirtualCursor.self).pointee.row = 0
            return SQLITE_OK
        }
        module.xNext = { cursor in
            UnsafeMutableRawPointer(cursor!).assumingMemoryBound(to: IAVirtualCursor.self).pointee.row += 1
            return SQLITE_OK
        }
        // Exactly one row per scan, so that joined tables and UPDATE/DELETE are reached too.
        module.xEof = { cursor in
            UnsafeMutableRawPointer(cursor!).assumingMemoryBound(to: IAVirtualCursor.self).pointee.row >= 1 ? 1 : 0
        }
        module.xColumn = { _, context, _ in
            // For an UPDATE, leaving unchanged columns without a value lets xUpdate tell them apart
            // (sqlite3_vtab_nochange, https://sqlite.org/c3ref/vtab_nochange.html).
            if sqlite3_vtab_nochange(context) != 0 { return SQLITE_OK }
            sqlite3_result_null(context)
            return SQLITE_OK
        }
        module.xRowid = { _, rowid in
            rowid?.pointee = 1
            return SQLITE_OK
        }
        module.xUpdate = { vtab, argc, argv, rowid in
            guard let vtab else { return SQLITE_ERROR }
            let (recorder, table) = ShapeModule.recorder(of: vtab)
            recorder.update(table: table, arguments: (0..<Int(argc)).map { argv?[$0] })
            rowid?.pointee = 1
            return SQLITE_OK
        }
        module.xFindFunction = { vtab, _, name, _, _ in
            guard let vtab, let name else { return 0 }
            let (recorder, table) = ShapeModule.recorder(of: vtab)
            recorder.findFunction(table: table, name: String(cString: name))
            return 0
        }
        return module
    }

    /// `xCreate`/`xConnect`: argv[3] is the mirrored table's index; pAux the recorder.
    private static let connect: @convention(c) (
        OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<UnsafePointer<CChar>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32 = { db, aux, argc, argv, vtabOut, _ in
        guard let db, let aux, let vtabOut, argc >= 4, let argument = argv?[3],
              let table = Int(String(cString: argument)) else { return SQLITE_ERROR }
        let recorder = Unmanaged<ShapeRecorder>.fromOpaque(aux).takeUnretainedValue()
        guard table >= 0, table < recorder.tables.count else { return SQLITE_ERROR }
        let rc = sqlite3_declare_vtab(db, recorder.tables[table].declaration)
        guard rc == SQLITE_OK else { return rc }
        guard let memory = sqlite3_malloc(Int32(MemoryLayout<IAVirtualTable>.size)) else { return SQLITE_NOMEM }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<IAVirtualTable>.size)
        let vtab = memory.assumingMemoryBound(to: IAVirtualTable.self)
        vtab.pointee.context = aux
        vtab.pointee.tableIndex = Int32(table)
        vtabOut.pointee = memory.assumingMemoryBound(to: sqlite3_vtab.self)
        return SQLITE_OK
    }

    private static func recorder(of vtab: UnsafeMutablePointer<sqlite3_vtab>) -> (ShapeRecorder, Int) {
        let table = UnsafeMutableRawPointer(vtab).assumingMemoryBound(to: IAVirtualTable.self)
        let recorder = Unmanaged<ShapeRecorder>.fromOpaque(table.pointee.context).takeUnretainedValue()
        return (recorder, Int(table.pointee.tableIndex))
    }
}
