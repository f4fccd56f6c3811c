import Foundation

/// The files behind `--model` and `--source` paths: Swift files and Core Data models, given directly or
/// found in folders. One walk for both options, so that they read the same things the same way.
enum ModelPaths {
    /// What a file given directly is read as.
    enum Kind {
        case swift
        case model
    }

    struct Found {
        /// Swift files: the path to open, the path as shown (the argument joined with the path below it),
        /// and whether it was given directly (a direct file that cannot be read is an error, not a warning).
        var swift: [(path: String, shown: String, direct: Bool)] = []
        /// Core Data models: `.xcdatamodeld` / `.xcdatamodel` folders or `contents` files, in order.
        var models: [String] = []
    }

    /// Collects `paths`. A folder is walked (hidden entries left out, sorted by path): `.swift` files are
    /// Swift, an `.xcdatamodeld` (or a lone `.xcdatamodel`) is a model and is not walked into, a folder named
    /// `*.swift` (a vendored package) is walked. A model path given directly is a model; another file is
    /// Swift when it ends in `.swift`, else what `nonSwiftFile` says (or throws).
    /// - Throws: `SwiftSourcePathError<Option>.notFound` for a missing path, `.noSwiftFiles` for a folder
    ///   with neither Swift files nor models, and what `nonSwiftFile` throws.
    static func collect<Option: SwiftSourceOption>(_ paths: [String], option: Option.Type,
                                                  nonSwiftFile: (String) throws -> Kind) throws -> Found {
        var found = Found()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw SwiftSourcePathError<Option>.notFound(path: path)
            }
            if XCDataModelReader.isModelPath(path) {
                found.models.append(path)
                continue
            }
            guard isDirectory.boolValue else {
                if URL(fileURLWithPath: path).pathExtension == "swift" {
                    found.swift.append((path, path, true))
                } else {
                    switch try nonSwiftFile(path) {
                    case .swift: found.swift.append((path, path, true))
                    case .model: found.models.append(path)
                    }
                }
                continue
            }
            let root = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]) else {
                throw SwiftSourcePathError<Option>.noSwiftFiles(path: path)
            }
            var swift: [(String, String, Bool)] = []
            var models: [(shown: String, path: String)] = []
            while let url = enumerator.nextObject() as? URL {
                let standardized = url.standardizedFileURL.path
                let relative = standardized.hasPrefix(root.path + "/") ? String(standardized.dropFirst(root.path.count + 1)) : url.lastPathComponent
                let shown = (path.hasSuffix("/") ? path : path + "/") + relative
                let directory = isDirectoryEntry(url.path)
                let ext = url.pathExtension.lowercased()
                if directory && (ext == "xcdatamodeld" || ext == "xcdatamodel") {
                    models.append((shown, url.path))
                    enumerator.skipDescendants()
                    continue
                }
                // A folder named `SQLite.swift` (a vendored package) is walked into, not read.
                guard url.pathExtension == "swift", !directory else { continue }
                swift.append((url.path, shown, false))
            }
            guard !swift.isEmpty || !models.isEmpty else { throw SwiftSourcePathError<Option>.noSwiftFiles(path: path) }
            found.swift += swift.sorted { $0.1 < $1.1 }
            found.models += models.sorted { $0.shown < $1.shown }.map(\.path)
        }
        return found
    }

    /// True for a regular file (links followed): only those are opened (a FIFO would block, a device never end).
    static func isRegularFile(_ path: String) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path))?[.type] as? FileAttributeType
        return type == .typeRegular
    }

    /// True when the regular file at `path` starts (after white space and a byte-order mark) with `<`: XML.
    static func looksLikeXML(_ path: String) -> Bool {
        guard isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 256)) ?? Data()
        let bytes = start.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(start.dropFirst(3)) : Array(start)
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// True for a directory (links followed).
    static func isDirectoryEntry(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
