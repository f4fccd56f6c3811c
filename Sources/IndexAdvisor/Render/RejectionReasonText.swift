import Foundation

/// The words of a ``RejectionReason``, as every report format prints them (the Markdown and HTML tables of
/// rejected candidates, the JSON report's `reason`).
extension RejectionReason {
    /// The reason in words.
    public var text: String {
        switch self {
        case .indexLimit(let limit): return "budget reached (--max-indexes \(limit))"
        case .tableIndexLimit(let limit): return "budget reached (--max-indexes-per-table \(limit))"
        case .indexBytesLimit(let limit): return "budget reached (--max-index-bytes \(limit))"
        case .makesStatementsSlower(let slower, let byCounters):
            return "it makes statements slower\(Self.counters(byCounters)): " + Self.list(slower)
        case .undeclarableWithEqualForm:
            return "no model can declare it (a partial, expression, covering or Core Data bookkeeping index on an entity table), and another form measured as well"
        case .noMeasuredGain(let byCounters):
            return byCounters ? "no statement got measurably faster by SQLite's work counters (under 5 %)"
                : "no statement got measurably faster (differences inside the noise)"
        case .costOutweighsSaving(let slower, let churn, let byCounters):
            return "its cost\(Self.counters(byCounters)) (writes\(slower.isEmpty ? "" : ", " + Self.list(slower))) outweighs the time it saves.\(churn.map { " " + $0.fact + "." } ?? "")"
        case .belowMinimumBenefit(let saved, let minimum, let byCounters):
            return "it saves \(Figures.duration(saved)) per workload\(Self.counters(byCounters)), below the \(Figures.duration(minimum)) worth a schema change"
        case .timeBudgetSpentInSelection(let seconds):
            return "not chosen: the time budget (--time-budget \(seconds) s) ran out during the selection"
        case .undeclarable(let slower, let byCounters):
            return "no model can declare it (a partial, expression, descending, collation, covering or Core Data bookkeeping index on an entity table)"
                + (slower.isEmpty ? "" : ", and it makes statements slower\(Self.counters(byCounters)): " + Self.list(slower))
        case .servedByEarlierPicks:
            return "not chosen: the picks made before it were measured to serve its statements as well or better"
        case .timeBudgetSpentBeforeMeasuring(let seconds):
            return "not measured: the time budget (--time-budget \(seconds) s) was spent on candidates for heavier statements"
        case .candidateLimit(let limit):
            return "not measured: more than \(limit) candidates (--max-candidates)"
        case .samePlanAsCandidate(let table, let columns, let fewer):
            return "not built: every statement it serves gets the same what-if plan as with the candidate \(table)(\(columns.joined(separator: ", ")))\(fewer ? ", which has fewer columns" : ", whose leading column is as selective or more")"
        case .poorLeadingColumn(let column, let distinct, let share, let lookedUp):
            guard let lookedUp else {
                return String(format: "not measured: %@ has %d distinct values and the values this workload looks up match about %.0f%% of the rows on average, so the index would read a large part of the table per lookup", column, distinct, share * 100)
            }
            // Equal as printed is equal: "match 33 %–33 % of the rows each" said nothing a range says.
            let matched = lookedUp.values == 1 || Figures.percent(lookedUp.least) == Figures.percent(lookedUp.most)
                ? "the value\(lookedUp.values == 1 ? "" : "s") this workload looks up (\(lookedUp.heaviest.sqlLiteral)\(lookedUp.values == 1 ? "" : " and others")) match\(lookedUp.values == 1 ? "es" : "") \(Figures.percent(lookedUp.most)) of the rows\(lookedUp.values == 1 ? "" : " each")"
                : "the \(lookedUp.values) values this workload looks up match \(Figures.percent(lookedUp.least))–\(Figures.percent(lookedUp.most)) of the rows each (the heaviest, \(lookedUp.heaviest.sqlLiteral), \(Figures.percent(lookedUp.most)); \(Figures.percent(share)) on average over the value sets)"
            return "not measured: \(column) has \(distinct) distinct values and \(matched), so the index would read a large part of the table per lookup"
        case .buildFailed(let error):
            return "could not be built on the snapshot: \(error)"
        case .unusedOnceOthersExist(let others):
            return "no statement uses it once \(others.joined(separator: ", ")) \(others.count == 1 ? "exists" : "exist")"
        case .leftPrefixOfPick(let wider):
            return "a left prefix of the recommended \(wider), which serves the same lookups"
        case .entityColumnSavesNoPages:
            return "it reads as many pages as the same key without Z_ENT, which a model can declare and which is recommended instead: Z_ENT only saves checking a column of rows read anyway"
        case .notWorthBuilt(let picks, let minimum):
            return "built beside \(picks.isEmpty ? "the existing indexes" : picks.joined(separator: ", ")), it did not save measurably more than \(Figures.duration(minimum)) per workload"
        case .joinSetNotWorthBuilt(let members, let statement, let minimum):
            return "built with \(members.joined(separator: " and ")) for \(statement)'s join, the set did not save measurably more than \(Figures.duration(minimum)) per workload"
        case .plannerNoLongerUses(let picks):
            return "the planner no longer uses it once \(picks.joined(separator: ", ")) \(picks.count == 1 ? "exists" : "exist")"
        case .revisedForStatementsLeft(let replacement, let takenBy):
            return "picked first, but once \(takenBy.joined(separator: ", ")) took some of its statements, \(replacement) did less work on the ones left and the table's writes, and took its place (built with every other pick in place)"
        case .costsMoreByTheClock(let reads, let writes) where reads < 0:
            // The reads themselves are slower by the clock (a new user's report said "its reads save at most
            // 0 s and its writes add at least 0 s" for a table no statement writes).
            let upkeep = writes > 0 ? ", and its writes add at least \(Figures.duration(writes))" : ""
            return "built and timed, its reads are slower by the wall clock: by at least \(Figures.duration(-reads)) per workload beyond the runs' spread\(upkeep) (SQLite's work counters, on which it was chosen, showed less work)"
        case .costsMoreByTheClock(let reads, let writes):
            return "built and timed, it costs more than it saves: its reads save at most \(Figures.duration(max(0, reads))) per workload and its writes add at least \(Figures.duration(writes)), beyond the runs' spread (SQLite's work counters, on which it was chosen, did not show that upkeep)"
        case .slowerByTheClock(let slower):
            return "built and timed, it makes statements slower by the wall clock, beyond the runs' spread: " + Self.list(slower)
                + " (SQLite's work counters, on which the choices are decided, showed them doing less work: the clock decided)"
        case .setSlowerByTheClock(let before, let after, let byCounters):
            return "given up with the whole advice: once in place, the workload measured \(Figures.duration(before)) → \(Figures.duration(after)) by the wall clock (\(Figures.change(before, after, significant: true))), timed again back to back"
                + (byCounters ? ", although SQLite's work counters, on which it was chosen, showed less work: the clock decided" : "")
                + "; the store is advised as it is"
        case .marginalByCounters(let speedup, let reads, let writes, let minimum):
            return "SQLite's work counters priced its statements at most \(Figures.percent(1 - 1 / max(1, speedup))) cheaper, inside what their prices can tell (2×): its reads save \(Figures.duration(reads)) per workload and its writes add \(Figures.duration(writes)) by them, which, with the saving halved and the upkeep doubled, is not the \(Figures.duration(minimum)) an index must save"
        case .other(let text, _):
            return text
        }
    }

    private static func counters(_ byCounters: Bool) -> String { byCounters ? " by SQLite's work counters" : "" }

    /// `S3 12.0 ms → 30.1 ms, S5 …`.
    private static func list(_ slower: [StatementSlowdown]) -> String {
        // Under 1.1× a ratio prints as "1.0× slower": the times themselves say how much.
        slower.map { slowdown in
            slowdown.afterSeconds < slowdown.beforeSeconds * 1.1
                ? "\(slowdown.statement) \(Figures.duration(slowdown.beforeSeconds)) → \(Figures.duration(slowdown.afterSeconds))"
                : "\(slowdown.statement) \(Figures.change(slowdown.beforeSeconds, slowdown.afterSeconds, significant: true))"
        }.joined(separator: ", ")
    }
}

extension RejectedCandidate {
    /// Why it was not recommended, in words (``rejection``'s ``RejectionReason/text``). Set, it becomes a
    /// reason given in words (``RejectionReason/other(_:kind:)``).
    public var reason: String {
        get { rejection.text }
        set { rejection = .other(newValue) }
    }
}

extension ColumnChurn {
    /// `ZTITLE changes on 80% of the writes to ZNOTE (UPDATE … SET it)`.
    var fact: String {
        String(format: "%@ changes on %.0f%% of the writes to %@ (UPDATE … SET it)", column, share * 100, table)
    }

    /// The note a recommendation carries for it.
    var note: String {
        guard let partialPredicate else { return fact + ", and each such write moves its entry in this index: that cost is in the write time above." }
        return fact + ", and each such write to a row this partial index holds (WHERE \(partialPredicate)) moves its entry in it: that cost is in the write time above."
    }
}

/// The JSON report's form of a rejected candidate: the fields it always had, `reason` in words, and `kind`
/// (``RejectionReason/kind``) when the reason has one. Read back, the reason is its words and kind.
extension RejectedCandidate: Codable {
    private enum CodingKeys: String, CodingKey {
        case sql, table, columns, partialPredicate, readSecondsSaved, writeSecondsAdded, readSecondsSavedBound, writeSecondsAddedBound, reason, kind
        case entity, properties
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sql = try container.decode(String.self, forKey: .sql)
        table = try container.decode(String.self, forKey: .table)
        columns = try container.decode([String].self, forKey: .columns)
        partialPredicate = try container.decodeIfPresent(String.self, forKey: .partialPredicate)
        readSecondsSaved = try container.decode(Double.self, forKey: .readSecondsSaved)
        writeSecondsAdded = try container.decode(Double.self, forKey: .writeSecondsAdded)
        readSecondsSavedBound = try container.decodeIfPresent(FigureBound.self, forKey: .readSecondsSavedBound)
        writeSecondsAddedBound = try container.decodeIfPresent(FigureBound.self, forKey: .writeSecondsAddedBound)
        rejection = .other(try container.decode(String.self, forKey: .reason),
                           kind: try container.decodeIfPresent(String.self, forKey: .kind))
        entity = try container.decodeIfPresent(String.self, forKey: .entity)
        properties = try container.decodeIfPresent([String].self, forKey: .properties)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeFields([.sql: sql, .table: table, .columns: columns, .partialPredicate: partialPredicate,
                                    .readSecondsSaved: readSecondsSaved, .writeSecondsAdded: writeSecondsAdded,
                                    .readSecondsSavedBound: readSecondsSavedBound, .writeSecondsAddedBound: writeSecondsAddedBound,
                                    .reason: reason, .kind: rejection.kind])
        try container.encodeIfPresent(entity, forKey: .entity)
        try container.encodeIfPresent(properties, forKey: .properties)
    }
}
