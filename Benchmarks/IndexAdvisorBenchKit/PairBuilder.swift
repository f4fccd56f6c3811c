import CSQLite
import Foundation

/// Builds a pair's store from its `schema.sql` with SQLite and a few deterministic SQL functions of the
/// benchmark's own, so that the data is the same on every machine for a seed and scale:
///
/// - `bench_rows(n)`: `n` scaled by the run's scale (a table of at most 1,000 rows is kept whole);
/// - `bench_rand(i, salt)`: a real in [0, 1), a function of the pair's seed, `i` and `salt` (SplitMix64);
/// - `bench_int(i, salt, low, high)`: an integer uniform in low…high;
/// - `bench_zipf(i, salt, n, s)`: an integer in 1…n drawn with probability ∝ 1 / k^s;
/// - `bench_pick(i, salt, 'a|b|c')` or `'a:90|b:9|c:1'`: one of the options, uniformly or by weight;
/// - `bench_words(i, salt, k)`: k words of a small vocabulary, separated by spaces;
/// - `bench_blob(i, salt, n)`: n bytes (an identifier as Core Data stores a UUID).
package enum PairBuilder {
    /// Creates the store at `url` (replacing one there) and runs `schema` in it, then checkpoints its WAL.
    /// - Throws: ``BenchmarkKitError`` with SQLite's message when a statement fails.
    package static func build(schema: String, at url: URL, seed: UInt64, scale: Double) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        var db: OpaquePointer?
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            throw BenchmarkKitError("cannot create \(url.path)")
        }
        defer { sqlite3_close_v2(db) }
        let context = Unmanaged.passRetained(FunctionContext(seed: seed, scale: scale))
        defer { context.release() }
        let pointer = context.toOpaque()
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(db, "bench_rows", 1, flags, pointer, { c, _, argv in
            let f = FunctionContext.of(c)
            let n = sqlite3_value_int64(argv![0])
            sqlite3_result_int64(c, n <= 1_000 ? n : max(1_000, Int64((Double(n) * f.scale).rounded())))
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "bench_rand", 2, flags, pointer, { c, _, argv in
            sqlite3_result_double(c, FunctionContext.of(c).unit(argv![0], argv![1]))
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "bench_int", 4, flags, pointer, { c, _, argv in
            let low = sqlite3_value_int64(argv![2]), high = sqlite3_value_int64(argv![3])
            let span = UInt64(max(1, high - low + 1))
            sqlite3_result_int64(c, low + Int64(FunctionContext.of(c).mix(argv![0], argv![1]) % span))
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "bench_zipf", 4, flags, pointer, { c, _, argv in
            let f = FunctionContext.of(c)
            sqlite3_result_int64(c, f.zipf(unit: f.unit(argv![0], argv![1]), n: Int(sqlite3_value_int64(argv![2])), s: sqlite3_value_double(argv![3])))
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "bench_pick", 3, flags, pointer, { c, _, argv in
            let f = FunctionContext.of(c)
            let choice = f.pick(unit: f.unit(argv![0], argv![1]), options: String(cString: sqlite3_value_text(argv![2])))
            sqlite3_result_text(c, choice, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "bench_words", 3, flags, pointer, { c, _, argv in
            let f = FunctionContext.of(c)
            let words = f.words(f.mix(argv![0], argv![1]), count: Int(sqlite3_value_int64(argv![2])))
            sqlite3_result_text(c, words, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }, nil, nil, nil)
        sqlite3_create_function_v2(db, "bench_blob", 3, flags, pointer, { c, _, argv in
            let f = FunctionContext.of(c)
            var state = f.mix(argv![0], argv![1])
            let count = Int(max(1, min(64, sqlite3_value_int64(argv![2]))))
            var bytes = [UInt8](repeating: 0, count: count)
            for k in 0..<count {
                if k % 8 == 0 { state = FunctionContext.splitmix(state) }
                bytes[k] = UInt8(truncatingIfNeeded: state >> (UInt64(k % 8) * 8))
            }
            bytes.withUnsafeBytes { sqlite3_result_blob(c, $0.baseAddress, Int32(count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
        }, nil, nil, nil)
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL;\n" + schema + "\n;PRAGMA wal_checkpoint(TRUNCATE);", nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw BenchmarkKitError("schema.sql failed: \(text)")
        }
    }

    /// The functions' state: the seed, the scale and the Zipf tables built so far.
    final class FunctionContext {
        let seed: UInt64
        let scale: Double
        private var zipfTables: [String: [Double]] = [:]

        init(seed: UInt64, scale: Double) {
            self.seed = seed
            self.scale = scale
        }

        static func of(_ context: OpaquePointer?) -> FunctionContext {
            Unmanaged<FunctionContext>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
        }

        static func splitmix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        func mix(_ i: OpaquePointer?, _ salt: OpaquePointer?) -> UInt64 {
            let a = UInt64(bitPattern: sqlite3_value_int64(i)), b = UInt64(bitPattern: sqlite3_value_int64(salt))
            return Self.splitmix(Self.splitmix(seed ^ (b &* 0xD1B5_4A32_D192_ED03)) ^ a)
        }

        func unit(_ i: OpaquePointer?, _ salt: OpaquePointer?) -> Double { Double(mix(i, salt) >> 11) / Double(1 << 53) }

        func zipf(unit: Double, n: Int, s: Double) -> Int64 {
            let key = "\(n)/\(s)"
            let table: [Double]
            if let known = zipfTables[key] {
                table = known
            } else {
                var sum = 0.0
                var built: [Double] = []
                built.reserveCapacity(max(1, n))
                for k in 1...max(1, n) { sum += 1 / pow(Double(k), s); built.append(sum) }
                table = built.map { $0 / sum }
                zipfTables[key] = table
            }
            var low = 0, high = table.count - 1
            while low < high {
                let middle = (low + high) / 2
                if table[middle] < unit { low = middle + 1 } else { high = middle }
            }
            return Int64(low + 1)
        }

        func pick(unit: Double, options: String) -> String {
            let parts = options.split(separator: "|").map { part -> (String, Double) in
                let pieces = part.split(separator: ":", maxSplits: 1)
                if pieces.count == 2, let weight = Double(pieces[1]) { return (String(pieces[0]), weight) }
                return (String(part), 1)
            }
            let total = parts.reduce(0) { $0 + $1.1 }
            var running = 0.0
            for (option, weight) in parts {
                running += weight
                if unit * total < running { return option }
            }
            return parts.last?.0 ?? ""
        }

        static let vocabulary = ["amber", "birch", "cobalt", "delta", "ember", "fjord", "granite", "harbor", "indigo", "juniper",
                                 "kelp", "lumen", "meadow", "nickel", "onyx", "pebble", "quartz", "raven", "sable", "tundra",
                                 "umber", "violet", "willow", "xenon", "yarrow", "zephyr"]

        func words(_ state: UInt64, count: Int) -> String {
            var x = state
            return (0..<max(1, min(count, 64))).map { _ in
                x = Self.splitmix(x)
                return Self.vocabulary[Int(x % UInt64(Self.vocabulary.count))]
            }.joined(separator: " ")
        }
    }
}
