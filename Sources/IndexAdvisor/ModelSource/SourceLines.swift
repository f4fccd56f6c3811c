/// The lines of a text as ``SwiftLexer`` counts them: split at `\r\n`, `\r` and `\n`, empty ones kept.
/// Kept as where each line starts (8 bytes a line, not a `Substring` of 32) and read from the text on demand.
/// Reads UTF-8 bytes, not Characters: splitting a large file into grapheme clusters is slow.
struct SourceLines: RandomAccessCollection {
    let text: String
    private let starts: [String.Index]

    init(_ text: String) {
        self.text = text
        var starts = [text.utf8.startIndex]
        let bytes = text.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else { continue }
            if byte == UInt8(ascii: "\r"), index != bytes.endIndex, bytes[index] == UInt8(ascii: "\n") { index = bytes.index(after: index) }
            starts.append(index)
        }
        self.starts = starts
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count }

    /// The line at `position` (0-based), without its line end.
    subscript(position: Int) -> Substring {
        let bytes = text.utf8
        var end = starts[position]
        while end != bytes.endIndex, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end = bytes.index(after: end) }
        return text[starts[position]..<end]
    }
}
