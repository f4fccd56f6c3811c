import Testing
import Foundation
@testable import IndexAdvisor

@Suite("Kinds named once, in kebab case")
struct KebabCaseKindTests {
    @Test("each kind's stable name is the one the JSON report and the CI log have always carried, and reads back")
    func names() throws {
        #expect(CheckProblem.Kind.allCases.map(\.rawValue) == [
            "full-table-scan", "temp-b-tree-sort", "slower-than-baseline", "baseline-unmatched", "statement-timed-out",
            "statement-failed", "baseline-other-cost", "query-advice", "automatic-index", "baseline-other-sample", "slower-as-advised",
            "baseline-other-sqlite",
        ])
        #expect(ReportFinding.Kind.allCases.map(\.rawValue) == [
            "plan-without-index", "claim-not-in-final-plan", "timing-against-plan", "identical-plans-as-change",
            "unmeasured-as-zero", "duplicate-index", "unexplained-threshold", "noise-against-runs", "missing-index", "advice-without-statement", "totals-against-statements",
            "uses-against-plan", "measured-beside-other-index", "runs-against-summary", "recommended-at-a-loss",
            "charges-against-headline", "partial-set-unlabelled", "declaration-against-formats",
            "slower-headline-recommended", "counters-against-charge",
        ])
        for kind in CheckProblem.Kind.allCases { #expect(CheckProblem.Kind(rawValue: kind.rawValue) == kind) }
        #expect(CheckProblem.Kind(rawValue: "fullTableScan") == nil)
        let problem = CheckProblem(kind: .tempBTreeSort, statement: "S1", statementID: "x", isFailure: true, message: "m")
        let json = String(decoding: try JSONEncoder().encode(problem), as: UTF8.self)
        #expect(json.contains("\"kind\":\"temp-b-tree-sort\""))
        #expect(try JSONDecoder().decode(CheckProblem.self, from: Data(json.utf8)) == problem)
        #expect(ReportFinding(.missingIndex, "m").description == "missing-index: m")
    }
}
