import Foundation

extension JSONReport {
    /// The fields, by name, of a count or size (rows, executions, bytes, runs) or of a time outside a
    /// ``Timing`` (a weighted total, a build), which no measurement makes negative.
    static let countFields: Set<String> = [
        "count", "bytes", "rows", "sampledRows", "runs", "executionsPerRun", "rowsPerExecution", "failures", "valueSetsSeen",
        "valueSetsTimed", "valueSetsOnExistingRows", "valueSetsChangingNoRow", "distinctValues", "vmStepsPerExecution", "pageLookupsPerExecution", "uncachedPagesPerExecution", "weight", "sampleBytes",
        "tableRows", "repeats", "bindingSamples", "fullScansBefore", "fullScansAfter", "tempBTreeSortsBefore", "tempBTreeSortsAfter",
        "linesRead", "statementsRead", "distinctStatements", "analysedStatements", "housekeepingStatements", "minimumBenefitShare",
        "atStart", "highest", "cores",
    ]
    static let timeFields: Set<String> = [
        "weightedSecondsBefore", "weightedSecondsAfter", "buildSeconds", "sampleBuildSeconds", "readSecondsBefore", "readSecondsAfter",
        "writeSecondsBefore", "writeSecondsAfter", "writeSecondsSaved", "analysisSeconds", "snapshotSeconds", "seconds",
        "statementTimeoutSeconds", "minimumRunSeconds",
    ]

    /// The largest magnitude a figure of a saved report may have: 10^15 (a petabyte, a thousand million
    /// million rows or executions, 31 million years), above anything a store holds (SQLite's largest database
    /// is about 2.8 × 10^14 bytes) or a workload runs. A figure beyond it comes from an edit, and holding every
    /// figure below it keeps what the renderers derive from one (a count in thousands, milliseconds) far from
    /// the integers' limits (a breaking helper's `Int64.max` bytes and `1e300` seconds trapped `render`).
    static let largestFigure = 1e15
    /// The fields that may be infinite: a ratio whose denominator was 0 (a candidate whose counters after
    /// were 0 is infinitely cheaper).
    static let ratioFields: Set<String> = ["countedSpeedup"]

    /// The first figure in `result` that no measurement gives, or nil: a time (any ``Timing`` figure, in
    /// seconds) that is negative or not a number, a count or size (``countFields``) below zero, or any
    /// number of the report (outside the data values it quotes) that is not a number or is beyond
    /// ``largestFigure``, each named by its path (`statements[2].timingBefore.medianSeconds is -1`). A saved
    /// report is a file anyone can edit: `render --check` on it must not vouch for a report that says a
    /// statement took −1 s, `check --baseline` must not compare against it (a NaN compares as neither slower
    /// nor faster, so an edited baseline would pass every statement), and no renderer may be handed a figure
    /// whose sums or conversions overflow.
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
        // The load as the analysis began is one of the figures the highest is taken over (hostile round 7, F10).
        if let load = result.method.machineLoad {
            if load.atStart > load.highest { return "method.machineLoad.atStart is \(load.atStart), above its highest (\(load.highest))" }
        }
        return nil
    }

    /// The first number of the JSON `data` (keys in order) beyond ``largestFigure``, in the words of
    /// ``figureProblem(in:)``, or nil; the data values a report quotes (`values`, `heaviest`) and the seed are
    /// passed over. For a report that does not decode, to name a figure too large for its field.
    static func numberBeyondRange(in data: Data) -> String? {
        guard let top = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        func find(_ value: Any, _ path: String) -> String? {
            if let fields = value as? [String: Any] {
                for key in fields.keys.sorted() where !["values", "heaviest", "seed"].contains(key) {
                    if let found = find(fields[key]!, path.isEmpty ? key : "\(path).\(key)") { return found }
                }
            } else if let items = value as? [Any] {
                for (offset, item) in items.enumerated() {
                    if let found = find(item, "\(path)[\(offset)]") { return found }
                }
            } else if let number = value as? NSNumber, abs(number.doubleValue) > largestFigure {
                return "\(path) is \(written(number.doubleValue)): beyond 10^15, more than any store holds or any workload runs"
            }
            return nil
        }
        return find(top, "")
    }

    /// `figure` as the JSON had it: `-1`, `-0.5`, `nan`.
    private static func written(_ figure: Double) -> String {
        figure.isFinite && figure == figure.rounded() && abs(figure) < 1e15 ? String(Int64(figure)) : "\(figure)"
    }

    /// Walks `value`'s stored properties (arrays by index, optionals unwrapped, dictionaries by key, enum
    /// cases' values by the case's name), handing `found` the words for each impossible figure, its path
    /// first. The data values a report quotes (``SQLValue``: a key, a bound value) are the store's, not
    /// figures, and are left alone.
    private static func visit(_ value: Any, path: String, _ found: (String) -> Void) {
        if value is SQLValue { return }
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
        switch mirror.displayStyle {
        case .optional?:
            if let wrapped = mirror.children.first?.value { visit(wrapped, path: path, found) }
            return
        case .dictionary?:
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                visitChild(pair[1].value, label: nil, path: "\(path)[\(pair[0].value)]", found)
            }
            return
        default:
            break
        }
        for (offset, child) in mirror.children.enumerated() {
            if mirror.displayStyle == .collection || mirror.displayStyle == .set {
                visitChild(child.value, label: nil, path: "\(path)[\(offset)]", found)
            } else if let label = child.label {
                // A tuple's unlabelled values are `.0`, `.1`: named by their place.
                let name = label.hasPrefix(".") ? String(label.dropFirst()) : label
                visitChild(child.value, label: label, path: path.isEmpty ? name : "\(path).\(name)", found)
            }
        }
    }

    /// Checks one value of a walk: a number against the rules for its field (`label`), anything else walked.
    private static func visitChild(_ value: Any, label: String?, path: String, _ found: (String) -> Void) {
        if let (figure, text) = number(value) {
            let isTime = label.map(timeFields.contains) ?? false, isCount = label.map(countFields.contains) ?? false
            if (isTime || isCount) && !(figure.isFinite && figure >= 0) {
                found("\(path) is \(text): a \(isTime ? "time" : "count or size") is never negative or not a number")
            } else if figure.isNaN {
                found("\(path) is nan: a figure is always a number")
            } else if abs(figure) > largestFigure && !(figure == .infinity && label.map(ratioFields.contains) == true) {
                found("\(path) is \(text): beyond 10^15, more than any store holds or any workload runs")
            }
            return
        }
        switch Mirror(reflecting: value).displayStyle {
        case .struct?, .collection?, .optional?, .class?, .enum?, .tuple?, .dictionary?, .set?: visit(value, path: path, found)
        default: break
        }
    }

    /// `value` as a number and as the JSON wrote it, when it is an integer or a floating-point figure
    /// (unwrapping an optional).
    private static func number(_ value: Any) -> (Double, String)? {
        switch value {
        case let number as Int: return (Double(number), String(number))
        case let number as Int64: return (Double(number), String(number))
        case let number as Double: return (number, written(number))
        case let number as Double?: return number.map { ($0, written($0)) }
        case let number as Int?: return number.map { (Double($0), String($0)) }
        case let number as Int64?: return number.map { (Double($0), String($0)) }
        default: return nil
        }
    }
}
