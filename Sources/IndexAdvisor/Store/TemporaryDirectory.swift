import Foundation

/// A private directory for one run (`indexadvisor-XXXXXX`), removed when the object is released, when
/// `remove()` is called, and on SIGINT, SIGTERM and SIGHUP once `installSignalCleanup()` has run.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's location.
    public let url: URL
    private let lock = NSLock()
    private var removed = false

    /// Creates a new directory with a unique name under `parent` (the system temporary directory by default).
    /// - Throws: ``StoreError/unreadable(path:reason:)`` when the directory cannot be created.
    public init(in parent: URL? = nil) throws {
        let base = (parent ?? FileManager.default.temporaryDirectory).standardizedFileURL
        var template = Array(base.appendingPathComponent("indexadvisor-XXXXXX").path.utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            mkdtemp(buffer.baseAddress!) != nil
        }
        guard created else {
            throw StoreError.temporaryDirectory(path: base.path, reason: String(cString: strerror(errno)))
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        url = URL(fileURLWithPath: path, isDirectory: true)
        TemporaryDirectoryRegistry.shared.add(self)
        try? Data("\(getpid())\n".utf8).write(to: url.appendingPathComponent("owner.pid"))
        Self.removeAbandoned(in: base, except: url)
    }

    /// Removes `indexadvisor-*` directories under `parent` whose owning process has ended without removing
    /// them (a crash or SIGKILL, which no handler sees). A directory whose owner is alive is never touched.
    static func removeAbandoned(in parent: URL, except current: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix("indexadvisor-") && name != current.lastPathComponent {
            let directory = parent.appendingPathComponent(name)
            guard let text = try? String(contentsOf: directory.appendingPathComponent("owner.pid"), encoding: .utf8),
                  let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }

    deinit {
        remove()
    }

    /// Deletes the directory and everything in it. Safe to call more than once.
    public func remove() {
        lock.lock()
        defer { lock.unlock() }
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(at: url)
        TemporaryDirectoryRegistry.shared.remove(self)
    }

    /// Removes every live temporary directory and exits with 128 + the signal number when the process
    /// receives SIGINT, SIGTERM or SIGHUP. Call once, early, from a command-line tool.
    public static func installSignalCleanup() {
        TemporaryDirectoryRegistry.shared.installSignalSources()
    }
}

/// The live temporary directories, so that a signal handler can remove them.
final class TemporaryDirectoryRegistry: @unchecked Sendable {
    static let shared = TemporaryDirectoryRegistry()
    private let lock = NSLock()
    private var directories: [ObjectIdentifier: URL] = [:]
    private var sources: [any DispatchSourceSignal] = []

    func add(_ directory: TemporaryDirectory) {
        lock.lock()
        directories[ObjectIdentifier(directory)] = directory.url
        lock.unlock()
    }

    func remove(_ directory: TemporaryDirectory) {
        lock.lock()
        directories[ObjectIdentifier(directory)] = nil
        lock.unlock()
    }

    private var files: Set<String> = []

    func add(file path: String) {
        lock.withLock { _ = files.insert(path) }
    }

    func remove(file path: String) {
        lock.withLock { _ = files.remove(path) }
    }

    func removeAll() {
        lock.lock()
        let urls = Array(directories.values)
        let paths = files
        directories.removeAll()
        files.removeAll()
        lock.unlock()
        for url in urls { try? FileManager.default.removeItem(at: url) }
        for path in paths { unlink(path) }
    }

    func installSignalSources() {
        lock.lock()
        defer { lock.unlock() }
        guard sources.isEmpty else { return }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                self?.removeAll()
                FileHandle.standardError.write(Data("indexadvisor: interrupted; temporary files removed\n".utf8))
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}
