import Foundation
import IndexAdvisor

/// A store and the workload an app runs on it: the unit the benchmark measures advisors on.
package struct BenchPair: Sendable {
    /// Held-out pairs were written before the advisor was run on them and are never edited afterwards;
    /// regression pairs are every pair ever used while changing the advisor (they show regressions, not
    /// generalization).
    package enum Kind: String, Sendable, Codable { case heldOut = "held-out", regression }

    /// How the advisor is given the parameters' values.
    package enum AdvisorValues: String, Sendable, Codable {
        /// A `.sql` file with literal values: each parameterized statement as `literalSets` drawn variants,
        /// its count split among them.
        case literals
        /// A JSON Lines recording (docs/workload-jsonl.md): the text with `?` and eight drawn value tuples,
        /// as the recorder captures an app's bound parameters.
        case bound
    }

    package var name: String
    package var kind: Kind
    package var summary: String
    /// The built store (never written by a measurement: every configuration works on a copy).
    package var store: URL
    package var statements: [PairStatement]
    package var advisorValues: AdvisorValues = .literals
    package var literalSets = 4
    /// The seed the data and the advisor's values were drawn with; the scorer draws with another.
    package var seed: UInt64 = 7

    package init(name: String, kind: Kind, summary: String, store: URL, statements: [PairStatement],
                 advisorValues: AdvisorValues = .literals, literalSets: Int = 4, seed: UInt64 = 7) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.store = store
        self.statements = statements
        self.advisorValues = advisorValues
        self.literalSets = literalSets
        self.seed = seed
    }

    /// The reads' texts, one per statement, with the first value set drawn for the advisor (for `.expert`,
    /// which takes statements, not counts or parameters).
    package func expertStatements() throws -> [String] {
        let connection = try SQLiteConnection(path: store.path, mode: .readOnly)
        let drawer = ValueDrawer(connection: connection, seed: seed, sequenceOffset: 0)
        return try statements.filter { !$0.isWrite }.map { statement in
            statement.parameterCount == 0 ? statement.sql : statement.literalSQL(try drawer.values(for: statement))
        }
    }

    /// Writes the workload file the advisor reads into `directory` and returns its URL: a `.sql` file, or
    /// a `.jsonl` recording for ``AdvisorValues/bound``. Values are drawn with the pair's seed.
    /// - Throws: ``SQLiteError`` or ``BenchmarkKitError`` when a draw fails; a file system error.
    package func writeAdvisorWorkload(in directory: URL) throws -> URL {
        let connection = try SQLiteConnection(path: store.path, mode: .readOnly)
        let drawer = ValueDrawer(connection: connection, seed: seed, sequenceOffset: 0)
        switch advisorValues {
        case .literals:
            var lines: [String] = []
            for statement in statements {
                guard statement.parameterCount > 0 else {
                    lines.append("-- freq: \(statement.count)\n\(statement.sql);")
                    continue
                }
                let sets = max(1, min(literalSets, statement.count))
                for k in 0..<sets {
                    let count = statement.count / sets + (k < statement.count % sets ? 1 : 0)
                    lines.append("-- freq: \(count)\n\(statement.literalSQL(try drawer.values(for: statement)));")
                }
            }
            let url = directory.appendingPathComponent("\(name).sql")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
            return url
        case .bound:
            var lines = [#"{"type":"header","format":"indexadvisor-workload","version":1,"source":"indexadvisor-bench","statements":\#(statements.count),"dropped_executions":0}"#]
            for statement in statements {
                var object: [String: Any] = ["type": "statement", "sql": statement.sql, "count": statement.count]
                if statement.parameterCount > 0 {
                    object["samples"] = try (0..<min(8, statement.count)).map { _ in try drawer.values(for: statement).map(Self.json) }
                }
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                lines.append(String(decoding: data, as: UTF8.self))
            }
            let url = directory.appendingPathComponent("\(name).jsonl")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
            return url
        }
    }

    /// A value as docs/workload-jsonl.md writes it.
    static func json(_ value: SQLValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .integer(let v): return v
        case .real(let v): return v.rounded() == v ? ["real": v] as [String: Any] : v
        case .text(let v): return v
        case .blob(let bytes): return ["blob": bytes.map { String(format: "%02x", $0) }.joined()]
        }
    }
}

extension BenchPair {
    /// What is wrong with the pair's statements on its store: each one's values drawn (for the advisor, the
    /// search and the scorer alike) and the statement prepared with them; one line per problem.
    package func problems() -> [String] {
        var found: [String] = []
        guard let connection = try? SQLiteConnection(path: store.path, mode: .readOnly) else { return ["\(name): the store does not open"] }
        StandIns.install(on: connection, for: statements)
        let drawer = ValueDrawer(connection: connection, seed: seed, sequenceOffset: 0)
        for statement in statements {
            do {
                let values = try drawer.values(for: statement)
                _ = try PlanLines.read(statement.sql, values: values, on: connection)
            } catch {
                found.append("\(name): \(error): \(statement.sql.prefix(90))")
            }
        }
        if statements.isEmpty { found.append("\(name): the workload has no statement") }
        return found
    }
}
