import Foundation
import SQLFingerprint

/// The recorder's totals per fingerprint, shared by every attached connection and guarded by one lock.
/// Bounded: at most `limits.maxStatements` fingerprints (executions of further new ones are counted as
/// dropped), `limits.timingSamples` durations and `limits.valueSamples` value tuples per fingerprint.
final class RecorderAggregate: @unchecked Sendable {
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

    let limits: WorkloadRecorder.Limits
    private let lock = NSLock()
    private var entries: [Entry] = []
    private var slots: [String: Int] = [:]
    private var dropped = 0
    private var random: UInt64 = 0x5EED_1DE7
    private var started = Clock.wallSeconds()
    /// Changes on every reset, so that connections drop the slot numbers they cached (read under the lock).
    private var generation = 0

    init(limits: WorkloadRecorder.Limits) {
        self.limits = limits
    }

    /// The slot of `normalized`'s fingerprint (created on first sight), with the generation it belongs
    /// to; nil slot when the fingerprint cap is reached.
    func slot(for normalized: NormalizedSQL) -> (slot: Int?, generation: Int) {
        lock.locked {
            if let slot = slots[normalized.fingerprintID] { return (slot, generation) }
            guard entries.count < limits.maxStatements else { return (nil, generation) }
            let now = Clock.wallSeconds()
            entries.append(Entry(fingerprint: normalized.fingerprintID, sql: normalized.parameterizedSQL, kind: normalized.kind,
                                 firstSeen: now, lastSeen: now))
            slots[normalized.fingerprintID] = entries.count - 1
            return (entries.count - 1, generation)
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
        return lock.locked {
            guard generation == self.generation, slot < entries.count else { return .stale }
            entries[slot].count &+= 1
            let (total, overflow) = entries[slot].totalNanoseconds.addingReportingOverflow(nanoseconds)
            entries[slot].totalNanoseconds = overflow ? UInt64.max : total
            entries[slot].rows &+= rows
            entries[slot].lastSeen = now
            if entries[slot].count == 1 { entries[slot].firstSeen = now }
            entries[slot].offered &+= 1
            if entries[slot].timings.count < limits.timingSamples {
                entries[slot].timings.append(nanoseconds)
            } else {
                // Algorithm R: keep a uniform sample of all executions.
                let index = Int(nextRandom() % UInt64(entries[slot].offered))
                if index < entries[slot].timings.count { entries[slot].timings[index] = nanoseconds }
            }
            guard entries[slot].samples.count < limits.valueSamples,
                  entries[slot].sampleAttempts < limits.valueSamples * 4 else { return .counted }
            entries[slot].sampleAttempts += 1
            return .countedSampleWanted
        }
    }

    /// Counts an execution of a new fingerprint that the cap kept out.
    func drop() {
        lock.locked { dropped &+= 1 }
    }

    /// Keeps `values` (one per parameter) unless already kept or the slot has enough.
    func addSample(_ values: [SQLLiteral], slot: Int, generation: Int) {
        lock.locked {
            guard generation == self.generation, slot < entries.count,
                  entries[slot].samples.count < limits.valueSamples, !entries[slot].samples.contains(values) else { return }
            entries[slot].samples.append(values)
        }
    }

    /// Forgets everything recorded.
    func reset() {
        lock.locked {
            entries = []
            slots = [:]
            dropped = 0
            started = Clock.wallSeconds()
            generation += 1
        }
    }

    /// A copy of the totals: statements in order of first execution, executions dropped, and when
    /// recording started (seconds since 1970).
    func snapshot() -> (statements: [RecordedStatement], dropped: Int, started: Double) {
        let (copy, dropped, started) = lock.locked { (entries, self.dropped, self.started) }
        let statements = copy.filter { $0.count > 0 }.map { entry in
            RecordedStatement(fingerprint: entry.fingerprint, sql: entry.sql, kind: entry.kind.rawValue, count: entry.count,
                              totalNanoseconds: entry.totalNanoseconds, medianNanoseconds: Self.median(entry.timings),
                              rows: entry.rows, samples: entry.samples.map { $0.map(RecordedValue.init) },
                              firstSeen: Date(timeIntervalSince1970: entry.firstSeen),
                              lastSeen: Date(timeIntervalSince1970: entry.lastSeen))
        }
        return (statements, dropped, started)
    }

    private func nextRandom() -> UInt64 {
        // SplitMix64 (https://prng.di.unimi.it/splitmix64.c).
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
