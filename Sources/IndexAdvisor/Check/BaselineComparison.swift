/// What a `check` run may compare with its `--baseline`, statement by statement: only figures measured like
/// for like (the same cost source, checked by ``CheckEvaluator``; the same sample of each table the statement
/// touches).
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

    /// Baseline statements by id.
    let statements: [String: StatementReport]
    /// Tables sampled differently here and in the baseline, by folded name.
    private let differences: [String: SampleDifference]

    /// Compares `result` with `baseline` (nil: nothing to compare, every lookup is empty).
    init(result: AnalysisResult, baseline: AnalysisResult?) {
        guard let baseline else {
            statements = [:]
            differences = [:]
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
}
