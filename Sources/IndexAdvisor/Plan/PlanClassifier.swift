import QueryPlanText

/// Reads `EXPLAIN QUERY PLAN` detail text into ``PlanFinding``s.
///
/// The text is read by the `QueryPlanText` target's `PlanRowReader`, which the IndexAdvisorTesting product
/// shares: the forms of SQLite 3.7 to 3.4x (`SCAN TABLE t AS a` and `SCAN a`, `SEARCH … USING
/// [COVERING|AUTOMATIC [PARTIAL] COVERING] INDEX i (…)`, `USING INTEGER PRIMARY KEY`, `USE TEMP B-TREE FOR …`,
/// `MULTI-INDEX OR`, and `… SUBQUERY n`; https://sqlite.org/eqp.html).
package enum PlanClassifier {
    /// The finding for one detail line; `aliases` maps lower-cased aliases and table names to table names.
    /// `indexNames` are the connection's index names: the longest one the text after `USING INDEX` starts
    /// with wins, so names holding " (" or plan words are read whole.
    package static func finding(for detail: String, aliases: [String: String], indexNames: [String] = []) -> PlanFinding {
        let row = PlanRowReader.row(for: detail, names: aliases, indexNames: indexNames)
        return PlanFinding(kind: row.kind, table: row.table, alias: row.alias, index: row.index,
                           constraints: row.constraints, purpose: row.purpose, detail: detail)
    }
}
