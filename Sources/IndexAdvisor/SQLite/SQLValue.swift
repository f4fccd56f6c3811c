import SQLFingerprint

/// A value as SQLite stores it: one of its five storage classes (https://sqlite.org/datatype3.html).
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as a SQL literal, e.g. `'it''s'`, `x'00ff'`, `42`, `NULL`.
    public var sqlLiteral: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value):
            if value.isNaN { return "NULL" }
            if value.isInfinite { return value < 0 ? "-9e999" : "9e999" }
            let text = String(value)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .text(let value): return SQLIdentifier.stringLiteral(value)
        case .blob(let bytes):
            return "x'" + bytes.map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined() + "'"
        }
    }

    /// The integer value, when the value is an integer (or a real with an integral value).
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value) where value.rounded() == value && abs(value) < 9e18: return Int64(value)
        default: return nil
        }
    }

    /// The value as a double, when it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The text value, when the value is text.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }
}

extension SQLValue: Codable {
    // Encoded as plain JSON where that is lossless: null, number, string; blobs as {"blob": "hex"}.
    private enum CodingKeys: String, CodingKey { case blob, real }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self) {
            if let hex = try keyed.decodeIfPresent(String.self, forKey: .blob) {
                self = .blob(SQLValue.bytes(fromHex: hex))
                return
            }
            if let real = try keyed.decodeIfPresent(Double.self, forKey: .real) {
                self = .real(real)
                return
            }
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let integer = try? single.decode(Int64.self) { self = .integer(integer) }
        else if let real = try? single.decode(Double.self) { self = .real(real) }
        else { self = .text(try single.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .real(let value):
            // A real with an integral value would read back as an integer: keep its class.
            if value.rounded() == value || !value.isFinite {
                var keyed = encoder.container(keyedBy: CodingKeys.self)
                try keyed.encode(value.isFinite ? value : 0, forKey: .real)
            } else {
                var single = encoder.singleValueContainer()
                try single.encode(value)
            }
        case .text(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .blob(let bytes):
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encode(String(SQLValue.blob(bytes).sqlLiteral.dropFirst(2).dropLast()), forKey: .blob)
        }
    }

    /// Bytes from a hex string; characters that are not hex digits end the parse.
    package static func bytes(fromHex hex: String) -> [UInt8] {
        Array(hex.utf8).withUnsafeBufferPointer { SQLLiteral.hexBytes($0) }
    }
}

extension SQLValue {
    /// True when `a` sorts before `b` under SQLite's ordering with the BINARY collation
    /// (datatype3.html, "Sort Order"): NULL, then numbers by value, then text by bytes, then blobs by bytes.
    package static func orders(_ a: SQLValue, before b: SQLValue) -> Bool {
        func rank(_ value: SQLValue) -> Int {
            switch value {
            case .null: return 0
            case .integer, .real: return 1
            case .text: return 2
            case .blob: return 3
            }
        }
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.text(let x), .text(let y)): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
        case (.blob(let x), .blob(let y)): return x.lexicographicallyPrecedes(y)
        default: return (a.doubleValue ?? 0) < (b.doubleValue ?? 0)
        }
    }
}
