import Testing
import Foundation
@testable import IndexAdvisor
import QueryPlanText

/// Issue 39, item 14: what the renderers derive from a report's figures holds at the type's limits instead of
/// trapping, and plans whose rows an edit made cyclic or thousands deep still draw.
@Suite("Report arithmetic at the limits")
struct FigureArithmeticTests {
    @Test("a Double made whole is held within ±Int.max, NaN is 0, and the rounding rule is kept")
    func whole() {
        #expect(Figures.whole(1e300) == Int.max)
        #expect(Figures.whole(-.infinity) == -Int.max)
        #expect(Figures.whole(.nan) == 0)
        #expect(Figures.whole(9.223372036854775807e18) == Int.max)
        #expect(Figures.whole(2.5) == 3)
        #expect(Figures.whole(-2.5) == -3)
        #expect(Figures.whole(7.9, .down) == 7)
        #expect(Figures.whole(7.9, .towardZero) == 7)
        #expect(Figures.count(Int.min) == "-9,223,372,036,854,775,808")
        #expect(Figures.rows(4.2e17) == "420,000,000,000,000,000")
    }

    @Test("sums and products of counts stop at the limit; an ordinary sum is exact")
    func saturating() {
        #expect([Int64.max, 5, 9].saturatingSum { $0 } == .max)
        #expect([Int.min, -3].saturatingSum { $0 } == .min)
        #expect([120, 3, -7].saturatingSum { $0 } == 116)
        #expect(Int.max.saturatingProduct(3) == .max)
        #expect((-4_000_000_000_000).saturatingProduct(4_000_000_000_000_000) == .min)
        #expect(41.saturatingProduct(3) == 123)
        var timing = ReportFixture.timing(0.002)
        (timing.runs, timing.executionsPerRun) = (1_000_000_000_000_000, 1_000_000_000_000_000)
        #expect(timing.sampleSize == .max)
    }

    @Test("the migration's size over 12,000 recommendations of 10^15 bytes each is held at Int64.max")
    func manyLargeIndexes() {
        var result = ReportFixture.result(hostile: false)
        var recommendation = result.recommendations[0]
        recommendation.bytes = 1_000_000_000_000_000
        result.recommendations = Array(repeating: recommendation, count: 12_000)
        #expect(result.migrationBytes == .max)
        result.recommendations = Array(repeating: recommendation, count: 3)
        #expect(result.migrationBytes == 3_000_000_000_000_000)
    }

    @Test("a log scale of times below any power of ten a Double holds (5e-324 s) has finite positions and ticks")
    func tinyScale() {
        let scale = SVGCharts.LogScale(values: [.leastNonzeroMagnitude, 3e-300, 0.004])
        #expect(scale.low > 0 && scale.high > scale.low)
        #expect(scale.fraction(.leastNonzeroMagnitude).isFinite && scale.fraction(0.004).isFinite)
        #expect(scale.ticks.allSatisfy { $0 > 0 && $0.isFinite })
        let huge = SVGCharts.LogScale(values: [1e300, .greatestFiniteMagnitude])
        #expect(huge.high.isFinite && huge.fraction(1e300).isFinite)
    }

    @Test("plan rows that are their own parents, or a chain 6,000 deep, draw in the text tree and the HTML tree")
    func hostilePlans() {
        let cycle = QueryPlan(steps: (0..<40).map { QueryPlan.Step(id: 0, parent: 0, detail: "SCAN depot \($0)") }, findings: [])
        #expect(cycle.tree.split(separator: "\n").count == 41)
        #expect(HTMLReport.planTree(cycle).markup.components(separatedBy: "<li>").count == 41)
        let chain = QueryPlan(steps: (1...6_000).map { QueryPlan.Step(id: $0, parent: $0 - 1, detail: "SEARCH crate \($0)") }, findings: [])
        let lines = chain.tree.split(separator: "\n")
        #expect(lines.count == PlanTree.maximumDepth + 1)
        #expect(lines.last?.hasSuffix("SEARCH crate \(PlanTree.maximumDepth)") == true)
        #expect(HTMLReport.planTree(chain).markup.components(separatedBy: "<li>").count == PlanTree.maximumDepth + 1)
        // A plan SQLite makes draws whole.
        let plain = QueryPlan(steps: [.init(id: 2, parent: 0, detail: "SCAN crate"), .init(id: 5, parent: 2, detail: "SEARCH lid USING INDEX lid_by_crate (crate=?)")], findings: [])
        #expect(plain.tree == "QUERY PLAN\n`--SCAN crate\n   `--SEARCH lid USING INDEX lid_by_crate (crate=?)")
    }
}
