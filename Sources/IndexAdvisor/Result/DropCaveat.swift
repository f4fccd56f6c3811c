/// Why dropping an existing index is not advised (``ExistingIndexFinding/caveats``): what was found, without
/// the words, which are the renderers' (``text``). The JSON report carries the words as `caveat` (several
/// joined with `; `) and the kinds as `caveatKinds`.
public enum DropCaveat: Sendable, Equatable {
    /// It backs a PRIMARY KEY (`primaryKey`) or UNIQUE constraint.
    case enforcesConstraint(primaryKey: Bool)
    /// A UNIQUE index: dropping it drops the uniqueness rule.
    case uniqueRule
    /// Core Data created it for a relationship or an entity hierarchy; the model cannot drop it.
    case ownedByCoreData
    /// A statement of the workload, a view or a trigger names it with `INDEXED BY`: without it, that statement
    /// fails to prepare (lang_indexedby.html).
    case namedByIndexedBy
    /// No statement of the workload used it, and a workload is a sample.
    case workloadIsSample
    /// Redundant, but the statements that use it are measurably slower without it.
    case readsSlowerWithout
    /// Misused, but it serves the child side of a foreign key and no recommended index leads with its column.
    case servesForeignKey
    /// Advised alone, but with the report's other drops made a statement that used it is measurably slower:
    /// the drops were judged together in the final state, and this one is kept.
    case slowerWithOtherDrops
    /// Timing without it failed.
    case notMeasured
    /// A caveat read back from a JSON report: its words and the kinds the report gave.
    case recorded(String, kinds: [String])

    /// Stable, machine-readable names for the JSON report's `caveatKinds`.
    public var kinds: [String] {
        switch self {
        case .enforcesConstraint(let primaryKey): return [primaryKey ? "enforces-primary-key" : "enforces-unique-constraint"]
        case .uniqueRule: return ["unique-rule"]
        case .ownedByCoreData: return ["owned-by-core-data"]
        case .namedByIndexedBy: return ["named-by-indexed-by"]
        case .workloadIsSample: return ["workload-is-sample"]
        case .readsSlowerWithout: return ["reads-slower-without"]
        case .servesForeignKey: return ["serves-foreign-key"]
        case .slowerWithOtherDrops: return ["slower-with-other-drops"]
        case .notMeasured: return ["not-measured"]
        case .recorded(_, let kinds): return kinds
        }
    }
}

extension DropCaveat {
    /// The same caveat with the words of a recorded one passed through `rename` (the others name nothing):
    /// for renaming an index throughout a result.
    func renamingNames(_ rename: (String) -> String) -> DropCaveat {
        if case .recorded(let text, let kinds) = self { return .recorded(rename(text), kinds: kinds) }
        return self
    }
}
