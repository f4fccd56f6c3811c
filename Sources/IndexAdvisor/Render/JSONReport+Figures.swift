import Foundation

extension JSONReport {
    /// The fields, by name, of a count or size (rows, executions, bytes, runs) or of a time outside a
    /// ``Timing`` (a weighted total, a build), which no measurement makes negative.
    static let countFields: Set<String> = [
        "count", "bytes", "rows", "sampledRows", "runs", "executionsPerRun", "rowsPerExecution", "failures", "valueSetsSeen",
        "valueSetsTimed", "distinctValues", "vmStepsPerExecution", "pageLookupsPerExecution", "uncachedPagesPerExecution", "weight", "sampleBytes",
        "tableRows", "repeats", "bindingSamples", "fullScansBefore", "fullScansAfter", "tempBTreeSortsBefore", "tempBTreeSortsAfter",
        "linesRead", "statementsRead", "distinctStatements", "analysedStatements", "housekeepingStatements", "minimumBenefitShare",
    ]
    static let timeFields: Set<String> = [
        "weightedSecondsBefore", "weightedSecondsAfter", "buildSeconds", "sampleBuildSeconds", "readSecondsBefore", "readSecondsAfter",
        "writeSecondsBefore", "writeSecondsAfter", "writeSecondsSaved", "analysisSeconds", "snapshotSeconds", "seconds",
        "statementTimeoutSeconds", "minimumRunSeconds",
    ]

    /// The first figure in `result` that no measurement gives, or nil: a time (any ``Timing`` figure, in
    /// seconds) that is negative or not a number, or a count or size (``countFields``) below zero, each named
    /// by its path (`statements[2].timingBefore.medianSeconds is -1`). A saved report is a file anyone can
    /// edit: `render --check` on it must not vouch for a report that says a statement took −1 s, and
    /// `check --baseline` must not compare against it (a NaN compares as neither slower nor faster, so an
    /// edited baseline would pass every statement).
    static func figureProblem(in result: AnalysisResult) -> String? {
        var problem: String?
        visit(result, path: "") { words in
            if problem == nil { problem = words }
        }
        if problem != nil { return problem }
        // A net saving is the read time saved less the write time added, as the selection computed it.
        let nets = result.recommendations.enumerated().map { ("recommendations[\($0.offset)]", $0.element.readSecondsSaved, $0.element.writeSecondsAdded, $0.element.netSecondsSaved) }
            + (result.alternatives ?? []).enumerated().map { ("alternatives[\($0.offset)]", $0.element.readSecondsSaved, $0.element.writeSecondsAdded, $0.element.netSecondsSaved) }
        for (path, read, write, net) in nets where abs(read - write - net) > 1e-9 * max(1, abs(read) + abs(write)) {
            return "\(path).netSecondsSaved is \(written(net)), not readSecondsSaved − writeSecondsAdded (\(written(read - write)))"
        }
        return nil
    }

    /// `figure` as the JSON had it: `-1`, `-0.5`, `nan`.
    private static func written(_ figure: Double) -> String {
        figure.isFinite && figure == figure.rounded() && abs(figure) < 1e15 ? String(Int64(figure)) : "\(figure)"
    }

    /// Walks `value`'s stored properties (arrays by index, optionals unwrapped), handing `found` the words
    /// for each impossible figure, its path first.
    private static func visit(_ value: Any, path: String, _ found: (String) -> Void) {
        if let timing = value as? Timing {
            let seconds = [("medianSeconds", timing.medianSeconds), ("p25Seconds", timing.p25Seconds), ("p75Seconds", timing.p75Seconds),
                           ("minSeconds", timing.minSeconds), ("maxSeconds", timing.maxSeconds)]
                + timing.runSeconds.enumerated().map { ("runSeconds[\($0.offset)]", $0.element) }
            for (name, figure) in seconds where !(figure.isFinite && figure >= 0) {
                found("\(path).\(name) is \(written(figure)): a time is never negative or not a number")
                return
            }
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            if let wrapped = mirror.children.first?.value { visit(wrapped, path: path, found) }
            return
        }
        for (offset, child) in mirror.children.enumerated() {
            let childPath: String
            if mirror.displayStyle == .collection {
                childPath = "\(path)[\(offset)]"
            } else if let label = child.label {
                childPath = path.isEmpty ? label : "\(path).\(label)"
                let isTime = timeFields.contains(label)
                if isTime || countFields.contains(label), let number = number(child.value), !(number.isFinite && number >= 0) {
                    found("\(childPath) is \(written(number)): a \(isTime ? "time" : "count or size") is never negative or not a number")
                    return
                }
            } else {
                continue
            }
            switch Mirror(reflecting: child.value).displayStyle {
            case .struct?, .collection?, .optional?, .class?: visit(child.value, path: childPath, found)
            default: break
            }
        }
    }

    /// `value` as a number, when it is an integer or a floating-point figure (unwrapping an optional).
    private static func number(_ value: Any) -> Double? {
        switch value {
        case let number as Int: return Double(number)
        case let number as Int64: return Double(number)
        case let number as Double: return number
        case let number as Double?: return number
        case let number as Int?: return number.map(Double.init)
        case let number as Int64?: return number.map(Double.init)
        default: return nil
        }
    }
}
