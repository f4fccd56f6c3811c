import Foundation

/// 10^0 … 10^15, each exactly representable as a double.
private let exactPowersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/// Byte-level text helpers for the streaming workload readers: no `String` or `Character` work per line.
extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes from `start` to `end` (clamped).
    @inline(__always)
    func slice(_ start: Int, _ end: Int? = nil) -> UnsafeBufferPointer<UInt8> {
        let upper = Swift.min(end ?? count, count)
        let lower = Swift.min(Swift.max(0, start), upper)
        guard let base = baseAddress else { return self }
        return UnsafeBufferPointer(start: base + lower, count: upper - lower)
    }

    /// The offset of the first occurrence of `needle` at or after `from`.
    func firstIndex(of needle: StaticString, from: Int = 0) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard length > 0, let base = baseAddress, count - from >= length, from >= 0 else { return nil }
        let first = needle.utf8Start[0]
        var position = from
        let last = count - length
        while position <= last {
            guard let found = memchr(base + position, Int32(first), last - position + 1) else { return nil }
            let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + index, needle.utf8Start, length) == 0 { return index }
            position = index + 1
        }
        return nil
    }

    /// The offset of the last occurrence of `needle`.
    func lastIndex(of needle: StaticString) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard length > 0, let base = baseAddress, count >= length else { return nil }
        var position = count - length
        while position >= 0 {
            if base[position] == needle.utf8Start[0], memcmp(base + position, needle.utf8Start, length) == 0 { return position }
            position -= 1
        }
        return nil
    }

    /// True when the bytes at `offset` spell `prefix`.
    @inline(__always)
    func hasPrefix(_ prefix: StaticString, at offset: Int = 0) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard let base = baseAddress, offset >= 0, count - offset >= length else { return false }
        return memcmp(base + offset, prefix.utf8Start, length) == 0
    }

    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = count
        while start < end, self[start] == 0x20 || self[start] == 0x09 { start += 1 }
        while end > start, self[end - 1] == 0x20 || self[end - 1] == 0x09 { end -= 1 }
        return slice(start, end)
    }

    /// True when it holds one of `needle`.
    func contains(byte needle: UInt8) -> Bool {
        guard let base = baseAddress, count > 0 else { return false }
        return memchr(base, Int32(needle), count) != nil
    }

    /// The decimal integer at `offset` (digits only), if there is one and it fits.
    func integer(at offset: Int) -> Int? {
        var value = 0
        var i = offset
        while i < count, self[i] >= 0x30, self[i] <= 0x39 {
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(Int(self[i] - 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
            i += 1
        }
        return i > offset ? value : nil
    }

    /// The decimal number (`0.0123`, `1e-4`) at `offset`, if there is one.
    func decimal(at offset: Int) -> Double? {
        var end = offset
        while end < count, end - offset < 40 {
            let c = self[end]
            guard (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") else { break }
            end += 1
        }
        guard end > offset else { return nil }
        // Fast path for plain decimals such as `0.0123` (Core Data's durations): at most 15 digits and
        // no exponent, the value is digits ÷ 10^k, both exact doubles, so the one division is correctly
        // rounded: the same double strtod gives (Clinger's fast path).
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = -1
        var plain = true
        for i in offset..<end {
            let c = self[i]
            if c >= 0x30, c <= 0x39 {
                // Past 15 digits the fast path does not apply (and 19 would overflow the mantissa).
                guard digits < 15 else { plain = false; break }
                mantissa = mantissa * 10 + Int64(c - 0x30)
                digits += 1
                if fraction >= 0 { fraction += 1 }
            } else if c == UInt8(ascii: "."), fraction < 0 {
                fraction = 0
            } else {
                plain = false
                break
            }
        }
        if plain, digits > 0, digits <= 15 {
            let scale = Swift.max(0, fraction)
            return scale == 0 ? Double(mantissa) : Double(mantissa) / exactPowersOfTen[scale]
        }
        return Double(String(decoding: slice(offset, end), as: UTF8.self))
    }


    /// True when the bytes hold no control characters (other than tab) and are valid UTF-8.
    var isPrintableUTF8: Bool {
        var i = 0
        while i < count {
            let c = self[i]
            if c < 0x80 {
                if (c < 0x20 && c != 0x09) || c == 0x7F { return false }
                i += 1
                continue
            }
            let length: Int
            if c >= 0xC2 && c <= 0xDF { length = 2 } else if c >= 0xE0 && c <= 0xEF { length = 3 } else if c >= 0xF0 && c <= 0xF4 { length = 4 } else { return false }
            guard i + length <= count else { return false }
            for j in 1..<length where self[i + j] & 0xC0 != 0x80 { return false }
            // Overlong and surrogate forms.
            if c == 0xE0 && self[i + 1] < 0xA0 { return false }
            if c == 0xED && self[i + 1] > 0x9F { return false }
            if c == 0xF0 && self[i + 1] < 0x90 { return false }
            if c == 0xF4 && self[i + 1] > 0x8F { return false }
            i += length
        }
        return true
    }
}
