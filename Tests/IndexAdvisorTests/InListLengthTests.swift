import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 42, item 4: "Bound values: observed (4 distinct value sets, 3 timed)" for a statement whose log held
/// 20 distinct IN lists of 3–20 ids: only the first list length was counted, and the heavier lists were never
/// timed. Every length is now counted, timed as its own text and weighted by its executions.
@Suite("IN lists of every length the workload shows")
struct InListLengthTests {
    static let schema = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, title TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO item SELECT i, i % 400, 'title ' || i FROM n;
        """
    /// Lists of 2, 4 and 9 ids, run 10, 30 and 60 times.
    static let workload = """
        -- freq: 10
        SELECT title FROM item WHERE owner = 7 AND id IN (11, 12);
        -- freq: 30
        SELECT title FROM item WHERE owner = 8 AND id IN (21, 22, 23, 24);
        -- freq: 60
        SELECT title FROM item WHERE owner = 9 AND id IN (31, 32, 33, 34, 35, 36, 37, 38, 39);
        """

    @Test("the workload keeps every length: one statement, a text per length, each tuple counted with its executions")
    func everyLengthCounted() throws {
        let workload = WorkloadLoader.parse(Self.workload, file: "w.sql", format: .sql)
        #expect(workload.statements.count == 1)
        let statement = try #require(workload.statements.first)
        #expect(statement.count == 100)
        #expect(statement.observedBindings.map(\.count) == [3, 5, 10])
        #expect(statement.observedBindingWeights == [10, 30, 60])
        #expect(statement.variants.map(\.literalValues.count) == [5, 10])
        #expect(statement.inListLengths == [2, 4, 9])
        #expect(statement.distinctValueSets == 3)
        // Each tuple is timed as its own text, literals in place.
        let executions = LiteralExecutions.executions(for: statement, samples: statement.observedBindings, weights: statement.observedBindingWeights)
        #expect(executions.map(\.sql) == [
            "SELECT title FROM item WHERE owner = 7 AND id IN (11, 12)",
            "SELECT title FROM item WHERE owner = 8 AND id IN (21, 22, 23, 24)",
            "SELECT title FROM item WHERE owner = 9 AND id IN (31, 32, 33, 34, 35, 36, 37, 38, 39)",
        ])
        #expect(executions.map(\.weight) == [10, 30, 60])
        #expect(WorkloadStatement.inListValues(in: "SELECT 1 FROM t WHERE a IN (SELECT b FROM u) AND c IN (?, ?)") == 2)
        #expect(WorkloadStatement.inListValues(in: "SELECT 1 FROM t WHERE a = ?") == 0)
    }

    @Test("selecting value sets times every length, its tuples standing for its executions, one of each first")
    func selectionCoversLengths() {
        // Twelve tuples: six of length 3 (one execution each), four of length 5 (ten each), two of length 10
        // (fifty each); four may be timed.
        let groups = Array(repeating: 3, count: 6) + Array(repeating: 5, count: 4) + Array(repeating: 10, count: 2)
        let weights = Array(repeating: 1.0, count: 6) + Array(repeating: 10.0, count: 4) + Array(repeating: 50.0, count: 2)
        let chosen = ValueSetSelection.select(weights: weights, heaviness: Array(repeating: 0, count: 12), limit: 4, groups: groups)
        #expect(chosen.count == 4)
        #expect(chosen.first?.position == 0)
        // One of each length before a second of any.
        #expect(Set(chosen.prefix(3).map { groups[$0.position] }) == [3, 5, 10])
        // Each length's timed tuples stand for its executions: 6, 40 and 100.
        for (group, total) in [(3, 6.0), (5, 40.0), (10, 100.0)] {
            let sum = chosen.filter { groups[$0.position] == group }.reduce(0) { $0 + $1.weight }
            #expect(abs(sum - total) < 1e-9, "length \(group)")
        }
        // More lengths than may be timed: the untimed length's executions go to the nearest timed one.
        let few = ValueSetSelection.select(weights: [1, 2, 3], heaviness: [0, 0, 0], limit: 2, groups: [3, 4, 9])
        #expect(few.map(\.position) == [0, 2])
        #expect(few.map(\.weight) == [3, 3])
        // One length: the plain selection.
        #expect(ValueSetSelection.select(weights: [1, 2], heaviness: [0, 0], limit: 4, groups: [3, 3]).map(\.position)
                == ValueSetSelection.select(weights: [1, 2], heaviness: [0, 0], limit: 4).map(\.position))
    }

    @Test("the analysis times each length and says so: IN lists of 2–9 values, 3 lengths, all timed")
    func analysisTimesEveryLength() throws {
        let result = try analyze(Self.schema, workload: Self.workload)
        let statement = try #require(result.statements.first)
        #expect(statement.inListLengthsSeen == [2, 4, 9])
        #expect(statement.boundValuesSummary == "observed (3 distinct value sets in IN lists of 2–9 values, 3 lengths; 3 timed, of all 3 lengths)")
        let timed = try #require(statement.timedExecutions)
        #expect(Set(timed.map { WorkloadStatement.inListValues(in: $0.sql) }) == [2, 4, 9])
        let weightOf = Dictionary(uniqueKeysWithValues: timed.map { (WorkloadStatement.inListValues(in: $0.sql), $0.weight) })
        #expect(weightOf[2] == 10 && weightOf[4] == 30 && weightOf[9] == 60)
        #expect(checkedRender(result, .markdown).contains("- Bound values: observed (3 distinct value sets in IN lists of 2–9 values, 3 lengths; 3 timed, of all 3 lengths)"))
    }
}
