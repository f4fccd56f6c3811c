/// Aggregates statement occurrences into a ``Workload``: one entry per fingerprint, counts added up.
package struct WorkloadBuilder {
    private var order: [String] = []
    private var entries: [String: WorkloadStatement] = [:]
    private var timingSamples: [String: [Double]] = [:]
    package var diagnostics = WorkloadDiagnostics()

    package init() {}

    /// Adds one occurrence of `sql`.
    /// - Parameters:
    ///   - weight: how many executions this occurrence stands for (`-- freq: N`).
    ///   - bindings: values bound to the statement's own `?` parameters, in order, when the source showed them.
    ///   - durationSeconds: the observed execution time, in seconds.
    ///   - rows: the observed row count.
    package mutating func add(sql: String, weight: Int = 1, bindings: [SQLValue]? = nil, durationSeconds: Double? = nil,
                              rows: Int? = nil, entityName: String? = nil, location: SourceRange) {
        let normalized = Fingerprinter.normalize(sql)
        diagnostics.statementsRead += 1
        if normalized.kind == .other {
            let first = SQLTokenList(sql).tokens.first.map { SQLTokenizer.text(of: $0, in: Array(sql.utf8)) } ?? ""
            diagnostics.skip("not a statement indexadvisor analyses (starts with '\(first.prefix(20))')",
                             at: "\(location.file):\(location.firstLine)")
            return
        }
        let key = normalized.fingerprint.id
        var entry = entries[key] ?? WorkloadStatement(
            fingerprint: normalized.fingerprint, sql: normalized.parameterizedSQL, text: Fingerprinter.trimmed(sql),
            literalValues: normalized.parameterValues, kind: normalized.kind, count: 0,
            parameterCount: normalized.parameterValues.count, observedBindings: [], observedTiming: nil,
            observedRows: nil, entityName: nil, sources: [])
        if entries[key] == nil { order.append(key) }
        let (sum, overflow) = entry.count.addingReportingOverflow(max(1, weight))
        entry.count = overflow ? Int.max : sum
        // Fill the statement's own placeholders with the bound values, in order; keep complete tuples only.
        var values: [SQLValue] = []
        var placeholders = (bindings ?? [])[...]
        var complete = true
        for value in normalized.parameterValues {
            if let value {
                values.append(value)
            } else if let bound = placeholders.popFirst() {
                values.append(bound)
            } else {
                complete = false
            }
        }
        if complete, values.count == entry.parameterCount, !values.isEmpty,
           entry.observedBindings.count < WorkloadStatement.bindingLimit, !entry.observedBindings.contains(values) {
            entry.observedBindings.append(values)
        }
        if let durationSeconds, durationSeconds.isFinite, durationSeconds >= 0 {
            var samples = timingSamples[key] ?? []
            if samples.count < ObservedTiming.sampleLimit { samples.append(durationSeconds) }
            timingSamples[key] = samples
            let previous = entry.observedTiming
            entry.observedTiming = ObservedTiming(count: (previous?.count ?? 0) + 1,
                                                  totalSeconds: (previous?.totalSeconds ?? 0) + durationSeconds,
                                                  medianSeconds: Self.median(samples))
        }
        if let rows { entry.observedRows = rows }
        if let entityName { entry.entityName = entityName }
        if let last = entry.sources.last, last.file == location.file, last.lastLine + 1 >= location.firstLine {
            entry.sources[entry.sources.count - 1].lastLine = max(last.lastLine, location.lastLine)
        } else if entry.sources.count < WorkloadStatement.sourceLimit {
            entry.sources.append(location)
        }
        entries[key] = entry
    }

    /// The aggregated workload.
    package func build() -> Workload {
        Workload(statements: order.compactMap { entries[$0] }, diagnostics: diagnostics)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
