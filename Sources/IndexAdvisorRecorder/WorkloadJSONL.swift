import Foundation

/// Writes the JSON Lines workload format (docs/workload-jsonl.md): one JSON object per line, a header
/// first, then one statement record per fingerprint. Keys always come in the same order.
enum WorkloadJSONL {
    static let formatName = "indexadvisor-workload"
    static let version = 1

    static func encode(_ statements: [RecordedStatement], dropped: Int, started: Date, written: Date, sqliteVersion: String,
                       foreignKeys: Bool? = nil) -> String {
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var out = "{\"type\":\"header\",\"format\":\"\(formatName)\",\"version\":\(version),\"source\":\"IndexAdvisorRecorder\""
        out += ",\"sqlite\":\(string(sqliteVersion)),\"started\":\"\(dates.string(from: started))\",\"written\":\"\(dates.string(from: written))\""
        out += ",\"statements\":\(statements.count),\"dropped_executions\":\(dropped)"
        out += (foreignKeys.map { ",\"foreign_keys\":\($0)" } ?? "") + "}\n"
        for statement in statements {
            out += "{\"type\":\"statement\",\"fingerprint\":\(string(statement.fingerprint)),\"kind\":\(string(statement.kind))"
            out += ",\"sql\":\(string(statement.sql)),\"count\":\(statement.count),\"total_ns\":\(statement.totalNanoseconds)"
            out += ",\"median_ns\":\(statement.medianNanoseconds),\"rows\":\(statement.rows),\"samples\":["
            out += statement.samples.map { "[" + $0.map(value).joined(separator: ",") + "]" }.joined(separator: ",")
            out += "],\"first_seen\":\"\(dates.string(from: statement.firstSeen))\",\"last_seen\":\"\(dates.string(from: statement.lastSeen))\"}\n"
        }
        return out
    }

    /// A value as JSON: null, a number, a string, `{"real": 3.0}` for a real with an integral value (so
    /// it reads back as a real), `{"blob": "00ff"}` for bytes. Infinities and NaN, which JSON cannot
    /// hold, are written as null.
    static func value(_ value: RecordedValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let integer): return String(integer)
        case .real(let real):
            guard real.isFinite else { return "null" }
            return real.rounded() == real ? "{\"real\":\(real)}" : "\(real)"
        case .text(let text): return string(text)
        case .blob(let bytes):
            let digits: [UInt8] = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = []
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return "{\"blob\":\"" + String(decoding: hex, as: UTF8.self) + "\"}"
        }
    }

    /// `text` as a JSON string (RFC 8259 §7): quote, backslash and control characters escaped.
    static func string(_ text: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + 2)
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7F:
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }
}
