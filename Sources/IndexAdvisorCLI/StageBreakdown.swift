import Foundation
import IndexAdvisor

/// The per-stage breakdown `--verbose` prints on stderr: one line per stage with its seconds and share of
/// the analysis, then the activities across stages.
enum StageBreakdown {
    static func text(_ stages: [StageTime], total: Double) -> String {
        func line(_ stage: StageTime) -> String {
            let name = stage.stage.padding(toLength: 24, withPad: " ", startingAt: 0)
            let time = stage.seconds == 0 ? "none" : Figures.duration(stage.seconds)
            let share = String(format: "%5.1f %%", total > 0 ? 100 * stage.seconds / total : 0)
            let count = stage.count.map { "  (\(Figures.count($0)))" } ?? ""
            return "  " + name + String(repeating: " ", count: max(1, 10 - time.count)) + time + "  " + share + count
        }
        var lines = ["indexadvisor: where the \(Figures.duration(total)) went:"]
        lines += stages.filter { !$0.isActivity }.map(line)
        lines.append("  across those stages:")
        lines += stages.filter(\.isActivity).map(line)
        return lines.joined(separator: "\n") + "\n"
    }
}
