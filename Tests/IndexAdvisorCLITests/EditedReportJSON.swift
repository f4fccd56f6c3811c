import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// A JSON document as its parts, so that a test can edit a saved report generically: every number or every
/// string, each field named by its shape (`statements[].timingBefore.runs`, array positions left out).
indirect enum EditedReportJSON: Codable, Equatable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([EditedReportJSON])
    case object([String: EditedReportJSON])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Int64.self) { self = .integer(value) }
        else if let value = try? single.decode(Double.self) { self = .number(value) }
        else if let value = try? single.decode(String.self) { self = .string(value) }
        else if let value = try? single.decode([EditedReportJSON].self) { self = .array(value) }
        else { self = .object(try single.decode([String: EditedReportJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .integer(let value): try single.encode(value)
        case .number(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }

    /// The report at `url`.
    static func read(_ url: URL) throws -> EditedReportJSON {
        try JSONDecoder().decode(EditedReportJSON.self, from: Data(contentsOf: url))
    }

    /// The document as JSON text.
    var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The document with `edit` applied to every number and string (`schemaVersion` left alone), given the
    /// shape of its path; `edit` returns the leaf unchanged to keep it.
    func editingLeaves(_ edit: (String, EditedReportJSON) -> EditedReportJSON) -> EditedReportJSON {
        editingLeaves(at: "", edit)
    }

    private func editingLeaves(at path: String, _ edit: (String, EditedReportJSON) -> EditedReportJSON) -> EditedReportJSON {
        switch self {
        case .null, .bool: return self
        case .integer, .number, .string: return path == "schemaVersion" ? self : edit(path, self)
        case .array(let values): return .array(values.map { $0.editingLeaves(at: path + "[]", edit) })
        case .object(let fields):
            return .object(Dictionary(uniqueKeysWithValues: fields.map { key, value in
                (key, value.editingLeaves(at: path.isEmpty ? key : "\(path).\(key)", edit))
            }))
        }
    }

    /// The shapes of the paths of every number (`numbers: true`) or every string.
    func leafShapes(numbers: Bool) -> Set<String> {
        var shapes = Set<String>()
        _ = editingLeaves { path, leaf in
            switch leaf {
            case .integer, .number: if numbers { shapes.insert(path) }
            case .string: if !numbers { shapes.insert(path) }
            default: break
            }
            return leaf
        }
        return shapes
    }

    /// The document with each recommendation's and alternative's `netSecondsSaved` set to its read saving less
    /// its write cost, as the decoder requires, so that an edit of every figure reaches the renderers.
    var withNetSavingsRecomputed: EditedReportJSON {
        guard case .object(var fields) = self else { return self }
        for key in ["recommendations", "alternatives"] {
            guard case .array(let items)? = fields[key] else { continue }
            fields[key] = .array(items.map { item in
                guard case .object(var entry) = item, let read = entry["readSecondsSaved"]?.figure,
                      let write = entry["writeSecondsAdded"]?.figure else { return item }
                entry["netSecondsSaved"] = .number(read - write)
                return .object(entry)
            })
        }
        return .object(fields)
    }

    /// A number leaf's value.
    var figure: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }
}

/// Saved reports of real analyses, made by the command as a user would: a plain table (a recommendation, a
/// redundant index, a write), the same sampled, a Core Data store with its model, and the schema review of
/// the plain table without a workload.
struct SavedReports {
    let directory: TemporaryDirectory
    let store: URL
    let workload: URL
    /// The JSON reports, by what they are.
    let reports: [(name: String, url: URL)]

    init() throws {
        directory = try TemporaryDirectory()
        store = directory.url.appendingPathComponent("parcels.sqlite")
        let connection = try SQLiteConnection(path: store.path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE parcel (id INTEGER PRIMARY KEY, depot INTEGER, weight REAL, label TEXT, sent INTEGER);
            CREATE INDEX parcel_by_depot ON parcel (depot);
            CREATE INDEX parcel_by_depot_sent ON parcel (depot, sent);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24000)
            INSERT INTO parcel SELECT i, i % 240, i * 0.25, 'parcel-' || i, 1700000000 + i FROM n;
            """)
        workload = directory.url.appendingPathComponent("parcels.sql")
        try Data("""
            -- freq: 300
            SELECT * FROM parcel WHERE label = 'parcel-91';
            -- freq: 60
            SELECT id, weight FROM parcel WHERE depot = 17 ORDER BY sent DESC LIMIT 8;
            -- freq: 4
            UPDATE parcel SET weight = weight + 1 WHERE id = 123;
            """.utf8).write(to: workload)
        let notes = try CoreDataFixture()
        var reports: [(String, URL)] = []
        for (name, arguments) in [
            ("plain", ["analyze", store.path, "-w", workload.path]),
            ("sampled", ["analyze", store.path, "-w", workload.path, "--sample-rows", "5000"]),
            ("core-data", ["analyze", notes.store.path, "-w", notes.workload.path, "--model", notes.model.path]),
            ("review", ["analyze", store.path]),
        ] {
            let url = directory.url.appendingPathComponent("\(name).json")
            let captured = CapturedConsole()
            let code = IndexAdvisorCommand.run(deterministic(arguments + ["--repeats", "3", "-q", "-f", "json", "-o", url.path]), console: captured.console)
            guard code == ExitCode.success else { throw ReportError(text: "\(name): exit \(code): \(captured.error)") }
            reports.append((name, url))
        }
        self.reports = reports
    }

    struct ReportError: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }
}

/// The built executable run with `arguments`: how it ended, its status and its standard error.
func runIndexAdvisor(_ arguments: [String], limits: String? = nil) throws -> (reason: Process.TerminationReason, status: Int32, error: String) {
    let process = Process()
    if let limits {
        // Through the shell, whose `ulimit` the binary then runs under.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(limits); exec \"$0\" \"$@\"", indexadvisorBinary.path] + arguments
    } else {
        process.executableURL = indexadvisorBinary
        process.arguments = arguments
    }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationReason, process.terminationStatus, text)
}
