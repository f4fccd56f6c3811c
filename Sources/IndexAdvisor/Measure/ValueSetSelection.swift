/// Chooses which of a statement's observed value sets to time, and what each stands for.
///
/// The first occurrence comes first (its text is the app's statement as first seen, and it is planned);
/// then the heaviest keys (the most rows, reported by the log or counted on the snapshot: where a
/// skewed workload's cost is), then the most frequent; those stand for their own executions. The rest
/// are taken evenly spread and share every execution left, so a heavy key seen once is not weighted as
/// if it were common, and a common light key is not left out.
enum ValueSetSelection {
    /// Positions into the observed tuples, in timing order, with their weights.
    /// - Parameters:
    ///   - weights: executions each observed tuple stands for (``WorkloadStatement/observedBindingWeights``).
    ///   - heaviness: rows each tuple selects (0 when unknown).
    ///   - limit: the most tuples to time.
    static func select(weights: [Double], heaviness: [Int], limit: Int) -> [(position: Int, weight: Double)] {
        let count = weights.count
        guard count > 0 else { return [] }
        guard count > limit else {
            // Everything is timed: each stands for itself; heavy first so that trimming keeps them.
            return HeavyKeys.order(heaviness: heaviness).map { ($0, weights[$0]) }
        }
        var picked = [0]
        func take(_ candidates: [Int], upTo room: Int) {
            var taken = 0
            for position in candidates where taken < room && picked.count < limit && !picked.contains(position) {
                picked.append(position)
                taken += 1
            }
        }
        take(HeavyKeys.order(heaviness: heaviness).dropFirst().filter { heaviness[$0] > 0 }, upTo: max(1, limit / 4))
        take(weights.indices.filter { weights[$0] > 1 }.sorted { weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1 }, upTo: max(1, limit / 4))
        let special = picked.count
        let rest = weights.indices.filter { !picked.contains($0) }
        let room = limit - picked.count
        if room > 0, !rest.isEmpty {
            take(stride(from: 0, to: rest.count, by: max(1, rest.count / room)).map { rest[$0] }, upTo: room)
        }
        let total = weights.reduce(0, +)
        let specialWeight = picked.prefix(special).reduce(0) { $0 + weights[$1] }
        let shared = max(0, total - specialWeight) / Double(max(1, picked.count - special))
        return picked.enumerated().map { index, position in (position, index < special ? weights[position] : shared) }
    }
}
