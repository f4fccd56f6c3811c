import Foundation

/// Reads back the JSON document `indexadvisor workload --format json` writes (its `about` is ``marker``), so
/// that a listing is a workload again: each statement as the app issued it (`text`, literals in place, which
/// SQLite plans differently from `?`: `LIMIT 20` is not `LIMIT ?`), its count, observed times and rows, and
/// the tuples of values seen (`samples`, one value per `?` of `sql`, with `sampleWeights`). A statement read
/// back is timed as the original was: the same runnable text, literals and value sets.
///
/// The document is read whole (it is one JSON object), up to ``byteLimit``.
package struct WorkloadListingReader {
    /// The listing's `about`, which tells it from a saved report and from JSON Lines.
    package static let marker: StaticString = "indexadvisor-workload-listing"
    /// The most bytes of a listing read (a listing holds at most the builder's distinct statements).
    static let byteLimit = 512 << 20

    static let notAListing = "not a workload listing (indexadvisor workload --format json): the document does not parse"
    static let tooLarge = "workload listing over 512 MB: not read"

    /// One statement of the listing; every field but `sql` is optional, as in the recorder's records.
    private struct Entry: Decodable {
        var sql: String?
        var text: String?
        var count: Int?
        var observedExecutions: Int?
        var observedSeconds: Double?
        var medianSeconds: Double?
        var rows: Int?
        var samples: [[SQLValue]]?
        var sampleWeights: [Double]?
    }

    private struct Document: Decodable {
        var statements: [Entry]?
    }

    let file: String
    private var bytes = Data()
    private var overLimit = false

    package init(file: String) {
        self.file = file
    }

    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard !overLimit else { return }
        guard bytes.count + chunk.count <= Self.byteLimit else {
            overLimit = true
            bytes = Data()
            return
        }
        bytes.append(chunk)
    }

    /// Decodes the document and records its statements.
    package mutating func finish(into builder: inout WorkloadBuilder) {
        if !builder.diagnostics.files.contains(file) { builder.diagnostics.files.append(file) }
        builder.diagnostics.linesRead += bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        if overLimit { return builder.diagnostics.skip(Self.tooLarge, at: file) }
        guard let document = try? JSONDecoder().decode(Document.self, from: bytes) else {
            return builder.diagnostics.skip(Self.notAListing, at: file)
        }
        for (offset, entry) in (document.statements ?? []).enumerated() {
            statement(entry, location: SourceRange(file: file, firstLine: offset + 1, lastLine: offset + 1), into: &builder)
        }
    }

    private func statement(_ entry: Entry, location: SourceRange, into builder: inout WorkloadBuilder) {
        guard let issued = entry.text ?? entry.sql else {
            return builder.diagnostics.skip(JSONLWorkloadReader.noSQL, at: "\(file): statement \(location.firstLine)")
        }
        let count = entry.count ?? 1
        guard count >= 1, count <= WorkloadBuilder.maximumWeight else {
            return builder.diagnostics.skip(count < 1 ? JSONLWorkloadReader.badCount : JSONLWorkloadReader.hugeCount,
                                            at: "\(file): statement \(location.firstLine)")
        }
        let normalized = Fingerprinter.normalize(issued)
        let resolution = builder.resolve(normalized, text: issued, location: location)
        let samples = entry.samples ?? []
        // The samples are the value sets seen; without them, the occurrence's own literals are its one value set.
        builder.record(resolution, weight: count, literals: samples.isEmpty ? normalized.parameterValues : [],
                       text: normalized.parameterizedSQL, location: location)
        guard case .entry(let index) = resolution else { return }
        for (position, sample) in samples.enumerated() {
            let weight = entry.sampleWeights.flatMap { $0.indices.contains(position) ? $0[position] : nil } ?? 1
            builder.addBindings(literals: sample.map { Optional($0) }, bindings: [], weight: max(1, Int(weight.rounded())),
                                text: normalized.parameterizedSQL, at: index)
        }
        if let median = entry.medianSeconds, let executions = entry.observedExecutions, executions > 0 {
            builder.addTiming(median, executions: executions, totalSeconds: entry.observedSeconds, at: index)
        }
        if let rows = entry.rows, rows >= 0 { builder.setObservedRows(rows, at: index) }
    }
}
