import Foundation

/// Where a command writes: standard output, standard error, and whether stderr is a terminal.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void
    /// True when progress may be drawn on stderr.
    public var errorIsTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, errorIsTerminal: Bool) {
        self.out = out
        self.error = error
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's standard output and error.
    public static var standard: Console {
        Console(out: { FileHandle.standardOutput.write(Data($0.utf8)) },
                error: { FileHandle.standardError.write(Data($0.utf8)) },
                errorIsTerminal: isatty(STDERR_FILENO) != 0)
    }
}
