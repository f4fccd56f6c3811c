import Foundation

/// Statements whose plan no single index changes: a join's nested loops (https://sqlite.org/queryplanner-ng.html:
/// `user(email)` alone does not pay while the loop over `membership` is a full scan, nor `membership(user_id)`
/// while `user` is scanned) and an OR across columns (a MULTI-INDEX OR needs an index for every branch). Their
/// candidates enter the selector's pool even when the planner alone would use none of them, and the selector
/// prices them together (``Move/addSet(_:)``).
enum JoinSets {
    /// True when the statement at `position` is worth a joint search: a read over two or more tables whose
    /// current plan still scans a table that is not tiny.
    static func isCandidate(_ profile: StatementProfile) -> Bool {
        guard profile.isUsable, profile.isRead, let shape = profile.shape,
              Set(shape.tables.map(\.table.sqlFolded)).count >= 2 || hasOrAcrossColumns(shape),
              let plan = profile.currentPlan else { return false }
        return fullScans(in: plan) > 0
    }

    /// True when the statement ORs terms on different columns of a table (``TableAccess/orBranches``): like a
    /// join, no single index changes its plan, since SQLite reads every row unless each branch has an index
    /// of its own (a MULTI-INDEX OR, optoverview.html#or_optimizations).
    static func hasOrAcrossColumns(_ shape: StatementShape) -> Bool {
        shape.tables.contains { ($0.orBranches?.count ?? 0) >= 2 }
    }

    /// Full scans of tables that are not tiny, in `plan`: of the table (``PlanFinding/isProblem``) or of a
    /// whole index (`SCAN l USING COVERING INDEX …`, which reads every entry as a table scan reads every row).
    static func fullScans(in plan: QueryPlan) -> Int {
        plan.findings.filter { finding in
            (finding.kind == .fullTableScan && finding.isProblem)
                || (finding.kind == .fullIndexScan && (finding.tableRows ?? Int.max) >= PlanFinding.smallTableRows)
        }.count
    }
}

extension JoinSets {
    /// For an index kept as part of a join's set, built before the one whose build changed the plan.
    struct Need: Sendable {
        /// The set's last-built index, whose measurement carries the join's saving.
        var index: String
        /// The join's label ("S2").
        var statement: String
        /// True when building this index, before the last one, already changed the join's plan.
        var changedPlanAlone: Bool

        /// The note a report shows on the index (worded by the renderers).
        var note: PickNote {
            .keptForJoin(statement: statement, index: index, changedPlanAlone: changedPlanAlone)
        }
    }
}
