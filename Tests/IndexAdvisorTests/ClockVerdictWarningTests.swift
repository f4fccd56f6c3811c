import Testing
import Foundation
@testable import IndexAdvisor

/// When the choices are decided on SQLite's work counters and the wall clock overruled them, the report
/// says how many choices that was, with the machine's load, and how to get advice that repeats exactly.
@Suite("Choices the wall clock made against the counters")
struct ClockVerdictWarningTests {
    @Test("the clock's verdicts are the ones given against the counters while deciding on them")
    func clockVerdicts() {
        let slower = [StatementSlowdown(statement: "S4", beforeSeconds: 0.0429, afterSeconds: 0.0508)]
        #expect(RejectionReason.costsMoreByTheClock(readsSavedAtMost: 0.032, writesAddedAtLeast: 0.038).isClockVerdict(decidesOnCounters: true))
        #expect(RejectionReason.costOutweighsSaving(slower: slower, churn: nil, byCounters: false).isClockVerdict(decidesOnCounters: true))
        #expect(!RejectionReason.costOutweighsSaving(slower: slower, churn: nil, byCounters: true).isClockVerdict(decidesOnCounters: true))
        #expect(!RejectionReason.makesStatementsSlower(slower, byCounters: true).isClockVerdict(decidesOnCounters: true))
        // On the clock alone every verdict is the clock's: nothing contradicted.
        #expect(!RejectionReason.costOutweighsSaving(slower: slower, churn: nil, byCounters: false).isClockVerdict(decidesOnCounters: false))
        #expect(!RejectionReason.indexLimit(12).isClockVerdict(decidesOnCounters: true))
    }

    @Test("the warning names the choices, the load and the cores, and points to --cost counters")
    func words() {
        let text = AnalysisWarning.decidedByTheClock(choices: ["book(readState, sort)", "book(finished DESC)", "list(name)", "item(list, sort)"],
                                                     load: 5.67, cores: 2).text
        #expect(text.hasPrefix("4 choices went to the wall clock, which contradicted SQLite's work counters beyond its runs' spread (book(readState, sort), book(finished DESC), list(name) and 1 more); the machine's load average was 5.7 on 2 cores."), "\(text)")
        #expect(text.hasSuffix("`--cost counters` decides on the counters alone and gives the same advice every time"))
        let quiet = AnalysisWarning.decidedByTheClock(choices: ["t(a)"], load: nil, cores: 8).text
        #expect(quiet.hasPrefix("1 choice went to the wall clock, which contradicted SQLite's work counters beyond its runs' spread (t(a)). On a busy"), "\(quiet)")
    }

    @Test("the machine's load average is the one the kernel reports")
    func machineLoad() throws {
        let load = try #require(MachineLoad.oneMinuteAverage())
        // Linux says it in /proc/loadavg too ("0.52 0.58 0.59 1/123 4567"); it moves slowly.
        if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8), let first = text.split(separator: " ").first, let kernel = Double(first) {
            #expect(abs(load - kernel) < 1.0, "getloadavg \(load), /proc/loadavg \(kernel)")
        }
        #expect(load >= 0)
    }
}
