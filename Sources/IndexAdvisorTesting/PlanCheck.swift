import QueryPlanText

/// A plan judged against ``PlanRequirements``: what fails, the indexes that would serve the statement, and
/// the text an assertion records.
public struct PlanCheck: Sendable {
    public var statement: PlannedStatement
    public var requirements: PlanRequirements
    /// Empty when the plan passes.
    public var violations: [PlanViolation]
    /// One index per table a violation reads (see ``IndexSuggestion``); none for ``PlanViolation/Kind/indexNotUsed``.
    public var suggestions: [IndexSuggestion]

    public var passed: Bool { violations.isEmpty }

    /// The violations in one line: `full table scan of note (5,000 rows, over the 999 allowed), temp B-tree for ORDER BY`.
    public var summary: String {
        violations.map(\.description).joined(separator: ", ")
    }

    /// What an assertion records when the plan fails: the statement and its bound values, the plan tree,
    /// what fails, the shape of each table it reads, and the suggested `CREATE INDEX` with why its columns
    /// are in that order. Empty when the plan passes.
    ///
    /// ```
    /// Query plan of: SELECT * FROM note WHERE folder_id = ? ORDER BY updated_at DESC
    /// QUERY PLAN
    /// |--SCAN note
    /// `--USE TEMP B-TREE FOR ORDER BY
    /// Fails: full table scan of note (5,000 rows, over the 999 allowed), temp B-tree for ORDER BY
    /// Shape: note: equality folder_id; range none; sort updated_at DESC
    /// Suggested index: CREATE INDEX IF NOT EXISTS "idx_note_folder_id_updated_at" ON "note" ("folder_id", "updated_at");
    ///   (the equality columns, then the ORDER BY columns; SQLite reads an index backwards for DESC)
    /// ```
    public var failureMessage: String {
        guard !passed else { return "" }
        var lines = ["Query plan of: " + statement.sql]
        if !statement.bindings.isEmpty {
            lines.append("Bound values: " + statement.bindings.map(\.sqlText).joined(separator: ", "))
        }
        lines.append(statement.tree)
        lines.append("Fails: " + summary)
        if statement.shapes.isEmpty {
            lines.append("Shape: " + (statement.shapeNote ?? "no table is read"))
        } else {
            lines.append("Shape: " + statement.shapes.map(\.description).joined(separator: " | "))
        }
        for suggestion in suggestions {
            lines.append("Suggested index: " + suggestion.sql)
            lines.append("  (" + suggestion.reason + ")")
            if let existing = suggestion.existingIndex {
                lines.append("  The index \(existing) has these leading columns and the planner did not use it: run ANALYZE, and check the comparison's collation and the column's type affinity (https://sqlite.org/optoverview.html).")
            }
            if let entity = suggestion.entity {
                lines.append("  On a Core Data or SwiftData store, declare it in the model so that a migration keeps it: #Index<\(entity)> on the properties stored in \(suggestion.columns.map(\.name).joined(separator: ", ")) (a fetch index on \(entity) in Core Data's model editor); `indexadvisor analyze STORE --model PATH` gives the key paths and measures it.")
            }
        }
        let unserved = violations.filter { violation in
            violation.kind != .indexNotUsed && !suggestions.contains { suggestion in
                violation.table.map { PlanRowReader.folded($0) == PlanRowReader.folded(suggestion.table) } ?? suggestion.servesSort
            }
        }
        if !unserved.isEmpty {
            lines.append("No index suggested for: " + unserved.map(\.description).joined(separator: ", ")
                + IndexSuggestion.unservedReason(unserved, in: statement))
        }
        lines.append("Plan rows as EXPLAIN QUERY PLAN prints them: https://sqlite.org/eqp.html")
        return lines.joined(separator: "\n")
    }
}
