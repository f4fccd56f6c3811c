import SQLFingerprint

/// A value bound to a statement's parameter when it is planned: one of SQLite's five storage classes
/// (https://sqlite.org/datatype3.html). Literals work: `[3, "inbox", nil]`.
///
/// Bound values can change a plan: a `LIKE` prefix and a partial index's `WHERE` are decided on the value
/// (https://sqlite.org/optoverview.html#the_like_optimization, https://sqlite.org/partialindex.html).
/// A parameter left unbound is NULL.
public enum SQLiteValue: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }

    init(_ literal: SQLLiteral) {
        switch literal {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }

    /// The value as SQL text, as `sqlite3_expanded_sql` renders it: `3`, `'it''s'`, `x'00ff'`, `NULL`.
    var sqlText: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): return "x'" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "'"
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
