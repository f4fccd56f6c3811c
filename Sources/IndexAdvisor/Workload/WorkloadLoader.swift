import Foundation

/// The formats a workload file can have.
public enum WorkloadFormat: String, Sendable, Codable, CaseIterable {
    /// A `.sql` script with optional `-- freq: N` comments.
    case sql
    /// Core Data / SwiftData SQL debug output.
    case coreDataLog = "coredata-log"
    /// The JSON Lines workload `IndexAdvisorRecorder` writes (docs/workload-jsonl.md).
    case jsonl

    /// Works the format out from the text: JSON Lines when the first line that is not blank is a JSON
    /// object with a `"type"` or `"sql"` key; Core Data debug output when a line carries `CoreData: sql:`
    /// (or starts with `sql: ` followed by a statement); a SQL script otherwise.
    public static func detect(_ text: Substring) -> WorkloadFormat {
        var copy = String(text.prefix(1 << 20))
        return copy.withUTF8 { detect($0) }
    }

    /// Works the format out from the first bytes of a file (up to its first 2,000 lines are looked at).
    package static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> WorkloadFormat {
        var lines = 0
        var sawText = false
        var format = WorkloadFormat.sql
        var splitter = LineSplitter()
        func look(_ line: UnsafeBufferPointer<UInt8>, _ cut: Bool) {
            guard lines < 2000, format == .sql else { return }
            lines += 1
            let trimmed = line.trimmingSpaces()
            if !sawText, !trimmed.isEmpty {
                sawText = true
                if trimmed.hasPrefix("{"), trimmed.firstIndex(of: "\"type\"") != nil || trimmed.firstIndex(of: "\"sql\"") != nil {
                    format = .jsonl
                    return
                }
            }
            if line.firstIndex(of: "CoreData: sql:") != nil || line.firstIndex(of: "CoreData: annotation:") != nil
                || line.firstIndex(of: "CoreData: details:") != nil {
                format = .coreDataLog
                return
            }
            if trimmed.hasPrefix("sql: ") || trimmed.hasPrefix("annotation: ") { format = .coreDataLog }
        }
        splitter.feed(bytes.slice(0, 1 << 20), look)
        splitter.finish(look)
        return format
    }
}

/// Why a workload could not be read.
public enum WorkloadError: Error, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case notAFile(path: String)
    /// A folder given as a workload holds no `.log`, `.txt`, `.sql`, `.jsonl`, `.ndjson` or `.trace` file.
    case emptyFolder(path: String)
    case unreadable(path: String, reason: String)
    /// The inputs held no SELECT, INSERT, UPDATE or DELETE.
    case empty(paths: [String], diagnostics: WorkloadDiagnostics)
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
        for input in try WorkloadDiscovery.inputs(urls) { try read(input.url, name: input.name, format: format, into: &builder) }
        return builder.build()
    }

    /// Reads a workload from text already in memory (for tests and the demo).
    public static func parse(_ text: String, file: String = "workload", format: WorkloadFormat? = nil) -> Workload {
        var builder = WorkloadBuilder()
        var copy = text
        copy.withUTF8 { bytes in
            let chosen = format ?? WorkloadFormat.detect(bytes)
            read(chosen, file: file, into: &builder) { body in body(bytes) }
        }
        return builder.build()
    }

    /// Streams one file into `builder`.
    static func read(_ url: URL, name: String, format: WorkloadFormat?, into builder: inout WorkloadBuilder) throws {
        let reader = try ChunkedFileReader(path: url.path)
        let chosen = try format ?? WorkloadFormat.detect(reader.peek())
        var failure: (any Error)?
        read(chosen, file: name, into: &builder) { body in
            do {
                try reader.forEachChunk(body)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
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
        }
    }
}
