import Foundation
import IndexAdvisor
import Locking

/// Where a command writes: standard output, standard error, and whether stderr is a terminal.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void
    /// True when progress may be drawn on stderr.
    public var errorIsTerminal: Bool
    /// Columns of the terminal stderr writes to, when it is one and says.
    public var terminalWidth: Int?
    /// Why writing to standard output failed (a closed pipe, a full disk), if it did.
    public var outputFailure: @Sendable () -> String?

    /// Why standard output cannot take a report at all, asked before the work starts (closed, read-only, a
    /// pipe whose reader is gone); nil when it looks writable.
    public var outputProblem: @Sendable () -> String?
    /// True when problems print as GitHub Actions annotations (`GITHUB_ACTIONS=true` in the environment).
    public var isGitHubActions: Bool

    public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, errorIsTerminal: Bool,
                terminalWidth: Int? = nil, outputFailure: @escaping @Sendable () -> String? = { nil },
                outputProblem: @escaping @Sendable () -> String? = { nil },
                isGitHubActions: Bool = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true") {
        self.isGitHubActions = isGitHubActions
        self.out = out
        self.error = error
        self.errorIsTerminal = errorIsTerminal
        self.terminalWidth = terminalWidth
        self.outputFailure = outputFailure
        self.outputProblem = outputProblem
    }

    /// The process's standard output and error, written with `write(2)`; a failed write to standard
    /// output is remembered (and reported by the command), never a crash.
    public static var standard: Console {
        let streams = StandardStreams()
        let isTerminal = isatty(STDERR_FILENO) != 0
        return Console(out: { streams.write($0, to: STDOUT_FILENO) }, error: { streams.write($0, to: STDERR_FILENO) },
                       errorIsTerminal: isTerminal, terminalWidth: isTerminal ? terminalColumns(STDERR_FILENO) : nil,
                       outputFailure: { streams.failure }, outputProblem: { descriptorProblem(STDOUT_FILENO) })
    }

    /// Call first thing in `main`: a standard descriptor that the shell closed (`>&-`) is filled with `/dev/null`
    /// (read-only for 1 and 2, so that writes fail), so that no file opened later — the snapshot, a report —
    /// takes its number and receives the report or the error lines. Standard output remembers it was closed.
    public static func holdClosedStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let held = open("/dev/null", O_RDONLY)
            if held >= 0, held != descriptor {
                dup2(held, descriptor)
                close(held)
            }
            if descriptor == STDOUT_FILENO { StandardStreams.closedAtStart.withLock { $0 = true } }
        }
    }

    /// Why `descriptor` cannot be written, without writing to it: not open, open read-only, or a pipe whose
    /// reading end is closed (`poll` reports `POLLERR`); nil otherwise.
    static func descriptorProblem(_ descriptor: Int32) -> String? {
        let flags = fcntl(descriptor, F_GETFL)
        if flags == -1 || (descriptor == STDOUT_FILENO && StandardStreams.closedAtStart.withLock { $0 }) { return "it is closed" }
        if flags & O_ACCMODE == O_RDONLY { return "it is open for reading only" }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLERR) != 0 { return "a pipe whose reader has closed" }
        }
        return nil
    }

    /// The width of the terminal on `descriptor`, from `TIOCGWINSZ`; nil when it does not say.
    static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// Writes to file descriptors, keeping the first failure on standard output.
final class StandardStreams: Sendable {
    /// Set when standard output was closed when the process started.
    static let closedAtStart = LockedValue(false)

    private let firstFailure = LockedValue<String?>(nil)

    var failure: String? { firstFailure.withLock { $0 } }

    func write(_ text: String, to descriptor: Int32) {
        // A signal is ending the run: its handler's one line is the last thing printed.
        if TemporaryDirectory.isTerminating { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if descriptor == STDOUT_FILENO {
                    let reason = String(cString: strerror(errno))
                    firstFailure.withLock { if $0 == nil { $0 = reason } }
                }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
