import Foundation
import Testing
@testable import IndexAdvisor

/// A store file built from SQL in a private directory that is removed with the object.
final class FixtureStore: @unchecked Sendable {
    let directory: TemporaryDirectory
    let url: URL

    init(_ sql: String, name: String = "store.sqlite", walMode: Bool = false) throws {
        directory = try TemporaryDirectory()
        url = directory.url.appendingPathComponent(name)
        let connection = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        if walMode { try connection.execute("PRAGMA journal_mode = WAL") }
        try connection.execute(sql)
    }

    /// A copy of the store beside it with `result`'s SQL migration run on it, in the migration's order: what
    /// a user's store is once the advice is applied.
    func migratedCopy(by result: AnalysisResult) throws -> SQLiteConnection {
        let copy = directory.url.appendingPathComponent("migrated.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        let migrated = try SQLiteConnection(path: copy.path, mode: .readWrite)
        try migrated.execute(SQLReport.render(result, queryAdvice: false))
        return migrated
    }

    /// The bytes and modification times of the store and its `-wal`, `-shm` and `-journal` files.
    func fileState() throws -> [String: FileSnapshot] {
        var state: [String: FileSnapshot] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            state[suffix] = FileSnapshot(bytes: try Data(contentsOf: URL(fileURLWithPath: path)),
                                         modified: attributes[.modificationDate] as? Date)
        }
        return state
    }
}

struct FileSnapshot: Equatable {
    var bytes: Data
    var modified: Date?
}

/// The entries of `directory` whose names start with `indexadvisor-` (private run directories).
func runDirectories(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix("indexadvisor-") }
}

/// Fast analysis settings for tests that check structure, not precise timings. Costs come from SQLite's
/// work counters, so which candidate wins does not depend on what else the machine is doing.
func quickOptions(temporaryDirectory: URL? = nil) -> AnalysisOptions {
    var options = AnalysisOptions()
    options.costSource = .sqliteCounters
    options.repeats = 5
    options.bindingSamples = 6
    options.temporaryDirectory = temporaryDirectory
    return options
}

/// `result` in `format`, after ``ReportChecker`` read every format of it: each false sentence it finds is a
/// failed expectation at the caller. Every test that renders a report renders it through here.
func checkedRender(_ result: AnalysisResult, _ format: ReportFormat, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    expectTrueReport(result, sourceLocation: sourceLocation)
    return format.render(result)
}

/// Records a failed expectation at the caller for each finding of ``ReportChecker`` on `result`.
func expectTrueReport(_ result: AnalysisResult, sourceLocation: SourceLocation = #_sourceLocation) {
    for finding in ReportChecker().check(result) {
        Issue.record("report checker: \(finding)", sourceLocation: sourceLocation)
    }
}

/// Analyses `workload` (a `.sql` file's text) against a store built from `schema` (``FixtureStore``), with
/// ``quickOptions(temporaryDirectory:)`` unless `options` are given.
func analyze(_ schema: String, workload: String, options: AnalysisOptions = quickOptions()) throws -> AnalysisResult {
    let store = try FixtureStore(schema)
    return try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(workload, file: "workload.sql", format: .sql),
                               options: options)
}

/// A shape extractor over an in-memory database made by `schema` (SQL).
func shapeExtractor(_ schema: String) throws -> ShapeExtractor {
    let connection = try SQLiteConnection.inMemory()
    try connection.execute(schema)
    return try ShapeExtractor(schema: SchemaReader.read(from: connection))
}
