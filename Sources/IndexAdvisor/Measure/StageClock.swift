import Foundation

/// Where one analysis spends its time (issue 18): wall-clock seconds per pipeline stage, and inside the
/// stages the time spent building candidate indexes and timing reads and writes.
///
/// The stages are the ones the progress reporter names, in the order first met; a stage's time runs from
/// its first report to the next stage's. The three activities overlap the stages (candidate builds happen
/// in "measuring candidates" and "selection", timings in every stage that times), so they are kept apart.
/// One analysis is single-threaded: the clock is used from one thread at a time.
package final class StageClock: @unchecked Sendable {
    private var order: [String] = []
    private var seconds: [String: Double] = [:]
    private var current: (stage: String, since: UInt64)?
    /// Seconds spent in `CREATE INDEX` of candidates.
    package private(set) var candidateBuildSeconds = 0.0
    /// How many `CREATE INDEX` of candidates, and how many timings of reads and of writes.
    package private(set) var candidateBuilds = 0
    package private(set) var readTimings = 0
    package private(set) var writeTimings = 0
    /// Seconds spent timing reads, and writes (warm-up passes and savepoints included).
    package private(set) var readTimingSeconds = 0.0
    package private(set) var writeTimingSeconds = 0.0

    package init() {}

    /// Starts `stage` (a no-op when it is already the current one) and closes the one before.
    package func enter(_ stage: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        if current?.stage == stage { return }
        close(now: now)
        if seconds[stage] == nil { order.append(stage) }
        current = (stage, now)
    }

    /// Ends the current stage.
    package func close(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        guard let (stage, since) = current else { return }
        seconds[stage, default: 0] += Double(now - since) / 1e9
        current = nil
    }

    package func addCandidateBuild(_ elapsed: Double) {
        candidateBuildSeconds += elapsed
        candidateBuilds += 1
    }

    package func addTiming(_ elapsed: Double, isWrite: Bool) {
        if isWrite {
            writeTimingSeconds += elapsed
            writeTimings += 1
        } else {
            readTimingSeconds += elapsed
            readTimings += 1
        }
    }

    /// The stages in order with their seconds, then the three activities.
    package var breakdown: [StageTime] {
        order.map { StageTime(stage: $0, seconds: seconds[$0] ?? 0, isActivity: false) } + [
            StageTime(stage: "candidate index builds", seconds: candidateBuildSeconds, isActivity: true, count: candidateBuilds),
            StageTime(stage: "timing reads", seconds: readTimingSeconds, isActivity: true, count: readTimings),
            StageTime(stage: "timing writes", seconds: writeTimingSeconds, isActivity: true, count: writeTimings),
        ]
    }
}

/// One line of the per-stage breakdown.
public struct StageTime: Sendable, Codable, Equatable {
    /// A pipeline stage ("snapshot", "baseline", "measuring candidates", …) or an activity across stages
    /// ("candidate index builds", "timing reads", "timing writes").
    public var stage: String
    /// Wall-clock seconds.
    public var seconds: Double
    /// True for an activity, whose time is also counted in the stages it happened in.
    public var isActivity: Bool
    /// For an activity: how many times it happened (index builds, statement timings). Nil for a stage, and
    /// in reports made before it was kept.
    public var count: Int? = nil
}
