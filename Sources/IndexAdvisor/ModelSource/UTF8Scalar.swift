/// Reads one Unicode scalar from UTF-8 bytes: what the Swift lexer and the predicate format tokenizer both
/// need to step through source text byte by byte without copying it into `Character`s.
enum UTF8Scalar {
    /// The scalar starting at `index` and its length in bytes. The bytes are a `String`'s, so valid UTF-8; a
    /// sequence cut off by the end of the buffer reads as U+FFFD, one byte long.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count else { return ("\u{FFFD}", 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for next in 1..<length { value = value << 6 | (UInt32(bytes[index + next]) & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}
