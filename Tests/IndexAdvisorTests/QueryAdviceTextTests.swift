import Testing
import Foundation
@testable import IndexAdvisor

/// The words of each query advice (issue 22: the advisor states what it found, the renderers word it),
/// exactly as the reports printed them before, and the JSON report's form.
@Suite("Query advice in words")
struct QueryAdviceTextTests {
    func advice(_ finding: QueryAdviceFinding) -> QueryAdvice {
        QueryAdvice(kind: .subquery, statementID: "s", finding: finding, timing: nil, rewrite: nil, rewriteTiming: nil, rewritePlan: nil)
    }

    @Test("rewrites: the advice names the column, pattern or table, and the caveat says what changes")
    func rewrites() {
        let collation = advice(.collationSort(column: "ZTITLE", collation: "NSCollateFinderlike"))
        #expect(collation.advice.hasPrefix("ORDER BY ZTITLE COLLATE NSCollateFinderlike cannot use an index: the collation exists only on the app's connection. Sorted with a binary comparator (SwiftData: `SortDescriptor(\\.property, comparator: .lexical)`"))
        #expect(collation.caveat?.hasSuffix("the index on ZTITLE is part of this change") == true)
        let like = advice(.caseInsensitiveLike(column: "name", pattern: "ab%", prefix: "ab"))
        #expect(like.advice == "name LIKE 'ab%' ignores case, so SQLite cannot use a BINARY index on name for the prefix. `GLOB 'ab*'` (or `name >= 'ab' AND name < …`) can; an index on name COLLATE NOCASE is the alternative that keeps LIKE.")
        #expect(like.caveat == "GLOB is case-sensitive: equivalent only when the stored values and the pattern have one case (e.g. lower-case hashes)")
        #expect(advice(.substringSearch(table: "t", search: .leadingWildcard(column: "name", op: "LIKE"))).advice
            .hasPrefix("t is searched by substring (name LIKE with a leading wildcard), which no B-tree index can serve"))
        #expect(advice(.substringSearch(table: "ZNOTE", search: .functions(["NSCoreDataStringSearch", "instr"]))).advice
            .hasPrefix("ZNOTE is searched by substring (NSCoreDataStringSearch, instr), which"))
        // Regression (a new user's GRDB store): Core Data's CONTAINS[cd] is named only for Core Data's search.
        #expect(advice(.substringSearch(table: "ZNOTE", search: .functions(["NSCoreDataStringSearch"]))).advice
            .hasSuffix("can; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can."))
        #expect(advice(.substringSearch(table: "episode", search: .leadingWildcard(column: "title", op: "LIKE"))).advice
            .hasSuffix("A full-text index (an FTS5 table over the searched text, queried with MATCH) can."))
        #expect(advice(.substringSearch(table: "episode", search: .functions(["instr"]))).advice.contains("Core Data") == false)
        #expect(advice(.orAcrossColumns(table: "t", columns: ["a", "b"])).advice
                == "The filter ORs conditions on a, b of t: SQLite can only avoid reading every row with an index on each (it then runs a MULTI-INDEX OR), or you can split it into a UNION of lookups.")
        #expect(advice(.subquery).caveat == nil)
        #expect(advice(.mixedSortDirections(table: "t", columns: ["a DESC", "b"])).advice.hasPrefix("The index on t(a DESC, b) mixes directions"))
    }

    @Test("statistics: the plans, the times and the workload's net saving; slower ones get a caveat")
    func statistics() {
        var change = StatisticsChange(planWithout: "SCAN t", planWith: "SEARCH t USING INDEX i (a=?)", secondsWithout: 0.012, secondsWith: 0.0003,
                                      isFaster: true, workloadNetSeconds: 0.5, fasterStatements: ["S1", "S3"], slowerStatements: [],
                                      isCoreData: false)
        #expect(advice(.statistics(change)).advice
                == "With ANALYZE statistics SQLite plans it differently (without statistics SCAN t, with them SEARCH t USING INDEX i (a=?)) and it takes 12.0 ms → 300.0 µs. Across the workload, statistics save 500.0 ms net per workload: S1, S3 faster, none measurably slower. Run `ANALYZE` once (and again after large changes to the data); the statistics measured here are exactly the ones it writes.")
        #expect(advice(.statistics(change)).caveat == nil)
        change.isFaster = false
        change.isCoreData = true
        change.slowerStatements = [StatementSlowdown(statement: "S2", beforeSeconds: 0.001, afterSeconds: 0.002)]
        #expect(advice(.statistics(change)).advice.hasSuffix("and it would take 12.0 ms → 300.0 µs: slower. Across the workload, statistics save 500.0 ms net per workload: S1, S3 faster; slower: S2 1.00 ms → 2.00 ms."))
        #expect(advice(.statistics(change)).caveat == "made slower by the statistics advised for the rest of the workload")
    }

    @Test("the JSON report keeps advice and caveat in words, and reads them back")
    func json() throws {
        let original = advice(.orAcrossColumns(table: "t", columns: ["a", "b"]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(original)
        #expect(String(decoding: data, as: UTF8.self) == #"{"advice":"\#(original.advice)","caveat":"\#(original.caveat!)","kind":"subquery","statementID":"s"}"#)
        let read = try JSONDecoder().decode(QueryAdvice.self, from: data)
        #expect(read.finding == .other(advice: original.advice, caveat: original.caveat))
        #expect(try encoder.encode(read) == data)
    }
}
