/// Text encodings: UTF-8's byte-order mark, and the wider encodings (UTF-16, UTF-32) a file's first bytes
/// show. One detector for every reader: `--workload` refuses a wide file, `--source` and `--model` decode it.
package enum TextEncoding {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// True when `bytes` start with UTF-8's byte-order mark.
    package static func hasBOM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// `bytes` without a leading UTF-8 byte-order mark.
    package static func droppingBOM(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        hasBOM(bytes) ? bytes.slice(3) : bytes
    }

    /// A Unicode encoding with code units wider than a byte.
    package enum Wide: Equatable, Sendable {
        case utf16LittleEndian, utf16BigEndian, utf32LittleEndian, utf32BigEndian

        /// `UTF-16 little-endian`, …
        package var name: String {
            switch self {
            case .utf16LittleEndian: return "UTF-16 little-endian"
            case .utf16BigEndian: return "UTF-16 big-endian"
            case .utf32LittleEndian: return "UTF-32 little-endian"
            case .utf32BigEndian: return "UTF-32 big-endian"
            }
        }

        /// Bytes per code unit: 2 or 4.
        package var unitSize: Int { self == .utf16LittleEndian || self == .utf16BigEndian ? 2 : 4 }

        var isBigEndian: Bool { self == .utf16BigEndian || self == .utf32BigEndian }
    }

    /// The wide encoding of text starting with `bytes`: by its byte-order mark, or, for UTF-16 without one,
    /// ASCII text with a zero byte beside every character in the first 64 bytes; with the length of the
    /// byte-order mark (0 when there is none). Nil for anything else: UTF-8, or bytes that are not text.
    package static func wide(_ bytes: UnsafeBufferPointer<UInt8>) -> (encoding: Wide, byteOrderMark: Int)? {
        let b = Array(bytes.prefix(64))
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xFE, b[2] == 0, b[3] == 0 { return (.utf32LittleEndian, 4) }
        if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0xFE, b[3] == 0xFF { return (.utf32BigEndian, 4) }
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xFE { return (.utf16LittleEndian, 2) }
        if b.count >= 2, b[0] == 0xFE, b[1] == 0xFF { return (.utf16BigEndian, 2) }
        guard b.count >= 4 else { return nil }
        let pairs = b.count / 2
        func isText(_ c: UInt8) -> Bool { (c >= 0x20 && c < 0x7F) || c == 0x0A || c == 0x0D || c == 0x09 }
        if (0..<pairs).allSatisfy({ isText(b[2 * $0]) && b[2 * $0 + 1] == 0 }) { return (.utf16LittleEndian, 0) }
        if (0..<pairs).allSatisfy({ b[2 * $0] == 0 && isText(b[2 * $0 + 1]) }) { return (.utf16BigEndian, 0) }
        return nil
    }

    /// The name of the encoding when the text is UTF-16 or UTF-32 (``wide(_:)``), which the workload
    /// readers do not take; nil for anything else.
    package static func unsupported(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        wide(bytes)?.encoding.name
    }

    /// `bytes` read as `encoding`, the first `byteOrderMark` bytes left out; nil when they are not valid text
    /// in it (a length that is no whole number of code units, a lone surrogate, a code point past U+10FFFF).
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, as encoding: Wide, byteOrderMark: Int) -> String? {
        let body = bytes.slice(byteOrderMark)
        let size = encoding.unitSize
        guard body.count % size == 0 else { return nil }
        func unit(at offset: Int) -> UInt32 {
            var value: UInt32 = 0
            for index in 0..<size {
                let byte = UInt32(body[offset + (encoding.isBigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
        let offsets = stride(from: 0, to: body.count, by: size)
        if size == 2 { return String(validating: offsets.lazy.map { UInt16(truncatingIfNeeded: unit(at: $0)) }, as: UTF16.self) }
        return String(validating: offsets.lazy.map { unit(at: $0) }, as: UTF32.self)
    }

    /// The line ends of the first line in `bytes`: `LF`, `CRLF`, `CR`, or `none`.
    package static func lineEnds(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch LineSplitter.firstBreak(in: bytes) {
        case .lf: return "LF"
        case .crlf: return "CRLF"
        case .cr: return "CR"
        case nil: return "none"
        }
    }
}
