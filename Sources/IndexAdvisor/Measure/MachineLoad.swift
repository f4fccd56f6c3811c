import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How busy the machine is: the scheduler's load average (`getloadavg(3)`: runnable processes, averaged over
/// the last minute) beside the cores it has. A wall-clock timing on a machine whose load is near or above
/// its cores includes other processes' time slices, which is why the choices are decided on SQLite's work
/// counters; the reports say the load when the clock overruled them.
enum MachineLoad {
    /// The one-minute load average; nil where the system does not say.
    static func oneMinuteAverage() -> Double? {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) >= 1 ? loads[0] : nil
    }

    /// The cores the process may use.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }
}
