import Foundation
import IndexAdvisor

/// Reads a saved JSON report (`render REPORT.json`, `check --baseline FILE`) whole: a regular file, or a
/// pipe (`<(…)`, `mkfifo`) through ``ChunkedFileReader``, which waits at most its writer wait for a pipe's
/// writer instead of blocking for ever.
enum SavedReportFile {
    /// The bytes of the file at `path`.
    /// - Throws: a one-line reason: "no such file", "a folder, not a file", "not readable (…)".
    static func read(_ path: String) throws(Reason) -> Data {
        do {
            let reader = try ChunkedFileReader(path: path)
            var data = Data()
            try reader.forEachChunk { data.append($0) }
            return data
        } catch WorkloadError.notFound {
            throw Reason(text: "no such file")
        } catch WorkloadError.notAFile {
            throw Reason(text: "a folder, not a file")
        } catch WorkloadError.unreadable(_, let reason) {
            throw Reason(text: "not readable: \(reason)")
        } catch {
            throw Reason(text: "not readable")
        }
    }

    /// Why a report file could not be read, in a few words.
    struct Reason: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }
}
