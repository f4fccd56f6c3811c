import Foundation
import Locking

/// A private directory for one run (`indexadvisor-XXXXXX`), removed when the object is released, when
/// `remove()` is called, and on SIGINT, SIGTERM, SIGHUP and SIGQUIT once `installSignalCleanup()` has run.
///
/// The run owns the directory by holding an exclusive `flock` on its `owner.lock` file for as long as it
/// lives. A lock, unlike a process id, is seen the same from every PID namespace that shares the temporary
/// folder, and the kernel releases it when the process ends however it ends, so the next run can tell an
/// abandoned directory (its lock free) from a live one (its lock held) without guessing.
public final class TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL
    /// The file whose `flock` marks the directory as owned by a live run.
    static let lockFileName = "owner.lock"
    /// True once ``remove()`` has run.
    private let removed = LockedValue(false)
    /// The open `owner.lock`, holding the lock; closed once the directory is gone.
    private let ownerDescriptor: Int32
    /// Device and inode of the directory and of its lock file, to tell whether someone else removed them.
    private let identity: [FileIdentity]
    /// The run to tell if the directory was deleted under it (``RunWatch``).
    private let watch: RunWatch?

    /// Creates a new directory with a unique name under `parent` (the system temporary directory by default).
    /// - Throws: ``StoreError/temporaryDirectory(path:reason:)`` when the directory cannot be created.
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
        // The lock is taken under another name and then renamed into place, so that no other run ever sees an
        // `owner.lock` that is not locked yet.
        let pending = url.appendingPathComponent(".owner.lock-new").path
        let descriptor = open(pending, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0,
              rename(pending, url.appendingPathComponent(Self.lockFileName).path) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            try? FileManager.default.removeItem(at: url)
            throw StoreError.temporaryDirectory(path: base.path, reason: "cannot lock the private directory: \(reason)")
        }
        ownerDescriptor = descriptor
        identity = [FileIdentity(path: path), FileIdentity(descriptor: descriptor)].compactMap { $0 }
        watch = RunWatch.current
        TemporaryDirectoryRegistry.shared.add(self)
        watch?.add(self)
        Self.removeAbandoned(in: base, except: url)
    }

    /// Removes `indexadvisor-*` directories under `parent` whose run has ended without removing them (a crash
    /// or SIGKILL, which no handler sees): those whose `owner.lock` can be locked. A directory whose lock is
    /// held is never touched, nor one without a lock file (being created, or not a directory of this version).
    static func removeAbandoned(in parent: URL, except current: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix("indexadvisor-") && name != current.lastPathComponent {
            let directory = parent.appendingPathComponent(name)
            let descriptor = open(directory.appendingPathComponent(lockFileName).path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            // Held by a live run, whatever its PID namespace: leave it. Free: its run is gone, and holding the
            // lock now keeps a third run from removing it at the same time.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            purge(directory)
        }
    }

    /// Deletes `directory`: everything in it, then its lock file, then the directory itself, again until the
    /// directory is gone (a file SQLite created meanwhile makes `rmdir` fail; once the directory is gone no
    /// file can appear in it). Gives up after about two seconds.
    static func purge(_ directory: URL) {
        for _ in 0..<200 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where name != lockFileName {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
            unlink(directory.appendingPathComponent(lockFileName).path)
            if rmdir(directory.path) == 0 || errno == ENOENT || errno == ENOTDIR { return }
            usleep(10_000)
        }
    }

    deinit {
        remove()
    }

    /// Deletes the directory and everything in it. Safe to call more than once. When the directory (or its
    /// lock file) is already gone or replaced, another process deleted it during the run, and the run's
    /// ``RunWatch`` is told.
    public func remove() {
        removed.withLock { removed in
            guard !removed else { return }
            removed = true
            if !isIntact { watch?.record(vanished: url.path) }
            // Only the directory this run created is deleted: never one that took its place.
            if let created = identity.first, FileIdentity(path: url.path) == created { Self.purge(url) }
            close(ownerDescriptor)
            TemporaryDirectoryRegistry.shared.remove(self)
        }
    }

    /// True when the directory, not yet removed by this run, is gone or no longer the one it created.
    var isLost: Bool {
        !removed.withLock { $0 } && !isIntact
    }

    /// True while the directory and its lock file are the ones this run created.
    public var isIntact: Bool {
        [FileIdentity(path: url.path), FileIdentity(path: url.appendingPathComponent(Self.lockFileName).path)].compactMap { $0 } == identity
    }

    /// Removes every live temporary directory and exits with 128 + the signal number, after one line on
    /// stderr, when the process receives SIGINT, SIGTERM, SIGHUP or SIGQUIT. Running SQLite statements are
    /// interrupted and no new one starts before anything is deleted. The signals are taken by a thread
    /// started here, so they are handled however few threads the system lets the run start later. Also
    /// ignores SIGPIPE and SIGXFSZ, so that a closed pipe or a file past `ulimit -f` is a failed write,
    /// reported as one line, not a silent death. Call once, early, from a command-line tool, before any
    /// other thread starts.
    /// - Throws: ``ThreadStartError`` when the system lets the process start no thread (`ulimit -u`,
    ///   `ulimit -v`): nothing is installed, and the run cannot go on.
    public static func installSignalCleanup() throws(ThreadStartError) {
        try TemporaryDirectoryRegistry.shared.installSignalThread()
    }

    /// True once a handled signal has arrived: the process is removing its files and about to exit, so the
    /// command prints nothing more (the handler's line is the last) and a directory the handler removed is
    /// not "lost" to its run.
    public static var isTerminating: Bool { TemporaryDirectoryRegistry.shared.isTerminating }

    /// The signals `installSignalCleanup()` handles.
    public static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
}

/// Device and inode of a file.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// The file at `path`: the link itself, or with `followingLinks` the file it points to.
    init?(path: String, followingLinks: Bool = false) {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// What one command run should know about its private directories: whether another process deleted one
/// while the run used it (its snapshot then vanished, and no result of the run can be trusted). A
/// ``TemporaryDirectory`` created inside `RunWatch.$current.withValue(watch) { … }` reports to `watch`.
public final class RunWatch: Sendable {
    @TaskLocal public static var current: RunWatch?
    /// What the lock guards: the paths found vanished, and the run's directories still in use.
    private struct State {
        var paths: [String] = []
        var live: [Weak] = []
    }

    private struct Weak {
        weak var directory: TemporaryDirectory?
    }

    private let state = LockedValue(State())

    public init() {}

    /// Private directories deleted by someone else during the run: those found gone when removed, and those
    /// still in use that are gone now.
    public var vanished: [String] {
        if TemporaryDirectory.isTerminating { return [] }
        let (recorded, directories) = state.withLock { ($0.paths, $0.live.compactMap(\.directory)) }
        return recorded + directories.filter(\.isLost).map(\.url.path).filter { !recorded.contains($0) }
    }

    func record(vanished path: String) {
        state.withLock { $0.paths.append(path) }
    }

    func add(_ directory: TemporaryDirectory) {
        state.withLock { state in
            state.live.removeAll { $0.directory == nil }
            state.live.append(Weak(directory: directory))
        }
    }

    /// - Throws: ``StoreError/snapshotVanished(directory:)`` when a private directory of the run vanished.
    public func check() throws {
        if let path = vanished.first { throw StoreError.snapshotVanished(directory: path) }
    }
}

/// The live temporary directories, so that a signal handler can remove them.
final class TemporaryDirectoryRegistry: Sendable {
    static let shared = TemporaryDirectoryRegistry()

    /// What the lock guards.
    private struct State {
        var directories: [ObjectIdentifier: URL] = [:]
        var files: Set<String> = []
        /// True once the signal thread runs.
        var installed = false
        var terminating = false
    }

    private let state = LockedValue(State())

    func add(_ directory: TemporaryDirectory) {
        state.withLock { $0.directories[ObjectIdentifier(directory)] = directory.url }
    }

    func remove(_ directory: TemporaryDirectory) {
        state.withLock { $0.directories[ObjectIdentifier(directory)] = nil }
    }

    var isTerminating: Bool { state.withLock { $0.terminating } }

    func add(file path: String) {
        state.withLock { _ = $0.files.insert(path) }
    }

    func remove(file path: String) {
        state.withLock { _ = $0.files.remove(path) }
    }

    func removeAll() {
        let (urls, paths) = state.withLock { state in
            defer {
                state.directories.removeAll()
                state.files.removeAll()
            }
            return (Array(state.directories.values), state.files)
        }
        for url in urls { TemporaryDirectory.purge(url) }
        for path in paths { unlink(path) }
    }

    /// Starts the thread that waits for the handled signals, once. Each handled signal is blocked in the
    /// calling thread, and so in every thread started after it, and taken by that one thread with
    /// `sigwait`: a signal is handled by a thread that already runs, so a run that can start no new thread
    /// (`ulimit -u`, `ulimit -v`) still stops and removes its files on SIGINT or SIGTERM. (A Dispatch signal
    /// source needs a new thread to run its handler: under those limits the signal was taken and never
    /// handled, and the run went on for ever.)
    /// - Throws: ``ThreadStartError`` when that thread cannot be started; the signals are then left as
    ///   they were.
    func installSignalThread() throws(ThreadStartError) {
        let failure = state.withLock { state -> ThreadStartError? in
            guard !state.installed else { return nil }
            // A write to a closed pipe fails with EPIPE, and one past the file size limit (`ulimit -f`) with
            // EFBIG, which the writer reports, instead of killing the process silently.
            signal(SIGPIPE, SIG_IGN)
            signal(SIGXFSZ, SIG_IGN)
            var handled = Self.handledSet
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &handled, &previous)
            do throws(ThreadStartError) {
                try ThreadStart.detached(stackBytes: Self.signalThreadStackBytes) { TemporaryDirectoryRegistry.shared.waitForSignals() }
            } catch {
                pthread_sigmask(SIG_SETMASK, &previous, nil)
                return error
            }
            state.installed = true
            return nil
        }
        if let failure { throw failure }
    }

    /// The stack of the signal thread: enough for removing the files, small enough to fit where a thread
    /// with the default stack does not (`ulimit -v`).
    static let signalThreadStackBytes = 512 << 10

    /// The handled signals as a set.
    private static var handledSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in TemporaryDirectory.handledSignals { sigaddset(&set, number) }
        return set
    }

    /// The signal thread's loop: the first handled signal removes everything and exits.
    private func waitForSignals() {
        var handled = Self.handledSet
        while true {
            var number: Int32 = 0
            guard sigwait(&handled, &number) == 0 else { continue }
            terminate(on: number)
        }
    }

    /// Stops SQLite, removes every live directory and file, prints one line and exits with 128 + `number`;
    /// returns at once when another signal got there first.
    private func terminate(on number: Int32) {
        // Once only, and before anything else: the command stops printing.
        guard state.withLock({ state -> Bool in
            defer { state.terminating = true }
            return !state.terminating
        }) else { return }
        // SQLite first: no statement may create a journal in a directory being deleted.
        SQLiteConnection.stopAll()
        removeAll()
        let message = "indexadvisor: interrupted (\(Self.name(of: number))); temporary files removed\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        _exit(128 + number)
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        default: return "signal \(signal)"
        }
    }
}
