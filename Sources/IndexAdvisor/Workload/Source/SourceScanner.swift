import Foundation

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

    /// Reads `paths`: Swift files, Core Data models (`.xcdatamodeld`, `.xcdatamodel`, `contents`), or folders
    /// searched recursively for both (sorted by path; hidden ones left out). In a folder, a directory named
    /// `*.swift` is walked as a folder, an `.xcdatamodeld` is read as the app's model, and a file that is not
    /// a regular file, cannot be read or is not text in UTF-8, UTF-16 or UTF-32 (``decode(_:)``) is skipped with a
    /// warning in ``SourceScan/warnings``. The sites are translated with the classes the files declare, the
    /// models' entities, and `model` (what `--model` read) merged in.
    /// - Throws: ``SourceScanError`` for a missing path, a folder without Swift files or models, a file given
    ///   directly that cannot be read (the reason said: not a regular file, permission denied, not UTF-8…),
    ///   a model that cannot be read.
    public static func scan(paths: [String], model: ModelSource? = nil) throws -> SourceScan {
        let found = try ModelPaths.collect(paths, option: SourceOption.self, nonSwiftFile: { _ in .swift })
        var texts: [(path: String, text: String)] = []
        var warnings: [String] = []
        // Overlapping paths (`app`, `app/Views`, `./app/Views/List.swift`, a link) name a file once: its first mention.
        var seen: Set<String> = []
        for file in found.swift where seen.insert(identity(of: file.path)).inserted {
            switch read(file.path) {
            case .success(let text):
                texts.append((file.shown, text))
            case .failure(let error):
                guard !file.direct else { throw SourceScanError.unreadable(path: file.path, reason: error.reason) }
                warnings.append("\(file.shown): skipped (\(error.reason))")
            }
        }
        var documents: [CoreDataModelDocument] = []
        for path in found.models where seen.insert(identity(of: path)).inserted {
            do {
                documents.append(try XCDataModelReader.read(path: path))
            } catch let error as CoreDataModelFileError {
                throw SourceScanError.modelFile(error)
            }
        }
        var scan = scan(texts, documents: documents, model: model)
        scan.warnings = warnings
        return scan
    }

    /// What makes two paths the same file: device and inode (links and `..` followed), or the standardised
    /// real path when the file cannot be examined.
    static func identity(of path: String) -> String {
        var status = stat()
        if stat(path, &status) == 0 { return "\(status.st_dev):\(status.st_ino)" }
        guard let resolved = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    struct ReadFailure: Error {
        var reason: String
    }

    /// The text of the Swift file at `path`, or why it cannot be read. Only a regular file is opened (a FIFO
    /// or a device would block or never end); it is decoded by ``decode(_:)``.
    static func read(_ path: String) -> Result<String, ReadFailure> {
        let type = (try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path))?[.type] as? FileAttributeType
        guard type == .typeRegular else {
            return .failure(ReadFailure(reason: type == nil ? "cannot read its type" : "not a regular file"))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            if let posix = underlying, posix.domain == NSPOSIXErrorDomain, let message = strerror(Int32(posix.code)) {
                return .failure(ReadFailure(reason: String(cString: message).lowercased()))
            }
            return .failure(ReadFailure(reason: (error as NSError).localizedDescription))
        }
        return decode(data)
    }

    /// `data` as Swift source: UTF-8 (its byte-order mark dropped), or UTF-16 or UTF-32 as the workload
    /// readers detect them (``TextEncoding/wide(_:)``: by a byte-order mark, or UTF-16 without one); or why
    /// not, naming what it seems to be instead. Text holding a NUL is not source (the compiler refuses it
    /// too): zero bytes, or UTF-16 or UTF-32 without a byte-order mark that the detector cannot tell.
    static func decode(_ data: Data) -> Result<String, ReadFailure> {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let nul = ReadFailure(reason: "NUL bytes: not text, or UTF-16 or UTF-32 without a byte-order mark; save it as UTF-8")
            if let (encoding, byteOrderMark) = TextEncoding.wide(bytes) {
                guard let text = TextEncoding.decode(bytes, as: encoding, byteOrderMark: byteOrderMark) else {
                    return .failure(ReadFailure(reason: "not valid \(encoding.name) text; save it as UTF-8"))
                }
                return text.utf8.contains(0) ? .failure(nul) : .success(text)
            }
            if bytes.contains(byte: 0) { return .failure(nul) }
            guard let text = String(validating: TextEncoding.droppingBOM(bytes), as: UTF8.self) else {
                return .failure(ReadFailure(reason: "not UTF-8: 8-bit text such as Latin-1 (ISO 8859-1) or Windows-1252; save it as UTF-8"))
            }
            return .success(text)
        }
    }

    /// Scans source already in memory: each file's path (its last component names it in locations) and text,
    /// with the entities of `documents` (Core Data models found beside it) and of `extra` (the `--model`
    /// source) merged into the classes the files declare.
    public static func scan(_ files: [(path: String, text: String)], documents: [CoreDataModelDocument] = [],
                            model extra: ModelSource? = nil) -> SourceScan {
        var model = ModelSourceReader.parse(files: files)
        // The model's files are those that declare a model class (the reports name them as its source).
        let declaring = model.files.filter { name in model.classes.contains { $0.file == name } }
        if !declaring.isEmpty || !documents.isEmpty || !(extra?.documents.isEmpty ?? true) { model.files = declaring }
        for document in documents + (extra?.documents ?? []) { model = model.adding(document) }
        // `--model` Swift classes the source does not declare itself.
        for added in extra?.classes ?? [] where !model.classes.contains(where: { $0.className == added.className || $0.entity == added.entity }) {
            model.classes.append(added)
            if !model.files.contains(added.file) { model.files.append(added.file) }
        }
        let modelNames = Set(model.classes.map(\.className))
        var sites: [FetchSite] = []
        var linesRead = 0
        // Every file's static members, so that a site follows `Status.sortedFetchRequest` into the file declaring it.
        let members = SourceMembers(files.map { (URL(fileURLWithPath: $0.path).lastPathComponent, SwiftLexer.tokenize($0.text)) })
        for (position, file) in files.enumerated() {
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            let lines = SwiftLexer.lines(of: file.text)
            linesRead += lines.count
            // Several sites on one line share its comment (looked up once: the block above may be long).
            var comments: [Int: Int?] = [:]
            for found in FetchSiteFinder.find(file: position, in: members, modelNames: modelNames) {
                let comment: Int?
                if let known = comments[found.line] {
                    comment = known
                } else {
                    comment = frequencyComment(before: found.line, in: lines)
                    comments[found.line] = comment
                }
                let isViewQuery = found.form == .query || found.form == .fetchRequestProperty
                var site = FetchSite(file: name, path: file.path, line: found.line, form: found.form, entity: found.spec.entity,
                                     frequency: comment ?? (isViewQuery ? viewQueryFrequency : 1), frequencyFromComment: comment != nil,
                                     isCount: found.spec.isCount, sql: nil, bindings: nil, untranslatedReason: nil, notes: found.spec.notes)
                do {
                    let statement = try CoreDataFetchSQL.translate(found.spec, model: model)
                    site.sql = statement.sql
                    if let batch = try CoreDataFetchSQL.batchStatement(found.spec, model: model) {
                        site.notes.append("fetchBatchSize \(found.spec.batchSize ?? 0): the statement fetches the identifiers; each batch is then `\(batch)`")
                    }
                    if found.spec.isCount, found.spec.limit != nil || found.spec.offset != nil {
                        let set = [found.spec.limit.map { "fetchLimit \($0)" }, found.spec.offset.map { "fetchOffset \($0)" }].compactMap { $0 }
                        site.notes.append("\(set.joined(separator: " and ")) on a count: left out, as Core Data's SQL for a count has no LIMIT in the format notes "
                            + "(`SELECT COUNT( DISTINCT t0.Z_PK) FROM …`); a count with a limit is not seen in a real log")
                    }
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
        return SourceScan(files: files.map(\.path), model: model, sites: sites, linesRead: linesRead)
    }

    /// N from `// indexadvisor: freq N` in the comment lines just above `line` (1-based), nil when none says.
    static func frequencyComment(before line: Int, in lines: SourceLines) -> Int? {
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
