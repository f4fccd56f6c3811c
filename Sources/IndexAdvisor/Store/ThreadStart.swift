import Foundation

/// The system refused a thread: `pthread_create` failed every time it was tried.
public struct ThreadStartError: Error, Sendable, CustomStringConvertible {
    /// The `errno` value `pthread_create` returned the last time (`EAGAIN` when a limit is reached).
    public var code: Int32
    /// How many times the thread was tried.
    public var attempts: Int

    public var description: String {
        "cannot start a thread (\(String(cString: strerror(code))), \(attempts) attempts over \(ThreadStart.retrySeconds(attempts)) s): the limits on processes or virtual memory (ulimit -u, ulimit -v) leave the run none"
    }
}

/// Starts threads with a bounded number of attempts. Dispatch retries a refused thread for ever (once a
/// second, in the thread that asked for it), so a run under `ulimit -u` or `ulimit -v` that leaves no
/// thread never ended; here a refusal is retried a few times, then reported.
package enum ThreadStart {
    /// Attempts for a thread the run needs, ``pause`` apart: about a second in all.
    static let attempts = 20
    /// The wait between two attempts, in microseconds.
    static let pause: useconds_t = 50_000

    /// The seconds `attempts` tries take, pauses included (rounded to a tenth).
    static func retrySeconds(_ attempts: Int) -> Double {
        (Double(max(0, attempts - 1)) * Double(pause) / 1e5).rounded() / 10
    }

    /// Runs `body` on a new detached thread with `stackBytes` of stack (the system's default when nil).
    /// - Throws: ``ThreadStartError`` when the thread is refused `attempts` times.
    package static func detached(stackBytes: Int? = nil, attempts: Int = attempts, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        _ = try start(stackBytes: stackBytes, detached: true, attempts: attempts, body)
    }

    /// True when `count` threads with the system's default stack, the kind Dispatch starts for
    /// `concurrentPerform`, can run at once now: each is started (tried `attempts` times), then all are
    /// joined. A false answer says to do the work on the calling thread, not to ask Dispatch, which would
    /// wait for ever for a thread the system refuses.
    package static func canRun(_ count: Int, attempts: Int = 3) -> Bool {
        let release = DispatchSemaphore(value: 0)
        var started: [Thread] = []
        var refused = false
        for _ in 0..<max(0, count) {
            guard let thread = try? start(stackBytes: nil, detached: false, attempts: attempts, { release.wait() }) else {
                refused = true
                break
            }
            started.append(thread)
        }
        for _ in started { release.signal() }
        for thread in started { pthread_join(thread.id, nil) }
        return !refused
    }

    /// A started thread's id.
    struct Thread {
        var id: pthread_t
    }

    /// What the new thread runs, handed to it through `pthread_create`'s argument.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static func start(stackBytes: Int?, detached: Bool, attempts: Int, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) -> Thread {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
        var code: Int32 = 0
        var tried = 0
        for attempt in 1...max(1, attempts) {
            tried = attempt
            let context = Unmanaged.passRetained(Body(body)).toOpaque()
            #if canImport(Darwin)
            var id: pthread_t?
            #else
            var id = pthread_t()
            #endif
            code = pthread_create(&id, &attributes, { context in
                let pointer: UnsafeMutableRawPointer? = context
                Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
                return nil
            }, context)
            if code == 0 {
                #if canImport(Darwin)
                return Thread(id: id!)
                #else
                return Thread(id: id)
                #endif
            }
            Unmanaged<Body>.fromOpaque(context).release()
            guard code == EAGAIN || code == ENOMEM, attempt < attempts else { break }
            usleep(pause)
        }
        throw ThreadStartError(code: code, attempts: tried)
    }
}
