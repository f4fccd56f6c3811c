import Testing
import Foundation
@testable import IndexAdvisor

/// The words of each note on a statement (issue 22: the advisor states the fact, the renderers word it),
/// exactly as the reports printed them before; in the JSON report a note is still its words.
@Suite("Notes on statements")
struct StatementNoteTests {
    let cost = StatementCost(secondsPerExecution: 0.0042, count: 1_200)

    @Test("how a statement was read and timed")
    func measurement() {
        #expect(StatementNote.shapeUnreadable(error: "no such column: x").text
                == "its shape could not be read (no such column: x); it is timed but gets no candidates")
        #expect(StatementNote.shapeReadWithout(parts: ["RETURNING"], tooManyParameters: false).text
                == "its shape was read without its RETURNING clause (it only reads the rows written): the virtual tables that give shapes refuse it; its plans and times are the whole statement's")
        #expect(StatementNote.shapeReadWithout(parts: ["an IN list", "ON CONFLICT"], tooManyParameters: true).text
                == "its shape was read without all but the first items of an IN list and its ON CONFLICT clause (the columns its DO UPDATE sets count as updated): the statement has more parameters than SQLite allows once its literals are parameters; its plans and times are the whole statement's")
        #expect(StatementNote.standIns(["NSCoreDataStringSearch", "NSCollateFinderlike"]).text
                == "timed with stand-ins for NSCoreDataStringSearch, NSCollateFinderlike, which only the app's own connection registers; their cost here approximates the real one")
    }

    @Test("what makes a statement slow as written, with its cost when it was timed")
    func slowAsWritten() {
        #expect(StatementNote.collationSort(column: "ZTITLE", collation: "NSCollateFinderlike", reason: "no index can carry it").text
                == "ORDER BY ZTITLE COLLATE NSCollateFinderlike: no index can carry it. Sort with a binary comparator instead (in SwiftData, `SortDescriptor(…, comparator: .lexical)`; in Core Data, `compare:`).")
        #expect(StatementNote.functionOnColumn(table: "t", function: "lower", cost: nil).text
                == "t is filtered through lower(…) on a column: an index on the column cannot serve it. For substring search use full-text search (FTS5); for case-insensitive matching, a NOCASE column or index.")
        #expect(StatementNote.leadingWildcard(column: "name", op: "LIKE", pattern: "%son", cost: cost).text
                == "name LIKE '%son' starts with a wildcard: a substring search that no B-tree index can serve, so SQLite reads every row. It takes 4.20 ms per execution here, ×1,200 in the workload. Full-text search (an FTS5 table over name) serves it.")
        #expect(StatementNote.coreDataStringSearch(table: "ZNOTE", function: "NSCoreDataStringSearch", cost: nil).text
            .hasPrefix("ZNOTE is filtered with NSCoreDataStringSearch (Core Data's CONTAINS/LIKE/MATCHES with [c]/[d] options): a substring or case-insensitive search that no B-tree index can serve. Keep"))
    }

    @Test("why a flagged statement got no index")
    func noRecommendation() {
        #expect(NoRecommendationReason.alternativeHelps(number: 2, table: "ZNOTE", columns: ["ZDATE"], partialPredicate: "\"ZDATE\" IS NOT NULL",
                                                        beforeSeconds: 0.012, afterSeconds: 0.0004).text
                == "no index the model can declare helps it; alternative A2 on ZNOTE (ZDATE WHERE \"ZDATE\" IS NOT NULL) does (12.0 ms → 400.0 µs): see the alternatives")
        #expect(NoRecommendationReason.alternativeHelps(number: 1, table: "t", columns: ["a", "b"], partialPredicate: nil,
                                                        beforeSeconds: nil, afterSeconds: 0.001).text
                == "no index the model can declare helps it; alternative A1 on t (a, b) does: see the alternatives")
        #expect(NoRecommendationReason.candidatesUnmeasured(unmeasured: 1, maxCandidates: 40, timeBudgetSeconds: nil).text
                == "no index recommended among the candidates measured; 1 more that SQLite's planner would use for it was not measured (--max-candidates 40; see rejected candidates)")
        #expect(NoRecommendationReason.candidatesUnmeasured(unmeasured: 3, maxCandidates: 40, timeBudgetSeconds: 0).text
                == "no index recommended among the candidates measured; 3 more that SQLite's planner would use for it were not measured (--time-budget 0 s or --max-candidates 40; see rejected candidates)")
        #expect(NoRecommendationReason.smallTable(table: "tag", rows: 1).text == "no index recommended: tag has only 1 row, so a scan is cheap")
        #expect(NoRecommendationReason.unindexableTerms([]).text
                == "no index recommended: none of its terms can use an index (no filter or sort), so it reads the table whatever the indexes")
        #expect(NoRecommendationReason.unindexableTerms(["!=", "REGEXP"]).text.contains("(!=, REGEXP)"))
        #expect(StatementNote.noRecommendation(.noCandidateHelped).text
                == "no index recommended: no candidate was used by the planner or made it measurably faster (see rejected candidates)")
    }

    @Test("in the JSON report a note is its words, and reads back as them")
    func json() throws {
        let notes: [StatementNote] = [.noRecommendation(.statisticsSuffice), .standIns(["f"])]
        let data = try JSONEncoder().encode(notes)
        let read = try JSONDecoder().decode([StatementNote].self, from: data)
        #expect(read == [.other("no index recommended: ANALYZE statistics let SQLite use the existing indexes well (see the query advice)"),
                         .other("timed with stand-ins for f, which only the app's own connection registers; their cost here approximates the real one")])
    }

    // Regression (a new user): the hottest read, 22 % of the time through an index the store already had,
    // got no word on why it got no index; only flagged statements (a scan, a sort) did.
    @Test("a read that takes a tenth of the workload's time says why it got no index, like a flagged one")
    func hotReadWithoutProblemSaysWhy() throws {
        let result = try analyze("""
            CREATE TABLE comment (id INTEGER PRIMARY KEY, taskId INTEGER NOT NULL, authorId INTEGER NOT NULL, createdAt REAL NOT NULL, body TEXT NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
            INSERT INTO comment SELECT i, CASE WHEN i % 4 = 0 THEN 5 ELSE 1 + i % 3000 END, 1 + i % 500, 700000000.0 + i, printf('%.*c', 40 + i % 80, 'c') FROM n;
            CREATE INDEX comment_on_taskId_createdAt ON comment(taskId, createdAt);
            """, workload: """
            -- freq: 300
            SELECT * FROM comment WHERE taskId = 5 ORDER BY createdAt;
            -- freq: 50
            SELECT id FROM comment WHERE authorId = 7;
            -- freq: 100
            INSERT INTO comment(taskId, authorId, createdAt, body) VALUES (5, 3, 710000000.0, 'hi');
            """)
        let hot = try #require(result.statements.first)
        #expect(hot.planBefore?.hasProblem == false)
        #expect(hot.usesRecommendations.isEmpty)
        #expect(hot.notes.contains(.noRecommendation(.existingIndexesCover)), "\(hot.notes)")
        // The insert is no read: no such note.
        #expect(!(result.statements.last?.notes.contains { if case .noRecommendation = $0 { return true }; return false } ?? true))
    }
}
