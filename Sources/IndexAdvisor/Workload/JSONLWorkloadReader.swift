import Foundation

/// Reads a JSON Lines workload (docs/workload-jsonl.md), as `IndexAdvisorRecorder` writes it: a header
/// line, then one record per statement with its SQL (`?` placeholders), execution count, total and median
/// duration in nanoseconds, rows over all executions, sample tuples of bound values and first/last seen
/// times. Each record is fingerprinted again from its SQL, with the normalisation every source shares, so
/// it merges with the same statement from a log or a `.sql` file. Line by line, in bounded memory.
package struct JSONLWorkloadReader {
    /// One line of the file. Every field is optional so that a partial record is counted, not fatal.
    private struct Record: Decodable {
        var type: String?
        var format: String?
        var version: Int?
        var sql: String?
        var count: Int?
        var total_ns: UInt64?
        var median_ns: UInt64?
        var rows: Int?
        var samples: [[SQLValue]]?
        var foreign_keys: Bool?
        var first_seen: String?
        var last_seen: String?
    }

    static let notJSON = "not a JSON workload record"
    static let noSQL = "JSON record without \"sql\""
    static let badCount = "JSON record with a count below 1"
    static let hugeCount = "JSON record with a count above 1,000,000,000 (a damaged line: it would overflow the totals)"
    static let unknownType = "JSON record of an unknown type"
    static let samplesDropped = "JSON record over 1 MB: its bound-value samples were left out, the statement kept"
    static let newerVersion = "header of a newer format version (its records were read as version 1)"

    let file: String
    private var lineNumber = 0
    private let decoder = JSONDecoder()
    private let dates: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    package init(file: String) {
        self.file = file
    }

    /// Reads one line (without its line break); `cut` when it was longer than the splitter's limit.
    package mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, cut: Bool, into builder: inout WorkloadBuilder) {
        lineNumber += 1
        builder.diagnostics.linesRead += 1
        if lineNumber == 1, !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }
        let trimmed = bytes.trimmingSpaces()
        if trimmed.isEmpty { return }
        let location = SourceRange(file: file, firstLine: lineNumber, lastLine: lineNumber)
        if cut {
            // A record over the line limit: its bound-value samples are what makes it large (the recorder
            // writes them after everything else), so the statement is kept without them.
            guard let record = salvage(trimmed) else {
                builder.diagnostics.skip(CoreDataLogReader.tooLong, at: "\(file):\(lineNumber)")
                return
            }
            builder.diagnostics.skip(Self.samplesDropped, at: "\(file):\(lineNumber)")
            statement(record, location: location, into: &builder)
            return
        }
        guard let record = try? decoder.decode(Record.self, from: Data(buffer: trimmed)) else {
            builder.diagnostics.skip(Self.notJSON, at: "\(file):\(lineNumber)")
            return
        }
        switch record.type {
        case "header":
            if let version = record.version, version > 1 { builder.diagnostics.skip(Self.newerVersion, at: "\(file):\(lineNumber)") }
            if let enforced = record.foreign_keys { builder.recordedForeignKeys = (builder.recordedForeignKeys ?? false) || enforced }
        case "statement", nil:
            statement(record, location: location, into: &builder)
        default:
            builder.diagnostics.skip(Self.unknownType, at: "\(file):\(lineNumber)")
        }
    }

    /// The record in the first part of a cut line: everything before its `"samples"` key, when that part
    /// is a statement record with its SQL.
    private func salvage(_ head: UnsafeBufferPointer<UInt8>) -> Record? {
        // Inside a JSON string a quote is always escaped, so `,"samples":` can only be a key.
        guard let samples = head.firstIndex(of: ",\"samples\":") else { return nil }
        var data = Data(buffer: head.slice(0, samples))
        data.append(UInt8(ascii: "}"))
        guard var record = try? decoder.decode(Record.self, from: data), record.sql != nil,
              record.type == nil || record.type == "statement" else { return nil }
        record.samples = nil
        return record
    }

    /// Registers the file even when it was empty.
    package mutating func finish(into builder: inout WorkloadBuilder) {
        if !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }
    }

    private func statement(_ record: Record, location: SourceRange, into builder: inout WorkloadBuilder) {
        guard let sql = record.sql else {
            builder.diagnostics.skip(Self.noSQL, at: "\(file):\(lineNumber)")
            return
        }
        let count = record.count ?? 1
        guard count >= 1 else {
            builder.diagnostics.skip(Self.badCount, at: "\(file):\(lineNumber)")
            return
        }
        // A breaking helper's count of Int64.max printed a workload of 31,155,905,104,452,852 s.
        guard count <= WorkloadBuilder.maximumWeight else {
            builder.diagnostics.skip(Self.hugeCount, at: "\(file):\(lineNumber)")
            return
        }
        let normalized = Fingerprinter.normalize(sql)
        let resolution = builder.resolve(normalized, text: sql, location: location)
        builder.record(resolution, weight: count, literals: normalized.parameterValues, text: normalized.parameterizedSQL, location: location)
        guard case .entry(let index) = resolution else { return }
        if let median = record.median_ns {
            builder.addTiming(Double(median) / 1e9, executions: count, totalSeconds: record.total_ns.map { Double($0) / 1e9 }, at: index)
        }
        if let rows = record.rows, rows >= 0 {
            builder.setObservedRows(Int((Double(rows) / Double(count)).rounded()), at: index)
        }
        for sample in record.samples ?? [] {
            builder.addBindings(literals: normalized.parameterValues, bindings: sample, text: normalized.parameterizedSQL, at: index)
        }
        builder.noteSeen(first: record.first_seen.flatMap(dates.date(from:)), last: record.last_seen.flatMap(dates.date(from:)), at: index)
    }
}
