import Testing
import Foundation
@testable import IndexAdvisor

/// `render --check` holds every timing to its own runs: a median, quartile, extreme or run count that the
/// runs do not give, or a counters time that is not their price, is an edited report.
@Suite("render --check: timings against their runs")
struct RunFiguresCheckTests {
    static func demo() throws -> AnalysisResult {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("reports/demo.json")
        return try JSONReport.decode(Data(contentsOf: url))
    }

    @Test("the committed demo's timings are their runs' figures; an edited median, run count or quartile is found")
    func editedTimings() throws {
        let result = try Self.demo()
        #expect(ReportChecker().checkRunFigures(result) == [])
        let statement = try #require(result.statements.firstIndex { ($0.timingBefore?.runSeconds.count ?? 0) >= 3 })
        let timing = try #require(result.statements[statement].timingBefore)
        let label = result.label(ofStatement: result.statements[statement].id)

        // The median moved below its own lower quartile.
        var edited = result
        edited.statements[statement].timingBefore!.medianSeconds = timing.p25Seconds * 0.5
        let found = ReportChecker().checkRunFigures(edited)
        #expect(found.count == 1)
        #expect(found.first?.kind == .runsAgainstSummary)
        #expect(found.first?.message == "\(label) (statements[\(statement)]) before: its p25 \(Figures.duration(timing.p25Seconds)) is above its median \(Figures.duration(timing.p25Seconds * 0.5))")
        #expect(ReportChecker().check(edited).contains { $0.kind == .runsAgainstSummary })

        // Every run made faster, the summary left: the runs give another median.
        edited = result
        edited.statements[statement].timingBefore!.runSeconds = timing.runSeconds.map { $0 / 2 }
        let halved = Timing.from(samples: timing.runSeconds.map { $0 / 2 }, executionsPerRun: 1, rows: 0, failures: 0)
        #expect(ReportChecker().checkRunFigures(edited).map(\.message)
                == ["\(label) (statements[\(statement)]) before: its min is \(Figures.duration(timing.minSeconds)), and its own runs give \(Figures.duration(halved.minSeconds))"])

        // A run count that is not the runs listed.
        edited = result
        edited.statements[statement].timingBefore!.runs = timing.runSeconds.count + 4
        #expect(ReportChecker().checkRunFigures(edited).map(\.message)
                == ["\(label) (statements[\(statement)]) before: it says \(timing.runSeconds.count + 4) runs and lists \(timing.runSeconds.count)"])
    }

    @Test("a recommendation's effect is checked too, and a counters time must be the counters' price")
    func effectsAndCounters() throws {
        let result = try Self.demo()
        var edited = result
        let effect = try #require(edited.recommendations.first?.effects.first)
        edited.recommendations[0].effects[0].after.maxSeconds = effect.after.medianSeconds * 0.9
        let found = ReportChecker().checkRunFigures(edited)
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("index 1 (\(result.recommendations[0].name)), \(result.label(ofStatement: effect.statementID)) with it: its p75") == true)

        let counters = WorkCounters(vmSteps: 1_000, pageLookups: 10)
        var priced = Timing.from(samples: [CounterCost.seconds(counters)], executionsPerRun: 1, rows: 1, failures: 0,
                                 counters: counters, source: .sqliteCounters)
        #expect(ReportChecker.runProblem(priced) == nil)
        priced.vmStepsPerExecution = 100
        // 100 × 50 ns + 10 × 250 ns = 7.5 µs, where the time says 52.5 µs (its runs agree with it).
        #expect(ReportChecker.runProblem(priced) == "a time on SQLite's counters of \(Figures.duration(52.5e-6)), where their price is \(Figures.duration(7.5e-6))")
    }
}
