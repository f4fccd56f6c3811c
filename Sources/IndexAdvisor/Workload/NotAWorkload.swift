/// Recognises files that are plainly not a workload from their first bytes — an image, an archive, an SQLite
/// database, a saved indexadvisor report, an empty file — so that reading one is a one-line error naming
/// what the file is, not a workload of "0 distinct" statements.
///
/// Only signatures that no text log or SQL script can start with are recognised: a log with binary noise
/// in it is still read, its odd lines skipped and counted.
package enum NotAWorkload {
    /// What an empty file named as a workload is (one found in a folder is just read as empty).
    package static let empty = "the file is empty (0 bytes): no statement to read"

    /// What the file is and what to do instead, e.g. `a PNG image, not a workload`; nil when it may be one
    /// (an empty file too: see ``empty``).
    /// - Parameter start: the file's first bytes (at least its first line, as a reader's first chunk is).
    package static func identify(_ start: UnsafeBufferPointer<UInt8>) -> String? {
        let bytes = Array(start.prefix(4_096))
        func starts(_ signature: [UInt8]) -> Bool { bytes.starts(with: signature) }
        if starts(Array("SQLite format 3\0".utf8)) {
            return "an SQLite database, not a workload: give it as the STORE (indexadvisor analyze STORE --workload LOG)"
        }
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
            ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"),
            (Array("%PDF-".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (unzip it and give the log inside)"),
            ([0x1F, 0x8B], "a gzip archive (gunzip it first)"),
            (Array("bplist00".utf8), "a binary property list"),
        ]
        if let (_, what) = signatures.first(where: { starts($0.0) }) { return what + ", not a workload" }
        if isSavedReport(bytes) {
            return "an indexadvisor JSON report, not a workload: indexadvisor render FILE shows it, and its statements' timedExecutions hold what was timed"
        }
        return nil
    }

    /// True when the text opens a JSON object whose first line is the brace alone (as a pretty-printed
    /// report is written) and its first bytes carry a report's top-level keys, and not a workload listing's
    /// `about` (``WorkloadListingReader/marker``, its first key), which is read as a workload.
    static func isSavedReport(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop(while: \.isWhitespace)
        let firstLine = trimmed.prefix { !$0.isNewline }
        guard trimmed.hasPrefix("{"), !firstLine.contains("\"type\""), !firstLine.contains("\"sql\""),
              !text.contains(WorkloadListingReader.marker.description) else { return false }
        let keys = ["\"schemaVersion\"", "\"recommendations\"", "\"captureHint\"", "\"existingIndexes\"", "\"statements\""]
        return keys.contains { text.contains($0) }
    }

    /// Why a file forced to be read as JSON Lines is not that: its first line that is not blank does not
    /// open a JSON object. Nil when it does (or the file has no such line).
    package static func jsonLinesMismatch(_ start: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: start.prefix(4_096), as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        guard !line.drop(while: \.isWhitespace).hasPrefix("{") else { return nil }
        let detected = WorkloadFormat.detect(Substring(text))
        return "--workload-format jsonl, but its first line is not a JSON object (\(String(line.prefix(40)).debugDescription)); by its content it is a \(detected.displayName): leave out --workload-format to read it as one"
    }
}
