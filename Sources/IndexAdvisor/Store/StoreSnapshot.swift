import Foundation

/// A private copy of a user's store, taken without writing a byte to the store or beside it.
///
/// The store is never opened for writing. When it has no `-wal` or `-journal` file it is opened with
/// `mode=ro&immutable=1`, which reads the file without locks and without creating `-wal`/`-shm` files
/// (a plain read-only connection to a WAL store writes read marks into `-shm` and may create it,
/// https://sqlite.org/wal.html#readonly). When it has one, the store and that file are first copied
/// byte for byte into the private directory (and the copy checked against the originals' size and
/// modification time and the WAL header, so a copy torn by a concurrent writer is retried); SQLite then
/// recovers the committed WAL frames, or rolls back a hot journal, in the copy. Either source is then
/// copied into `snapshot.sqlite` with the online backup API (https://sqlite.org/backup.html). A store
/// that keeps changing for the whole busy timeout is refused with ``StoreError/busy(path:waitedSeconds:)``:
/// the store's own `-wal` and `-shm` are never opened.
///
/// All later work — plans, timed statements, indexes built and dropped — happens on the snapshot.
/// The private directory is removed by `close()`, on release, and on SIGINT/SIGTERM.
public final class StoreSnapshot {
    /// How the snapshot was read from the store.
    public enum Method: String, Sendable, Codable {
        /// The store file alone, opened immutable (no `-wal` or `-journal` existed).
        case immutable
        /// A byte copy of the store and its `-wal`/`-journal`, recovered privately.
        case privateCopy = "private-copy"
    }

    /// The store the snapshot was taken from.
    public let storeURL: URL
    /// The private directory holding the snapshot.
    public let directory: TemporaryDirectory
    /// The snapshot database file.
    public private(set) var snapshotURL: URL
    public let method: Method
    /// Bytes of the store file plus its `-wal`, when it had one.
    public let storeBytes: Int64
    /// Wall time taken to copy the store, in seconds.
    public let copySeconds: Double
    /// A read-write connection to the snapshot, with stand-ins for app-defined collations installed.
    package private(set) var connection: SQLiteConnection
    /// What the reports should say about the copy: a `quick_check` finding that reading the data did not
    /// confirm (SQLite 3.40.1 misreports some WITHOUT ROWID tables, for one).
    public private(set) var warnings: [AnalysisWarning] = []
    /// The indexes the snapshot is without, hidden from its schema (``holdDrops(_:)``): the store's, and while
    /// the selection runs, candidates built that its configuration leaves out (``SnapshotIndexes/bring(to:)``).
    package internal(set) var heldDrops: [String] = []
    /// Each hidden index's `sqlite_schema` row (rowid, type, name, tbl_name, rootpage, sql) and `sqlite_stat1` rows, by folded name.
    var hiddenRows: [String: (schema: [SQLValue], statistics: [[SQLValue]])] = [:]

    private init(storeURL: URL, directory: TemporaryDirectory, snapshotURL: URL, method: Method,
                 storeBytes: Int64, copySeconds: Double, connection: SQLiteConnection) {
        self.storeURL = storeURL
        self.directory = directory
        self.snapshotURL = snapshotURL
        self.method = method
        self.storeBytes = storeBytes
        self.copySeconds = copySeconds
        self.connection = connection
    }

    /// Takes a snapshot of the store at `storeURL`.
    /// - Parameters:
    ///   - temporaryParent: where to create the private directory (default: the system temporary directory).
    ///   - busyTimeout: how long to keep retrying a store that another process is changing or locking, in seconds.
    /// - Throws: ``StoreError`` naming the file and the cause: missing, a directory, empty, not SQLite
    ///   (or encrypted), unreadable, too big for the free space, busy, or refused by SQLite.
    public static func take(of storeURL: URL, temporaryParent: URL? = nil, busyTimeout: Double = 5) throws -> StoreSnapshot {
        // SQLite follows a symbolic link to the database and keeps the -wal beside the real file.
        let path = storeURL.resolvingSymlinksInPath().path
        let size = try validateStoreFile(at: path)
        let walBytes = fileSize(path + "-wal") ?? 0
        let journalBytes = fileSize(path + "-journal") ?? 0
        let directory = try TemporaryDirectory(in: temporaryParent)
        do {
            try checkFreeSpace(for: path, neededBytes: 2 * (size + walBytes + journalBytes) + 1_048_576, in: directory.url)
            let snapshotURL = directory.url.appendingPathComponent("snapshot.sqlite")
            let start = DispatchTime.now().uptimeNanoseconds
            let method = try copy(storeAt: path, into: snapshotURL, workDirectory: directory.url, busyTimeout: busyTimeout)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let connection = try SQLiteConnection(path: snapshotURL.path, mode: .readWrite)
            // The app's collations and functions get stand-ins before anything reads a table or an index:
            // without them a healthy store fails its check.
            var warnings: [AnalysisWarning] = []
            let functions = (try? connection.installSchemaStandIns()) ?? []
            if !functions.isEmpty {
                // A stand-in returns NULL, so a CHECK that calls one would fail every row and every timed write.
                try connection.execute("PRAGMA ignore_check_constraints = ON")
                warnings.append(.standInFunctions(functions))
            }
            warnings += try verify(connection, path: path)
            // Index builds on the private copy need no durability, and a checkpoint must never run inside a
            // timed write: the advisor checkpoints itself between measurements (`checkpoint()`).
            // The copy is put in WAL mode whatever the store's: in a rollback-journal mode every timed write
            // (a statement in its own savepoint, rolled back) created and deleted the journal file, some 50 µs
            // that an app pays once a transaction, beside its fsync, whatever its indexes. It made a 10 µs
            // UPDATE of a new user's shop store time at 149 µs, and an index's upkeep on it fall under the 5 %
            // a difference needs (wal.html). A timed write ends its own transaction with ROLLBACK, which commits
            // nothing, so the WAL does not grow while statements are timed (``StatementTimer``).
            _ = try connection.query("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = OFF; PRAGMA wal_autocheckpoint = 0")
            let snapshot = StoreSnapshot(storeURL: storeURL, directory: directory, snapshotURL: snapshotURL, method: method,
                                         storeBytes: size + walBytes, copySeconds: seconds, connection: connection)
            snapshot.warnings = warnings
            return snapshot
        } catch {
            directory.remove()
            throw error
        }
    }

    /// Checks the snapshot with `PRAGMA quick_check` (https://sqlite.org/pragma.html#pragma_quick_check)
    /// and returns the warnings for the report. A finding is evidence, not a verdict: SQLite releases have
    /// reported healthy stores (3.40.1 says "NULL value in …" for some WITHOUT ROWID tables), so the store is
    /// refused as corrupt only when reading its data fails too: every table, and every index, read in full.
    /// Damaged pages would otherwise show up as odd timings.
    /// - Throws: ``StoreError/corrupt(path:detail:)`` when a read fails with SQLite's corruption or I/O error.
    static func verify(_ connection: SQLiteConnection, path: String) throws -> [AnalysisWarning] {
        var findings: [String]
        var attempts = 0
        while true {
            do {
                findings = try connection.query("PRAGMA quick_check(3)").compactMap { $0.first?.textValue }
                break
            } catch let error as SQLiteError where error.code == .error && attempts < 32 {
                // A function the schema calls in a way the scan of its text did not see.
                attempts += 1
                guard let range = error.message.range(of: "no such function: ") else {
                    findings = [error.message]
                    break
                }
                try? connection.registerStandInFunction(named: String(error.message[range.upperBound...]))
            } catch let error as SQLiteError {
                if isDamage(error) { throw StoreError.corrupt(path: path, detail: error.message) }
                findings = [error.message]
                break
            }
        }
        if findings == ["ok"] { return [] }
        let said = SQLText.oneLine(findings.joined(separator: "; "), limit: 160)
        if let failure = readFailure(connection) {
            throw StoreError.corrupt(path: path, detail: "\(said); reading \(failure)")
        }
        return [.quickCheckFindings(findings: said, storePath: path)]
    }

    /// SQLite's codes for damage: `SQLITE_CORRUPT`, `SQLITE_NOTADB`, `SQLITE_IOERR` (a short read).
    private static func isDamage(_ error: SQLiteError) -> Bool {
        switch error.extendedCode {
        case .corrupt, .notADatabase, .ioError: true
        default: false
        }
    }

    /// Reads every row of every table (through the table's own B-tree) and counts every index's entries
    /// (through that index); the first read that fails with damage, as "TABLE: message", or nil.
    private static func readFailure(_ connection: SQLiteConnection) -> String? {
        guard let objects = try? connection.query("""
            SELECT type, name, tbl_name FROM main.sqlite_schema
            WHERE type IN ('table', 'index') AND rootpage > 0 AND name NOT LIKE 'sqlite_%'
            """) else { return "the schema: cannot be read" }
        for row in objects {
            guard let type = row[0].textValue, let name = row[1].textValue, let table = row[2].textValue else { continue }
            let sql = type == "table"
                ? "SELECT * FROM main.\(SQLIdentifier.quote(name)) NOT INDEXED"
                : "SELECT count(*) FROM main.\(SQLIdentifier.quote(table)) INDEXED BY \(SQLIdentifier.quote(name))"
            do {
                let statement = try connection.prepareResolvingStandIns(sql)
                while try statement.step() {}
            } catch let error as SQLiteError where isDamage(error) {
                return "\(name): \(error.message)"
            } catch {
                continue  // a partial index cannot serve a plain count; not damage
            }
        }
        return nil
    }

    /// Opens another connection to the snapshot, read-only, with the same stand-ins for the app's collations
    /// and functions: for reading statistics beside the main connection while nothing is timed. The
    /// connection throws ``SQLiteError`` when it cannot be opened.
    package var openReader: @Sendable () throws -> SQLiteConnection {
        let path = snapshotURL.path
        return {
            let reader = try SQLiteConnection(path: path, mode: .readOnly)
            try reader.installSchemaStandIns()
            return reader
        }
    }

    /// Moves the snapshot's WAL content into its database file (a no-op in rollback-journal mode), so
    /// that the next timed statement neither pays for a checkpoint nor reads through a long WAL.
    package func checkpoint() {
        _ = try? connection.query("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Makes `connection` (to `file`, in the private directory) the snapshot, and keeps the old snapshot as
    /// ``fullCopy`` until ``releaseFullCopy()`` (or ``close()``) deletes it.
    func replaceConnection(with connection: SQLiteConnection, file: URL) {
        releaseFullCopy()
        fullCopy = (self.connection, snapshotURL)
        self.connection = connection
        snapshotURL = file
    }

    /// When the snapshot is a sample (``sampleLargeTables(schema:maxRows:)``), the copy of the whole store it
    /// was drawn from, until the values statements are timed with are chosen: a write's fresh keys are looked
    /// up in it (``FreshKeys``), so that they are no row's of the store either. Nil otherwise.
    package var fullCopyConnection: SQLiteConnection? { fullCopy?.connection }
    private var fullCopy: (connection: SQLiteConnection, file: URL)?

    /// Closes and deletes ``fullCopyConnection``'s file, which the rest of the analysis does not read.
    package func releaseFullCopy() {
        guard let (_, file) = fullCopy else { return }
        fullCopy = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    }

    /// Removes the private directory and everything in it.
    public func close() {
        directory.remove()
    }

    deinit {
        directory.remove()
    }

    // MARK: Steps

    /// Checks that `path` is a non-empty regular file that starts with SQLite's header; returns its size in bytes.
    static func validateStoreFile(at path: String) throws -> Int64 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // A symbolic link that resolves to nothing is there, and "no such file" would send the user looking
            // for a typo (a breaking helper's loop of two links).
            var info = stat()
            if lstat(path, &info) == 0 {
                if stat(path, &info) != 0, errno == ELOOP {
                    throw StoreError.unreadable(path: path, reason: "a loop of symbolic links")
                }
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                throw StoreError.unreadable(path: path, reason: "a symbolic link to \(target), which does not exist")
            }
            throw StoreError.notFound(path: path)
        }
        if isDirectory.boolValue { throw StoreError.notAFile(path: path) }
        guard let size = fileSize(path) else { throw StoreError.notARegularFile(path: path) }
        if size == 0 { throw StoreError.empty(path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        if !header.starts(with: Array("SQLite format 3".utf8) + [0]) {
            throw StoreError.notADatabase(path: path, reason: "no SQLite header; an encrypted store (e.g. SQLCipher) looks like this too")
        }
        if header.count < 100 || size < 512 {
            throw StoreError.notADatabase(path: path, reason: "truncated: \(size) bytes, shorter than one page")
        }
        return size
    }

    private static func copy(storeAt path: String, into snapshotURL: URL, workDirectory: URL, busyTimeout: Double) throws -> Method {
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = started + UInt64(max(0, busyTimeout) * 1e9)
        let destination = try SQLiteConnection(path: snapshotURL.path, mode: .readWriteCreate)
        destination.installStandIns()
        var attempt = 0
        while true {
            attempt += 1
            let before = FileState(path: path)
            if !before.hasSidecar {
                // With no journal on disk (journal_mode=OFF or MEMORY, or between transactions), a writer holding
                // its lock may have written half a transaction into the file: wait for it, as for a copy torn by a commit.
                if !writerHoldsLock(on: path) {
                    let source = try openSource(uri: immutableURI(for: path), path: path)
                    try backup(from: source, into: destination, path: path)
                    if FileState(path: path).isConsistentCopy(of: before), !writerHoldsLock(on: path) { return .immutable }
                }
            } else if let copyPath = privateCopy(of: path, state: before, in: workDirectory, attempt: attempt) {
                let source = try openSource(path: copyPath, storePath: path)
                try backup(from: source, into: destination, path: path)
                return .privateCopy
            }
            if DispatchTime.now().uptimeNanoseconds > deadline {
                throw StoreError.busy(path: path, waitedSeconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            }
            usleep(UInt32(min(200_000, 10_000 * attempt)))
        }
    }

    private static func openSource(uri: String, path: String) throws -> SQLiteConnection {
        do {
            return try SQLiteConnection(path: uri, mode: .readOnly, uri: true)
        } catch let error as SQLiteError {
            throw StoreError.sqlite(path: path, error: error)
        }
    }

    private static func openSource(path: String, storePath: String) throws -> SQLiteConnection {
        do {
            // Read-write so that SQLite can recover the WAL or roll back a hot journal — in the private copy.
            return try SQLiteConnection(path: path, mode: .readWrite)
        } catch let error as SQLiteError {
            throw StoreError.sqlite(path: storePath, error: error)
        }
    }

    private static func backup(from source: SQLiteConnection, into destination: SQLiteConnection, path: String) throws {
        do {
            try source.backup(into: destination)
            // Reading the schema proves the copy is a usable database (a damaged header fails here).
            _ = try destination.scalar("SELECT count(*) FROM sqlite_schema")
        } catch let error as SQLiteError {
            throw StoreError.sqlite(path: path, error: error)
        }
    }

    /// Copies the store and its `-wal`/`-journal` into `directory`; nil when a file changed or vanished during
    /// the copy in a way that could tear it (the caller retries).
    private static func privateCopy(of path: String, state: FileState, in directory: URL, attempt: Int) -> String? {
        let copyPath = directory.appendingPathComponent("copy-\(attempt).sqlite").path
        func discard() -> String? {
            for suffix in ["", "-wal", "-journal", "-shm"] { try? FileManager.default.removeItem(atPath: copyPath + suffix) }
            return nil
        }
        for suffix in ["", "-wal", "-journal"] where suffix.isEmpty || state.files[suffix] != nil {
            do {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copyPath + suffix)
            } catch {
                return discard()  // the journal was deleted by a commit, or the file moved: try again
            }
        }
        return FileState(path: path).isConsistentCopy(of: state) ? copyPath : discard()
    }

    private static func checkFreeSpace(for path: String, neededBytes: Int64, in directory: URL) throws {
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory.path),
              let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value else { return }
        if free < neededBytes {
            throw StoreError.insufficientSpace(path: path, neededBytes: neededBytes, availableBytes: free,
                                               directory: directory.deletingLastPathComponent().path)
        }
    }

    /// True when another process holds SQLite's PENDING or EXCLUSIVE lock on the store: a writer is about to
    /// write, or is writing, pages into the database file (https://sqlite.org/lockingv3.html). Asked with
    /// `F_GETLK`, which takes no lock and writes nothing; readers' SHARED locks and a writer's RESERVED lock
    /// (its changes still in its own memory) do not count. The byte offsets are those of SQLite's Unix VFS.
    static func writerHoldsLock(on path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = Foundation.close(descriptor) }
        let pendingByte: off_t = 0x4000_0000
        // PENDING (one byte), then the 510-byte SHARED range that EXCLUSIVE write-locks whole.
        for (start, length) in [(pendingByte, off_t(1)), (pendingByte + 2, off_t(510))] {
            var probe = flock()
            probe.l_type = Int16(F_RDLCK)
            probe.l_whence = Int16(SEEK_SET)
            probe.l_start = start
            probe.l_len = length
            if fcntl(descriptor, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) { return true }
        }
        return false
    }

    static func fileSize(_ path: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }

    private static func immutableURI(for path: String) -> String {
        "file:" + percentEncoded(path) + "?mode=ro&immutable=1"
    }

    /// A path made safe for a `file:` URI: `%`, `?`, `#` and non-ASCII bytes escaped (https://sqlite.org/uri.html).
    static func percentEncoded(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var result = ""
        for byte in absolute.utf8 {
            if byte >= 0x80 || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                result += String(format: "%%%02X", byte)
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }
}

/// Size and modification time of a store and its sidecar files, and the WAL header, to detect a
/// concurrent change that could tear a copy.
private struct FileState: Equatable {
    var files: [String: [Int64]] = [:]
    /// The first 32 bytes of the `-wal` (https://sqlite.org/fileformat2.html#walformat): its salts change
    /// when a writer restarts the WAL after a checkpoint and overwrites frames from the start.
    var walHeader: Data?

    init(path: String) {
        for suffix in ["", "-wal", "-journal"] {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix) else { continue }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            files[suffix] = [size, Int64(modified * 1e9)]
        }
        if files["-wal"] != nil, let handle = FileHandle(forReadingAtPath: path + "-wal") {
            walHeader = try? handle.read(upToCount: 32)
            try? handle.close()
        }
    }

    /// True when a copy taken between `earlier` and now is consistent: the main file and any journal are
    /// unchanged, and the WAL was at most appended to (same header). Frames appended during the copy are
    /// ignored by recovery, which stops at the last frame whose checksum and commit marker hold.
    func isConsistentCopy(of earlier: FileState) -> Bool {
        guard files[""] == earlier.files[""], files["-journal"] == earlier.files["-journal"] else { return false }
        guard let before = earlier.files["-wal"] else { return files["-wal"] == nil }
        guard let now = files["-wal"], now[0] >= before[0] else { return false }
        return walHeader == earlier.walHeader
    }

    /// True when a non-empty `-wal` or `-journal` exists beside the store.
    var hasSidecar: Bool {
        (files["-wal"]?.first ?? 0) > 0 || (files["-journal"]?.first ?? 0) > 0
    }
}
