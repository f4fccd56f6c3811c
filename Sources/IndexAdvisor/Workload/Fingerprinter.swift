import SQLFingerprint

/// A statement made runnable with parameters, and its fingerprint.
package struct NormalizedStatement: Sendable {
    /// The statement with each literal replaced by `?` (original placeholders kept).
    package var parameterizedSQL: String
    /// One entry per parameter of `parameterizedSQL`, in order: the literal it replaced, or nil for a
    /// placeholder that was already in the statement.
    package var parameterValues: [SQLValue?]
    package var fingerprint: Fingerprint
    package var kind: StatementKind
    /// The deepest parenthesis nesting in the statement (``NormalizedSQL/nesting``).
    package var nesting = 0
}

/// The library's view of the one normalisation every workload source goes through (``SQLNormalizer`` in
/// the SQLFingerprint target, shared with the in-process recorder so that a statement has one fingerprint
/// whether it came from a log, a `.sql` file or the recorder).
///
/// Literals (strings, numbers, blobs) and bound parameters become `?`; `IN (…)` lists and multi-row
/// `VALUES` of any length collapse to one shape; white space, comments and the letter case of bare words
/// do not matter; quoting of identifiers does not matter. Integer literals that are column numbers in
/// `ORDER BY`/`GROUP BY` stay, because replacing them would change the statement's meaning.
package enum Fingerprinter {
    package static func normalize(_ sql: String) -> NormalizedStatement {
        NormalizedStatement(SQLNormalizer.normalize(sql))
    }

    /// The kind of statement from its leading keyword (`WITH` looks further for the main verb).
    package static func statementKind(_ list: SQLTokenList) -> StatementKind {
        list.utf8.withUnsafeBufferPointer { StatementKind(SQLStatementKind.of(list.tokens, in: $0)) }
    }

    static func trimmed(_ sql: String) -> String {
        SQLNormalizer.trimmed(sql)
    }
}

extension NormalizedStatement {
    package init(_ normalized: NormalizedSQL) {
        self.init(parameterizedSQL: normalized.parameterizedSQL,
                  parameterValues: normalized.parameterValues.map { $0.map(SQLValue.init) },
                  fingerprint: Fingerprint(id: normalized.fingerprintID, text: normalized.fingerprintText),
                  kind: StatementKind(normalized.kind), nesting: normalized.nesting)
    }
}

extension StatementKind {
    package init(_ kind: SQLStatementKind) {
        self = StatementKind(rawValue: kind.rawValue) ?? .other
    }
}

extension SQLValue {
    package init(_ literal: SQLLiteral) {
        switch literal {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }
}
