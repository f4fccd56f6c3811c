import Foundation
import Testing
@testable import IndexAdvisor

/// A statement with no recommendation whose rejected candidate made it measurably faster says so, with the
/// candidate's figures and why it was rejected, instead of "no candidate was used by the planner or made it
/// measurably faster", which contradicted the candidate's saving beside it.
@Suite("no-recommendation note beside a rejected candidate that saves time")
struct RejectedCandidateNoteTests {
    @Test("a rare scan whose index costs the hot inserts more than it saves names that candidate")
    func rejectedButFaster() throws {
        let schema = """
            CREATE TABLE reading (id INTEGER PRIMARY KEY, sensor INTEGER, value REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO reading SELECT i, i % 500, i * 0.5 FROM n;
            """
        let workload = """
            -- freq: 1
            SELECT * FROM reading WHERE sensor = 42;
            -- freq: 500000
            INSERT INTO reading (sensor, value) VALUES (7, 1.5);

            """
        let result = try analyze(schema, workload: workload)
        let speedups = Set(result.rejectedCandidates.flatMap { $0.speedups.map(\.statementID) })
        for statement in result.statements {
            let notes = statement.notes.map(\.text)
            // The old note is given only when no rejected candidate made the statement faster.
            if notes.contains(where: { $0.contains("no candidate was used") }) { #expect(!speedups.contains(statement.id)) }
            if speedups.contains(statement.id), statement.usesRecommendations.isEmpty, notes.contains(where: { $0.hasPrefix("no index recommended") }) {
                #expect(notes.contains { $0.contains("made it faster") && $0.contains("but was not recommended: ") }, "\(notes)")
            }
        }
        let read = try #require(result.statements.first { $0.sql.contains("sensor = 42") })
        if result.recommendations.isEmpty, speedups.contains(read.id) {
            #expect(read.notes.map(\.text).contains { $0.contains("the candidate reading(sensor) made it faster") })
        }
        _ = checkedRender(result, .markdown)
    }

    @Test("the note's words: the candidate, its change per execution and the rejection's reason")
    func words() {
        let reason = NoRecommendationReason.rejectedCandidateHelps(table: "reading", columns: ["sensor"], partialPredicate: nil,
                                                                   beforeSeconds: 0.00185, afterSeconds: 0.00026,
                                                                   reason: "its cost (writes) outweighs the time it saves.")
        #expect(reason.text == "no index recommended: the candidate reading(sensor) made it faster (1.85 ms → 260.0 µs per execution) but was not recommended: its cost (writes) outweighs the time it saves (see rejected candidates)")
    }
}
