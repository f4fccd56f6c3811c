/// The fixed rules that settle a choice between candidates whose timings are equal as far as the
/// measurements can tell (issue 15: picks must not follow the noise).
///
/// Applied in order; the first rule that tells two candidates apart decides:
/// 1. ``withoutEntityColumn``: of an index and the same index after Core Data's `Z_ENT`, the one without,
///    which a model can declare as an `#Index` (issue 15: what the model can declare comes first).
/// 2. ``lessWork``: less work for the statements it serves with it in place, and less added to the table's writes, as
///    SQLite's counters price it (``CounterCost``: VM steps, page lookups, pages a write changes), weighted
///    by frequency (c3ref/c_stmtstatus_counter.html). The counters do not move with the machine's load, so
///    they tell a key that narrows the rows from one that only widens the index (`Z_ENT` in a range key),
///    and a partial index that writes skip from a full one every write must maintain, where the wall clock
///    cannot. Costs within ``workTolerance`` of each other are equal.
/// 3. ``withoutPredicate``: an index without a partial predicate serves any statement on its columns, and a
///    model can declare it.
/// 4. ``fitsMoreTerms``: the plan resolves more WHERE terms through the index (eqp.html `(a=? AND b>?)`).
/// 5. ``moreSelectiveLead``: the leading key column that matches fewer rows per value (of two orders of
///    the same equality columns, the one that narrows first; more statements can share it only if they
///    filter on it, and those already count in rule 2's users).
/// 6. ``fewerColumns``, then 7. ``fewerBytes``, then 8. the candidate's key text, so that the order is total
///    and the same on every run.
struct TieBreak {
    /// Two work figures within this share of the larger are equal (counts of the same plan differ by a few
    /// steps with the values bound).
    static let workTolerance = 0.10

    /// The frequency-weighted cost, in seconds as ``CounterCost`` prices SQLite's counters, of the statements
    /// `candidate` serves with it present, plus what it adds to the `writes`; nil when one of their timings
    /// lacks the counters (or a write has no `current` timing to compare on). A write counts only what the
    /// candidate added to it: its time with the candidate less its time just before
    /// (``MeasuredCandidate/writesBefore``), so that candidates measured against different states of the
    /// snapshot compare on the same base. The write's own cost, the same whichever candidate is built, is
    /// left out: added to both, it diluted a real difference below ``workTolerance`` (task-updates: 2,000
    /// status updates that `(project_id, status)` must move and `(project_id)` skips came out "equal"
    /// beside 3,000 other updates of the table, and the wider index won on the terms it resolves, 1.05×
    /// the workload time of the narrower one).
    static func work(_ candidate: MeasuredCandidate, writes: Set<Int>, current: (Int) -> Timing?, weights: (Int) -> Double) -> Double? {
        func cost(_ timing: Timing?) -> Double? { timing?.counters.map(CounterCost.seconds) }
        var total = 0.0
        for position in Set(candidate.users).union(writes) {
            guard var seconds = cost(candidate.after[position]) else { return nil }
            if !candidate.users.contains(position) {
                guard cost(current(position)) != nil, let before = cost(candidate.writesBefore[position] ?? current(position)) else { return nil }
                seconds -= before
            }
            total += seconds * weights(position)
        }
        return total
    }

    static func withoutPredicate(_ a: MeasuredCandidate, _ b: MeasuredCandidate) -> Bool? {
        decide(a.candidate.partialPredicate == nil, b.candidate.partialPredicate == nil)
    }

    /// Rule 2 over the statements both serve and the writes both were timed with (a write timed with only one
    /// of them cannot be compared; with no `current` timings, the writes are left out).
    static func lessWork(_ a: MeasuredCandidate, _ b: MeasuredCandidate, weights: (Int) -> Double,
                         current: (Int) -> Timing? = { _ in nil }) -> Bool? {
        guard Set(a.users) == Set(b.users) else { return nil }
        let writes = Set(a.writes).intersection(b.writes).filter {
            a.after[$0] != nil && b.after[$0] != nil && current($0) != nil && !a.users.contains($0)
        }
        guard let wa = work(a, writes: writes, current: current, weights: weights),
              let wb = work(b, writes: writes, current: current, weights: weights) else { return nil }
        // Apart by ``workTolerance`` of what they differ in, and by ``wholeTolerance`` of the whole work of
        // those statements with either in place (the writes' own cost included): two orders of the same
        // columns add a few page lookups apart to an insert, which is over 10 % of two tiny additions but
        // nothing beside the writes themselves (the notes benchmark's (slug, folder) and (folder, slug)).
        let whole = writes.reduce(0.0) { $0 + (current($1)?.counters.map(CounterCost.seconds) ?? 0) * weights($1) } + max(abs(wa), abs(wb))
        guard abs(wa - wb) > workTolerance * max(abs(wa), abs(wb)), abs(wa - wb) > wholeTolerance * whole else { return nil }
        return wa < wb
    }

    /// Two work figures must also differ by this share of the statements' whole work (``lessWork``).
    static let wholeTolerance = 0.05

    static func withoutEntityColumn(_ a: MeasuredCandidate, _ b: MeasuredCandidate) -> Bool? {
        func widens(_ x: IndexCandidate, _ y: IndexCandidate) -> Bool {
            x.columns.first?.name?.sqlFolded == "z_ent" && x.partialPredicate == y.partialPredicate
                && Array(x.columns.dropFirst()) == y.columns
        }
        if widens(a.candidate, b.candidate) { return false }
        if widens(b.candidate, a.candidate) { return true }
        return nil
    }

    /// True when `plain` is `entityLed` without its leading `Z_ENT`, serves the same statements, and reads no
    /// more pages than it (within ``workTolerance``) on each of them (`sqlite3_stmt_status` page lookups): then
    /// `Z_ENT` in the key only saves the check of a column in rows read anyway, and the index a model can
    /// declare is the pick, even at a few more VM steps (issue 15).
    static func entityColumnSavesNoPages(plain: MeasuredCandidate, entityLed: MeasuredCandidate) -> Bool {
        guard withoutEntityColumn(plain, entityLed) == true, Set(plain.users).isSuperset(of: entityLed.users) else { return false }
        return entityLed.users.allSatisfy { position in
            guard let mine = plain.after[position]?.pageLookupsPerExecution,
                  let theirs = entityLed.after[position]?.pageLookupsPerExecution else { return false }
            return mine <= theirs * (1 + workTolerance)
        }
    }

    static func fitsMoreTerms(_ a: MeasuredCandidate, _ b: MeasuredCandidate) -> Bool? {
        a.termsUsed == b.termsUsed ? nil : a.termsUsed > b.termsUsed
    }

    static func moreSelectiveLead(_ a: MeasuredCandidate, _ b: MeasuredCandidate) -> Bool? {
        guard let fa = a.leadMatchedFraction, let fb = b.leadMatchedFraction,
              abs(fa - fb) > workTolerance * max(fa, fb) else { return nil }
        return fa < fb
    }

    static func fewerColumns(_ a: MeasuredCandidate, _ b: MeasuredCandidate) -> Bool? {
        a.candidate.columns.count == b.candidate.columns.count ? nil : a.candidate.columns.count < b.candidate.columns.count
    }

    static func fewerBytes(_ a: MeasuredCandidate, _ b: MeasuredCandidate) -> Bool? {
        a.bytes == b.bytes ? nil : a.bytes < b.bytes
    }

    /// True when `a` goes before `b` (a strict order when the work figures are far apart or absent).
    /// `current` gives each write's timing with the picks so far (``SelectionRound/currentWrites``).
    static func prefers(_ a: MeasuredCandidate, _ b: MeasuredCandidate, weights: (Int) -> Double,
                        current: (Int) -> Timing? = { _ in nil }) -> Bool {
        withoutEntityColumn(a, b) ?? lessWork(a, b, weights: weights, current: current) ?? withoutPredicate(a, b) ?? fitsMoreTerms(a, b) ?? moreSelectiveLead(a, b) ?? fewerColumns(a, b)
            ?? fewerBytes(a, b) ?? (a.candidate.key < b.candidate.key)
    }

    private static func decide(_ a: Bool, _ b: Bool) -> Bool? {
        a == b ? nil : a
    }
}
