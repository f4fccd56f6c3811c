import Foundation

/// Why a store could not be opened or copied. Each case prints as one line naming the file and the cause.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// `path` as one POSIX shell word, for a command a message suggests: as it is when it holds only
    /// characters no shell treats specially, otherwise in single quotes (a `'` inside as `'\''`), so that
    /// `Application Support/…` pastes and runs.
    static func shellWord(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@%=")
        if !path.isEmpty, path.allSatisfy({ plain.contains($0) }) { return path }
        return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// True when SQLite's corruption message says only that it cannot parse the text of the schema
    /// ("malformed database schema (v) - near "ORDER": syntax error", "… unrecognized token: "1_000""): SQL of
    /// a newer SQLite (an aggregate's ORDER BY, 3.44; digit separators, 3.46) in a healthy store, as a store
    /// of schema format 5 is one of a newer file format (https://sqlite.org/fileformat.html#schema_format_number).
    static func isNewerSchemaText(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return lowered.contains("malformed database schema") && (lowered.contains("syntax error") || lowered.contains("unrecognized token"))
    }

    /// The line for a store whose schema this SQLite cannot parse: most likely SQL of a newer SQLite (the store
    /// is then not corrupt), but a schema edited or damaged by hand gives the same error, so the line says both.
    static func newerSchemaText(path: String, detail: String) -> String {
        "\(path): the schema uses SQL that SQLite \(SQLiteConnection.libraryVersion) cannot parse (\(SQLText.oneLine(detail, limit: 160))); the store needs a newer SQLite if one wrote it (it is then not corrupt), else its schema is damaged; run indexadvisor built with a newer SQLite to tell"
    }

    /// Nothing exists at the path.
    case notFound(path: String)
    /// The path is a directory.
    case notAFile(path: String)
    /// The path is a device, a pipe or a socket.
    case notARegularFile(path: String)
    /// The private directory could not be created.
    case temporaryDirectory(path: String, reason: String)
    /// The file has zero bytes.
    case empty(path: String)
    /// The file does not start with SQLite's 16-byte header (https://sqlite.org/fileformat.html#the_database_header).
    case notADatabase(path: String, reason: String)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// SQLite refused the file while copying or reading it.
    case sqlite(path: String, error: SQLiteError)
    /// `PRAGMA quick_check` found damage in the copied pages.
    case corrupt(path: String, detail: String)
    /// Another process kept changing or locking the store for the whole busy timeout.
    case busy(path: String, waitedSeconds: Double)
    /// Another process deleted the run's private directory (and the snapshot in it) while the run used it.
    case snapshotVanished(directory: String)
    /// Undoing a measurement on the private snapshot failed (a `DROP INDEX` after a candidate was timed):
    /// every later measurement would include that index, so the run stops rather than give worse advice.
    case snapshotStateLost(directory: String, sql: String, error: SQLiteError)
    /// Building an index on the private snapshot failed because its folder is full or fails to write
    /// (`SQLITE_FULL`, `SQLITE_IOERR`): no candidate could be measured, so the run stops.
    case snapshotWriteFailed(directory: String, sql: String, error: SQLiteError)
    /// Timing a statement on the private snapshot failed because its folder is full or fails to write
    /// (`SQLITE_FULL`, `SQLITE_IOERR`: a write's WAL frames, a sort's temporary file): the advice would be
    /// made without that statement's cost, so the run stops.
    case snapshotTimingFailed(directory: String, sql: String, error: SQLiteError)
    /// The private snapshot would not fit in the temporary directory's free space.
    case insufficientSpace(path: String, neededBytes: Int64, availableBytes: Int64, directory: String)
    /// The folder of the private snapshot has too little room for the candidate indexes to be built there.
    case insufficientSpaceForIndexes(directory: String, neededBytes: Int64, availableBytes: Int64, candidates: Int)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "\(path): no such file"
        case .notAFile(let path):
            return "\(path): is a directory, not a store file"
        case .notARegularFile(let path):
            return "\(path): is not a regular file (a device, a pipe or a socket), not a store file"
        case .temporaryDirectory(let path, let reason):
            return "\(path): cannot create the private snapshot directory here (\(reason)); choose another with --temp-dir"
        case .empty(let path):
            return "\(path): the file is empty (0 bytes), not a SQLite database"
        case .notADatabase(let path, let reason):
            return "\(path): not a SQLite database (\(reason))"
        case .unreadable(let path, let reason):
            return "\(path): cannot read the file (\(reason))"
        case .sqlite(let path, let error):
            switch error.extendedCode {
            case .notADatabase: return "\(path): not a SQLite database (\(error.message))"
            case .corrupt where Self.isNewerSchemaText(error.message): return Self.newerSchemaText(path: path, detail: error.message)
            case .corrupt: return "\(path): the database is corrupt (\(error.message)); run `sqlite3 \(Self.shellWord(path)) 'PRAGMA integrity_check'`"
            case .busy, .locked: return "\(path): the store is locked by another process (\(error.message)); retry with a longer --busy-timeout"
            default: return "\(path): \(error.message) (SQLite error \(error.code.rawValue), \(error.codeName))"
            }
        case .corrupt(let path, let detail) where Self.isNewerSchemaText(detail):
            return Self.newerSchemaText(path: path, detail: detail)
        case .corrupt(let path, let detail):
            return "\(path): the database is corrupt (quick_check: \(SQLText.oneLine(detail, limit: 160))); run `sqlite3 \(Self.shellWord(path)) 'PRAGMA integrity_check'`"
        case .busy(let path, let seconds):
            return "\(path): the store kept changing or stayed locked for \(String(format: "%.1f", seconds)) s; retry with a longer --busy-timeout or when the app is idle"
        case .snapshotVanished(let directory):
            return "\(directory): the private snapshot directory was deleted by another process during the run; nothing was written, since its results cannot be trusted; run again (--temp-dir chooses another directory)"
        case .snapshotStateLost(let directory, let sql, let error):
            return "\(directory): \(sql) failed on the private snapshot (\(error.message), SQLite result code \(error.code.rawValue)); every later measurement would include that index, so the analysis stopped; nothing was written; free space there or choose another folder with --temp-dir"
        case .snapshotWriteFailed(let directory, let sql, let error):
            return "\(directory): \(SQLText.oneLine(sql, limit: 120)) failed on the private snapshot (\(error.message), SQLite result code \(error.code.rawValue)); no candidate index can be measured there, so the analysis stopped; nothing was written; free space there or choose another folder with --temp-dir"
        case .snapshotTimingFailed(let directory, let sql, let error):
            return "\(directory): timing \(SQLText.oneLine(sql, limit: 120)) on the private snapshot failed (\(error.message), SQLite result code \(error.code.rawValue)); the advice would leave its cost out, so the analysis stopped; nothing was written; free space there or choose another folder with --temp-dir"
        case .insufficientSpace(let path, let needed, let available, let directory):
            return "\(path): the snapshot needs \(ByteCountText.format(needed)) but \(directory) has \(ByteCountText.format(available)) free; choose another with --temp-dir"
        case .insufficientSpaceForIndexes(let directory, let needed, let available, let candidates):
            return "\(directory): building the \(candidates == 1 ? "candidate index" : "\(candidates) candidate indexes") on the snapshot needs about \(ByteCountText.format(needed)) more but the folder has \(ByteCountText.format(available)) free; free space there or choose another folder with --temp-dir (or measure fewer with --max-candidates)"
        }
    }
}

/// Byte counts as people read them: `812 B`, `4.0 KiB`, `12.3 MiB`.
public enum ByteCountText {
    public static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while abs(value) >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
