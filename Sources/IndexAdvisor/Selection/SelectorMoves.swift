extension Selector {
    /// Every move from ``state``: each candidate not built; each pair of candidates on two tables of a join
    /// that neither changes alone and both together do; each index some plan uses, replaced by a candidate on
    /// its table that every statement it serves would use instead; each pick and removable store index taken out.
    func moves() -> [Move] {
        var moves: [Move] = pool.filter { !state.contains($0) }.map(Move.add)
        moves += pairs()
        moves += replacements()
        moves += members().map(Move.remove)
        var seen = Set<IndexConfiguration>()
        return moves.filter { seen.insert($0.applied(to: state)).inserted && $0.applied(to: state) != state }
    }

    /// The indexes in ``state`` that may be taken out: picks (not fixed) and the store's removable ones.
    func members() -> [Member] {
        state.added.filter { !fixed.contains($0.key) && !start.contains($0) }.map(Member.candidate)
            + removableStore.filter { member in
                if case .store(let name, _) = member { return !state.isDropped(name) }
                return false
            }
    }

    /// Sets that only pay together, for a statement whose plan still scans: the candidates on its tables its
    /// plan uses when every one of them is built, when none of them alone gives it that plan (SQLite keeps a
    /// join's driving scan until both the lookup and the join column are indexed, and an OR across columns
    /// until each branch has an index: optoverview.html#or_optimizations); and pairs of such candidates.
    func pairs() -> [Move] {
        var found: [Move] = []
        for (s, statement) in oracle.statements.enumerated() where statement.weight > 0 {
            guard let now = whatIf[s], now.problems > 0 else { continue }
            let own = pool.filter { !state.contains($0) && statement.tables.contains($0.table.sqlFolded) }
            guard own.count >= 2 else { continue }
            let alone = own.filter { (try? oracle.plan(of: s, under: state.adding($0))) == now }
            if let all = try? oracle.plan(of: s, under: own.reduce(state) { $0.adding($1) }), all != now {
                let used = own.filter { all.uses.contains(.candidate($0.key)) }
                if used.count >= 2, used.allSatisfy({ (try? oracle.plan(of: s, under: state.adding($0))) != all }) { found.append(.addSet(used)) }
            }
            var count = 0
            for (i, a) in alone.enumerated() {
                for b in alone[(i + 1)...] where count < policy.maxPairsPerStatement {
                    if let both = try? oracle.plan(of: s, under: state.adding(a).adding(b)), both != now {
                        found.append(.addSet([a, b]))
                        count += 1
                    }
                }
            }
        }
        return found
    }

    /// Replacements: an index some plan uses now, and a candidate on its table that every statement it
    /// serves would use in its place.
    func replacements() -> [Move] {
        var found: [Move] = []
        for member in members() {
            let users = whatIf.filter { $0.value.uses.contains(member.ref) }.map(\.key)
            guard !users.isEmpty else { continue }
            let without = Move.remove(member).applied(to: state)
            var count = 0
            for candidate in pool where count < policy.maxReplacementsPerIndex
                && candidate.table.sqlFolded == member.table && !state.contains(candidate) {
                let serves = users.allSatisfy { s in
                    (try? oracle.plan(of: s, under: without.adding(candidate)))?.uses.contains(.candidate(candidate.key)) ?? false
                }
                if serves {
                    found.append(.replace(member, by: candidate))
                    count += 1
                }
            }
        }
        return found
    }
}
