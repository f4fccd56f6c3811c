import IndexAdvisor

/// Draws parameter values for a pair's statements (``PairStatement/Draw``) from the pair's store, with a
/// seeded generator: the advisor's input and the scorer's runs use the same distributions and different
/// seeds, so the scorer never times the very values the advisor analysed.
package final class ValueDrawer {
    private let connection: SQLiteConnection
    private var generator: SeededGenerator
    private var populations: [String: [[SQLValue]]] = [:]
    private var sequences: [Int64: Int64] = [:]
    /// Added to every `sequence` start: 0 for the advisor's input, 10,000,000 for the scorer.
    let sequenceOffset: Int64

    /// - Parameters:
    ///   - connection: the pair's store (read only).
    ///   - seed: the generator's seed.
    ///   - sequenceOffset: see ``sequenceOffset``.
    package init(connection: SQLiteConnection, seed: UInt64, sequenceOffset: Int64) {
        self.connection = connection
        generator = SeededGenerator(seed: seed)
        self.sequenceOffset = sequenceOffset
    }

    /// The rows of a draw query, read once.
    /// - Throws: ``SQLiteError`` when the query fails; ``BenchmarkKitError`` when it returns no row.
    func population(_ query: String) throws -> [[SQLValue]] {
        if let rows = populations[query] { return rows }
        let rows = try connection.query(query)
        guard !rows.isEmpty else { throw BenchmarkKitError("the draw query returns no row: \(query)") }
        populations[query] = rows
        return rows
    }

    func index(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }

    /// One set of values for `statement`'s parameters.
    /// - Throws: as ``population(_:)``; ``BenchmarkKitError`` when the draws fill fewer parameters than the text has.
    package func values(for statement: PairStatement) throws -> [SQLValue] {
        let wanted = statement.parameterCount
        var values: [SQLValue] = []
        for draw in statement.draws {
            switch draw {
            case .row(let query):
                let rows = try population(query)
                values += rows[index(rows.count)]
            case .each(let count, let query):
                let rows = try population(query)
                for _ in 0..<count { values.append(rows[index(rows.count)].first ?? .null) }
            case .sequence(let start):
                let next = sequences[start, default: start + sequenceOffset]
                sequences[start] = next + 1
                values.append(.integer(next))
            case .uniform(let low, let high):
                values.append(.integer(low + Int64(generator.next() % UInt64(max(1, high - low + 1)))))
            case .real(let low, let high):
                values.append(.real(low + (high - low) * Double(generator.next() % 1_000_000) / 1_000_000))
            case .text(let prefix):
                values.append(.text(prefix + String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 16)))
            }
        }
        guard values.count >= wanted else {
            throw BenchmarkKitError("the draws give \(values.count) values for \(wanted) parameters: \(statement.sql.prefix(80))")
        }
        return Array(values.prefix(wanted))
    }
}

/// Why the benchmark kit could not do something: one line.
package struct BenchmarkKitError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
