/// A fast, non-cryptographic 64-bit hash of bytes, for in-memory tables keyed by statement text (the
/// log reader's and the recorder's caches). Not stable across versions; never stored.
package enum ByteHash {
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        }
        h ^= h >> 31
        h &*= 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 32)
    }
}

/// An open-addressing table from byte strings to values, looked up without copying the key. Bounded: when
/// it holds `maxEntries` keys or `maxKeyBytes` key bytes, inserting empties it first (callers use it as
/// a cache, so forgetting is only a cost).
package struct BytesKeyedCache<Value> {
    private var slots: [Int32]
    private var hashes: [UInt64] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private var arena: [UInt8] = []
    private var values: [Value] = []
    package let maxEntries: Int
    package let maxKeyBytes: Int

    package init(maxEntries: Int = 8192, maxKeyBytes: Int = 8 << 20) {
        self.maxEntries = max(1, maxEntries)
        self.maxKeyBytes = maxKeyBytes
        var size = 16
        while size < self.maxEntries * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
    }

    package var count: Int { values.count }

    /// The value stored for `key`, if any.
    package func value(for key: UnsafeRawBufferPointer, hash: UInt64) -> Value? {
        guard let entry = find(key, hash: hash).entry else { return nil }
        return values[entry]
    }

    /// Stores `value` for `key` (replacing an existing one).
    package mutating func insert(_ value: Value, for key: UnsafeRawBufferPointer, hash: UInt64) {
        let found = find(key, hash: hash)
        if let entry = found.entry {
            values[entry] = value
            return
        }
        if values.count >= maxEntries || arena.count + key.count > maxKeyBytes {
            removeAll()
            insert(value, for: key, hash: hash)
            return
        }
        slots[found.slot] = Int32(values.count)
        hashes.append(hash)
        starts.append(arena.count)
        lengths.append(key.count)
        arena.append(contentsOf: key)
        values.append(value)
    }

    package mutating func removeAll() {
        for i in slots.indices { slots[i] = -1 }
        hashes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: arena.capacity <= maxKeyBytes)
        values.removeAll(keepingCapacity: true)
    }

    /// The entry holding `key`, or the empty slot where it would go.
    private func find(_ key: UnsafeRawBufferPointer, hash: UInt64) -> (entry: Int?, slot: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return (nil, slot) }
            if hashes[entry] == hash, lengths[entry] == key.count, equal(entry, key) { return (entry, slot) }
            slot = (slot + 1) & mask
        }
    }

    private func equal(_ entry: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        guard key.count > 0 else { return true }
        return arena.withUnsafeBytes { stored in
            memcmpBytes(stored.baseAddress! + starts[entry], key.baseAddress!, key.count)
        }
    }
}

/// True when the `count` bytes at `a` and `b` are equal.
@inline(__always)
func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var i = 0
    while i + 8 <= count {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
    }
    while i < count {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
