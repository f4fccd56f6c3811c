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
    /// As ``select(weights:heaviness:limit:)``, each group of tuples (`groups`: a key per tuple, their
    /// lengths: an IN list of each length the workload showed) timed on its own: slots in proportion to the
    /// executions each group stands for, at least one each while they last, and each group's tuples
    /// standing for its executions. A group left without a slot (more lengths than `limit`) has its
    /// executions stood for by the timed group of the nearest key. The first occurrence stays first.
    /// Issue 42: of a log's 20 distinct IN lists of 3–20 ids only one length was timed.
    static func select(weights: [Double], heaviness: [Int], limit: Int, groups: [Int]) -> [(position: Int, weight: Double)] {
        guard groups.count == weights.count, Set(groups).count > 1, limit > 0 else {
            return select(weights: weights, heaviness: heaviness, limit: limit)
        }
        var totals: [Int: Double] = [:]
        for (group, weight) in zip(groups, weights) { totals[group, default: 0] += weight }
        // The first occurrence's group first, then the heaviest.
        let others = totals.keys.filter { $0 != groups[0] }.sorted { totals[$0]! != totals[$1]! ? totals[$0]! > totals[$1]! : $0 < $1 }
        let timed = Array(([groups[0]] + others).prefix(limit))
        var standsFor = Dictionary(uniqueKeysWithValues: timed.map { ($0, totals[$0]!) })
        for group in totals.keys where standsFor[group] == nil {
            let nearest = timed.min { (abs($0 - group), $0) < (abs($1 - group), $1) }!
            standsFor[nearest]! += totals[group]!
        }
        // One slot each, the rest by the largest remainder of each group's share of the executions.
        let all = standsFor.values.reduce(0, +)
        var slots = Dictionary(uniqueKeysWithValues: timed.map { ($0, 1) })
        let spare = limit - timed.count
        if spare > 0, all > 0 {
            let exact = timed.map { (group: $0, share: Double(spare) * standsFor[$0]! / all) }
            for entry in exact { slots[entry.group]! += Int(entry.share.rounded(.down)) }
            var left = spare - exact.reduce(0) { $0 + Int($1.share.rounded(.down)) }
            for entry in exact.sorted(by: { ($0.share - $0.share.rounded(.down)) > ($1.share - $1.share.rounded(.down)) }) where left > 0 {
                slots[entry.group]! += 1
                left -= 1
            }
        }
        var lists: [[(position: Int, weight: Double)]] = []
        for group in timed {
            let members = groups.indices.filter { groups[$0] == group }
            let picked = select(weights: members.map { weights[$0] }, heaviness: members.map { heaviness[$0] }, limit: slots[group]!)
            // The group's tuples timed stand for all of its executions (and those of groups left to it).
            let sum = picked.reduce(0) { $0 + $1.weight }
            let scale = sum > 0 ? standsFor[group]! / sum : 1
            lists.append(picked.map { (members[$0.position], $0.weight * scale) })
        }
        // Round robin: the first of every group before the second of any, so that trimming the list for a
        // slow statement still keeps each length.
        var chosen: [(position: Int, weight: Double)] = []
        for rank in 0..<(lists.map(\.count).max() ?? 0) {
            for list in lists where rank < list.count { chosen.append(list[rank]) }
        }
        return chosen
    }

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
