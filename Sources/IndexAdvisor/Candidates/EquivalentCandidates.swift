import Foundation

/// Candidates that the what-if planner gives the same plans (issue 18): only one of them is built.
///
/// Two candidates on one table are equivalent here when every statement either would use gets the same
/// query plan from both (eqp.html: the same steps, the same terms resolved through the index, the same
/// temp B-trees, covering or not), once the index's name is set aside and the terms of a search are read
/// as a set: `(ZFOLDERID=? AND ZISARCHIVED=?)` from `(folder, archived)` and from `(archived, folder)`
/// are the same search. Equal plans do the same work for those statements, so building both would
/// measure one difference twice; what still tells them apart does not need a build: the narrower index
/// (fewer key columns: less to maintain on every write), then the more selective leading column, then the
/// candidate's key. Partial and expression indexes only match their own form, and a key with a descending
/// column only its own directions: the plan text does not say which way an index is read, and reading
/// forwards and backwards cost differently (lang_createindex.html), so both are measured.
enum EquivalentCandidates {
    /// The plan `plan` with the index `name` named `•` and each parenthesised term list sorted: what
    /// equivalence compares.
    static func signature(of plan: QueryPlan, index name: String) -> String {
        plan.steps.map { step in
            var detail = step.detail.replacingOccurrences(of: name, with: "•")
            if let open = detail.lastIndex(of: "("), detail.hasSuffix(")") {
                let terms = detail[detail.index(after: open)..<detail.index(before: detail.endIndex)]
                    .components(separatedBy: " AND ").sorted().joined(separator: " AND ")
                detail = String(detail[..<open]) + "(" + terms + ")"
            }
            return "\(step.parent)>\(detail)"
        }.joined(separator: "|")
    }

    /// The set of equal plans `candidate` belongs to, given each user's plan signature (profile position →
    /// ``signature(of:index:)``): its table, its form (partial predicate, expression columns) and the plans.
    static func groupKey(_ candidate: IndexCandidate, plans: [Int: String]) -> String {
        let expressions = candidate.columns.contains { $0.name == nil } ? "expression" : ""
        let directions = candidate.columns.contains(where: \.isDescending) ? candidate.columns.map { $0.isDescending ? "-" : "+" }.joined() : ""
        let signature = plans.keys.sorted().map { "\($0):" + plans[$0]! }.joined(separator: "\n")
        return [candidate.table.sqlFolded, candidate.partialPredicate ?? "", expressions, directions, signature].joined(separator: "\u{1}")
    }

    /// The positions in `candidates` to keep, and for each one left out, the position of the one kept for it.
    /// - Parameters:
    ///   - plans: for each candidate, its users' plan signatures by profile position (equal maps, equal plans).
    ///   - matchedFraction: the share of rows an equality on a column matches (lower is more selective).
    static func choose(_ candidates: [IndexCandidate], plans: [[Int: String]],
                       matchedFraction: (IndexCandidate) -> Double?) -> (kept: [Int], leftOut: [Int: Int]) {
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (position, candidate) in candidates.enumerated() {
            let key = groupKey(candidate, plans: plans[position])
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(position)
        }
        var kept: [Int] = []
        var leftOut: [Int: Int] = [:]
        for key in order {
            let members = groups[key]!
            let best = members.min { a, b in
                let x = candidates[a], y = candidates[b]
                if x.columns.count != y.columns.count { return x.columns.count < y.columns.count }
                let fx = matchedFraction(x) ?? 1, fy = matchedFraction(y) ?? 1
                if fx != fy { return fx < fy }
                return x.key < y.key
            }!
            kept.append(best)
            for other in members where other != best { leftOut[other] = best }
        }
        return (kept.sorted(), leftOut)
    }
}
