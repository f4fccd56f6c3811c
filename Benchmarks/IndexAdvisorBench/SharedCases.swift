import Foundation
import IndexAdvisor
import IndexAdvisorBenchKit

/// The shared real cases (`../shared/cases/NN-name/` beside a clone: `schema.sql`, `workload.sql`,
/// `expected.md` with a `-- fix` block), as benchmark stores. A user's clone has none; the benchmark then
/// leaves them out with a note.
enum SharedCases {
    /// A case: its store built with the sqlite3 shell, its workload, and the fix its `expected.md` names.
    struct Case {
        var store: AdviceStore
        /// Each acceptable answer: normalized index keys to create and index names to drop.
        var answers: [(creates: Set<String>, drops: Set<String>)]

        /// True when `configuration` is one of the acceptable answers, whatever the index names.
        func isRight(_ configuration: ChangeSet) -> Bool {
            let creates = Set(configuration.creates.map(SharedCases.normalized)), drops = Set(configuration.drops)
            return answers.contains { $0.creates == creates && $0.drops == drops }
        }
    }

    /// `--cases DIR`, else `../shared/cases` from the working directory (the scripts run from the clone's
    /// root); nil when there is no such directory.
    static func directory(option: String?) -> URL? {
        let path = option ?? "../shared/cases"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    /// Every case folder under `directory` that has the three files, built into `output` with `shell`
    /// (`sqlite3 STORE < schema.sql`), in name order.
    static func load(from directory: URL, into output: URL, shell: URL) throws -> [Case] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        var cases: [Case] = []
        for name in names {
            let folder = directory.appendingPathComponent(name)
            let schema = folder.appendingPathComponent("schema.sql"), workload = folder.appendingPathComponent("workload.sql"),
                expected = folder.appendingPathComponent("expected.md")
            guard [schema, workload, expected].allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) else { continue }
            let url = output.appendingPathComponent("case-\(name).sqlite")
            try? FileManager.default.removeItem(at: url)
            let process = Process()
            process.executableURL = shell
            process.arguments = [url.path]
            process.standardInput = try FileHandle(forReadingFrom: schema)
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw BenchmarkError("\(name): sqlite3 could not build the store: \(complaint.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            let entries = entries(of: try String(contentsOf: workload, encoding: .utf8))
            let store = AdviceStore(name: name, summary: "shared case \(name)", url: url, entries: entries, mustNotScan: [],
                                    expectation: "the `-- fix` block of its expected.md")
            cases.append(Case(store: store, answers: answers(of: try String(contentsOf: expected, encoding: .utf8))))
        }
        return cases
    }

    /// The statements of a `.sql` workload with `-- freq: N` comments (other comments skipped).
    static func entries(of text: String) -> [WorkloadEntry] {
        var entries: [WorkloadEntry] = []
        var count = 1
        var pending: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty, trimmed.hasPrefix("--") {
                let comment = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces)
                if comment.hasPrefix("freq:"), let number = Int(comment.dropFirst(5).trimmingCharacters(in: .whitespaces)) { count = number }
                continue
            }
            if pending.isEmpty, trimmed.isEmpty { continue }
            pending.append(String(line))
            if trimmed.hasSuffix(";") {
                let sql = pending.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                entries.append(WorkloadEntry(sql: String(sql.dropLast()).trimmingCharacters(in: .whitespaces), count: count))
                pending = []
                count = 1
            }
        }
        return entries
    }

    /// The answers of an `expected.md`: its `-- fix` block and any `-- also acceptable` block.
    static func answers(of markdown: String) -> [(creates: Set<String>, drops: Set<String>)] {
        var answers: [(Set<String>, Set<String>)] = []
        let blocks = markdown.components(separatedBy: "```sql\n").dropFirst()
        for block in blocks {
            let body = block.components(separatedBy: "```").first ?? ""
            let lines = body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = lines.first, first == "-- fix" || first == "-- also acceptable" else { continue }
            var creates = Set<String>(), drops = Set<String>()
            for line in lines where !line.hasPrefix("--") {
                let statement = line.trimmingCharacters(in: CharacterSet(charactersIn: "; "))
                if statement.uppercased().hasPrefix("CREATE ") {
                    creates.insert(normalized(statement))
                } else if statement.uppercased().hasPrefix("DROP INDEX ") {
                    let name = statement.dropFirst("DROP INDEX ".count).replacingOccurrences(of: "IF EXISTS ", with: "")
                    drops.insert(name.trimmingCharacters(in: CharacterSet(charactersIn: "\"` ")))
                }
            }
            answers.append((creates, drops))
        }
        return answers
    }

    /// A `CREATE INDEX` as `TABLE(COLUMNS)WHERE…`, upper-cased, without quotes, spaces, `COLLATE BINARY`
    /// (the default) or `ASC`: one spelling for the case's SQL and ours.
    static func normalized(_ create: String) -> String {
        ChangeSet.key(create).uppercased()
            .replacingOccurrences(of: " COLLATE BINARY", with: "")
            .replacingOccurrences(of: " ASC", with: "")
            .replacingOccurrences(of: " ", with: "")
    }
}
