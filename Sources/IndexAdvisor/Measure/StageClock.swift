import Foundation
import Locking

/// Where one analysis spends its time (issue 18): wall-clock seconds per pipeline stage, and inside the
/// stages the time spent building candidate indexes and timing reads and writes.
///
/// The stages are the ones the progress reporter names, in the order first met; a stage's time runs from
/// its first report to the next stage's. The three activities overlap the stages (candidate builds happen
/// in "measuring candidates" and "selection", timings in every stage that times), so they are kept apart.
/// Its state is held under its own lock (``LockedValue``): the statistics workers and the timers may report
/// from other threads than the analysis's.
package final class StageClock: Sendable {
    private struct State {
        var order: [String] = []
        var seconds: [String: Double] = [:]
        var current: (stage: String, since: UInt64)?
        var candidateBuildSeconds = 0.0
        var candidateBuilds = 0
        var readTimings = 0
        var writeTimings = 0
        var readTimingSeconds = 0.0
        var writeTimingSeconds = 0.0
        /// The machine's one-minute load average when the first stage began, and the highest seen at a stage's start or end.
        var loadAtStart: Double?
        var highestLoad: Double?

        mutating func sampleLoad() {
            guard let load = MachineLoad.oneMinuteAverage() else { return }
            if loadAtStart == nil { loadAtStart = load }
            highestLoad = max(highestLoad ?? load, load)
        }

        mutating func close(now: UInt64) {
            guard let (stage, since) = current else { return }
            seconds[stage, default: 0] += Double(now - since) / 1e9
            current = nil
        }
    }

    private let state = LockedValue(State())

    package init() {}

    /// Seconds spent in `CREATE INDEX` of candidates.
    package var candidateBuildSeconds: Double { state.withLock { $0.candidateBuildSeconds } }
    /// How many `CREATE INDEX` of candidates, and how many timings of reads and of writes.
    package var candidateBuilds: Int { state.withLock { $0.candidateBuilds } }
    package var readTimings: Int { state.withLock { $0.readTimings } }
    package var writeTimings: Int { state.withLock { $0.writeTimings } }
    /// Seconds spent timing reads, and writes (warm-up passes and savepoints included).
    package var readTimingSeconds: Double { state.withLock { $0.readTimingSeconds } }
    package var writeTimingSeconds: Double { state.withLock { $0.writeTimingSeconds } }

    /// Starts `stage` (a no-op when it is already the current one) and closes the one before.
    package func enter(_ stage: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        state.withLock { state in
            if state.current?.stage == stage { return }
            state.close(now: now)
            state.sampleLoad()
            if state.seconds[stage] == nil { state.order.append(stage) }
            state.current = (stage, now)
        }
    }

    /// Ends the current stage.
    package func close(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        state.withLock { state in
            state.close(now: now)
            state.sampleLoad()
        }
    }

    /// The machine's load average as the stages began and ended (``MachineLoad``); nil where the system does not say.
    package var machineLoad: MachineLoadFigures? {
        state.withLock { state in
            guard let start = state.loadAtStart, let highest = state.highestLoad else { return nil }
            return MachineLoadFigures(atStart: start, highest: highest, cores: MachineLoad.cores)
        }
    }

    /// Counts one `CREATE INDEX` of a candidate that took `elapsed` seconds.
    package func addCandidateBuild(_ elapsed: Double) {
        state.withLock { state in
            state.candidateBuildSeconds += elapsed
            state.candidateBuilds += 1
        }
    }

    /// Counts one timing of a read or a write that took `elapsed` seconds.
    package func addTiming(_ elapsed: Double, isWrite: Bool) {
        state.withLock { state in
            if isWrite {
                state.writeTimingSeconds += elapsed
                state.writeTimings += 1
            } else {
                state.readTimingSeconds += elapsed
                state.readTimings += 1
            }
        }
    }

    /// The stages in order with their seconds, then the three activities.
    package var breakdown: [StageTime] {
        state.withLock { state in
            state.order.map { StageTime(stage: $0, seconds: state.seconds[$0] ?? 0, isActivity: false) } + [
                StageTime(stage: "candidate index builds", seconds: state.candidateBuildSeconds, isActivity: true, count: state.candidateBuilds),
                StageTime(stage: "timing reads", seconds: state.readTimingSeconds, isActivity: true, count: state.readTimings),
                StageTime(stage: "timing writes", seconds: state.writeTimingSeconds, isActivity: true, count: state.writeTimings),
            ]
        }
    }
}

/// How busy the machine was during an analysis: the scheduler's one-minute load average (`getloadavg(3)`,
/// runnable processes) when its first stage began and the highest at any stage's start or end, beside the
/// cores the process may use. Above the cores, wall-clock figures include other processes' time slices and can
/// differ between runs of the same input (hostile round 6, F7: one scan's median 9.0 ms in one run, 1.28 s in another).
public struct MachineLoadFigures: Sendable, Codable, Equatable {
    public var atStart: Double
    public var highest: Double
    public var cores: Int

    /// True when the load rose above the cores at some point of the analysis.
    public var wasBusy: Bool { highest > Double(cores) }
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
