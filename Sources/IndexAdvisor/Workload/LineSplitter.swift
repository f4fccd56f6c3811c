import Foundation

/// Splits a byte stream into lines, chunk by chunk, holding at most one partial line between chunks. A line
/// longer than `maxLineBytes` is delivered once, cut to its first `maxLineBytes` bytes and marked as cut, so
/// memory stays bounded whatever the input.
///
/// Line ends: `\n`, `\r\n` and a lone `\r` (classic Mac text, some consoles' copies, and a log pasted together
/// from two sources, whose line ends change part-way: a breaking helper's lost its second statement when only
/// the first line's kind of break counted). Each break is found with `memchr`, one search per line for the
/// common `\n`, and one per chunk for a `\r` that is not there.
package struct LineSplitter {
    /// How a line ends.
    package enum Break { case lf, crlf, cr }

    /// The longest line kept whole, in bytes.
    package let maxLineBytes: Int
    private var carry: [UInt8] = []
    private var carryCut = false
    /// The last chunk ended with `\r`: a `\n` first in the next one belongs to it.
    private var pendingLF = false

    package init(maxLineBytes: Int = 1 << 20) {
        self.maxLineBytes = maxLineBytes
    }

    /// How the first line of `bytes` ends, or nil when they hold no line break.
    package static func firstBreak(in bytes: UnsafeBufferPointer<UInt8>) -> Break? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        let lf = memchr(base, 0x0A, bytes.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        let cr = memchr(base, 0x0D, lf ?? bytes.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        if let cr { return lf == cr + 1 ? .crlf : .cr }
        return lf == nil ? nil : .lf
    }

    /// Calls `body` with every line that ends in `chunk` (bytes without the line break, and whether the
    /// line was cut); the unfinished tail is kept for the next chunk.
    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        let count = chunk.count
        /// The position of the first `byte` at or after `from`; `count` when there is none.
        func find(_ byte: Int32, from: Int) -> Int {
            guard from < count, let found = memchr(base + from, byte, count - from) else { return count }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        var start = 0
        if pendingLF {
            pendingLF = false
            if chunk[0] == 0x0A { start = 1 }
        }
        var nextLF = find(0x0A, from: start)
        var nextCR = find(0x0D, from: start)
        while true {
            let end = min(nextLF, nextCR)
            guard end < count else { break }
            try deliver(chunk, start, end, body)
            if end == nextCR {
                if end + 1 == count {
                    pendingLF = true
                    start = count
                } else if chunk[end + 1] == 0x0A {
                    start = end + 2
                    nextLF = find(0x0A, from: start)
                } else {
                    start = end + 1
                }
                nextCR = find(0x0D, from: start)
            } else {
                start = end + 1
                nextLF = find(0x0A, from: start)
            }
        }
        if start < count { append(chunk.slice(start)) }
    }

    /// Hands on the line that ends at `end` (its break) and started at `start` or in the carry.
    @inline(__always)
    private mutating func deliver(_ chunk: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                  _ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        let base = chunk.baseAddress!
        if carry.isEmpty && !carryCut {
            let length = end - start
            if length > maxLineBytes {
                try body(UnsafeBufferPointer(start: base + start, count: maxLineBytes), true)
            } else {
                try body(UnsafeBufferPointer(start: base + start, count: length), false)
            }
        } else {
            append(UnsafeBufferPointer(start: base + start, count: end - start))
            let cut = carryCut
            try carry.withUnsafeBufferPointer { try body($0, cut) }
            carry.removeAll(keepingCapacity: carry.capacity <= 4 * maxLineBytes)
            carryCut = false
        }
    }

    /// Delivers the last line when the input did not end with a line break (a truncated last line).
    package mutating func finish(_ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        guard !carry.isEmpty || carryCut else { return }
        let cut = carryCut
        try carry.withUnsafeBufferPointer { try body($0, cut) }
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

    /// How long a named pipe (FIFO) may go without a writer before reading it is given up, in seconds.
    package static let writerWaitSeconds = 10.0

    /// Opens `path` for reading. A named pipe (`mkfifo`, or a shell's `<(…)`) is opened without blocking
    /// and read once a writer has opened it: opening it the plain way would wait for ever for a writer
    /// that may never come (a breaking helper's FIFO hung `analyze`).
    /// - Throws: ``WorkloadError`` when it is missing, a directory, cannot be opened, or is a named pipe
    ///   that nothing opened for writing within ``writerWaitSeconds``.
    package init(path: String, writerWaitSeconds: Double = ChunkedFileReader.writerWaitSeconds) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WorkloadError.notFound(path: path)
        }
        if isDirectory.boolValue { throw WorkloadError.notAFile(path: path) }
        let isPipe = WorkloadDiscovery.isPipe(path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (isPipe ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw WorkloadError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        self.descriptor = descriptor
        self.path = path
        buffer = .allocate(capacity: Self.chunkBytes)
        if isPipe { peeked = try awaitWriter(seconds: writerWaitSeconds) }
    }

    /// For a pipe opened without blocking: waits until a writer has opened it (a read then fails with
    /// EAGAIN, or returns bytes, which are kept as the start of the first chunk), up to `seconds`, then
    /// makes reads block again. A read that returns 0 before that means no writer yet (pipe(7)).
    /// Returns the bytes read meanwhile, the first chunk's when not 0.
    private func awaitWriter(seconds: Double) throws -> Int {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var filled = 0
        while true {
            let count = read(descriptor, buffer.baseAddress!, buffer.count)
            if count > 0 { filled = count; break }
            if count < 0, errno == EAGAIN { break }
            if count < 0, errno != EINTR { throw WorkloadError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw WorkloadError.unreadable(path: path, reason: "a named pipe that nothing opened for writing within \(String(format: "%g", seconds)) s")
            }
            usleep(20_000)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return filled == 0 ? 0 : try fill(from: filled)
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

    /// True for a regular file, which can be read again from its start (a pipe cannot).
    package var canRewind: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Reads the chunks after the first one, handing each to `body` until it returns false or the file
    /// ends. Returns true when it read any: the first chunk is gone then, ``rewind()`` before reading on.
    package func scanRest(_ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) throws -> Bool {
        if peeked == 0 { peeked = try fill(from: 0) }
        guard peeked == buffer.count else { return false }
        peeked = 0
        while true {
            let count = try fill(from: 0)
            if count == 0 { return true }
            if try !body(UnsafeBufferPointer(rebasing: buffer[0..<count])) { return true }
        }
    }

    /// Goes back to the start of the file.
    package func rewind() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw WorkloadError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        peeked = 0
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
