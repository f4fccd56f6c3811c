import Foundation

/// The formats a workload file can have.
public enum WorkloadFormat: String, Sendable, Codable, CaseIterable {
    /// A `.sql` script with optional `-- freq: N` comments.
    case sql
    /// Core Data / SwiftData SQL debug output.
    case coreDataLog = "coredata-log"

    /// Works the format out from the text: Core Data debug output when a line carries `CoreData: sql:`
    /// (or starts with `sql: ` followed by a statement), a SQL script otherwise.
    public static func detect(_ text: Substring) -> WorkloadFormat {
        for line in text.prefix(1 << 20).split(separator: "\n", maxSplits: 2000, omittingEmptySubsequences: true) {
            if line.contains("CoreData: sql:") || line.contains("CoreData: annotation:") { return .coreDataLog }
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("sql: ") || trimmed.hasPrefix("annotation: ") { return .coreDataLog }
        }
        return .sql
    }
}

/// Why a workload could not be read.
public enum WorkloadError: Error, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case notAFile(path: String)
    case unreadable(path: String, reason: String)
    /// The inputs held no SELECT, INSERT, UPDATE or DELETE.
    case empty(paths: [String], diagnostics: WorkloadDiagnostics)
    /// Every statement failed against the store (no such table, does not prepare…); the reasons, one per statement.
    case noStatementAnalysable(reasons: [String])

    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such workload file"
        case .notAFile(let path): return "\(path): is a directory, not a workload file"
        case .unreadable(let path, let reason): return "\(path): cannot read the workload (\(reason))"
        case .empty(let paths, let diagnostics):
            var text = "\(paths.joined(separator: ", ")): the workload has no SELECT, INSERT, UPDATE or DELETE statement"
            text += " (\(diagnostics.linesRead) lines read, \(diagnostics.statementsRead) statements"
            if diagnostics.skippedCount > 0 { text += ", \(diagnostics.skippedCount) lines skipped" }
            return text + ")"
        case .noStatementAnalysable(let reasons):
            let first = reasons.first ?? "unknown reason"
            return "none of the workload's \(reasons.count) statements can be analysed on this store; the first \(first)"
        }
    }
}

/// Reads workload files of any supported format into one ``Workload``.
public enum WorkloadLoader {
    /// Reads and merges `urls`.
    /// - Parameter format: forces a format; nil works it out from each file's content.
    /// - Throws: ``WorkloadError`` for a missing or unreadable file, or when no statement can be analysed.
    public static func load(_ urls: [URL], format: WorkloadFormat? = nil) throws -> Workload {
        var builder = WorkloadBuilder()
        for url in urls {
            let text = try readText(url)
            let name = url.lastPathComponent
            switch format ?? WorkloadFormat.detect(text[...]) {
            case .sql: SQLScriptReader.read(text, file: name, into: &builder)
            case .coreDataLog: CoreDataLogReader.read(text, file: name, into: &builder)
            }
        }
        let workload = builder.build()
        if workload.analysedStatements.isEmpty {
            throw WorkloadError.empty(paths: urls.map(\.path), diagnostics: workload.diagnostics)
        }
        return workload
    }

    /// Reads a workload from text already in memory (for tests and the demo).
    public static func parse(_ text: String, file: String = "workload", format: WorkloadFormat? = nil) -> Workload {
        var builder = WorkloadBuilder()
        switch format ?? WorkloadFormat.detect(text[...]) {
        case .sql: SQLScriptReader.read(text, file: file, into: &builder)
        case .coreDataLog: CoreDataLogReader.read(text, file: file, into: &builder)
        }
        return builder.build()
    }

    static func readText(_ url: URL) throws -> String {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WorkloadError.notFound(path: path)
        }
        if isDirectory.boolValue { throw WorkloadError.notAFile(path: path) }
        // FileHandle reads pipes too (`--workload <(…)`, /dev/stdin).
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw WorkloadError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.readToEnd() ?? Data()
            // Invalid UTF-8 is replaced, not fatal: the lines around it still count.
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw WorkloadError.unreadable(path: path, reason: String(describing: error))
        }
    }
}
