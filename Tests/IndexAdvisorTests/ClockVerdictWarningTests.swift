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

    // Hostile round 6, F7: one scan's median was 9.0 ms in one run and 1.28 s in another under two busy loops, and
    // neither the JSON method nor the words said how busy the machine was.
    @Test("an analysis keeps the machine's load as it began and the highest, and the method says it, busy or not")
    func loadInMethod() throws {
        let store = try FixtureStore("""
            CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO item SELECT i, i % 50 FROM n;
            """)
        let workload = WorkloadLoader.parse("SELECT id FROM item WHERE owner = 7;", file: "w.sql", format: .sql)
        var result = try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
        let load = try #require(result.method.machineLoad)
        #expect(load.cores == ProcessInfo.processInfo.activeProcessorCount)
        #expect(load.highest >= load.atStart && load.atStart >= 0)
        let decoded = try JSONDecoder().decode(AnalysisResult.self, from: JSONEncoder().encode(result))
        #expect(decoded.method.machineLoad == load)

        result.method.machineLoad = MachineLoadFigures(atStart: 0.42, highest: 1.3, cores: 2)
        #expect(result.methodText.contains("The machine's one-minute load average was 0.4 as the analysis began and at most 1.3 during it, on 2 cores. "))
        #expect(!result.methodText.contains("busy"))
        result.method.machineLoad = MachineLoadFigures(atStart: 3.9, highest: 7.25, cores: 2)
        #expect(result.methodText.contains("at most 7.2 during it, on 2 cores: the machine was busy, so the wall-clock figures include other processes' time and can differ between runs of the same input. "))
        result.method.machineLoad = MachineLoadFigures(atStart: 3.9, highest: 7.25, cores: 0)
        #expect(result.methodText.contains("at most 7.2 during it. "))
        result.method.machineLoad = MachineLoadFigures(atStart: 3.9, highest: 7.25, cores: 2)
        result.method.decidesOnCounters = true
        #expect(result.methodText.contains("can differ between runs of the same input; the choices were decided on the counters, which it does not move. "))
    }
}
