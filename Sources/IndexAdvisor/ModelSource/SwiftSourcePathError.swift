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
    /// `path` is neither Swift source nor a Core Data model: what it is.
    case notAModel(path: String, reason: String)
    /// A Core Data model that cannot be read as one.
    case modelFile(CoreDataModelFileError)

    /// One line naming the path, what is wrong and the option.
    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or directory (\(Option.name) takes Swift files, Core Data models or folders)"
        case .noSwiftFiles(let path): return "\(path): the folder has no .swift file and no Core Data model (.xcdatamodeld) (\(Option.name))"
        case .unreadable(let path, let reason): return "\(path): cannot read the Swift file (\(reason))"
        case .notAModel(let path, let reason): return "\(path): \(reason) (\(Option.name) takes Swift files, Core Data models or folders)"
        case .modelFile(let error): return error.description
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
