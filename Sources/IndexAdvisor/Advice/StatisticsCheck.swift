/// What `ANALYZE` statistics would do to the plans of a store that has none.
///
/// Inside a savepoint on the snapshot it runs an approximate `ANALYZE` (`PRAGMA analysis_limit`, as
/// `PRAGMA optimize` does, https://sqlite.org/lang_analyze.html#approx), plans and times every read whose
/// plan changes, and rolls back, so the snapshot keeps planning as the store does. A statement that
/// statistics alone fix, using the indexes the store already has, is advised `PRAGMA optimize` rather than
/// a new index — except in a Core Data or SwiftData store, where the app cannot simply run it (Core Data has
/// `NSSQLiteAnalyzeOption`; SwiftData has no such option), so index candidates stay open there.
struct StatisticsCheck {
    let snapshot: StoreSnapshot
    let schema: Schema
    let timer: StatementTimer

    func run(profiles: [StatementProfile]) -> [QueryAdvice] {
        guard !schema.hasStatistics else { return [] }
        let connection = snapshot.connection
        var advice: [QueryAdvice] = []
        do {
            try connection.execute("SAVEPOINT indexadvisor_statistics")
            defer {
                _ = try? connection.execute("ROLLBACK TO indexadvisor_statistics")
                _ = try? connection.execute("RELEASE indexadvisor_statistics")
            }
            try connection.execute("PRAGMA analysis_limit = 2000; ANALYZE")
            let planner = QueryPlanner(connection: connection, schema: schema)
            for profile in profiles where profile.isUsable && profile.isRead {
                guard let before = profile.planBefore, let timingBefore = profile.timingBefore,
                      let with = try? planner.plan(for: profile.planSQL, bindings: profile.planBindings),
                      with.tree != before.tree,
                      let timing = try? timer.time(profile.executions, isWrite: false) else { continue }
                let better = timingBefore.isSlower(than: timing)
                let worse = timing.isSlower(than: timingBefore)
                guard better || worse else { continue }
                let change = "\(Figures.duration(timingBefore.medianSeconds)) → \(Figures.duration(timing.medianSeconds))"
                let planText = Self.difference(before, with)
                let text: String
                if better {
                    let how = schema.coreData == nil
                        ? "Run `PRAGMA optimize` when the app closes its connections (or `ANALYZE` once after bulk loads)"
                        : "In Core Data, open the store with `NSSQLiteAnalyzeOption`; SwiftData has no such option, so an index is the fix there"
                    text = "With ANALYZE statistics SQLite plans it differently (\(planText)) and it takes \(change). \(how)."
                    if !with.hasProblem && schema.coreData == nil { profile.fixedByStatistics = true }
                } else {
                    text = "With ANALYZE statistics SQLite would plan it differently (\(planText)) and it would take \(change): if the app runs ANALYZE or `PRAGMA optimize`, check this statement's plan."
                }
                advice.append(QueryAdvice(kind: .statistics, statementID: profile.statement.fingerprint.id, advice: text,
                                          timing: timingBefore, rewrite: "PRAGMA optimize;", rewriteTiming: timing, rewritePlan: with,
                                          caveat: nil))
            }
        } catch {
            return advice
        }
        snapshot.checkpoint()
        return advice
    }

    /// "without statistics SCAN t, with them SEARCH t USING INDEX i (a=?)": the rows that matter, or every
    /// row when those are the same in both plans (the difference is then in a subquery, an order or a
    /// temp B-tree), so the two never read alike.
    static func difference(_ before: QueryPlan, _ with: QueryPlan) -> String {
        var (without, withThem) = (summary(before), summary(with))
        if without == withThem {
            (without, withThem) = (before.steps.map(\.detail).joined(separator: "; "), with.steps.map(\.detail).joined(separator: "; "))
        }
        return "without statistics \(without), with them \(withThem)"
    }

    /// The plan's rows that matter, e.g. `SCAN t` or `SEARCH t USING INDEX i (a=?)`, joined by "; ".
    static func summary(_ plan: QueryPlan) -> String {
        let rows = plan.findings.filter { $0.kind != .other && $0.kind != .subquery }.map(\.detail)
        return rows.isEmpty ? "(no table read)" : rows.joined(separator: "; ")
    }
}
