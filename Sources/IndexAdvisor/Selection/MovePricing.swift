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
            guard var before = current[s], var after = try measured(s, target) else { continue }
            if remeasures(s, from: state, to: target, before: before, after: after) {
                after = try oracle.remeasure(s, under: target)
                before = try oracle.remeasure(s, under: state)
            }
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
            price.add(statement.weight * -delta)
            price.estimated = true
        }
        return price
    }

    /// True when read `s`'s change from `from` to `to` is to be timed again: the clock contradicts the counters
    /// (``SelectionPolicy/clockContradicts(before:after:)``), and the two configurations differ only in
    /// candidates. Going between them then builds and drops candidates alone; a store index dropped and made
    /// again is packed anew, and a write's counters (its page splits) would then depend on which timings the
    /// machine's load asked for again (the demo's counters charged an index 321.0 µs or 514.5 µs).
    func remeasures(_ s: Int, from: IndexConfiguration, to: IndexConfiguration, before: MeasuredCost, after: MeasuredCost) -> Bool {
        !oracle.statements[s].isWrite && from.dropped == to.dropped && policy.clockContradicts(before: before.timing, after: after.timing)
    }

    /// Adds statement `s`'s measured change to `price`.
    func record(_ s: Int, before: MeasuredCost, after: MeasuredCost, in price: inout MovePrice) {
        price.changed[s] = (before, after)
        let faster = policy.isImprovement(before: before.timing, after: after.timing, simpler: after.plan.problems < before.plan.problems)
        var saving = oracle.statements[s].weight * policy.saving(before: before.timing, after: after.timing)
        // A saving the policy cannot tell from noise (a few VM steps over the same pages and plan) counts as none.
        if saving > 0, !faster { saving = 0 }
        price.planSaving += saving
        price.add(saving)
        if faster {
            price.faster.append(s)
            price.speedup = max(price.speedup, policy.speedup(before: before.timing, after: after.timing))
        }
        if policy.isSlowdown(before: before.timing, after: after.timing) { price.slower.append(s) }
        if policy.clockVetoes(before: before.timing, after: after.timing) {
            price.slowerByTheClock.append(s)
            let counted = oracle.statements[s].weight * (policy.seconds(before.timing) - policy.seconds(after.timing))
            price.vetoedSaving += max(0, counted - saving)
        }
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
        guard let a = try measured(w, with), let b = try measured(w, without) else { return 0 }
        let value = max(0, policy.upkeep(before: b.timing, after: a.timing))
        upkeepCache[key] = value
        return value
    }

    /// `price` measured again with the move in place by the confirming oracle (the run's full timings): every
    /// statement it changed and every write whose upkeep it estimated, before and after, with the policy's
    /// rule for a clock that contradicts the counters.
    func confirm(_ price: MovePrice) throws -> MovePrice {
        var confirmed = MovePrice(move: price.move, target: price.target)
        for s in Set(price.changed.keys).union(price.upkeep.keys).sorted() {
            guard var before = try measured(s, state, by: confirming), var after = try measured(s, price.target, by: confirming) else { continue }
            // The two sides were timed at different moments (the baseline perhaps minutes before): when the clock
            // contradicts the counters, both are timed again back to back before the clock may decide.
            if remeasures(s, from: state, to: price.target, before: before, after: after) {
                after = try confirming.remeasure(s, under: price.target)
                before = try confirming.remeasure(s, under: state)
            }
            if price.upkeep[s] != nil {
                let added = policy.upkeep(before: before.timing, after: after.timing)
                confirmed.upkeep[s] = added
                confirmed.upkeepAdded += oracle.statements[s].weight * added
                confirmed.add(oracle.statements[s].weight * -added)
                confirmed.changed[s] = (before, after)
            } else {
                record(s, before: before, after: after, in: &confirmed)
            }
        }
        return confirmed
    }
}

extension MovePrice {
    /// Counts a frequency-weighted saving (negative: a loss) into ``gain`` or ``loss``.
    mutating func add(_ saving: Double) {
        if saving >= 0 { gain += saving } else { loss -= saving }
    }
}
