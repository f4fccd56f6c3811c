import Foundation

/// Writes report files so that a reader never sees half of one: the bytes go to a hidden temporary file
/// beside the target (removed on error and on SIGINT/SIGTERM/SIGHUP), which is then renamed over it.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write the report (\(reason))" }
    }

    /// Writes `text` to `path` atomically.
    /// - Throws: ``WriteError`` naming the file: its directory is missing, it is a directory, or the write failed.
    public static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WriteError(path: path, reason: "the directory \(directory) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw WriteError(path: path, reason: "it is a directory")
        }
        var template = Array((directory + "/." + url.lastPathComponent + ".indexadvisor-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
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
        close(descriptor)
        if failure == nil {
            fchmodat(AT_FDCWD, temporary, 0o644, 0)
            if rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
    }
}
