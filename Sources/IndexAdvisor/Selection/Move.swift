/// An index the selector may take out again: one of its own picks, or one of the store's.
package enum Member: Hashable, Sendable {
    case candidate(IndexCandidate)
    /// A store index by folded name, with its table (folded).
    case store(name: String, table: String)

    package var table: String {
        switch self {
        case .candidate(let candidate): return candidate.table.sqlFolded
        case .store(_, let table): return table
        }
    }

    package var ref: IndexRef {
        switch self {
        case .candidate(let candidate): return .candidate(candidate.key)
        case .store(let name, _): return .store(name)
        }
    }
}

/// One step of the selector's local search (DESIGN-selection.md): from a configuration to a neighbour.
package enum Move: Hashable, Sendable, CustomStringConvertible {
    /// Build a candidate.
    case add(IndexCandidate)
    /// Build candidates that only pay together: a join (or an OR across columns, a MULTI-INDEX OR) whose
    /// plan changes with all of them and with none alone.
    case addSet([IndexCandidate])
    /// Take out an index (a pick or the store's) and build a wider or reordered one in its place.
    case replace(Member, by: IndexCandidate)
    /// Take out an index: an earlier pick, or a store index that backs no UNIQUE constraint.
    case remove(Member)

    /// The configuration after the move.
    package func applied(to configuration: IndexConfiguration) -> IndexConfiguration {
        switch self {
        case .add(let candidate): return configuration.adding(candidate)
        case .addSet(let set): return set.reduce(configuration) { $0.adding($1) }
        case .replace(.candidate(let old), let candidate): return configuration.replacing(old, with: candidate)
        case .replace(let member, let candidate): return Move.remove(member).applied(to: configuration).adding(candidate)
        case .remove(.candidate(let candidate)): return configuration.removing(candidate)
        case .remove(.store(let name, _)): return configuration.dropping(name)
        }
    }

    /// The candidates the move builds.
    package var builds: [IndexCandidate] {
        switch self {
        case .add(let c): return [c]
        case .addSet(let set): return set
        case .replace(_, let c): return [c]
        case .remove: return []
        }
    }

    /// The index the move takes out, if any.
    package var takesOut: Member? {
        switch self {
        case .replace(let member, _), .remove(let member): return member
        default: return nil
        }
    }

    /// Tables (folded) whose indexes change.
    package var tables: Set<String> {
        Set(builds.map { $0.table.sqlFolded } + (takesOut.map { [$0.table] } ?? []))
    }

    package var description: String {
        func name(_ c: IndexCandidate) -> String {
            c.table + "(" + c.columns.map { $0.displayName + ($0.isDescending ? " DESC" : "") }.joined(separator: ", ") + ")"
                + (c.partialPredicate.map { " WHERE " + $0 } ?? "")
        }
        func member(_ m: Member) -> String {
            switch m {
            case .candidate(let c): return name(c)
            case .store(let n, _): return n
            }
        }
        switch self {
        case .add(let c): return "add " + name(c)
        case .addSet(let set): return "add " + set.map(name).joined(separator: " with ")
        case .replace(let m, let c): return "replace " + member(m) + " by " + name(c)
        case .remove(let m): return "remove " + member(m)
        }
    }
}
