import Foundation

/// A `--source` path that cannot be read.
public enum SourceScanError: Error, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case noSwiftFiles(path: String)
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or directory (--source takes Swift files or folders)"
        case .noSwiftFiles(let path): return "\(path): the folder has no .swift file (--source)"
        case .unreadable(let path, let reason): return "\(path): cannot read the Swift file (\(reason))"
        }
    }
}

/// Reads the app's Swift source for `--source`: the model classes (the `--model` scan) and every fetch
/// site, each translated into the SQL Core Data prints for it (``CoreDataFetchSQL``) or listed with the
/// reason it could not be.
///
/// Frequencies: 1 per site; 10 for a `@Query` or `@FetchRequest` (SwiftUI runs it again each time the view
/// appears and whenever the store changes); a comment `// indexadvisor: freq N` on the line before a site
/// (or in the comment block just above it) sets N.
public enum SourceScanner {
    /// The frequency of a `@Query`/`@FetchRequest` without a `// indexadvisor: freq N` comment.
    public static let viewQueryFrequency = 10

    /// Reads `paths`: Swift files, or folders searched recursively for `.swift` files (sorted by path; hidden ones left out).
    /// - Throws: ``SourceScanError`` for a missing path, a folder without Swift files, an unreadable file.
    public static func scan(paths: [String]) throws -> SourceScan {
        var files: [(url: URL, shown: String)] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw SourceScanError.notFound(path: path) }
            if isDirectory.boolValue {
                let root = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
                let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
                var found: [(URL, String)] = []
                while let url = enumerator?.nextObject() as? URL {
                    guard url.pathExtension == "swift" else { continue }
                    let relative = url.standardizedFileURL.path.hasPrefix(root.path + "/") ? String(url.standardizedFileURL.path.dropFirst(root.path.count + 1)) : url.lastPathComponent
                    found.append((url, (path.hasSuffix("/") ? path : path + "/") + relative))
                }
                guard !found.isEmpty else { throw SourceScanError.noSwiftFiles(path: path) }
                files += found.sorted { $0.1 < $1.1 }
            } else {
                files.append((URL(fileURLWithPath: path), path))
            }
        }
        var texts: [(shown: String, name: String, text: String)] = []
        for file in files {
            do {
                texts.append((file.shown, file.url.lastPathComponent, try String(contentsOf: file.url, encoding: .utf8)))
            } catch {
                throw SourceScanError.unreadable(path: file.url.path, reason: (error as NSError).localizedDescription)
            }
        }
        return scan(texts.map { (path: $0.shown, text: $0.text) })
    }

    /// Scans source already in memory: each file's path (its last component names it in locations) and text.
    public static func scan(_ files: [(path: String, text: String)]) -> SourceScan {
        var model = ModelSourceReader.parse(files: files)
        // The model's files are those that declare a model class (the reports name them as its source).
        let declaring = model.files.filter { name in model.classes.contains { $0.file == name } }
        if !declaring.isEmpty { model.files = declaring }
        let modelNames = Set(model.classes.map(\.className))
        var sites: [FetchSite] = []
        for file in files {
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            let lines = SwiftLexer.lines(of: file.text)
            for found in FetchSiteFinder.find(SwiftLexer.tokenize(file.text), modelNames: modelNames) {
                let comment = frequencyComment(before: found.line, in: lines)
                let isViewQuery = found.form == .query || found.form == .fetchRequestProperty
                var site = FetchSite(file: name, path: file.path, line: found.line, form: found.form, entity: found.spec.entity,
                                     frequency: comment ?? (isViewQuery ? viewQueryFrequency : 1), frequencyFromComment: comment != nil,
                                     isCount: found.spec.isCount, sql: nil, bindings: nil, untranslatedReason: nil, notes: found.spec.notes)
                do {
                    let statement = try CoreDataFetchSQL.translate(found.spec, model: model)
                    site.sql = statement.sql
                    let known = statement.parameters.compactMap { $0 }
                    site.bindings = known.count == statement.parameters.count && !known.isEmpty ? known : nil
                } catch let error as Untranslatable {
                    site.untranslatedReason = error.reason
                } catch {
                    site.untranslatedReason = String(describing: error)
                }
                sites.append(site)
            }
        }
        let lines = files.reduce(0) { $0 + SwiftLexer.lines(of: $1.text).count }
        return SourceScan(files: files.map(\.path), model: model, sites: sites, linesRead: lines)
    }

    /// N from `// indexadvisor: freq N` in the comment lines just above `line` (1-based), nil when none says.
    static func frequencyComment(before line: Int, in lines: [Substring]) -> Int? {
        var index = min(line - 2, lines.count - 1)
        while index >= 0 {
            let text = lines[index].trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("//") else { return nil }
            if let range = text.range(of: "indexadvisor:") {
                let words = text[range.upperBound...].split(separator: " ")
                if words.count >= 2, words[0] == "freq", let value = Int(words[1]), value > 0 { return value }
            }
            index -= 1
        }
        return nil
    }
}
