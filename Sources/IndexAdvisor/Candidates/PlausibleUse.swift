import Foundation

/// Whether SQLite's planner could use an index for one statement's access to a table at all, read from
/// the statement's shape, before asking the what-if planner (issue 18).
///
/// Asking the what-if planner about every candidate for every statement on its table costs candidates ×
/// statements plans: about 200,000 plans (20 s) for 1,000 distinct statements over 10 tables. The planner can
/// only use an index for an access when (optoverview.html):
/// - a WHERE or join term constrains its leading column (a search, an IN, a range, a LIKE prefix, an
///   OR term);
/// - an ORDER BY or GROUP BY term is on one of its columns (a sort the index delivers, after equalities);
/// - it holds every column the access reads, so that scanning it replaces scanning the table (a covering
///   scan, and `min()`/`max()` of its leading column);
/// - with `sqlite_stat1`, a term constrains a later column and the leading column has few values (a
///   skip-scan, optoverview.html#the_skip_scan_optimization).
/// An expression or partial index is always asked about: its terms are not plain columns.
enum PlausibleUse {
    /// True when `candidate` could serve `access` to `table`; false only when none of the above can hold.
    /// Every index of a rowid table carries the rowid (so `id` of `INTEGER PRIMARY KEY` is always covered);
    /// a `WITHOUT ROWID` table's indexes carry its primary key, which is not read here, so it is always asked.
    static func could(_ candidate: IndexCandidate, serve access: TableAccess, table: Table?, hasStatistics: Bool) -> Bool {
        let keys = candidate.columns.compactMap { $0.name?.sqlFolded }
        guard let table, !table.isWithoutRowid, candidate.partialPredicate == nil, keys.count == candidate.columns.count,
              let lead = keys.first else { return true }
        let constrained = Set(access.constraints.map { $0.column.sqlFolded })
        if constrained.contains(lead) { return true }
        if hasStatistics, !constrained.isDisjoint(with: keys) { return true }
        if access.orderBy.contains(where: { keys.contains($0.column.sqlFolded) }) { return true }
        let carried = Set(keys + ["rowid", "_rowid_", "oid"] + (table.rowidAlias.map { [$0.name.sqlFolded] } ?? []))
        return Set(access.readColumns.map(\.sqlFolded)).isSubset(of: carried)
    }
}
