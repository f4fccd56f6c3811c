import Foundation

/// Runs the sqlite3 command-line shell's `.expert` (Debian's `sqlite3` package) on each read statement of
/// a workload, as a user would: `printf '.expert\n<SQL>;\n' | sqlite3 STORE`, one process per statement.
/// `.expert` proposes the indexes its candidate search finds useful for that statement (by default it
/// computes `sqlite_stat1` for them from the whole table); it neither weighs frequencies nor writes.
struct ExpertRunner {
    /// What `.expert` proposed for a workload.
    struct Outcome {
        /// Distinct `CREATE INDEX` statements, in the order first proposed.
        var creates: [String]
        /// Statements `.expert` could not analyse, with its message.
        var failures: [(sql: String, message: String)]
        /// Wall time of all the `.expert` runs, in seconds.
        var seconds: Double
    }

    /// The sqlite3 shell, or nil when it is not installed.
    static func shell() -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("sqlite3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    let shell: URL

    /// Runs `.expert` for each of `statements` against `store` (read-only: `.expert` works on its own
    /// in-memory copy of the schema).
    func run(statements: [String], store: URL) throws -> Outcome {
        var creates: [String] = []
        var failures: [(String, String)] = []
        let start = DispatchTime.now().uptimeNanoseconds
        for sql in statements {
            let process = Process()
            process.executableURL = shell
            process.arguments = ["-readonly", store.path]
            let input = Pipe(), output = Pipe(), errors = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            input.fileHandleForWriting.write(Data(".expert\n\(sql);\n".utf8))
            try input.fileHandleForWriting.close()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let proposed = printed.split(separator: "\n").filter { $0.hasPrefix("CREATE INDEX") }.map(String.init)
            if proposed.isEmpty, !complaint.isEmpty || process.terminationStatus != 0 {
                failures.append((sql, complaint.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            for create in proposed where !creates.contains(create) { creates.append(create) }
        }
        return Outcome(creates: creates, failures: failures, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
