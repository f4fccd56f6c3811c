import Foundation

/// Finds workload files: the recorded workload kept beside a store, and the logs inside a folder.
public enum WorkloadDiscovery {
    /// The suffix IndexAdvisorRecorder appends to the store's path by default:
    /// `default.store` → `default.store.workload.jsonl` (docs/workload-jsonl.md).
    public static let recordedWorkloadSuffix = ".workload.jsonl"

    /// File name endings read from a folder given as `--workload` (case-insensitive). Other files, hidden
    /// files and hidden folders are left out, so a folder of Xcode console exports, `log show` output and
    /// `.sql` scripts reads as expected, and a stray `.DS_Store` or image does not.
    public static let folderExtensions: Set<String> = ["log", "txt", "sql", "jsonl", "ndjson", "trace"]

    /// The recorded workload beside the store at `store`, if that regular file exists (a link to one counts):
    /// `<store path>.workload.jsonl`. A directory, FIFO or device of that name is not picked up (a FIFO
    /// nobody writes to would wait for ever).
    public static func recordedWorkload(besideStore store: URL) -> URL? {
        let candidate = URL(fileURLWithPath: store.path + recordedWorkloadSuffix)
        var status = stat()
        guard stat(candidate.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return candidate
    }

    /// True when `path` (a link followed) is a character or block device or a socket: never a workload or a
    /// saved report, and reading one (`/dev/zero`) would never end.
    package static func isDeviceOrSocket(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && [S_IFCHR, S_IFBLK, S_IFSOCK].contains(status.st_mode & S_IFMT)
    }

    /// True when `path` (a link followed) is a named pipe.
    package static func isPipe(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    /// One workload input: the file and the name diagnostics and sources call it by.
    public struct Input: Sendable, Equatable {
        public var url: URL
        /// The file name, or for a file found in a folder its path under that folder (`device/2026-11-28.log`).
        public var name: String
    }

    /// Expands `urls`: a file stays as it is; a folder becomes the workload files under it (recursively,
    /// by ``folderExtensions``), sorted by path so a run is repeatable.
    /// - Throws: ``WorkloadError/notFound(path:)`` for a missing path, ``WorkloadError/emptyFolder(path:)``
    ///   for a folder with no workload file under it.
    public static func inputs(_ urls: [URL]) throws -> [Input] {
        var inputs: [Input] = []
        for url in urls {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw WorkloadError.notFound(path: url.path)
            }
            guard isDirectory.boolValue else {
                // A pipe is a stream a user means to give (`<(log show …)`); a device such as /dev/zero is not.
                if isDeviceOrSocket(url.path) { throw WorkloadError.notAFile(path: url.path) }
                inputs.append(Input(url: url, name: url.lastPathComponent))
                continue
            }
            let found = filesInFolder(url)
            if found.isEmpty { throw WorkloadError.emptyFolder(path: url.path) }
            inputs += found
        }
        return inputs
    }

    /// The files under `folder` with a workload file's ending that are FIFOs, devices or sockets (a link to
    /// one included), by their path under it: never read (a FIFO nobody writes to would wait), and listed
    /// among what was set aside so that a user sees why.
    static func specialFilesInFolder(_ folder: URL) -> [String] {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath()
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { return [] }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        var found: [String] = []
        for case let file as URL in enumerator where folderExtensions.contains(file.pathExtension.lowercased()) {
            guard isPipe(file.path) || isDeviceOrSocket(file.path) else { continue }
            let path = file.standardizedFileURL.path
            found.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : file.lastPathComponent)
        }
        return found.sorted()
    }

    /// The workload files under `folder` (links to regular files included), sorted by their path under it.
    static func filesInFolder(_ folder: URL) -> [Input] {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath()
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { return [] }
        var found: [Input] = []
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let file as URL in enumerator {
            // A link to a regular file counts as that file (a breaking helper's linked `e.sql` was neither
            // read nor listed as set aside); a link to a FIFO or device is set aside with those.
            guard folderExtensions.contains(file.pathExtension.lowercased()),
                  (try? file.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = file.standardizedFileURL.path
            let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : file.lastPathComponent
            found.append(Input(url: file, name: name))
        }
        return found.sorted { $0.name < $1.name }
    }
}
