/// A problem met on the way that did not stop the analysis (``AnalysisResult/warnings``): the fact and its
/// data, without the words, which are the renderers' (``text``, in Render/). In the JSON report each warning
/// is its words, as before; read back from one, a warning is ``other(_:)``.
public enum AnalysisWarning: Sendable, Equatable {
    /// The schema calls these functions or collations (in a CHECK, a generated column, an index), which only
    /// the app's connection registers: the private copy gives them stand-ins that return NULL, and CHECK
    /// constraints are not enforced on it.
    case standInFunctions([String])
    /// `PRAGMA quick_check` reported `findings` (one line, at most 160 characters), but every table and index
    /// of the store at `storePath` reads without error, so the store is analysed (pragma.html#pragma_quick_check).
    case quickCheckFindings(findings: String, storePath: String)
    /// The candidate index `name` could not be built on the snapshot (`error`, SQLite's message).
    case indexNotBuilt(name: String, error: String)
    /// `--time-budget` (`budgetSeconds`, in seconds) ran out with `candidatesLeft` candidates not measured or
    /// not chosen; the statements that could save most were measured first.
    case timeBudgetRanOut(budgetSeconds: Int, candidatesLeft: Int)
    /// What ANALYZE would change was not measured: `--time-budget` (`budgetSeconds`) had run out.
    case statisticsNotMeasured(budgetSeconds: Int)
    /// The statement `statement` (`S3`, or its fingerprint id) could not be planned or timed, was stopped at
    /// the statement timeout as the store is, failed in some of its executions on the snapshot, or was timed on
    /// the app's own keys that match no row, changing none (an UPDATE's or DELETE's): `problem`.
    /// `sql` is its text on one line, at most 80 characters.
    case statementFailed(statement: String, sql: String, problem: String)
    /// Deciding on SQLite's work counters, the selection gave these candidates (`choices`, as the report
    /// names them) to the wall clock, which contradicted the counters beyond its runs' spread; the machine's
    /// one-minute load average was `load` (nil: unknown) on `cores` cores. On a busy machine such a choice can
    /// differ between runs of the same input (hostile round 5, F6; a new user's Core Data store at load 6 on 2
    /// cores: two sets in two runs).
    case decidedByTheClock(choices: [String], load: Double?, cores: Int)
    /// A warning read back from a JSON report, in its words.
    case other(String)

    /// The same warning with every name in it passed through `rename`: for renaming an index throughout a result.
    func renamingNames(_ rename: (String) -> String) -> AnalysisWarning {
        switch self {
        case .standInFunctions(let names): return .standInFunctions(names.map(rename))
        case .quickCheckFindings(let findings, let path): return .quickCheckFindings(findings: rename(findings), storePath: path)
        case .indexNotBuilt(let name, let error): return .indexNotBuilt(name: rename(name), error: rename(error))
        case .timeBudgetRanOut, .statisticsNotMeasured: return self
        case .decidedByTheClock(let choices, let load, let cores): return .decidedByTheClock(choices: choices.map(rename), load: load, cores: cores)
        case .statementFailed(let statement, let sql, let problem):
            return .statementFailed(statement: statement, sql: rename(sql), problem: rename(problem))
        case .other(let text): return .other(rename(text))
        }
    }
}
