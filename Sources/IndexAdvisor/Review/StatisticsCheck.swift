/// What `ANALYZE` statistics would do to the whole workload of a store that has none, measured exactly as
/// the advice tells the user to produce them.
///
/// Runs in the final state (the recommended indexes built, misused ones dropped), inside a savepoint on the
/// snapshot that is rolled back: a plain `ANALYZE` — the statement the advice names, with no
/// `analysis_limit`, so the statistics are the ones the user's `ANALYZE` writes on this SQLite version
/// (lang_analyze.html) — then every statement whose plan changes is timed again. Statistics change all
/// plans at once, so the effect is netted over the workload: the advice is given only when the statements
/// made measurably faster save at least `minimumBenefit` seconds more than the ones made measurably slower
/// lose, and it lists both. Statements keep their index candidates: an index chosen first serves its
/// statement already, and only what statistics add on top of the indexes counts here.
///
/// `PRAGMA optimize` is not what is advised: on SQLite 3.46 and later it applies an analysis limit, and
/// before that it analyses only the tables the connection's own queries flagged, so its statistics — and
/// plans — can differ from the ones measured.
struct StatisticsCheck {
    let snapshot: StoreSnapshot
    let schema: Schema
    let timer: StatementTimer

    /// One statement whose plan changes with statistics, timed without and with them.
    struct Change {
        var position: Int
        var planWithout: QueryPlan
        var planWith: QueryPlan
        var without: Timing
        var with: Timing
        /// Frequency-weighted seconds saved (negative: lost); 0 when the difference is inside the noise.
        var weightedSaving: Double
    }

    /// The advice (one entry per statement whose time changes measurably), or none when the workload as a
    /// whole does not gain at least `minimumBenefit` seconds.
    func run(profiles: [StatementProfile], minimumBenefit: Double) -> [QueryAdvice] {
        guard !schema.hasStatistics else { return [] }
        let changes = measure(profiles: profiles)
        let net = changes.reduce(0) { $0 + $1.weightedSaving }
        let faster = changes.filter { $0.weightedSaving > 0 }
        let slower = changes.filter { $0.weightedSaving < 0 }
        guard net >= minimumBenefit, !faster.isEmpty else { return [] }
        func label(_ change: Change) -> String { "S\(change.position + 1)" }
        let slowerStatements = slower.map {
            StatementSlowdown(statement: label($0), beforeSeconds: $0.without.medianSeconds, afterSeconds: $0.with.medianSeconds)
        }
        return changes.filter { $0.weightedSaving != 0 }.map { change in
            let profile = profiles[change.position]
            let plans = Self.summaries(change.planWithout, change.planWith)
            let finding = StatisticsChange(planWithout: plans.without, planWith: plans.with,
                                           secondsWithout: change.without.medianSeconds, secondsWith: change.with.medianSeconds,
                                           isFaster: change.weightedSaving > 0, workloadNetSeconds: net,
                                           fasterStatements: faster.map(label), slowerStatements: slowerStatements,
                                           isCoreData: schema.coreData != nil)
            return QueryAdvice(kind: .statistics, statementID: profile.statement.fingerprint.id, finding: .statistics(finding),
                               timing: change.without, rewrite: "ANALYZE;", rewriteTiming: change.with, rewritePlan: change.planWith)
        }
    }

    /// Every usable statement whose plan changes under `ANALYZE`'s statistics, timed without (its final
    /// timing) and with them; the snapshot is rolled back to planning without statistics afterwards.
    func measure(profiles: [StatementProfile]) -> [Change] {
        let connection = snapshot.connection
        var changes: [Change] = []
        do {
            try connection.execute("SAVEPOINT indexadvisor_statistics")
            defer {
                _ = try? connection.execute("ROLLBACK TO indexadvisor_statistics")
                _ = try? connection.execute("RELEASE indexadvisor_statistics")
                snapshot.checkpoint()
            }
            try connection.execute("ANALYZE")
            let planner = QueryPlanner(connection: connection, schema: schema)
            for (position, profile) in profiles.enumerated() where profile.isUsable {
                guard let without = profile.planAfter ?? profile.planBefore,
                      let timingWithout = profile.timingAfter ?? profile.timingBefore,
                      let with = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings),
                      with.tree != without.tree,
                      let timing = try? timer.time(profile.executions, isWrite: profile.isWrite) else { continue }
                let significant = timingWithout.isSlower(than: timing) || timing.isSlower(than: timingWithout)
                changes.append(Change(position: position, planWithout: without, planWith: with, without: timingWithout, with: timing,
                                      weightedSaving: significant ? (timingWithout.medianSeconds - timing.medianSeconds) * profile.weight : 0))
            }
        } catch {
            return changes
        }
        return changes
    }

    /// The plans without and with statistics as the advice names them (`SCAN t`, `SEARCH t USING INDEX i (a=?)`):
    /// the rows that matter, or every row when those are the same in both plans (the difference is then in a
    /// subquery, an order or a temp B-tree), so the two never read alike.
    static func summaries(_ before: QueryPlan, _ with: QueryPlan) -> (without: String, with: String) {
        let (without, withThem) = (summary(before), summary(with))
        guard without == withThem else { return (without, withThem) }
        return (before.steps.map(\.detail).joined(separator: "; "), with.steps.map(\.detail).joined(separator: "; "))
    }

    /// The plan's rows that matter, e.g. `SCAN t` or `SEARCH t USING INDEX i (a=?)`, joined by "; ".
    static func summary(_ plan: QueryPlan) -> String {
        let rows = plan.findings.filter { $0.kind != .other && $0.kind != .subquery }.map(\.detail)
        return rows.isEmpty ? "(no table read)" : rows.joined(separator: "; ")
    }
}
