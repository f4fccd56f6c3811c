import Foundation
import IndexAdvisor
import Locking

/// Draws one progress line on stderr while a command works: the elapsed time, the stage in words, and the
/// item of the stage (`[ 12.3s] timing statements as the store is: statement 3 of 12`), redrawn in place.
///
/// Drawn in place only when stderr is a terminal and `TERM` is not `dumb`; `--quiet` turns it off. The
/// elapsed time is dimmed unless `NO_COLOR` is set to a non-empty value (https://no-color.org). The line is
/// cut to the terminal's width so that redrawing it never wraps, and cleared by ``finish()``. When stderr
/// is not a terminal (a CI log), a run that has taken over ``plainAfterSeconds`` writes a plain line, what
/// it is doing now, at most every ``plainEverySeconds``: a long run never looks hung.
final class ProgressPrinter: Sendable {
    private let console: Console
    private let enabled: Bool
    /// Plain lines instead of a redrawn one (stderr is not a terminal, no `--quiet`).
    private let plain: Bool
    static let plainAfterSeconds = 10.0
    static let plainEverySeconds = 5.0
    private let colour: Bool
    private let width: Int
    private let started: Date
    /// What the lock guards: the line drawn last, and when the last plain line was written.
    private struct Drawn {
        var line = ""
        var plainAt = 0.0
    }

    private let drawn = LockedValue(Drawn())

    /// - Parameters:
    ///   - enabled: false for `--quiet` or when stderr is not a terminal.
    ///   - environment: read for `TERM`, `NO_COLOR` and `COLUMNS`.
    ///   - plain: write plain progress lines on long runs (stderr is not a terminal and no `--quiet`).
    init(console: Console, enabled: Bool, plain: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.console = console
        self.enabled = enabled && environment["TERM"] != "dumb"
        self.plain = !self.enabled && plain
        self.colour = (environment["NO_COLOR"] ?? "").isEmpty
        self.width = max(20, console.terminalWidth ?? environment["COLUMNS"].flatMap(Int.init) ?? 80)
        self.started = Date()
    }

    /// Shows the analysis's progress.
    func update(_ progress: AnalysisProgress) {
        draw(Self.describe(progress), elapsed: progress.elapsedSeconds)
    }

    /// Shows a step of the command's own (building the demo store).
    func say(_ text: String) {
        draw(text, elapsed: Date().timeIntervalSince(started))
    }

    /// Clears the line.
    func finish() {
        guard enabled else { return }
        drawn.withLock { drawn in
            guard !drawn.line.isEmpty else { return }
            console.error("\r\u{1B}[K")
            drawn.line = ""
        }
    }

    private func draw(_ text: String, elapsed: Double) {
        if plain {
            drawn.withLock { drawn in
                guard elapsed >= Self.plainAfterSeconds, elapsed - drawn.plainAt >= Self.plainEverySeconds else { return }
                drawn.plainAt = elapsed
                console.error(String(format: "indexadvisor: [%.0fs] ", elapsed) + text + "\n")
            }
            return
        }
        guard enabled else { return }
        let time = String(format: "[%5.1fs]", elapsed)
        var body = text
        // "[ 12.3s] " takes 9 columns; one is left free so the cursor never wraps.
        let room = width - time.count - 2
        if body.count > room { body = String(body.prefix(max(0, room - 1))) + "…" }
        let line = (colour ? "\u{1B}[2m" + time + "\u{1B}[22m" : time) + " " + body
        drawn.withLock { drawn in
            guard line != drawn.line else { return }
            drawn.line = line
            console.error("\r\u{1B}[K" + line)
        }
    }

    /// The stage and item in words: `timing statements as the store is: statement 3 of 12`.
    static func describe(_ progress: AnalysisProgress) -> String {
        let item = min(progress.done + 1, max(progress.total, 1))
        switch progress.stage {
        case "snapshot": return "taking a private snapshot of the store"
        case "sampling": return "sampling large tables"
        case "baseline": return "timing statements as the store is: statement \(item) of \(progress.total)"
        case "candidates": return "finding candidate indexes"
        case "measuring candidates": return "building and timing candidate index \(item) of \(progress.total)"
        case "selection": return "choosing indexes: \(progress.done) chosen so far"
        case "final timings": return "timing statements with the advice: statement \(item) of \(progress.total)"
        case "existing indexes": return "reviewing the store's own indexes"
        case "statistics": return "measuring what ANALYZE statistics would change"
        case "query advice": return "measuring statement rewrites"
        case "result": return "assembling the report (index sizes, uniqueness audit)"
        default: return progress.stage + (progress.total > 0 ? ": \(item) of \(progress.total)" : "")
        }
    }
}
