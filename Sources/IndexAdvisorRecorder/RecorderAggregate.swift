import Foundation
import Locking
import SQLFingerprint

/// The recorder's totals per fingerprint, shared by every attached connection and guarded by one lock.
/// Bounded: at most `limits.maxStatements` fingerprints (executions of further new ones are counted as
/// dropped), `limits.timingSamples` durations and `limits.valueSamples` value tuples per fingerprint.
final class RecorderAggregate: Sendable {
    private struct Entry {
        let fingerprint: String
        let sql: String
        let kind: SQLStatementKind
        var count = 0
        var totalNanoseconds: UInt64 = 0
        var rows = 0
        var timings: [UInt64] = []
        var offered = 0
        var samples: [[SQLLiteral]] = []
        var sampleAttempts = 0
        var firstSeen: Double
        var lastSeen: Double
    }

    /// Everything the lock guards.
    private struct State {
        var entries: [Entry] = []
        var slots: [String: Int] = [:]
        var dropped = 0
        var random: UInt64 = 0x5EED_1DE7
        var started = Clock.wallSeconds()
        /// Changes on every reset, so that connections drop the slot numbers they cached.
        var generation = 0

        mutating func nextRandom() -> UInt64 {
            // SplitMix64 (https://prng.di.unimi.it/splitmix64.c).
            random &+= 0x9E37_79B9_7F4A_7C15
            var z = random
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    let limits: WorkloadRecorder.Limits
    private let state = LockedValue(State())

    init(limits: WorkloadRecorder.Limits) {
        self.limits = limits
    }

    /// The slot of `normalized`'s fingerprint (created on first sight), with the generation it belongs
    /// to; nil slot when the fingerprint cap is reached.
    func slot(for normalized: NormalizedSQL) -> (slot: Int?, generation: Int) {
        state.withLock { state in
            if let slot = state.slots[normalized.fingerprintID] { return (slot, state.generation) }
            guard state.entries.count < limits.maxStatements else { return (nil, state.generation) }
            let now = Clock.wallSeconds()
            state.entries.append(Entry(fingerprint: normalized.fingerprintID, sql: normalized.parameterizedSQL, kind: normalized.kind,
                                       firstSeen: now, lastSeen: now))
            state.slots[normalized.fingerprintID] = state.entries.count - 1
            return (state.entries.count - 1, state.generation)
        }
    }

    /// What ``record(slot:generation:nanoseconds:rows:end:)`` did.
    enum Outcome {
        case counted
        /// Counted; a tuple of the statement's bound values should be sampled.
        case countedSampleWanted
        /// Not counted: the slot belongs to a generation before a reset; look the statement up again.
        case stale
    }

    /// Counts one execution of the statement in `slot` (of `generation`) that ended at `end` (monotonic
    /// nanoseconds).
    func record(slot: Int, generation: Int, nanoseconds: UInt64, rows: Int, end: UInt64) -> Outcome {
        let now = Clock.wallSeconds(atMonotonic: end)
        return state.withLock { state in
            guard generation == state.generation, slot < state.entries.count else { return .stale }
            state.entries[slot].count &+= 1
            let (total, overflow) = state.entries[slot].totalNanoseconds.addingReportingOverflow(nanoseconds)
            state.entries[slot].totalNanoseconds = overflow ? UInt64.max : total
            state.entries[slot].rows &+= rows
            state.entries[slot].lastSeen = now
            if state.entries[slot].count == 1 { state.entries[slot].firstSeen = now }
            state.entries[slot].offered &+= 1
            if state.entries[slot].timings.count < limits.timingSamples {
                state.entries[slot].timings.append(nanoseconds)
            } else {
                // Algorithm R: keep a uniform sample of all executions.
                let index = Int(state.nextRandom() % UInt64(state.entries[slot].offered))
                if index < state.entries[slot].timings.count { state.entries[slot].timings[index] = nanoseconds }
            }
            guard state.entries[slot].samples.count < limits.valueSamples,
                  state.entries[slot].sampleAttempts < limits.valueSamples * 4 else { return .counted }
            state.entries[slot].sampleAttempts += 1
            return .countedSampleWanted
        }
    }

    /// Counts an execution of a new fingerprint that the cap kept out.
    func drop() {
        state.withLock { $0.dropped &+= 1 }
    }

    /// Keeps `values` (one per parameter) unless already kept or the slot has enough.
    func addSample(_ values: [SQLLiteral], slot: Int, generation: Int) {
        state.withLock { state in
            guard generation == state.generation, slot < state.entries.count,
                  state.entries[slot].samples.count < limits.valueSamples, !state.entries[slot].samples.contains(values) else { return }
            state.entries[slot].samples.append(values)
        }
    }

    /// Asks for no more value samples of the fingerprint in `slot`: its values are too large to read
    /// (``ConnectionTap/maximumExpandedBytes``), and each try costs the app the whole rendering.
    func stopSampling(slot: Int, generation: Int) {
        state.withLock { state in
            guard generation == state.generation, slot < state.entries.count else { return }
            state.entries[slot].sampleAttempts = limits.valueSamples * 4
        }
    }

    /// Forgets everything recorded.
    func reset() {
        state.withLock { state in
            state.entries = []
            state.slots = [:]
            state.dropped = 0
            state.started = Clock.wallSeconds()
            state.generation += 1
        }
    }

    /// A copy of the totals: statements in order of first execution, executions dropped, and when
    /// recording started (seconds since 1970).
    func snapshot() -> (statements: [RecordedStatement], dropped: Int, started: Double) {
        let (copy, dropped, started) = state.withLock { ($0.entries, $0.dropped, $0.started) }
        let statements = copy.filter { $0.count > 0 }.map { entry in
            RecordedStatement(fingerprint: entry.fingerprint, sql: entry.sql, kind: entry.kind.rawValue, count: entry.count,
                              totalNanoseconds: entry.totalNanoseconds, medianNanoseconds: Self.median(entry.timings),
                              rows: entry.rows, samples: entry.samples.map { $0.map(RecordedValue.init) },
                              firstSeen: Date(timeIntervalSince1970: entry.firstSeen),
                              lastSeen: Date(timeIntervalSince1970: entry.lastSeen))
        }
        return (statements, dropped, started)
    }

    static func median(_ values: [UInt64]) -> UInt64 {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : sorted[middle - 1] / 2 + sorted[middle] / 2 + (sorted[middle - 1] % 2 + sorted[middle] % 2) / 2
    }
}

extension RecordedValue {
    init(_ literal: SQLLiteral) {
        switch literal {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }
}
