import Foundation

/// Reads a binary property list (`bplist00`), keeping what `PropertyListSerialization` on Linux does not
/// hand out: the `UID` objects of an `NSKeyedArchiver` archive (they reference the archive's `$objects`).
///
/// Format (CoreFoundation's `CFBinaryPList.c`, as documented there): the 8-byte header, the objects, an
/// offset table, and a 32-byte trailer (offset-table integer size, object-reference size, object count,
/// top object, offset-table offset). Each object starts with a marker byte: high nibble the type (`0`
/// null/false/true, `1` integer, `2` real, `3` date, `4` data, `5` ASCII string, `6` UTF-16 string, `8` UID,
/// `A` array, `C` set, `D` dictionary), low nibble the size or count (`F`: an integer object follows).
enum BinaryPropertyList {
    indirect enum Value: Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case date(Double)
        case data([UInt8])
        case string(String)
        case uid(Int)
        case array([Value])
        case dictionary([String: Value])
    }

    struct Failure: Error, Equatable {
        var reason: String
    }

    /// The top object of `bytes`.
    /// - Throws: ``Failure`` when `bytes` is not a complete binary property list (a reference out of range,
    ///   a cycle, nesting deeper than 256 levels).
    static func parse(_ bytes: [UInt8]) throws -> Value {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw Failure(reason: "not a binary property list") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = try integer(bytes, at: trailer + 8, size: 8)
        let top = try integer(bytes, at: trailer + 16, size: 8)
        let table = try integer(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < bytes.count,
              top < count, table >= 8, table + count * offsetSize <= trailer else {
            throw Failure(reason: "the trailer does not describe the data")
        }
        var offsets = [Int](repeating: 0, count: count)
        for index in 0..<count {
            offsets[index] = try integer(bytes, at: table + index * offsetSize, size: offsetSize)
            guard offsets[index] >= 8, offsets[index] < table else { throw Failure(reason: "an object offset outside the data") }
        }
        var reader = Reader(bytes: bytes, offsets: offsets, referenceSize: referenceSize, end: table)
        return try reader.object(top, depth: 0)
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) throws -> Int {
        guard offset >= 0, offset + size <= bytes.count else { throw Failure(reason: "an integer past the end of the data") }
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + size)] { value = value << 8 | UInt64(byte) }
        guard value <= UInt64(Int.max) else { throw Failure(reason: "an integer too large") }
        return Int(value)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsets: [Int]
        let referenceSize: Int
        let end: Int
        /// Objects being read now: a reference back to one of them is a cycle.
        var open: Set<Int> = []
        /// Objects read, by index: an object referenced many times is read once (shared, not copied).
        var read: [Int: Value] = [:]

        mutating func object(_ index: Int, depth: Int) throws -> Value {
            guard index >= 0, index < offsets.count else { throw Failure(reason: "a reference to object \(index) of \(offsets.count)") }
            if let known = read[index] { return known }
            guard depth < 256, open.insert(index).inserted else { throw Failure(reason: "objects nested too deep or in a cycle") }
            defer { open.remove(index) }
            let value = try readObject(index, depth: depth)
            read[index] = value
            return value
        }

        private mutating func readObject(_ index: Int, depth: Int) throws -> Value {
            let offset = offsets[index]
            let marker = bytes[offset]
            let type = marker >> 4
            let info = Int(marker & 0x0F)
            switch type {
            case 0x0:
                switch info {
                case 0x8: return .bool(false)
                case 0x9: return .bool(true)
                default: return .null
                }
            case 0x1:
                let size = 1 << info
                guard size <= 16, offset + 1 + size <= end else { throw Failure(reason: "an integer past its object") }
                // 16-byte integers hold 64-bit values in their low half.
                var value: UInt64 = 0
                for byte in bytes[(offset + 1 + max(0, size - 8))..<(offset + 1 + size)] { value = value << 8 | UInt64(byte) }
                return .integer(size >= 8 ? Int64(bitPattern: value) : Int64(value))
            case 0x2, 0x3:
                let size = 1 << info
                guard size == 4 || size == 8, offset + 1 + size <= end else { throw Failure(reason: "a real of \(size) bytes") }
                var bits: UInt64 = 0
                for byte in bytes[(offset + 1)..<(offset + 1 + size)] { bits = bits << 8 | UInt64(byte) }
                let value = size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
                return type == 0x2 ? .real(value) : .date(value)
            case 0x4, 0x5, 0x6:
                let (length, start) = try count(info, after: offset)
                let byteCount = type == 0x6 ? length * 2 : length
                guard start + byteCount <= end else { throw Failure(reason: "a string or data past its object") }
                let slice = Array(bytes[start..<(start + byteCount)])
                if type == 0x4 { return .data(slice) }
                if type == 0x5 { return .string(String(decoding: slice, as: UTF8.self)) }
                var units: [UInt16] = []
                units.reserveCapacity(length)
                for unit in 0..<length { units.append(UInt16(slice[unit * 2]) << 8 | UInt16(slice[unit * 2 + 1])) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let size = info + 1
                guard offset + 1 + size <= end else { throw Failure(reason: "a UID past its object") }
                return .uid(try BinaryPropertyList.integer(bytes, at: offset + 1, size: size))
            case 0xA, 0xC:
                let (length, start) = try count(info, after: offset)
                let references = try self.references(length, at: start)
                return .array(try references.map { try object($0, depth: depth + 1) })
            case 0xD:
                let (length, start) = try count(info, after: offset)
                let keys = try references(length, at: start)
                let values = try references(length, at: start + length * referenceSize)
                var dictionary: [String: Value] = [:]
                for (key, value) in zip(keys, values) {
                    guard case .string(let name) = try object(key, depth: depth + 1) else { throw Failure(reason: "a dictionary key that is not a string") }
                    dictionary[name] = try object(value, depth: depth + 1)
                }
                return .dictionary(dictionary)
            default:
                throw Failure(reason: "an object of the unknown type \(type)")
            }
        }

        /// The count in the low nibble, or in the integer object after the marker when it is 0xF; and where
        /// the object's contents start.
        func count(_ info: Int, after offset: Int) throws -> (Int, Int) {
            guard info == 0xF else { return (info, offset + 1) }
            guard offset + 1 < end, bytes[offset + 1] >> 4 == 0x1 else { throw Failure(reason: "a count that is not an integer") }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            guard size <= 8 else { throw Failure(reason: "a count too large") }
            let value = try BinaryPropertyList.integer(bytes, at: offset + 2, size: size)
            guard value < bytes.count else { throw Failure(reason: "a count larger than the data") }
            return (value, offset + 2 + size)
        }

        func references(_ count: Int, at start: Int) throws -> [Int] {
            guard start + count * referenceSize <= end else { throw Failure(reason: "references past their object") }
            return try (0..<count).map { try BinaryPropertyList.integer(bytes, at: start + $0 * referenceSize, size: referenceSize) }
        }
    }
}
