/// The words of an ``AnalysisWarning``, as the reports list them, the CLI prints them on standard error
/// (`indexadvisor: warning: …`), and the JSON report's `warnings` holds them.
extension AnalysisWarning: Codable, CustomStringConvertible {
    public var text: String {
        switch self {
        case .standInFunctions(let names):
            let one = names.count == 1
            return "the schema calls \(names.joined(separator: ", ")), which only the app registers: the private copy gives \(one ? "it a stand-in" : "them stand-ins") that \(one ? "returns" : "return") NULL and does not enforce CHECK constraints"
        case .quickCheckFindings(let findings, let path):
            return "PRAGMA quick_check reported \"\(findings)\", but every table and index reads without error, so the store is analysed; run `sqlite3 \(StoreError.shellWord(path)) 'PRAGMA integrity_check'` with the app's SQLite to be sure"
        case .indexNotBuilt(let name, let error):
            return "index \(name) could not be built: \(error)"
        case .timeBudgetRanOut(let budget, let left):
            return "the time budget (--time-budget \(budget) s) ran out: \(Figures.counted(left, "candidate")) not measured or not chosen (listed among the rejected candidates); the statements that could save most were measured first"
        case .statisticsNotMeasured(let budget):
            return "what ANALYZE would change was not measured: the time budget (--time-budget \(budget) s) had run out"
        case .statementFailed(let statement, let sql, let problem):
            return "\(statement) (\(sql)) \(problem)"
        case .decidedByTheClock(let choices, let load, let cores):
            let named = choices.prefix(3).joined(separator: ", ") + (choices.count > 3 ? " and \(choices.count - 3) more" : "")
            let busy = load.map { "; the machine's load average was \(String(format: "%.1f", $0)) on \(Figures.counted(cores, "core"))" } ?? ""
            return "\(Figures.counted(choices.count, "choice")) went to the wall clock, which contradicted SQLite's work counters beyond its runs' spread (\(named))\(busy). On a busy machine such a choice can differ between runs of the same input; `--cost counters` decides on the counters alone and gives the same advice every time"
        case .other(let text):
            return text
        }
    }

    /// The warning's words (``text``).
    public var description: String { text }

    /// Read back from a JSON report: the warning in its words.
    public init(from decoder: Decoder) throws {
        self = .other(try decoder.singleValueContainer().decode(String.self))
    }

    /// In a JSON report: the warning in its words.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
