import Foundation

/// A value that is reached only while holding its own lock: the state and the lock that guards it are
/// one object, so no code can read the state without the lock or take the lock without the state.
///
/// ```swift
/// private let taps = LockedValue<[UInt: Tap]>([:])
/// taps.withLock { $0[connection] = tap }
/// ```
///
/// Shared between threads like a class, it is `Sendable` when the value is. Not the toolchain's
/// `Synchronization.Mutex`: that needs macOS 15 / iOS 18 on Apple platforms, and the recorder is linked by
/// apps that support older systems (Foundation's `NSLock.withLock` needs macOS 14 / iOS 17, so the lock is
/// taken and released by hand).
package final class LockedValue<Value> {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    /// Guards `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; what `body` returns. `body` must not call
    /// `withLock` on the same object (the lock is not recursive).
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// The value is only reached inside `withLock`, under the lock: the one place where the compiler is told so.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
