import Dispatch
import Locking
import Testing

@Suite("LockedValue")
struct LockedValueTests {
    @Test("updates from many threads at once are all kept, and withLock returns what its body returns")
    func concurrentUpdates() {
        let counts = LockedValue<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<5_000 {
                counts.withLock { $0[thread, default: 0] += 1 }
            }
        }
        let (total, threads) = counts.withLock { counts in (counts.values.reduce(0, +), counts.count) }
        #expect(total == 40_000)
        #expect(threads == 8)
    }

    @Test("an error thrown inside withLock releases the lock")
    func throwingBody() throws {
        struct Refused: Error {}
        let value = LockedValue(1)
        #expect(throws: Refused.self) {
            try value.withLock { number in
                number = 2
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == 2)
    }
}
