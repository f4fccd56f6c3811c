import Foundation

extension NSLock {
    /// Runs `body` holding the lock. (Foundation's `withLock` needs iOS 17 / macOS 14 on Apple platforms;
    /// the recorder is linked by apps that support older systems.)
    @inline(__always)
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
