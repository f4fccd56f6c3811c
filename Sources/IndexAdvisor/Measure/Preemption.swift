#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the scheduler took the CPU away from the timing thread: its involuntary context switches
/// (`getrusage`'s `ru_nivcsw`, of the thread on Linux with `RUSAGE_THREAD`, of the process elsewhere).
///
/// A statement's wall-clock time on a busy machine includes the time another process ran instead of it. A
/// 30 µs INSERT preempted once takes some 3 ms, the other process's time slice: on two cores with two busy
/// loops beside it, 3 % of an INSERT's executions were, and the median of its runs went from 32 µs to
/// 113–172 µs while its CPU time stayed at 31 µs. Waiting for a page to be read from disk is a voluntary
/// switch and not counted: that wait is the statement's.
enum Preemption {
    /// The calling thread's involuntary context switches so far (the process's where a thread's cannot be
    /// read); 0 when `getrusage` fails.
    static func involuntarySwitches() -> Int {
        var usage = rusage()
        #if os(Linux)
        // RUSAGE_THREAD (1, <sys/resource.h>) is declared only under _GNU_SOURCE, which Swift's Glibc lacks.
        guard getrusage(__rusage_who_t(1), &usage) == 0 else { return 0 }
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        #endif
        return Int(usage.ru_nivcsw)
    }
}
