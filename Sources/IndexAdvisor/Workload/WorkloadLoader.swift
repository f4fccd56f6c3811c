import Foundation

/// The formats a workload file can have.
public enum WorkloadFormat: String, Sendable, Codable, CaseIterable {
    /// A `.sql` script with optional `-- freq: N` comments.
    case sql
    /// Core Data / SwiftData SQL debug output.
    case coreDataLog = "coredata-log"
    /// The JSON Lines workload `IndexAdvisorRecorder` writes (docs/workload-jsonl.md).
    case jsonl
    /// The JSON document `indexadvisor workload --format json` writes, read back (``WorkloadListingReader``).
    case listing = "workload-json"

    /// A name for people: `Core Data log`, `SQL script`, `JSON Lines`.
    public var displayName: String {
        switch self {
        case .sql: return "SQL script"
        case .coreDataLog: return "Core Data log"
        case .jsonl: return "JSON Lines"
        case .listing: return "workload listing (indexadvisor workload --format json)"
        }
    }

    /// Works the format out from the text (all of it: the deciding line may be anywhere). See ``FormatDetector``.
    public static func detect(_ text: Substring) -> WorkloadFormat {
        var copy = String(text)
        return copy.withUTF8 { detect($0) }
    }

    /// Works the format out from bytes already in memory (a byte-order mark first is ignored).
    package static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> WorkloadFormat {
        var detector = FormatDetector()
        detector.feed(TextEncoding.droppingBOM(bytes))
        return detector.finish().format
    }
}

/// Works a workload's format out from its lines, wherever in the file the deciding line is:
/// - a workload listing when the document opens with `{` and its `about` names ``WorkloadListingReader/marker``
///   (on the first line or the one after it, as `indexadvisor workload --format json` writes it);
/// - JSON Lines when the first line that is not blank is a JSON object with a `"type"` or `"sql"` key;
/// - a Core Data log as soon as one line is Core Data output: `CoreData: <word>:` anywhere in it (`sql:`,
///   `annotation:`, `details:`, and also `error:`, `debug:`, `CloudKit:`…: a log whose Core Data lines
///   are only errors is still a log), the unified log's `[com.apple.coredata…]` tag, or a line starting
///   with `sql: `, `annotation: ` or `details: ` (the marker stripped);
/// - a SQL script when no line is either.
/// Fed chunk by chunk; once decided it stops looking, so a log costs only its first lines.
package struct FormatDetector {
    package private(set) var decision: (format: WorkloadFormat, reason: String)?
    private var lineNumber = 0
    private var sawText = false
    /// True while the only text line seen is a lone `{`: the next one may be a listing's `about`.
    private var openedObject = false
    private var splitter = LineSplitter()

    package init() {}

    /// Looks at the lines that end in `chunk` (until the format is decided).
    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard decision == nil else { return }
        var lines = LineSplitter()
        swap(&lines, &splitter)
        lines.feed(chunk) { line, _ in look(line) }
        swap(&lines, &splitter)
    }

    /// The format, and why; a SQL script when no line decided otherwise.
    package mutating func finish() -> (format: WorkloadFormat, reason: String) {
        if decision == nil {
            var lines = LineSplitter()
            swap(&lines, &splitter)
            lines.finish { line, _ in look(line) }
        }
        return decision ?? (.sql, "no line of its \(Figures.count(lineNumber)) is Core Data output or a JSON record")
    }

    private mutating func look(_ line: UnsafeBufferPointer<UInt8>) {
        guard decision == nil else { return }
        lineNumber += 1
        let trimmed = line.trimmingSpaces()
        if openedObject, !trimmed.isEmpty {
            openedObject = false
            if trimmed.firstIndex(of: "\"about\"") != nil, trimmed.firstIndex(of: WorkloadListingReader.marker) != nil {
                decision = (.listing, "line \(Figures.count(lineNumber)) names it \"\(WorkloadListingReader.marker)\"")
                return
            }
        }
        if !sawText, !trimmed.isEmpty {
            sawText = true
            if trimmed.count == 1, trimmed[0] == UInt8(ascii: "{") {
                openedObject = true
                return
            }
            if trimmed.hasPrefix("{"), trimmed.firstIndex(of: "\"about\"") != nil, trimmed.firstIndex(of: WorkloadListingReader.marker) != nil {
                decision = (.listing, "line \(Figures.count(lineNumber)) names it \"\(WorkloadListingReader.marker)\"")
                return
            }
            if trimmed.hasPrefix("{"), trimmed.firstIndex(of: "\"type\"") != nil || trimmed.firstIndex(of: "\"sql\"") != nil {
                decision = (.jsonl, "line \(Figures.count(lineNumber)) is a JSON object with a \"type\" or \"sql\" key")
                return
            }
        }
        guard CoreDataLogReader.coreDataMessage(in: line) != nil else { return }
        var evidence = "starts with 'sql:', 'annotation:' or 'details:'"
        if let marker = line.firstIndex(of: "CoreData: ") {
            let rest = line.slice(marker + 10)
            if let colon = rest.slice(0, 14).firstIndex(of: ":") {
                evidence = "carries 'CoreData: " + String(decoding: rest.slice(0, colon + 1), as: UTF8.self) + "'"
            }
        } else if line.firstIndex(of: "[com.apple.coredata") != nil {
            evidence = "carries the unified log's [com.apple.coredata] tag"
        }
        decision = (.coreDataLog, "line \(Figures.count(lineNumber)) \(evidence)")
    }
}

/// Why a workload could not be read.
public enum WorkloadError: Error, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case notAFile(path: String)
    /// A folder given as a workload holds no `.log`, `.txt`, `.sql`, `.jsonl`, `.ndjson` or `.trace` file.
    case emptyFolder(path: String)
    case unreadable(path: String, reason: String)
    /// The file is text in an encoding the readers do not take (UTF-16, UTF-32).
    case unsupportedEncoding(path: String, encoding: String)
    /// The inputs held no SELECT, INSERT, UPDATE or DELETE.
    case empty(paths: [String], diagnostics: WorkloadDiagnostics)
    /// The file is plainly something else (an image, an SQLite database, a saved report, an empty file), or
    /// not in the format `--workload-format` forced; `what` says what it is and what to do.
    case notAWorkload(path: String, what: String)
    /// Every statement failed against the store (no such table, does not prepare…); the reasons, one per statement.
    case noStatementAnalysable(reasons: [String])

    public var description: String {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        switch self {
        case .notFound(let path): return "\(path): no such workload file"
        case .notAFile(let path):
            var status = stat()
            let what = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a device or socket"
            return "\(path): is \(what), not a workload file"
        case .emptyFolder(let path):
            return "\(path): the folder has no workload file (.log, .txt, .sql, .jsonl, .ndjson or .trace)"
        case .unreadable(let path, let reason): return "\(path): cannot read the workload (\(reason))"
        case .notAWorkload(let path, let what): return "\(path): \(what)"
        case .unsupportedEncoding(let path, let encoding):
            let from = encoding.hasPrefix("UTF-16") ? (encoding.hasSuffix("little-endian") ? "UTF-16LE" : "UTF-16BE")
                : (encoding.hasSuffix("little-endian") ? "UTF-32LE" : "UTF-32BE")
            return "\(path): the workload is \(encoding) text; indexadvisor reads UTF-8 (convert it: iconv -f \(from) -t UTF-8 FILE > FILE.utf8)"
        case .empty(let paths, let diagnostics):
            var text = "\(paths.joined(separator: ", ")): the workload has no SELECT, INSERT, UPDATE or DELETE statement"
            text += " (\(counted(diagnostics.linesRead, "line")) read, \(counted(diagnostics.statementsRead, "statement"))"
            if diagnostics.skippedCount > 0 { text += ", \(counted(diagnostics.skippedCount, "item")) skipped" }
            return text + ")"
        case .noStatementAnalysable(let reasons):
            let first = reasons.first ?? "unknown reason"
            return "none of the workload's \(reasons.count) statements can be analysed on this store; the first \(first)"
        }
    }
}

/// Reads workload files of any supported format into one ``Workload``.
public enum WorkloadLoader {
    /// Reads and merges `urls`, streaming each file in 4 MB chunks (memory stays bounded whatever their size).
    /// A folder stands for the workload files under it (``WorkloadDiscovery/inputs(_:)``).
    /// - Parameter format: forces a format; nil works it out from each file's content.
    /// - Throws: ``WorkloadError`` for a missing or unreadable file, a folder with no workload file, or
    ///   when no statement can be analysed.
    public static func load(_ urls: [URL], format: WorkloadFormat? = nil) throws -> Workload {
        let workload = try read(urls, format: format)
        if workload.analysedStatements.isEmpty {
            throw WorkloadError.empty(paths: urls.map(\.path), diagnostics: workload.diagnostics)
        }
        return workload
    }

    /// Reads and merges `urls` like ``load(_:format:)``, without requiring a statement to analyse (for
    /// the `workload` command, which shows what was captured).
    /// - Throws: ``WorkloadError`` for a missing or unreadable file.
    public static func read(_ urls: [URL], format: WorkloadFormat? = nil) throws -> Workload {
        var builder = WorkloadBuilder()
        let named = Set(urls.map(\.standardizedFileURL.path))
        for url in urls where (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
            for name in WorkloadDiscovery.specialFilesInFolder(url) {
                builder.diagnostics.skip("a FIFO, device or socket in the folder, not read", at: name)
            }
        }
        var seen = Set<FileIdentity>()
        for input in try WorkloadDiscovery.inputs(urls) {
            // One file given twice (twice by name, by a link, or by name and in a folder) is one workload:
            // read twice it doubled every count (a breaking helper's `--workload a.sql --workload a.sql`).
            if !WorkloadDiscovery.isPipe(input.url.path), let identity = FileIdentity(path: input.url.path, followingLinks: true),
               !seen.insert(identity).inserted {
                builder.diagnostics.skip(Self.sameFileAgain, at: input.name)
                continue
            }
            let isNamed = named.contains(input.url.standardizedFileURL.path)
            do {
                try read(input.url, name: input.name, format: format, refusesNonWorkloads: true, isNamed: isNamed, into: &builder)
            } catch let error as WorkloadError where !isNamed {
                // A file found in a folder that is no workload (one export in UTF-16, an image named .log) is
                // set aside and counted, as a malformed line is; the folder's other files are read. A breaking
                // helper's folder with one UTF-16 file made the whole run exit 2.
                switch error {
                case .unsupportedEncoding(_, let encoding): builder.diagnostics.skip("a file in \(encoding), not read (save it as UTF-8)", at: input.name)
                case .notAWorkload(_, let what): builder.diagnostics.skip("a file that is \(what), not read", at: input.name)
                default: throw error
                }
            }
        }
        return builder.build()
    }

    /// The skip reason for a file given again (by name, a link, or a folder holding it): it is read once.
    public static let sameFileAgain = "the same file given again (read once)"

    /// Reads a workload from text already in memory (for tests and the demo).
    public static func parse(_ text: String, file: String = "workload", format: WorkloadFormat? = nil) -> Workload {
        var builder = WorkloadBuilder()
        var copy = text
        copy.withUTF8 { bytes in
            let content = TextEncoding.droppingBOM(bytes)
            let chosen: (format: WorkloadFormat, reason: String)
            if let format {
                chosen = (format, forcedReason)
            } else {
                var detector = FormatDetector()
                detector.feed(content)
                chosen = detector.finish()
            }
            builder.diagnostics.formats.append(choice(file: file, chosen, forced: format != nil, bom: content.count != bytes.count, content))
            read(chosen.format, file: file, into: &builder) { body in body(content) }
        }
        return builder.build()
    }

    static let forcedReason = "forced with --workload-format"

    private static func choice(file: String, _ chosen: (format: WorkloadFormat, reason: String), forced: Bool, bom: Bool,
                               _ start: UnsafeBufferPointer<UInt8>) -> WorkloadFormatChoice {
        WorkloadFormatChoice(file: file, format: chosen.format, reason: chosen.reason, forced: forced,
                             encoding: bom ? "UTF-8 with a byte-order mark (removed)" : "UTF-8", lineEnds: TextEncoding.lineEnds(start))
    }

    /// Streams one file into `builder`.
    /// - Parameters:
    ///   - refusesNonWorkloads: true to refuse a file that is plainly something else (``NotAWorkload``), or
    ///     not in a forced JSON Lines format; false reads any bytes (the readers' own tests and fuzzing).
    ///   - isNamed: true for a file the user named (not found in a folder): an empty one is refused too.
    /// - Throws: ``WorkloadError`` for an unreadable file, one in UTF-16 or UTF-32, or one refused as above.
    static func read(_ url: URL, name: String, format: WorkloadFormat?, refusesNonWorkloads: Bool = false, isNamed: Bool = false,
                     into builder: inout WorkloadBuilder) throws {
        let reader = try ChunkedFileReader(path: url.path)
        let first = try reader.peek()
        if let encoding = TextEncoding.unsupported(first) { throw WorkloadError.unsupportedEncoding(path: url.path, encoding: encoding) }
        if refusesNonWorkloads {
            try refuseNonWorkload(url, first: first, format: format, emptyIsAnError: isNamed && reader.canRewind)
        }
        let bom = TextEncoding.hasBOM(first)
        let chosen: (format: WorkloadFormat, reason: String)
        if let format {
            chosen = (format, forcedReason)
        } else {
            // Look as far as it takes, then read from the start again; a pipe cannot be read twice, so
            // its first chunk decides.
            var detector = FormatDetector()
            detector.feed(TextEncoding.droppingBOM(first))
            if detector.decision == nil, reader.canRewind, try reader.scanRest({ detector.feed($0); return detector.decision == nil }) {
                try reader.rewind()
            }
            chosen = detector.finish()
        }
        builder.diagnostics.formats.append(choice(file: name, chosen, forced: format != nil, bom: bom, TextEncoding.droppingBOM(try reader.peek())))
        var failure: (any Error)?
        var isFirst = true
        read(chosen.format, file: name, into: &builder) { body in
            do {
                try reader.forEachChunk { chunk in
                    body(isFirst && bom ? chunk.slice(3) : chunk)
                    isFirst = false
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Throws ``WorkloadError/notAWorkload(path:what:)`` when `first` (a file's first bytes) shows that it is
    /// not a workload, or not JSON Lines when `format` forces that; for an empty file only when `emptyIsAnError`.
    private static func refuseNonWorkload(_ url: URL, first: UnsafeBufferPointer<UInt8>, format: WorkloadFormat?, emptyIsAnError: Bool) throws {
        if first.isEmpty && emptyIsAnError { throw WorkloadError.notAWorkload(path: url.path, what: NotAWorkload.empty) }
        if let what = NotAWorkload.identify(first) { throw WorkloadError.notAWorkload(path: url.path, what: what) }
        if format == .jsonl, let mismatch = NotAWorkload.jsonLinesMismatch(TextEncoding.droppingBOM(first)) {
            throw WorkloadError.notAWorkload(path: url.path, what: mismatch)
        }
    }

    /// Runs the reader for `format` over the chunks `chunks` hands to its argument.
    private static func read(_ format: WorkloadFormat, file: String, into builder: inout WorkloadBuilder,
                             chunks: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) {
        switch format {
        case .sql:
            var reader = SQLScriptReader(file: file)
            chunks { reader.feed($0, into: &builder) }
            reader.finish(into: &builder)
        case .coreDataLog:
            var reader = CoreDataLogReader(file: file)
            var splitter = LineSplitter()
            chunks { chunk in splitter.feed(chunk) { reader.line($0, cut: $1, into: &builder) } }
            splitter.finish { reader.line($0, cut: $1, into: &builder) }
            reader.finish(into: &builder)
        case .jsonl:
            var reader = JSONLWorkloadReader(file: file)
            var splitter = LineSplitter()
            chunks { chunk in splitter.feed(chunk) { reader.line($0, cut: $1, into: &builder) } }
            splitter.finish { reader.line($0, cut: $1, into: &builder) }
            reader.finish(into: &builder)
        case .listing:
            var reader = WorkloadListingReader(file: file)
            chunks { reader.feed($0) }
            reader.finish(into: &builder)
        }
    }
}
