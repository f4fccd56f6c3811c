/// The distinct parameter-value tuples of one statement over a whole workload, in bounded memory.
///
/// Up to ``trackLimit`` distinct tuples are counted exactly (executions and the most rows reported);
/// once full, a new tuple takes the place of a random tuple seen only once with probability
/// `trackLimit / offered` (reservoir sampling, seeded), so late parts of a long log are represented
/// too, never only its first minutes. Distinct tuples are counted exactly up to ``distinctLimit``.
struct ValueSetTally {
    struct Entry {
        var values: [SQLValue]
        var count: Int
        var rows: Int?
        /// Arrival order (the first occurrence is 0).
        var order: Int
    }

    static let trackLimit = 256
    static let distinctLimit = 4_096

    private var entries: [Entry] = []
    private var indexByValues: [[SQLValue]: Int] = [:]
    private var distinctHashes: Set<Int> = []
    private var offered = 0
    /// Executions offered in all, including those of tuples no longer tracked.
    private var totalWeight = 0

    var distinctSeen: Int { distinctHashes.count }

    mutating func add(_ values: [SQLValue], weight: Int, rows: Int?, random: inout SeededGenerator) {
        offered += 1
        totalWeight = totalWeight.addingSaturating(weight)
        if distinctHashes.count < Self.distinctLimit { distinctHashes.insert(values.hashValue) }
        if let index = indexByValues[values] {
            entries[index].count = entries[index].count.addingSaturating(weight)
            if let rows { entries[index].rows = max(entries[index].rows ?? 0, rows) }
            return
        }
        let entry = Entry(values: values, count: weight, rows: rows, order: offered)
        if entries.count < Self.trackLimit {
            indexByValues[values] = entries.count
            entries.append(entry)
            return
        }
        // Full: replace a random once-seen tuple (never the first occurrence) with probability limit/offered.
        guard Int(random.next() % UInt64(offered)) < Self.trackLimit else { return }
        let start = Int(random.next() % UInt64(entries.count))
        for step in 0..<entries.count {
            let slot = (start + step) % entries.count
            guard entries[slot].count == 1, entries[slot].order != 1 else { continue }
            indexByValues[entries[slot].values] = nil
            entries[slot] = entry
            indexByValues[values] = slot
            return
        }
    }

    /// Every tuple tracked (at most ``trackLimit``), the first occurrence first, each with the executions it
    /// was seen with; executions of tuples no longer tracked are shared evenly among the tuples seen once,
    /// which the reservoir keeps as their stand-ins.
    func tracked() -> [(entry: Entry, weight: Double)] {
        let counted = entries.reduce(0) { $0.addingSaturating($1.count) }
        let once = entries.filter { $0.count == 1 }.count
        let extra = once > 0 ? Double(max(0, totalWeight - counted)) / Double(once) : 0
        return entries.map { ($0, Double($0.count) + ($0.count == 1 ? extra : 0)) }
    }
}
