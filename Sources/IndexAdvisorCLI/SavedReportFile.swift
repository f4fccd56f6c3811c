import Foundation
import IndexAdvisor

/// Reads a saved JSON report (`render REPORT.json`, `check --baseline FILE`) whole: a regular file, or a
/// pipe (`<(…)`, `mkfifo`) through ``ChunkedFileReader``, which waits at most its writer wait for a pipe's
/// writer instead of blocking for ever.
enum SavedReportFile {
    /// The most bytes a saved report may have: far above any report indexadvisor writes (a 3,000-statement
    /// workload's is tens of MB), low enough that a device or an endless pipe given as a report is refused
    /// instead of read into memory until the system kills the process (a breaking helper's
    /// `render /dev/zero` took 24 GB).
    static let maximumBytes = 256 << 20

    /// The bytes of the file at `path`.
    /// - Throws: a one-line reason: "no such file", "a folder, not a file", "a device or socket, not a
    ///   report file", "larger than 256 MiB: not a report indexadvisor writes", "not readable (…)".
    static func read(_ path: String) throws(Reason) -> Data {
        if WorkloadDiscovery.isDeviceOrSocket(path) { throw Reason(text: "a device or socket, not a report file") }
        do {
            let reader = try ChunkedFileReader(path: path)
            var data = Data()
            try reader.forEachChunk { chunk in
                guard data.count + chunk.count <= maximumBytes else { throw Reason(text: "larger than 256 MiB: not a report indexadvisor writes") }
                data.append(chunk)
            }
            return data
        } catch let reason as Reason {
            throw reason
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
