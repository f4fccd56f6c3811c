import Foundation

/// Aggregates statement occurrences into a ``Workload``: one entry per fingerprint, counts added up.
///
/// Memory is bounded whatever the input size: at most ``distinctLimit`` distinct statements and
/// ``textByteLimit`` bytes of their text (later new ones are counted as skipped), and per statement at most 32 binding tuples, 8 source ranges and
/// 256 timing samples (a uniform reservoir with a fixed seed, so runs are repeatable).
package struct WorkloadBuilder {
    /// The most executions one statement's record or frequency may give (`-- freq: N`, a JSON record's
    /// `count`): a larger one is a damaged line, and summed it would overflow the workload's totals.
    package static let maximumWeight = 1_000_000_000
    /// What a statement occurrence resolves to.
    package enum Resolution: Sendable, Equatable {
        /// The entry at this index.
        case entry(Int)
        /// Not a statement indexadvisor analyses (it starts with this word).
        case unanalysable(firstWord: String)
        /// A new statement beyond ``distinctLimit`` or ``textByteLimit``.
        case overLimit
        /// A statement holding a NUL byte: SQLite reads a statement's text only up to one
        /// (c3ref/prepare.html), so what it would run is not what the app's text says.
        case holdsNUL
        /// A statement SQLite refuses (``WorkloadBuilder/refusal(_:text:)``): set aside for `reason`, counted
        /// with the others of fingerprint `id`.
        case setAside(reason: String, id: String, excerpt: String)
    }

    /// Distinct statements kept.
    package static let distinctLimit = 10_000
    /// Bytes of statement text kept (each statement's runnable SQL and first occurrence).
    package static let textByteLimit = 64 << 20

    private var textBytes = 0
    /// A recording's connections enforced foreign keys as recording started (``Workload/recordedForeignKeys``).
    package var recordedForeignKeys: Bool?

    private var entries: [WorkloadStatement] = []
    private var indexByID: [String: Int] = [:]
    private var timings: [TimingSamples] = []
    /// Per entry: whether a later occurrence's text may still need preparing (``WorkloadStatement/literalSyntaxText``):
    /// false once one is kept, or when the first occurrence's own text may hold such a literal (it is prepared anyway).
    private var watchesLiteralSyntax: [Bool] = []
    private var valueSets: [ValueSetTally] = []
    /// The same for Core Data's two named times (``WorkloadStatement/observedConnectionTiming``, ``WorkloadStatement/observedTotalTiming``).
    private var connectionTimings: [TimingSamples] = []
    private var totalTimings: [TimingSamples] = []
    /// Their own generator, so the observed time's sample is the same whether or not they are kept.
    private var namedRandom = SeededGenerator(seed: 0x1D_E7A1)
    private var random = SeededGenerator(seed: 0x1D_E7A0)
    package var diagnostics = WorkloadDiagnostics()

    package init() {}

    /// The number of distinct statements so far.
    package var distinctCount: Int { entries.count }

    /// Adds one occurrence of `sql`.
    /// - Parameters:
    ///   - weight: how many executions this occurrence stands for (`-- freq: N`).
    ///   - bindings: values bound to the statement's own `?` parameters, in order, when the source showed them.
    ///   - durationSeconds: the observed execution time, in seconds.
    ///   - rows: the observed row count.
    package mutating func add(sql: String, weight: Int = 1, bindings: [SQLValue]? = nil, durationSeconds: Double? = nil,
                              rows: Int? = nil, entityName: String? = nil, location: SourceRange) {
        let normalized = Fingerprinter.normalize(sql)
        let resolution = resolve(normalized, text: sql, location: location)
        record(resolution, weight: weight, literals: normalized.parameterValues, bindings: bindings,
               durationSeconds: durationSeconds, rows: rows, entityName: entityName, text: normalized.parameterizedSQL, location: location)
    }

    /// The entry for `normalized`, created on first sight (with `text`, the occurrence as the app issued it).
    /// Counts nothing: ``record(_:weight:bindings:durationSeconds:rows:entityName:location:)`` does.
    package mutating func resolve(_ normalized: NormalizedStatement, text: String, location: SourceRange) -> Resolution {
        if text.utf8.contains(0) { return .holdsNUL }
        if let reason = Self.refusal(normalized, text: text) {
            return .setAside(reason: reason, id: normalized.fingerprint.id, excerpt: Self.excerpt(text))
        }
        let key = normalized.fingerprint.id
        if let index = indexByID[key] {
            if watchesLiteralSyntax[index], Self.mayHoldNewerLiteral(text), textBytes + text.utf8.count <= Self.textByteLimit {
                textBytes += text.utf8.count
                entries[index].literalSyntaxText = Fingerprinter.trimmed(text)
                watchesLiteralSyntax[index] = false
            }
            return .entry(index)
        }
        if normalized.kind == .other {
            // The first token of the statement's first bytes (the statement may be megabytes of garbage).
            let list = SQLTokenList(String(decoding: text.utf8.prefix(256), as: UTF8.self))
            return .unanalysable(firstWord: list.count > 0 ? String(list.text(at: 0).prefix(20)) : "")
        }
        let bytes = normalized.parameterizedSQL.utf8.count + text.utf8.count
        guard entries.count < Self.distinctLimit, textBytes + bytes <= Self.textByteLimit else { return .overLimit }
        textBytes += bytes
        let list = SQLTokenList(normalized.parameterizedSQL)
        let tables = list.namedTables()
        var entry = WorkloadStatement(
            fingerprint: normalized.fingerprint, sql: normalized.parameterizedSQL, text: Fingerprinter.trimmed(text),
            literalValues: normalized.parameterValues, kind: normalized.kind, count: 0,
            parameterCount: normalized.parameterValues.count, observedBindings: [], observedTiming: nil,
            observedRows: nil, entityName: nil, sources: [])
        entry.tables = tables
        // An upsert's DO UPDATE SET columns too (a breaking helper: `workload` listed none for one).
        entry.updatedColumns = normalized.kind == .update || normalized.kind == .insert ? list.updatedColumns() : []
        entry.isHousekeeping = normalized.kind.isAnalysed && HousekeepingTables.only(tables)
        indexByID[key] = entries.count
        entries.append(entry)
        timings.append(TimingSamples())
        watchesLiteralSyntax.append(!Self.mayHoldNewerLiteral(text))
        valueSets.append(ValueSetTally())
        connectionTimings.append(TimingSamples())
        totalTimings.append(TimingSamples())
        return .entry(entries.count - 1)
    }

    /// True when `text` has an underscore right after a digit (`1_000`, `0x_FF`, also in names such as `t1_2`):
    /// a literal of a newer SQLite's syntax may be there (lang_expr.html#literal_values). One byte scan per
    /// occurrence, and none once a text is kept.
    static func mayHoldNewerLiteral(_ text: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "_") {
                let afterDigit = previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9")
                let afterHexPrefix = previous | 0x20 == UInt8(ascii: "x") && beforePrevious == UInt8(ascii: "0")
                if afterDigit || afterHexPrefix { return true }
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// Counts one occurrence (`weight` executions) of a resolved statement whose own parameters are
    /// `literals` (the normalised occurrence's parameter values: a literal, or nil for a placeholder
    /// that `bindings` fills in order).
    /// `text` is the occurrence's parameterised text (``NormalizedStatement/parameterizedSQL``): kept as a
    /// variant when its parameters are more or fewer than the statement's (an IN list of another length).
    package mutating func record(_ resolution: Resolution, weight: Int = 1, literals: [SQLValue?], bindings: [SQLValue]? = nil,
                                 durationSeconds: Double? = nil, rows: Int? = nil, entityName: String? = nil,
                                 text: String? = nil, location: SourceRange) {
        if case .setAside(let reason, let id, let excerpt) = resolution {
            diagnostics.setAside(reason: reason, id: id, excerpt: excerpt, weight: weight, at: "\(location.file):\(location.firstLine)")
            return
        }
        diagnostics.statementsRead += 1
        switch resolution {
        case .unanalysable(let first):
            diagnostics.skip("not a statement indexadvisor analyses (starts with '\(first)')",
                             at: "\(location.file):\(location.firstLine)")
        case .holdsNUL:
            diagnostics.skip("statement holds a NUL byte: SQLite would read only the text before it", at: "\(location.file):\(location.firstLine)")
        case .overLimit:
            diagnostics.skip("more than \(Self.distinctLimit) distinct statements or \(Self.textByteLimit >> 20) MB of their text; later new ones are not kept",
                             at: "\(location.file):\(location.firstLine)")
        case .setAside:
            break
        case .entry(let index):
            entries[index].count = entries[index].count.addingSaturating(max(1, weight))
            addBindings(literals: literals, bindings: bindings ?? [], weight: max(1, weight), rows: rows, text: text, at: index)
            if let durationSeconds { addTiming(durationSeconds, executions: 1, at: index) }
            if let rows { entries[index].observedRows = rows }
            if let entityName { entries[index].entityName = entityName }
            addSource(location, at: index)
        }
    }

    /// True: every occurrence's values are counted (a bounded tally keeps the frequent, the heavy and a
    /// uniform sample of the rest), so readers always pass them.
    package func wantsBindings(at index: Int) -> Bool { true }

    /// The most texts of other lengths one statement keeps (``WorkloadStatement/variants``).
    package static let variantLimit = 64

    /// Counts one tuple of parameter values (`weight` executions, `rows` rows when the source said):
    /// `literals` where the occurrence had a literal, `bindings` in order for its placeholders; unless
    /// incomplete. An occurrence with another number of parameters than the statement's first (an IN list
    /// of another length, issue 42: a log's 20 distinct lists of 3–20 ids were counted for one length only)
    /// counts with its own `text` (its parameterised form), kept as one of the statement's variants.
    package mutating func addBindings(literals: [SQLValue?], bindings: [SQLValue], weight: Int = 1, rows: Int? = nil,
                                      text: String? = nil, at index: Int) {
        guard !literals.isEmpty else { return }
        if literals.count != entries[index].parameterCount {
            let known = entries[index].variants.contains { $0.literalValues.count == literals.count }
            guard known || (text != nil && entries[index].variants.count < Self.variantLimit) else { return }
            if !known, let text { entries[index].variants.append(StatementVariant(sql: text, literalValues: literals)) }
        }
        var values: [SQLValue] = []
        values.reserveCapacity(literals.count)
        var placeholders = bindings[...]
        for value in literals {
            if let value {
                values.append(value)
            } else if let bound = placeholders.popFirst() {
                values.append(bound)
            } else {
                return
            }
        }
        valueSets[index].add(values, weight: weight, rows: rows, random: &random)
    }

    /// Adds an observed duration, in seconds, standing for `executions` executions (more than one for a
    /// recorder's aggregate: `seconds` is then their median and `totalSeconds` their sum).
    package mutating func addTiming(_ seconds: Double, executions: Int, totalSeconds: Double? = nil, at index: Int) {
        guard seconds.isFinite, seconds >= 0, executions > 0 else { return }
        let total = totalSeconds ?? seconds * Double(executions)
        let previous = entries[index].observedTiming
        entries[index].observedTiming = ObservedTiming(count: (previous?.count ?? 0).addingSaturating(executions),
                                                       totalSeconds: (previous?.totalSeconds ?? 0) + total,
                                                       medianSeconds: 0)
        timings[index].add(seconds, weight: executions, random: &random)
    }

    /// Keeps Core Data's two times of one execution, each under its own name: SQLite's (`sql connection
    /// fetch time`, `sql execution time`) and Core Data's total (`total fetch execution time`…). The
    /// observed time itself is recorded with the occurrence.
    package mutating func addNamedTimings(connection: Double?, total: Double?, at index: Int) {
        if let connection, connection.isFinite, connection >= 0 {
            entries[index].observedConnectionTiming = Self.adding(connection, to: entries[index].observedConnectionTiming)
            connectionTimings[index].add(connection, weight: 1, random: &namedRandom)
        }
        if let total, total.isFinite, total >= 0 {
            entries[index].observedTotalTiming = Self.adding(total, to: entries[index].observedTotalTiming)
            totalTimings[index].add(total, weight: 1, random: &namedRandom)
            if connection == nil { entries[index].observedTotalFallbacks += 1 }
        }
    }

    private static func adding(_ seconds: Double, to timing: ObservedTiming?) -> ObservedTiming {
        ObservedTiming(count: (timing?.count ?? 0).addingSaturating(1), totalSeconds: (timing?.totalSeconds ?? 0) + seconds, medianSeconds: 0)
    }

    /// Counts one execution that failed on the device, keeping the first error's text.
    package mutating func noteDeviceFailure(_ error: String, at index: Int) {
        entries[index].deviceFailures = entries[index].deviceFailures.addingSaturating(1)
        if entries[index].deviceError == nil { entries[index].deviceError = error }
    }

    /// Keeps where the statement was seen: adjacent ranges in one file merge; at most 8 ranges.
    package mutating func addSource(_ location: SourceRange, at index: Int) {
        if let last = entries[index].sources.last, last.file == location.file, last.lastLine + 1 >= location.firstLine {
            entries[index].sources[entries[index].sources.count - 1].lastLine = max(last.lastLine, location.lastLine)
        } else if entries[index].sources.count < WorkloadStatement.sourceLimit {
            entries[index].sources.append(location)
        }
    }

    /// Sets the plan the device printed for the statement with fingerprint `id`; false when there is none.
    @discardableResult
    package mutating func setDevicePlan(_ plan: [String], forFingerprint id: String) -> Bool {
        guard let index = indexByID[id] else { return false }
        entries[index].devicePlan = plan
        return true
    }

    /// Widens the entry's first/last seen times.
    package mutating func noteSeen(first: Date?, last: Date?, at index: Int) {
        if let first { entries[index].firstSeen = min(entries[index].firstSeen ?? first, first) }
        if let last { entries[index].lastSeen = max(entries[index].lastSeen ?? last, last) }
    }

    /// Sets the observed rows per execution.
    package mutating func setObservedRows(_ rows: Int, at index: Int) {
        entries[index].observedRows = rows
    }

    /// The aggregated workload.
    package func build() -> Workload {
        var statements = entries
        for index in statements.indices {
            if statements[index].observedTiming != nil { statements[index].observedTiming!.medianSeconds = timings[index].median }
            if statements[index].observedConnectionTiming != nil {
                statements[index].observedConnectionTiming!.medianSeconds = connectionTimings[index].median
            }
            if statements[index].observedTotalTiming != nil { statements[index].observedTotalTiming!.medianSeconds = totalTimings[index].median }
        }
        for index in statements.indices {
            let chosen = valueSets[index].tracked()
            statements[index].observedBindings = chosen.map(\.entry.values)
            statements[index].observedBindingWeights = chosen.map(\.weight)
            statements[index].observedBindingRows = chosen.map(\.entry.rows)
            statements[index].distinctValueSets = valueSets[index].distinctSeen
        }
        var workload = Workload(statements: statements, diagnostics: diagnostics)
        workload.recordedForeignKeys = recordedForeignKeys
        return workload
    }

    static func median(_ values: [Double]) -> Double {
        var samples = TimingSamples()
        for value in values { samples.values.append((value, 1)) }
        return samples.median
    }
}

/// A bounded uniform sample of durations, each standing for `weight` executions.
struct TimingSamples {
    var values: [(seconds: Double, weight: Int)] = []
    /// Items offered so far (for reservoir sampling).
    var offered = 0

    mutating func add(_ seconds: Double, weight: Int, random: inout SeededGenerator) {
        offered += 1
        if values.count < ObservedTiming.sampleLimit {
            values.append((seconds, weight))
        } else {
            // Algorithm R: the new item replaces a kept one with probability limit/offered.
            let slot = Int(random.next() % UInt64(offered))
            if slot < values.count { values[slot] = (seconds, weight) }
        }
    }

    /// The weighted median: the middle of the kept values, each repeated `weight` times (the mean of the
    /// two middle ones when the total weight is even).
    var median: Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted { $0.seconds < $1.seconds }
        let total = sorted.reduce(0) { $0.addingSaturating($1.weight) }
        func value(atRank rank: Int) -> Double {
            var seen = 0
            for item in sorted {
                seen = seen.addingSaturating(item.weight)
                if rank < seen { return item.seconds }
            }
            return sorted[sorted.count - 1].seconds
        }
        return total % 2 == 1 ? value(atRank: total / 2) : (value(atRank: total / 2 - 1) + value(atRank: total / 2)) / 2
    }
}
