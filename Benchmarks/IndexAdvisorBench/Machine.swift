import Foundation
import IndexAdvisor

/// A description of the machine and build, for the report's header.
enum Machine {
    static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    static func describe() -> [(String, String)] {
        let info = ProcessInfo.processInfo
        var cpu = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var compiler = "Swift"
        #if compiler(>=6.3)
        compiler = "Swift 6.3 or later"
        #elseif compiler(>=6.2)
        compiler = "Swift 6.2"
        #elseif compiler(>=6.1)
        compiler = "Swift 6.1"
        #else
        compiler = "Swift 6.0"
        #endif
        return [
            ("CPU", "\(cpu), \(info.activeProcessorCount) of \(info.processorCount) cores available"),
            ("Memory", String(format: "%.1f GB", Double(info.physicalMemory) / 1_073_741_824)),
            ("System", info.operatingSystemVersionString),
            ("Build", "\(isDebugBuild ? "debug" : "release"), \(compiler)"),
            ("SQLite", IndexAdvisor.sqliteLibraryVersion),
            ("Load average", loadAverage()),
        ]
    }

    /// The 1, 5 and 15 minute load averages (other work on the machine skews absolute times, not ratios).
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// This process's peak resident set size in bytes (`VmHWM` in /proc/self/status; `ru_maxrss` elsewhere).
    static func peakResidentBytes() -> Int {
        if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) {
            let digits = line.filter(\.isNumber)
            if let kilobytes = Int(digits) { return kilobytes * 1024 }
        }
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #endif
    }
}
