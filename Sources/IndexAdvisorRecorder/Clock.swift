import Foundation

/// Clock readings for the recorder.
enum Clock {
    /// Nanoseconds on the monotonic clock (not affected by changes of the wall clock).
    @inline(__always)
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Wall-clock seconds since 1970 for a reading of the monotonic clock, through one pair of readings
    /// taken when the process first asked (a run's end time without a second clock call per run).
    static func wallSeconds(atMonotonic nanoseconds: UInt64) -> Double {
        let (wall, monotonic) = origin
        return wall + (Double(nanoseconds) - Double(monotonic)) / 1e9
    }

    private static let origin: (Double, UInt64) = (wallSeconds(), monotonicNanoseconds())

    /// Seconds since 1970-01-01 UTC on the wall clock.
    @inline(__always)
    static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
