/// A path of the app's Swift source that cannot be read, for the option that named it (`Option`:
/// ``ModelOption`` for `--model`, ``SourceOption`` for `--source`): one type, so both options say the same
/// thing the same way.
public enum SwiftSourcePathError<Option: SwiftSourceOption>: Error, Equatable, CustomStringConvertible {
    /// Nothing exists at `path`.
    case notFound(path: String)
    /// `path` is a folder with no `.swift` file in it.
    case noSwiftFiles(path: String)
    /// The Swift file at `path` cannot be read, with the reason.
    case unreadable(path: String, reason: String)

    /// One line naming the path, what is wrong and the option.
    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or directory (\(Option.name) takes Swift files or folders)"
        case .noSwiftFiles(let path): return "\(path): the folder has no .swift file (\(Option.name))"
        case .unreadable(let path, let reason): return "\(path): cannot read the Swift file (\(reason))"
        }
    }
}

/// The command-line option a ``SwiftSourcePathError`` is about.
public protocol SwiftSourceOption {
    /// The option as typed, e.g. `--model`.
    static var name: String { get }
}

/// `--model`: the app's model classes.
public enum ModelOption: SwiftSourceOption {
    public static var name: String { "--model" }
}

/// `--source`: the app's fetch sites.
public enum SourceOption: SwiftSourceOption {
    public static var name: String { "--source" }
}

/// A `--model` path that cannot be read.
public typealias ModelSourceError = SwiftSourcePathError<ModelOption>

/// A `--source` path that cannot be read.
public typealias SourceScanError = SwiftSourcePathError<SourceOption>
