import Foundation

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

    public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, errorIsTerminal: Bool,
                terminalWidth: Int? = nil, outputFailure: @escaping @Sendable () -> String? = { nil }) {
        self.out = out
        self.error = error
        self.errorIsTerminal = errorIsTerminal
        self.terminalWidth = terminalWidth
        self.outputFailure = outputFailure
    }

    /// The process's standard output and error, written with `write(2)`; a failed write to standard
    /// output is remembered (and reported by the command), never a crash.
    public static var standard: Console {
        let streams = StandardStreams()
        let isTerminal = isatty(STDERR_FILENO) != 0
        return Console(out: { streams.write($0, to: STDOUT_FILENO) }, error: { streams.write($0, to: STDERR_FILENO) },
                       errorIsTerminal: isTerminal, terminalWidth: isTerminal ? terminalColumns(STDERR_FILENO) : nil,
                       outputFailure: { streams.failure })
    }

    /// The width of the terminal on `descriptor`, from `TIOCGWINSZ`; nil when it does not say.
    static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// Writes to file descriptors, keeping the first failure on standard output.
final class StandardStreams: @unchecked Sendable {
    private let lock = NSLock()
    private var firstFailure: String?

    var failure: String? { lock.withLock { firstFailure } }

    func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if descriptor == STDOUT_FILENO {
                    let reason = String(cString: strerror(errno))
                    lock.withLock { if firstFailure == nil { firstFailure = reason } }
                }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
