/// What a `check` run may compare with its `--baseline`, statement by statement: only figures measured like
/// for like (the same cost source, checked by ``CheckEvaluator``; the same sample of each table the statement
/// touches), and, when the baseline is the report of an analysis whose advice has since been applied, the
/// time that report predicted for a write its indexes slow.
struct BaselineComparison {
    /// A table sampled differently in the two runs: 1 row in `now` here, 1 in `then` in the baseline (1: whole).
    struct SampleDifference: Equatable {
        var table: String
        var now: Int
        var then: Int

        /// `item measured on 1 row in 3 here and whole in the baseline`.
        var text: String {
            func scope(_ step: Int) -> String { step <= 1 ? "whole" : "on 1 row in \(step)" }
            return "\(table) measured \(scope(now)) here and \(scope(then)) in the baseline"
        }
    }

    /// What the baseline's advice predicts for a statement, now that some of its indexes exist.
    struct Prediction {
        /// The statement's time with the advice in place, as the baseline's final pass measured it.
        var timing: Timing
        /// The applied recommendations that write to the statement's tables or list it among their effects.
        var indexes: [String]
    }

    /// Baseline statements by id.
    let statements: [String: StatementReport]
    /// Tables sampled differently here and in the baseline, by folded name.
    private let differences: [String: SampleDifference]
    /// The baseline's recommendations that the store now has (by name, or by table, key and predicate).
    private let applied: [Recommendation]

    /// Compares `result` with `baseline` (nil: nothing to compare, every lookup is empty).
    init(result: AnalysisResult, baseline: AnalysisResult?) {
        guard let baseline else {
            statements = [:]
            differences = [:]
            applied = []
            return
        }
        statements = Dictionary(baseline.statements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(result.store.sampledTables.map { ($0.table.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        let then = Dictionary(baseline.store.sampledTables.map { ($0.table.sqlFolded, $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [String: SampleDifference] = [:]
        for key in Set(now.keys).union(then.keys) {
            let stepNow = now[key]?.step ?? 1
            let stepThen = then[key]?.step ?? 1
            guard stepNow != stepThen else { continue }
            differences[key] = SampleDifference(table: now[key]?.table ?? then[key]?.table ?? key, now: stepNow, then: stepThen)
        }
        self.differences = differences
        let indexes = result.store.tables.flatMap { table in table.indexes.map { (table: table.name.sqlFolded, index: $0) } }
        applied = baseline.recommendations.filter { recommendation in
            indexes.contains { table, index in
                guard table == recommendation.table.sqlFolded else { return false }
                if index.name.sqlFolded == recommendation.name.sqlFolded { return true }
                return index.partialPredicate == nil && recommendation.partialPredicate == nil
                    && index.columns.map(\.sqlFolded) == recommendation.columns.map(\.name.sqlFolded)
            }
        }
    }

    /// The tables `statement` touches (its own list and those its plan names) that were sampled differently
    /// in the two runs; every difference when it names none (its tables are not known). Empty when its
    /// figures compare like for like.
    func sampleDifferences(for statement: StatementReport) -> [SampleDifference] {
        guard !differences.isEmpty else { return [] }
        let tables = Set((statement.tables + (statement.planBefore?.findings.compactMap(\.table) ?? [])).map(\.sqlFolded))
        if tables.isEmpty { return differences.values.sorted { $0.table < $1.table } }
        return tables.compactMap { differences[$0] }.sorted { $0.table < $1.table }
    }

    /// The baseline's figures for `statement` when they compare like for like, else nil.
    func comparable(_ statement: StatementReport) -> StatementReport? {
        guard sampleDifferences(for: statement).isEmpty else { return nil }
        return statements[statement.id]
    }

    /// For a write: what the baseline's advice predicted once applied — the statement's time after the advice
    /// in the baseline, when an applied recommendation is on a table the statement writes or lists it among
    /// its effects. Nil for a read (the advice is judged on writes only: a read it slowed is a regression), or
    /// when no applied recommendation touches it.
    func prediction(for statement: StatementReport) -> Prediction? {
        guard statement.kind.isWrite, let before = comparable(statement), let after = before.timingAfter else { return nil }
        let tables = Set(statement.tables.map(\.sqlFolded))
        let indexes = applied.filter { recommendation in
            tables.contains(recommendation.table.sqlFolded) || recommendation.effects.contains { $0.statementID == statement.id }
        }.map(\.name)
        return indexes.isEmpty ? nil : Prediction(timing: after, indexes: indexes)
    }
}
