import Testing
import Foundation
@testable import IndexAdvisorCLI
@testable import IndexAdvisor

/// Issue 39, item 14: `render` of a report edited to hold `Int64.max` sizes or a `1e300` s time ended in a Swift
/// runtime trap (signal 4): a sum of sizes overflowed, a time in milliseconds did not fit an `Int`. The decoder
/// now refuses a figure beyond 10^15 by its path, and what the renderers derive from the figures it lets
/// through cannot trap. Each edit here walks the JSON of a real analysis's report and changes every number.
@Suite("Saved reports with figures no measurement gives", .serialized)
struct ExtremeFigureTests {
    /// `render`'s formats and `--check`.
    static let modes: [[String]] = [["-f", "md"], ["-f", "html"], ["-f", "json"], ["-f", "sql"], ["-f", "swift"], ["--check"]]

    /// The numbers of a report that are the store's data (bound values, a heaviest key) or a seed, not figures.
    static func isDataValue(_ shape: String) -> Bool {
        shape.contains(".values[]") || shape.hasSuffix(".heaviest") || shape.contains(".heaviest.") || shape == "method.seed"
    }

    /// The path a refusal names, as a shape (`statements[2].count` → `statements[].count`), and the value it
    /// quotes; nil when `message` is not that refusal.
    static func namedField(in message: String) -> (shape: String, value: String)? {
        let marker = "the report holds a figure no measurement gives: "
        guard let start = message.range(of: marker)?.upperBound else { return nil }
        let rest = message[start...]
        guard let space = rest.range(of: " is ") else { return nil }
        let path = String(rest[..<space.lowerBound])
        let value = rest[space.upperBound...].prefix { $0 != ":" && $0 != "," && $0 != ";" && $0 != " " }
        let shape = path.replacingOccurrences(of: #"\[[0-9]+\]"#, with: "[]", options: .regularExpression)
        return (shape, String(value))
    }

    @Test("every integer at Int64.max and every fraction at 1e300: each format, render --check and check --baseline refuse the report in one line naming the field, exit 2")
    func beyondAnyMeasurement() throws {
        let saved = try SavedReports()
        for (name, url) in saved.reports {
            let json = try EditedReportJSON.read(url)
            let shapes = json.leafShapes(numbers: true)
            let edited = json.editingLeaves { _, leaf in
                switch leaf {
                case .integer: return .integer(.max)
                case .number: return .number(1e300)
                default: return leaf
                }
            }.withNetSavingsRecomputed
            let file = saved.directory.url.appendingPathComponent("\(name)-beyond.json")
            try edited.data.write(to: file)
            for mode in Self.modes {
                let run = try runIndexAdvisor(["render", file.path] + mode)
                #expect(run.reason == .exit && run.status == ExitCode.failure, "\(name) \(mode): \(run.reason) \(run.status) \(run.error)")
                #expect(run.error.hasPrefix("indexadvisor: error: \(file.path): the report holds a figure no measurement gives: "), "\(name) \(mode): \(run.error)")
                #expect(run.error.filter { $0 == "\n" }.count == 1 && run.error.hasSuffix("\n"), "\(name) \(mode): \(run.error)")
                let named = Self.namedField(in: run.error)
                #expect(named.map { shapes.contains($0.shape) && ["9223372036854775807", "1e+300", "9.223372036854776e+18"].contains($0.value) } == true,
                        "\(name) \(mode): \(run.error)")
            }
        }
        // The same edit as a baseline: refused before anything is analysed.
        let baseline = saved.directory.url.appendingPathComponent("plain-beyond.json")
        let run = try runIndexAdvisor(deterministic(["check", saved.store.path, "-w", saved.workload.path, "--baseline", baseline.path, "--repeats", "3", "-q"]))
        #expect(run.reason == .exit && run.status == ExitCode.failure, "\(run.reason) \(run.status) \(run.error)")
        #expect(run.error.hasPrefix("indexadvisor: error: --baseline \(baseline.path): the report holds a figure no measurement gives: "), "\(run.error)")
        #expect(run.error.filter { $0 == "\n" }.count == 1, "\(run.error)")
    }

    @Test("each figure alone past 10^15 (or NaN) is refused by the decoder, naming that field; the store's data values are not figures")
    func eachFieldByName() throws {
        let saved = try SavedReports()
        for (name, url) in saved.reports {
            let json = try EditedReportJSON.read(url)
            let figures = json.leafShapes(numbers: true).filter { !Self.isDataValue($0) }
            #expect(figures.count > 10, "\(name): \(figures.count) figures")
            for shape in figures.sorted() {
                for extreme in [EditedReportJSON.integer(.max), .number(-1e300), .string("nan")] {
                    let edited = json.editingLeaves { path, leaf in path == shape ? extreme : leaf }
                    do {
                        _ = try JSONReport.decode(edited.data)
                        Issue.record("\(name): \(shape) = \(extreme) was read")
                    } catch let error as JSONReportError {
                        // A figure refused by its path (also one too large for an integer field); a count set
                        // to NaN cannot even be read as one.
                        if case .impossibleFigure(let words) = error {
                            #expect(Self.namedField(in: "the report holds a figure no measurement gives: " + words)?.shape == shape, "\(name): \(shape) = \(extreme): \(words)")
                        } else if case .unsafeField(let words) = error {
                            // A saving that is not a number, refused first by the check of what reaches code, by
                            // the entry that holds it (`recommendations[0] holds a saving …`).
                            let owner = shape.split(separator: ".").dropLast().joined(separator: ".")
                            let named = words.prefix { $0 != " " }.replacingOccurrences(of: #"\[[0-9]+\]"#, with: "[]", options: .regularExpression)
                            #expect(named == owner && words.contains("holds a saving"), "\(name): \(shape) = \(extreme): \(words)")
                        } else if case .unreadableField = error {
                            #expect(extreme == .string("nan"), "\(name): \(shape) = \(extreme): \(error)")
                        } else {
                            Issue.record("\(name): \(shape) = \(extreme): \(error)")
                        }
                    }
                }
            }
        }
    }

    @Test("figures at the edges of the range (all 10^15, all 0, the smallest Double) render in every format, and such a baseline ends check with an exit code")
    func atTheEdges() throws {
        let saved = try SavedReports()
        let edges: [(String, (EditedReportJSON) -> EditedReportJSON)] = [
            ("limit", { leaf in if case .integer = leaf { return .integer(1_000_000_000_000_000) }; return .number(1e15) }),
            // Every plan row's id and parent 0: rows that form a cycle.
            ("zero", { leaf in if case .integer = leaf { return .integer(0) }; return .number(0) }),
            ("tiny", { leaf in if case .integer = leaf { return .integer(1) }; return .number(.leastNonzeroMagnitude) }),
        ]
        for (name, url) in saved.reports {
            let json = try EditedReportJSON.read(url)
            for (edge, value) in edges {
                let edited = json.editingLeaves { shape, leaf in leaf.figure == nil || Self.isDataValue(shape) ? leaf : value(leaf) }.withNetSavingsRecomputed
                let file = saved.directory.url.appendingPathComponent("\(name)-\(edge).json")
                try edited.data.write(to: file)
                #expect(throws: Never.self, "\(name) \(edge)") { try JSONReport.decode(edited.data) }
                for mode in Self.modes {
                    let run = try runIndexAdvisor(["render", file.path] + mode)
                    #expect(run.reason == .exit, "\(name) \(edge) \(mode): \(run.reason) \(run.status) \(run.error)")
                    let allowed = mode == ["--check"] ? [ExitCode.success, ExitCode.checkFailed] : [ExitCode.success]
                    #expect(allowed.contains(run.status), "\(name) \(edge) \(mode): \(run.status) \(run.error)")
                }
                guard name == "plain" else { continue }
                let run = try runIndexAdvisor(deterministic(["check", saved.store.path, "-w", saved.workload.path, "--baseline", file.path, "--repeats", "3", "-q"]))
                #expect(run.reason == .exit && [ExitCode.success, ExitCode.checkFailed, ExitCode.failure].contains(run.status), "\(edge): \(run.reason) \(run.status) \(run.error)")
                if run.status == ExitCode.failure { #expect(run.error.filter { $0 == "\n" }.count == 1, "\(edge): \(run.error)") }
            }
        }
    }
}
