import Foundation

/// Writes report files so that a reader never sees half of one: the bytes go to a hidden temporary file
/// beside the target (`.NAME.indexadvisor-XXXXXX`, removed on error and on SIGINT/SIGTERM/SIGHUP), which is
/// then renamed over it. The writer holds an exclusive `flock` on its temporary file until the rename, so a
/// later write of the same target removes the temporary files whose lock is free (left by a run killed
/// mid-write, which no handler sees) and never one that a live writer holds.
/// A symbolic link is followed (its target is replaced, the link stays); a target that is not a regular
/// file (`/dev/stdout`, a FIFO, a device) is written in place, never replaced; an SQLite database is never
/// overwritten.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write the report (\(reason))" }
    }

    /// Writes `text` to the file at `requested` atomically (links followed); to `/dev/stdout`, `/dev/fd/N`,
    /// a device or a FIFO in place.
    /// - Throws: ``WriteError`` naming the file: its directory is missing, it is a directory, an SQLite
    ///   database or write-ahead log, a FIFO with no reader, a chain of more than 40 links, or the write
    ///   failed (a full device: `No space left on device`).
    public static func write(_ text: String, to requested: String) throws {
        // The process's own streams: write to the open descriptor (appending where the shell opened it so),
        // never to a reopened or replaced file.
        if let descriptor = standardDescriptor(requested) {
            try writeAll(text, to: descriptor, shownAs: requested)
            return
        }
        let (path, url, directory) = try existingParent(of: requested)
        var status = stat()
        // A new file gets the mode the umask allows; a replaced one keeps its own.
        var mode = mode_t(0o666) & ~currentUmask()
        if stat(path, &status) == 0 {
            mode = status.st_mode & 0o7777
            switch status.st_mode & S_IFMT {
            case S_IFDIR: throw WriteError(path: requested, reason: "it is a directory")
            case S_IFREG:
                if isSQLiteDatabase(path) { throw WriteError(path: requested, reason: "it is an SQLite database or write-ahead log; choose another file") }
            default:
                try writeInPlace(text, to: path, shownAs: requested)
                return
            }
        }
        let prefix = temporaryPrefix(for: url.lastPathComponent)
        removeAbandonedTemporaries(in: directory, prefix: prefix)
        let (descriptor, temporary) = try lockedTemporary(in: directory, prefix: prefix, shownAs: requested)
        TemporaryDirectoryRegistry.shared.add(file: temporary)
        defer { TemporaryDirectoryRegistry.shared.remove(file: temporary) }
        var bytes = Array(text.utf8)[...]
        var failure: String?
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                break
            }
            bytes = bytes.dropFirst(written)
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        // Renamed or removed with the lock held, so no other run takes it for abandoned in between (a write
        // past `ulimit -f` fails with "File too large" and leaves nothing).
        if failure == nil {
            fchmod(descriptor, mode)
            if rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        }
        if failure != nil { unlink(temporary) }
        close(descriptor)
        if let failure { throw WriteError(path: requested, reason: failure) }
    }

    /// The start of the names of the temporary files beside `name`: `.NAME.indexadvisor-`, then six letters
    /// and digits (`mkstemp`'s).
    private static func temporaryPrefix(for name: String) -> String {
        "." + name + ".indexadvisor-"
    }

    /// A new temporary file `prefix` + six characters in `directory`, open for writing and locked (`flock`,
    /// exclusive), and its path. A file that ``removeAbandonedTemporaries(in:prefix:)`` of another run took
    /// between its creation and its lock (it was not locked yet, so it looked abandoned) is gone or no longer
    /// the one created when the lock is held: another is made.
    /// - Throws: ``WriteError`` when no file can be created in `directory`.
    private static func lockedTemporary(in directory: String, prefix: String, shownAs requested: String) throws -> (Int32, String) {
        for _ in 0..<16 {
            var template = Array((directory + "/" + prefix + "XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { throw WriteError(path: requested, reason: String(cString: strerror(errno))) }
            let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            // A remover holds the lock only while it checks and unlinks: wait for it.
            var opened = stat(), named = stat()
            if flock(descriptor, LOCK_EX) == 0, fstat(descriptor, &opened) == 0, lstat(temporary, &named) == 0,
               opened.st_dev == named.st_dev, opened.st_ino == named.st_ino {
                return (descriptor, temporary)
            }
            close(descriptor)
        }
        throw WriteError(path: requested, reason: "another process kept removing its temporary file in \(directory)")
    }

    /// Removes the temporary files `prefix` + six letters and digits in `directory` whose writer is gone:
    /// those whose `flock` can be taken at once (a live writer holds it until its rename). Only regular
    /// files are touched, and only the file that was locked (the name still names it).
    static func removeAbandonedTemporaries(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let suffix = name.utf8.dropFirst(prefix.utf8.count)
            guard suffix.count == 6, suffix.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { continue }
            let path = directory + "/" + name
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var opened = stat(), named = stat()
            guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG,
                  flock(descriptor, LOCK_EX | LOCK_NB) == 0,
                  lstat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino else { continue }
            unlink(path)
        }
    }

    /// `requested` with links followed, as a path and a URL, and its directory, which must exist.
    /// - Throws: ``WriteError`` when the directory does not exist.
    private static func existingParent(of requested: String) throws -> (path: String, url: URL, directory: String) {
        let path = try followingLinks(requested)
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WriteError(path: requested, reason: "the directory \(directory) does not exist")
        }
        return (path, url, directory)
    }

    /// Checks, without writing the report, that `write(_:to:)` could write `requested`: its directory exists,
    /// a file can be created there (and renamed over the target), the target is not a directory, an SQLite
    /// database or a file of the kernel's `/proc` or `/sys`, and a descriptor or device is open for writing.
    /// A FIFO is left alone (opening it would wake its reader). Creates and removes one hidden empty file
    /// beside the target.
    /// - Throws: ``WriteError`` naming the file and the cause.
    public static func checkWritable(_ requested: String) throws {
        if let descriptor = standardDescriptor(requested) {
            if fcntl(descriptor, F_GETFL) & O_ACCMODE == O_RDONLY {
                throw WriteError(path: requested, reason: "descriptor \(descriptor) is open for reading only")
            }
            return
        }
        let (path, url, directory) = try existingParent(of: requested)
        if let system = kernelFileSystem(directory) {
            throw WriteError(path: requested, reason: "it is in \(system), the kernel's view of the system, not a place for a report")
        }
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFDIR: throw WriteError(path: requested, reason: "it is a directory")
            case S_IFREG:
                if isSQLiteDatabase(path) { throw WriteError(path: requested, reason: "it is an SQLite database or write-ahead log; choose another file") }
            case S_IFIFO:
                return
            default:
                if access(path, W_OK) != 0 { throw WriteError(path: requested, reason: String(cString: strerror(errno))) }
                return
            }
        }
        var template = Array((directory + "/" + temporaryPrefix(for: url.lastPathComponent) + "XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw WriteError(path: requested, reason: "cannot create a file in \(directory): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    /// "/proc" or "/sys" when `directory` (links resolved) is under the kernel's proc or sysfs file system on
    /// Linux, else nil.
    private static func kernelFileSystem(_ directory: String) -> String? {
        #if os(Linux)
        let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        for root in ["/proc", "/sys"] where real == root || real.hasPrefix(root + "/") { return root }
        #endif
        return nil
    }

    /// `path` with symbolic links at its end followed, dangling ones too (a link to a report not written yet).
    private static func followingLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = destination.hasPrefix("/") ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        throw WriteError(path: path, reason: "too many levels of symbolic links")
    }

    /// True when the file at `path` starts with SQLite's database header string or a write-ahead log's
    /// magic number (https://sqlite.org/fileformat.html, sections 1.3 and 4.1).
    package static func isSQLiteDatabase(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
            || header.prefix(4) == Data([0x37, 0x7F, 0x06, 0x82]) || header.prefix(4) == Data([0x37, 0x7F, 0x06, 0x83])
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names, if `path` is one.
    package static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), fcntl(number, F_GETFD) != -1 { return number }
            }
            return nil
        }
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    /// Writes to a FIFO, a device or another special file as it is. A FIFO with no reader is an error, not
    /// a wait; a write error (a full device) is reported.
    private static func writeInPlace(_ text: String, to path: String, shownAs requested: String) throws {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw WriteError(path: requested, reason: errno == ENXIO ? "a FIFO with no reader" : String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        try writeAll(text, to: descriptor, shownAs: requested)
    }

    private static func writeAll(_ text: String, to descriptor: Int32, shownAs requested: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteError(path: requested, reason: String(cString: strerror(errno)))
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
