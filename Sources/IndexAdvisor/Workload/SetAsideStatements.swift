import SQLFingerprint

/// A statement of the workload set aside as it was read, before any analysis: one longer than indexadvisor
/// reads of one statement, or one SQLite refuses (longer than its SQLITE_LIMIT_SQL_LENGTH, nested deeper than its
/// SQLITE_LIMIT_EXPR_DEPTH: ``SQLiteLimits``). Counted among the skipped items by its reason like every other, and
/// kept with the executions it stands for: `check` fails a hot one, as it fails a hot statement SQLite cannot
/// prepare (hostile round 7, F2: a hot 21 MB statement was dropped and the check passed).
public struct SetAsideStatement: Sendable, Codable, Equatable {
    /// Occurrences that are one statement count together: the fingerprint of the statement, or for one too long
    /// to read whole, the fingerprint of its first ``excerptBytes`` bytes.
    public var id: String
    /// Where it was first seen, `file:line`.
    public var location: String
    public var reason: String
    /// The executions it stands for (its `-- freq:`, summed over its occurrences).
    public var count: Int
    /// The statement's first bytes, for the lines that name it.
    public var excerpt: String

    /// Bytes of a set-aside statement kept, for its ``excerpt`` and its ``id``.
    static let excerptBytes = 4_096
    /// Distinct set-aside statements kept (memory stays bounded); past it, a new one replaces the one with the
    /// fewest executions when it has more, so the heaviest are the ones kept.
    static let limit = 100

    /// The reason for a statement longer than indexadvisor reads, `bytes` long.
    static func tooLongReason(bytes: Int, keptBytes: Int) -> String {
        if bytes > SQLiteLimits.sqlLength { return overSQLiteLengthReason }
        return "statement longer than \(keptBytes >> 20) MB, the most indexadvisor reads of one statement: it is not checked"
    }

    static var overSQLiteLengthReason: String {
        "statement longer than SQLite's limit of \(Figures.count(SQLiteLimits.sqlLength)) bytes (SQLITE_LIMIT_SQL_LENGTH): SQLite refuses it"
    }

    static var tooDeepReason: String {
        "statement nested deeper than SQLite's expression depth limit of \(Figures.count(SQLiteLimits.expressionDepth)) (SQLITE_LIMIT_EXPR_DEPTH): SQLite refuses it"
    }
}

extension WorkloadDiagnostics {
    /// Counts one occurrence (`weight` executions) of a statement set aside for `reason`, among the statements
    /// read and the items skipped, and keeps it (by `id`) for `check`.
    mutating func setAside(reason: String, id: String, excerpt: @autoclosure () -> String, weight: Int, at location: String) {
        statementsRead += 1
        skip(reason, at: location)
        let weight = max(1, weight)
        if let index = setAside.firstIndex(where: { $0.id == id && $0.reason == reason }) {
            setAside[index].count = setAside[index].count.addingSaturating(weight)
            return
        }
        let statement = SetAsideStatement(id: id, location: location, reason: reason, count: weight, excerpt: excerpt())
        if setAside.count < SetAsideStatement.limit {
            setAside.append(statement)
        } else if let lightest = setAside.indices.min(by: { setAside[$0].count < setAside[$1].count }), setAside[lightest].count < weight {
            setAside[lightest] = statement
        }
    }
}

extension WorkloadBuilder {
    /// Why `normalized` (the statement `text`) is set aside before it is kept, if it is: SQLite would refuse it.
    static func refusal(_ normalized: NormalizedStatement, text: String) -> String? {
        if text.utf8.count > SQLiteLimits.sqlLength { return SetAsideStatement.overSQLiteLengthReason }
        if normalized.nesting > SQLiteLimits.expressionDepth { return SetAsideStatement.tooDeepReason }
        return nil
    }

    /// The first bytes of `text`, cut at a character's start, for a set-aside statement's excerpt.
    static func excerpt(_ text: String) -> String {
        String(decoding: text.utf8.prefix(SetAsideStatement.excerptBytes), as: UTF8.self)
    }
}
