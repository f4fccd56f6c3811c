/// What each recommendation, and each drop, is charged of the change the whole advice makes: the headline's
/// read and write changes split between them, so that they add up to it.
///
/// The change is measured with the whole set in place: each statement's time as the store is
/// (``StatementReport/timingBefore``) and with every recommendation built and every drop made
/// (``StatementReport/timingAfter``), `count × median` each, as the headline sums them. A read's change
/// goes to the recommendations its final plan uses (split by what each saved it when chosen, evenly when
/// neither did), or, using none, to the drops whose index its plan used before. A write's change goes to
/// the recommendations and drops that change the work it does, by the extra work SQLite's counters show
/// each adding to it when it was measured (index upkeep is one B-tree per index: the same work whichever
/// other indexes exist), scaled to the change the clock measured. A change nothing explains (a write whose
/// counters show no index adding work, or one the clock moved the other way: its noise) is ``uncharged``,
/// so that the sum still holds. Issue 42: a headline said writes went up 34 ms beside
/// per-index write costs summing to 90 ms, each measured with only the indexes chosen before it.
public struct FinalCharges: Sendable, Codable, Equatable {
    /// One per recommendation, in the order of ``AnalysisResult/recommendations``.
    public var recommendations: [FinalCharge]
    /// One per existing index dropped (``AnalysisResult/indexesToDrop``), in that order.
    public var drops: [DropCharge]
    /// The change of statements no recommendation or drop explains.
    public var uncharged: FinalCharge

    public init(recommendations: [FinalCharge], drops: [DropCharge], uncharged: FinalCharge) {
        self.recommendations = recommendations
        self.drops = drops
        self.uncharged = uncharged
    }
}

/// What a dropped index is charged: its write time saved is a negative ``FinalCharge/writeSecondsAdded``.
public struct DropCharge: Sendable, Codable, Equatable {
    public var index: String
    public var charge: FinalCharge
}

/// One index's (or drop's) part of the final change, in seconds per workload.
public struct FinalCharge: Sendable, Codable, Equatable {
    /// Each read's part: read time saved (negative: slower).
    public var reads: [ChargedStatement] = []
    /// Each write's part: write time added (negative: faster).
    public var writes: [ChargedStatement] = []

    public init(reads: [ChargedStatement] = [], writes: [ChargedStatement] = []) {
        self.reads = reads
        self.writes = writes
    }

    /// Read time saved, summed over ``reads``.
    public var readSecondsSaved: Double { reads.reduce(0) { $0 + $1.chargedSeconds } }
    /// Write time added, summed over ``writes``.
    public var writeSecondsAdded: Double { writes.reduce(0) { $0 + $1.chargedSeconds } }
    /// The write figure with each write's timings taken at their quartiles, the ones that make it least and
    /// most: its spread.
    public var writeSecondsRange: ClosedRange<Double> {
        let low = writes.reduce(0) { $0 + $1.lowestSeconds }, high = writes.reduce(0) { $0 + $1.highestSeconds }
        return min(low, high)...max(low, high)
    }
    /// The extra write work SQLite's counters show, priced (``CounterCost``), summed; nil when a write's
    /// timings kept no counters.
    public var writeCounterSeconds: Double? {
        writes.reduce(Double?.some(0)) { sum, write in sum.flatMap { sum in write.counterSeconds.map { sum + $0 } } }
    }
}

/// One statement's part of one index's (or drop's) charge.
public struct ChargedStatement: Sendable, Codable, Equatable {
    public var statementID: String
    /// Seconds per workload: read time saved for a read, write time added for a write.
    public var chargedSeconds: Double
    /// The same part with the statement's timings at the quartiles that make it least and most.
    public var lowestSeconds: Double
    public var highestSeconds: Double
    /// A write's part by SQLite's counters alone (the extra work, priced): the same on every run. Nil for a
    /// read, and for a write whose timings kept no counters.
    public var counterSeconds: Double? = nil
}

extension AnalysisResult {
    /// The result with ``finalCharges`` filled from its own statements and measurements.
    public func chargingFinalState() -> AnalysisResult {
        var result = self
        result.finalCharges = FinalChargeLedger(result).charges
        return result
    }
}

/// Splits each analysed statement's final change between the recommendations and drops (``FinalCharges``).
struct FinalChargeLedger {
    let charges: FinalCharges

    init(_ result: AnalysisResult) {
        let recommendations = result.recommendations
        let drops = result.indexesToDrop
        var recommended = recommendations.map { _ in FinalCharge() }
        var dropped = drops.map { _ in FinalCharge() }
        var uncharged = FinalCharge()
        for statement in result.statements where statement.error == nil {
            // The same timing before and after: the advice did not change it (its plan or its writes).
            guard statement.timingAfter != statement.timingBefore else { continue }
            let change = Change(statement)
            if statement.kind.isWrite {
                // Who changes the work this write does, and by how much (count × priced counters, or the clock).
                var parts: [(Party, Double, Bool)] = []
                for (offset, recommendation) in recommendations.enumerated() {
                    guard let effect = recommendation.effects.first(where: { $0.statementID == statement.id }) else { continue }
                    let (work, fromCounters) = Self.work(effect)
                    // Upkeep only adds work; a write whose plan uses the index may do less.
                    parts.append((.recommendation(offset), effect.planAfter == nil ? max(0, work) : work, fromCounters))
                }
                for (offset, drop) in drops.enumerated() {
                    guard let effect = drop.effects.first(where: { $0.statementID == statement.id }) else { continue }
                    let (work, fromCounters) = Self.work(effect)
                    let usedIt = statement.planBefore?.indexesUsed.contains { $0.sqlFolded == drop.index.sqlFolded } ?? false
                    parts.append((.drop(offset), usedIt ? work : min(0, work), fromCounters))
                }
                let total = parts.reduce(0) { $0 + $1.1 }, magnitude = parts.reduce(0) { $0 + abs($1.1) }
                guard magnitude > 0 else {
                    uncharged.writes.append(change.charged(statement.id, share: 1))
                    continue
                }
                // Each party's counted work, scaled by what the clock measured against the counted total, as
                // long as the two agree in direction and the parties do not mostly cancel out (a drop saving
                // about what a new index adds): otherwise each is charged its counted work alone, and what the
                // clock measured beyond that is uncharged (its noise), so that no charge flips its sign.
                let scales = total != 0 && abs(total) >= magnitude / 4
                func scale(_ measured: Double) -> Double? {
                    guard scales else { return nil }
                    let factor = measured / total
                    return factor > 0 ? factor : nil
                }
                let (factor, lowFactor, highFactor) = (scale(change.seconds), scale(change.low), scale(change.high))
                for (party, work, fromCounters) in parts where work != 0 {
                    // Charged its counted work alone, a party's spread is that work: the clock's spread goes with
                    // the rest, uncharged. Scaled, its spread is the clock's quartiles' in either order (a write
                    // timed twice on a busy machine read "adds 20.6 ms (spread 7.66 ms–20.6 ms)" beside a lowest
                    // of 20.60 ms and a highest of 7.66 ms in the JSON).
                    let ends = factor.map { factor in [work * (lowFactor ?? factor), work * (highFactor ?? factor), work * factor] } ?? [work]
                    let charged = ChargedStatement(statementID: statement.id, chargedSeconds: work * (factor ?? 1),
                                                   lowestSeconds: ends.min()!, highestSeconds: ends.max()!,
                                                   counterSeconds: fromCounters ? work : nil)
                    switch party {
                    case .recommendation(let offset): recommended[offset].writes.append(charged)
                    case .drop(let offset): dropped[offset].writes.append(charged)
                    }
                }
                if factor == nil {
                    let rest = ChargedStatement(statementID: statement.id, chargedSeconds: change.seconds - total,
                                                lowestSeconds: change.low - total, highestSeconds: change.high - total)
                    uncharged.writes.append(rest)
                }
            } else {
                let used = Set((statement.planAfter?.indexesUsed ?? []).map(\.sqlFolded))
                let users = recommendations.indices.filter { used.contains(recommendations[$0].name.sqlFolded) }
                if !users.isEmpty {
                    // What each saved this read when it was chosen; evenly when none measured a saving.
                    let savings = users.map { offset -> Double in
                        let effect = recommendations[offset].userEffects.first { $0.statementID == statement.id }
                        return max(0, effect.map { Double($0.count) * ($0.before.medianSeconds - $0.after.medianSeconds) } ?? 0)
                    }
                    let sum = savings.reduce(0, +)
                    for (offset, saving) in zip(users, savings) {
                        let share = sum > 0 ? saving / sum : 1 / Double(users.count)
                        if share > 0 { recommended[offset].reads.append(change.charged(statement.id, share: share)) }
                    }
                    continue
                }
                let usedBefore = Set((statement.planBefore?.indexesUsed ?? []).map(\.sqlFolded))
                let owners = drops.indices.filter { usedBefore.contains(drops[$0].index.sqlFolded) }
                if owners.isEmpty {
                    uncharged.reads.append(change.charged(statement.id, share: 1))
                } else {
                    for offset in owners { dropped[offset].reads.append(change.charged(statement.id, share: 1 / Double(owners.count))) }
                }
            }
        }
        charges = FinalCharges(recommendations: recommended,
                               drops: zip(drops, dropped).map { DropCharge(index: $0.index, charge: $1) },
                               uncharged: uncharged)
    }

    private enum Party {
        case recommendation(Int)
        case drop(Int)
    }

    /// An effect's change of work, `count × (after − before)`, priced by SQLite's counters when both timings
    /// kept them (true), else by their medians (false).
    static func work(_ effect: StatementEffect) -> (Double, Bool) {
        let count = Double(effect.count)
        if let before = effect.before.counters, let after = effect.after.counters {
            return (count * (CounterCost.seconds(after) - CounterCost.seconds(before)), true)
        }
        return (count * (effect.after.medianSeconds - effect.before.medianSeconds), false)
    }

    /// A statement's final change as the headline counts it (a read's saving, a write's added time), and at
    /// the quartiles of its two timings that make it least and most.
    struct Change {
        var seconds: Double
        var low: Double
        var high: Double

        init(_ statement: StatementReport) {
            let count = Double(statement.count)
            let sign = statement.kind.isWrite ? -1.0 : 1.0
            seconds = sign * (statement.weightedSecondsBefore - statement.weightedSecondsAfter)
            guard let before = statement.timingBefore, let after = statement.timingAfter else {
                (low, high) = (seconds, seconds)
                return
            }
            let a = sign * count * (before.p25Seconds - after.p75Seconds), b = sign * count * (before.p75Seconds - after.p25Seconds)
            (low, high) = (min(a, b, seconds), max(a, b, seconds))
        }

        func charged(_ id: String, share: Double) -> ChargedStatement {
            ChargedStatement(statementID: id, chargedSeconds: seconds * share, lowestSeconds: low * share, highestSeconds: high * share)
        }
    }
}
