/// A literal value read from SQL text or a log: one of SQLite's five storage classes
/// (https://sqlite.org/datatype3.html). The library maps it onto its public `SQLValue`; the recorder
/// writes it as JSON.
package enum SQLLiteral: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value of a literal token's source bytes: `'it''s'` → text `it's`, `x'00ff'` → blob,
    /// `42`, `0x1F`, `1_000` → integer, `3.5e2` → real. `negative` applies a preceding unary minus.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, kind: SQLToken.Kind, negative: Bool = false) -> SQLLiteral {
        switch kind {
        case .string:
            return .text(unquoted(bytes))
        case .blob:
            // x'…': the hex digits between the quotes.
            let end = bytes.count > 0 && bytes[bytes.count - 1] == UInt8(ascii: "'") ? bytes.count - 1 : bytes.count
            return .blob(hexBytes(UnsafeBufferPointer(rebasing: bytes[min(2, end)..<end])))
        case .word where asciiEqual(bytes, "NULL"):
            return .null
        default:
            return number(bytes, negative: negative)
        }
    }

    /// A number literal's value; unreadable digits give 0 (the tokenizer already decided it is a number).
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, negative: Bool) -> SQLLiteral {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count)
        var isReal = false
        for byte in bytes where byte != UInt8(ascii: "_") {
            digits.append(byte)
            if byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") { isReal = true }
        }
        if digits.count > 2, digits[0] == UInt8(ascii: "0"), digits[1] | 0x20 == UInt8(ascii: "x") {
            let hex = String(decoding: digits[2...], as: UTF8.self)
            let value = Int64(bitPattern: UInt64(hex, radix: 16) ?? 0)
            return .integer(negative ? 0 &- value : value)
        }
        let text = String(decoding: digits, as: UTF8.self)
        if !isReal, let integer = Int64(negative ? "-" + text : text) { return .integer(integer) }
        let real = Double(text) ?? 0
        return .real(negative ? -real : real)
    }

    /// A quoted token without its quotes, doubled quotes made single (`'it''s'` → `it's`).
    package static func unquoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count >= 2 else { return String(decoding: bytes, as: UTF8.self) }
        let open = bytes[0]
        let close = open == UInt8(ascii: "[") ? UInt8(ascii: "]") : open
        guard open == UInt8(ascii: "'") || open == UInt8(ascii: "\"") || open == UInt8(ascii: "`") || open == UInt8(ascii: "[") else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let end = bytes[bytes.count - 1] == close ? bytes.count - 1 : bytes.count
        var result: [UInt8] = []
        result.reserveCapacity(end)
        var i = 1
        while i < end {
            let byte = bytes[i]
            result.append(byte)
            if byte == close, close != UInt8(ascii: "]"), i + 1 < end, bytes[i + 1] == close { i += 1 }
            i += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Bytes from hex digits; the first character that is not a hex digit ends the parse.
    package static func hexBytes(_ hex: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var high: UInt8?
        for char in hex {
            let nibble: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = char - UInt8(ascii: "A") + 10
            default: return bytes
            }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    /// True when `bytes` spell `word` ignoring ASCII case.
    package static func asciiEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for i in 0..<bytes.count where bytes[i] | 0x20 != expected[i] | 0x20 { return false }
        return true
    }
}
