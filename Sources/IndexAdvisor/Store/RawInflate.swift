/// Decompresses raw DEFLATE data (RFC 1951: no zlib or gzip header), the form Apple's `COMPRESSION_ZLIB`
/// writes and Core Data keeps its cached model in (`Z_MODELCACHE.Z_CONTENT`). Foundation on Linux has no
/// decompression API, so this is the format's decoder on its own: stored, fixed-Huffman and
/// dynamic-Huffman blocks, back-references up to 32 KiB.
///
/// - Complexity: O(output), decoding canonical Huffman codes bit by bit.
enum RawInflate {
    struct Failure: Error, Equatable {
        var reason: String
    }

    /// The decompressed bytes of `data`.
    /// - Parameter limit: the most bytes to produce; more is a failure (a small blob cannot make a run use
    ///   unbounded memory).
    /// - Throws: ``Failure`` when `data` is not complete raw DEFLATE data or inflates past `limit`.
    static func inflate(_ data: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
        var reader = BitReader(bytes: data)
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, data.count * 4))
        var isFinal = false
        while !isFinal {
            isFinal = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let length = try reader.bits(16)
                let complement = try reader.bits(16)
                guard length == ~complement & 0xFFFF else { throw Failure(reason: "a stored block's length check fails") }
                guard output.count + length <= limit else { throw Failure(reason: "it inflates past \(limit) bytes") }
                output += try reader.bytes(length)
            case 1:
                try inflateBlock(&reader, &output, literals: Self.fixedLiterals, distances: Self.fixedDistances, limit: limit)
            case 2:
                let (literals, distances) = try dynamicCodes(&reader)
                try inflateBlock(&reader, &output, literals: literals, distances: distances, limit: limit)
            default:
                throw Failure(reason: "a block of the reserved type 3")
            }
        }
        return output
    }

    /// Reads bits least significant first, as DEFLATE packs them.
    struct BitReader {
        let bytes: [UInt8]
        var position = 0
        var buffer: UInt32 = 0
        var count = 0

        mutating func bits(_ needed: Int) throws -> Int {
            while count < needed {
                guard position < bytes.count else { throw Failure(reason: "the data ends inside a block") }
                buffer |= UInt32(bytes[position]) << UInt32(count)
                position += 1
                count += 8
            }
            let value = Int(buffer & ((1 << UInt32(needed)) - 1))
            buffer >>= UInt32(needed)
            count -= needed
            return value
        }

        mutating func alignToByte() {
            buffer = 0
            count = 0
        }

        mutating func bytes(_ length: Int) throws -> ArraySlice<UInt8> {
            guard position + length <= bytes.count else { throw Failure(reason: "the data ends inside a stored block") }
            defer { position += length }
            return bytes[position..<(position + length)]
        }
    }

    /// A canonical Huffman code: how many codes have each length, and the symbols ordered by code.
    struct Code {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        /// The code whose symbol `s` has the bit length `lengths[s]` (0: unused).
        init(lengths: [Int]) throws {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            // More codes of a length than it has room for is no prefix code.
            var room = 1
            for length in 1..<16 {
                room = room * 2 - counts[length]
                guard room >= 0 else { throw Failure(reason: "an over-subscribed Huffman code") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        /// The next symbol: codes of each length are consecutive, so a code of length n is the symbol at its
        /// distance from the first code of that length.
        func decode(_ reader: inout BitReader) throws -> Int {
            var code = 0
            var first = 0
            var index = 0
            for length in 1..<16 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw Failure(reason: "a code that is not in the block's Huffman table")
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                       4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// RFC 1951 §3.2.6: literal/length codes 0–143 have 8 bits, 144–255 9, 256–279 7, 280–287 8; distances 5.
    private static let fixedLiterals = try! Code(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    private static let fixedDistances = try! Code(lengths: [Int](repeating: 5, count: 30))

    /// RFC 1951 §3.2.7: the code lengths, themselves Huffman-coded, then the two codes.
    private static func dynamicCodes(_ reader: inout BitReader) throws -> (Code, Code) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let lengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw Failure(reason: "too many codes in a dynamic block") }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var lengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<lengthCount { lengthLengths[order[index]] = try reader.bits(3) }
        let lengthCode = try Code(lengths: lengthLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&reader)
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Failure(reason: "a repeat with no length before it") }
                lengths += [Int](repeating: previous, count: 3 + (try reader.bits(2)))
            case 17:
                lengths += [Int](repeating: 0, count: 3 + (try reader.bits(3)))
            default:
                lengths += [Int](repeating: 0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw Failure(reason: "code lengths run past their count") }
        guard lengths[256] != 0 else { throw Failure(reason: "a dynamic block without an end-of-block code") }
        return (try Code(lengths: Array(lengths[0..<literalCount])), try Code(lengths: Array(lengths[literalCount...])))
    }

    private static func inflateBlock(_ reader: inout BitReader, _ output: inout [UInt8], literals: Code, distances: Code, limit: Int) throws {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard output.count < limit else { throw Failure(reason: "it inflates past \(limit) bytes") }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBase.count else { throw Failure(reason: "an invalid length code") }
            let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
            let distanceIndex = try distances.decode(&reader)
            guard distanceIndex < distanceBase.count else { throw Failure(reason: "an invalid distance code") }
            let distance = distanceBase[distanceIndex] + (try reader.bits(distanceExtra[distanceIndex]))
            guard distance <= output.count else { throw Failure(reason: "a back-reference before the start of the data") }
            guard output.count + length <= limit else { throw Failure(reason: "it inflates past \(limit) bytes") }
            let start = output.count - distance
            for offset in 0..<length { output.append(output[start + offset]) }
        }
    }
}
