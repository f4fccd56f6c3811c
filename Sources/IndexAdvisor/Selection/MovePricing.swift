extension Selector {
    /// What `move` is worth from ``state``: each statement on the tables it touches is planned under the
    /// configuration it leads to (no build); one whose plan changes is measured there, and a write whose plan
    /// stays is charged the upkeep the move adds or takes away, each index's measured alone and added up
    /// (``upkeep(of:for:)``): index maintenance adds up index by index.
    func price(_ move: Move) throws -> MovePrice {
        let target = move.applied(to: state)
        var price = MovePrice(move: move, target: target)
        let tables = move.tables
        var changing: [(Int, PlanSignature)] = []
        var writes: [Int] = []
        for (s, statement) in oracle.statements.enumerated() where current[s] != nil && !statement.tables.isDisjoint(with: tables) {
            guard let plan = try? oracle.plan(of: s, under: target) else { continue }
            if plan != whatIf[s] {
                changing.append((s, plan))
            } else if statement.isWrite, !statement.writtenTables.isDisjoint(with: tables) {
                writes.append(s)
            }
        }
        // A move that builds what no plan would use can only add upkeep: it is not measured.
        guard !changing.isEmpty || move.takesOut != nil else { return price }
        for (s, _) in changing {
            guard let before = current[s], let after = try? oracle.cost(of: s, under: target) else { continue }
            record(s, before: before, after: after, in: &price)
        }
        for w in writes {
            let statement = oracle.statements[w]
            var delta = 0.0
            for built in move.builds where statement.writtenTables.contains(built.table.sqlFolded) {
                delta += try upkeep(of: .candidate(built), for: w)
            }
            if let out = move.takesOut, statement.writtenTables.contains(out.table) { delta -= try upkeep(of: out, for: w) }
            price.upkeep[w] = delta
            price.upkeepAdded += statement.weight * delta
            price.estimated = true
        }
        return price
    }

    /// Adds statement `s`'s measured change to `price`.
    func record(_ s: Int, before: MeasuredCost, after: MeasuredCost, in price: inout MovePrice) {
        price.changed[s] = (before, after)
        price.planSaving += oracle.statements[s].weight * policy.saving(before: before.timing, after: after.timing)
        if policy.isImprovement(before: before.timing, after: after.timing) { price.faster.append(s) }
        if policy.isSlowdown(before: before.timing, after: after.timing) { price.slower.append(s) }
    }

    /// Seconds per execution that keeping `member` costs write `w`, measured once against the starting
    /// configuration: with it and without it (never negative: an index the write does not use cannot make it faster).
    func upkeep(of member: Member, for w: Int) throws -> Double {
        let key = "\(w)|\(member.ref)"
        if let known = upkeepCache[key] { return known }
        let with: IndexConfiguration, without: IndexConfiguration
        switch member {
        case .candidate(let candidate) where start.contains(candidate):
            (with, without) = (start, start.removing(candidate))
        case .candidate(let candidate):
            (with, without) = (start.adding(candidate), start)
        case .store(let name, _):
            (with, without) = (start.restoring(name), start.dropping(name))
        }
        let a = try oracle.cost(of: w, under: with), b = try oracle.cost(of: w, under: without)
        let value = max(0, -policy.saving(before: b.timing, after: a.timing))
        upkeepCache[key] = value
        return value
    }

    /// `price` measured with the move in place: the writes whose upkeep was estimated are timed there.
    func confirm(_ price: MovePrice) throws -> MovePrice {
        guard price.estimated else { return price }
        var confirmed = price
        confirmed.upkeep = [:]
        confirmed.upkeepAdded = 0
        confirmed.estimated = false
        for w in price.upkeep.keys.sorted() {
            guard let before = current[w], let after = try? oracle.cost(of: w, under: price.target) else { continue }
            let added = -policy.saving(before: before.timing, after: after.timing)
            confirmed.upkeep[w] = added
            confirmed.upkeepAdded += oracle.statements[w].weight * added
            confirmed.changed[w] = (before, after)
        }
        return confirmed
    }
}
