import Foundation

/// Splits a byte stream into lines on `\n` (a `\r` before it is dropped), chunk by chunk, holding at most
/// one partial line between chunks. A line longer than `maxLineBytes` is delivered once, cut to its first
/// `maxLineBytes` bytes and marked as cut, so memory stays bounded whatever the input.
package struct LineSplitter {
    /// The longest line kept whole, in bytes.
    package let maxLineBytes: Int
    private var carry: [UInt8] = []
    private var carryCut = false

    package init(maxLineBytes: Int = 1 << 20) {
        self.maxLineBytes = maxLineBytes
    }

    /// Calls `body` with every line that ends in `chunk` (bytes without the line break, and whether the
    /// line was cut); the unfinished tail is kept for the next chunk.
    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        var start = 0
        let end = chunk.count
        while start < end {
            guard let found = memchr(base + start, 0x0A, end - start) else {
                append(UnsafeBufferPointer(start: base + start, count: end - start))
                return
            }
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if carry.isEmpty && !carryCut {
                let length = newline - start
                if length > maxLineBytes {
                    try body(Self.dropCR(UnsafeBufferPointer(start: base + start, count: maxLineBytes), cut: true), true)
                } else {
                    try body(Self.dropCR(UnsafeBufferPointer(start: base + start, count: length), cut: false), false)
                }
            } else {
                append(UnsafeBufferPointer(start: base + start, count: newline - start))
                let cut = carryCut
                try carry.withUnsafeBufferPointer { try body(Self.dropCR($0, cut: cut), cut) }
                carry.removeAll(keepingCapacity: carry.capacity <= 4 * maxLineBytes)
                carryCut = false
            }
            start = newline + 1
        }
    }

    /// Delivers the last line when the input did not end with a line break (a truncated last line).
    package mutating func finish(_ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        guard !carry.isEmpty || carryCut else { return }
        let cut = carryCut
        try carry.withUnsafeBufferPointer { try body(Self.dropCR($0, cut: cut), cut) }
        carry = []
        carryCut = false
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !carryCut else { return }
        let room = maxLineBytes - carry.count
        if bytes.count > room {
            carry.append(contentsOf: bytes.prefix(room))
            carryCut = true
        } else {
            carry.append(contentsOf: bytes)
        }
    }

    private static func dropCR(_ line: UnsafeBufferPointer<UInt8>, cut: Bool) -> UnsafeBufferPointer<UInt8> {
        guard !cut, let base = line.baseAddress, line.count > 0, line[line.count - 1] == 0x0D else { return line }
        return UnsafeBufferPointer(start: base, count: line.count - 1)
    }
}

/// Reads a file (or a pipe) in chunks; the first chunk can be looked at before reading on, to work out the format.
package final class ChunkedFileReader {
    /// Bytes per read.
    package static let chunkBytes = 4 << 20

    private let descriptor: Int32
    private let path: String
    /// Owned memory, so the chunks handed out stay valid until the next read.
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// Bytes of the first chunk, read by ``peek()`` and not yet handed out.
    private var peeked = 0

    /// Opens `path` for reading.
    /// - Throws: ``WorkloadError`` when it is missing, a directory, or cannot be opened.
    package init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WorkloadError.notFound(path: path)
        }
        if isDirectory.boolValue { throw WorkloadError.notAFile(path: path) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw WorkloadError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        self.descriptor = descriptor
        self.path = path
        buffer = .allocate(capacity: Self.chunkBytes)
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// The first chunk (up to 4 MB; less for a short file), without consuming it.
    package func peek() throws -> UnsafeBufferPointer<UInt8> {
        if peeked == 0 { peeked = try fill(from: 0) }
        return UnsafeBufferPointer(rebasing: buffer[0..<peeked])
    }

    /// Calls `body` with each chunk in order until the end of the file.
    package func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if peeked > 0 {
            let count = peeked
            peeked = 0
            try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
        while true {
            let count = try fill(from: 0)
            if count == 0 { return }
            try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Reads until the buffer is full or the file ends; the number of bytes in the buffer.
    private func fill(from start: Int) throws -> Int {
        var filled = start
        while filled < buffer.count {
            let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0 {
                if errno == EINTR { continue }
                throw WorkloadError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
