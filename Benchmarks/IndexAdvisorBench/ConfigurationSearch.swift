import Foundation
import IndexAdvisor

// What the `advice` and `generalization` benchmarks share: running our advisor on a benchmark store, the
// search space made of our candidates, the exhaustive search over it, and the final rounds (interleaved by statement).

extension IndexConfiguration {
    /// `table(columns…) WHERE …`: a `CREATE INDEX` without its generated name, for comparing runs and advisors.
    static func key(_ create: String) -> String {
        guard let on = create.range(of: " ON ") else { return create }
        // Ours quote and space (`"t" ("a")`), .expert's do not (`t(a)`): one spelling for both.
        return String(create[on.upperBound...]).replacingOccurrences(of: "\"", with: "")
            .replacingOccurrences(of: " (", with: "(")
            .trimmingCharacters(in: CharacterSet(charactersIn: "; "))
    }

    /// The name a `CREATE INDEX [IF NOT EXISTS] name ON …` gives its index, unquoted; nil when it has none.
    static func name(_ create: String) -> String? {
        guard let index = create.range(of: "INDEX ", options: .caseInsensitive), let on = create.range(of: " ON ") else { return nil }
        var name = create[index.upperBound..<on.lowerBound].trimmingCharacters(in: .whitespaces)
        if name.uppercased().hasPrefix("IF NOT EXISTS ") { name = String(name.dropFirst(14)).trimmingCharacters(in: .whitespaces) }
        if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") }
        return name.isEmpty ? nil : name
    }

    /// The same indexes created (whatever their names) and the same indexes dropped.
    static func same(_ a: IndexConfiguration, _ b: IndexConfiguration) -> Bool {
        Set(a.creates.map(key)) == Set(b.creates.map(key)) && Set(a.drops) == Set(b.drops)
    }

    /// The changes as one sorted list of keys (`DROP name` for a drop): equal lists, equal advice.
    var keys: [String] { (creates.map(Self.key) + drops.map { "DROP \($0)" }).sorted() }
}

/// One configuration's figures over the final rounds.
struct MeasuredConfiguration {
    var label: String
    var configuration: IndexConfiguration
    var measurements: [ConfigurationMeasurement]
    var totals: [Double] { measurements.map(\.totalSeconds) }
    var total: (median: Double, min: Double, max: Double) { Self.summary(totals) }
    var read: Double { Self.summary(measurements.map(\.readSeconds)).median }
    var write: Double { Self.summary(measurements.map(\.writeSeconds)).median }
    var last: ConfigurationMeasurement { measurements.last! }
    /// Count × seconds of each workload entry, the median over the rounds.
    var entrySeconds: [Double] {
        guard let first = measurements.first else { return [] }
        return first.entrySeconds.indices.map { i in Self.summary(measurements.map { $0.entrySeconds[i] }).median }
    }

    /// This configuration's total ÷ `other`'s in the same final round, the median over the rounds (1 when
    /// either has none): a paired ratio, in which a load that changes from round to round on a shared machine
    /// cancels, where a ratio of the two medians keeps it.
    func pairedRatio(to other: MeasuredConfiguration) -> Double {
        let ratios = zip(totals, other.totals).compactMap { mine, theirs in theirs > 0 ? mine / theirs : nil }
        return ratios.isEmpty ? 1 : Self.summary(ratios).median
    }

    static func summary(_ values: [Double]) -> (median: Double, min: Double, max: Double) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return (0, 0, 0) }
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return (median, sorted.first!, sorted.last!)
    }

    /// This measurement standing for `configuration` under `label`: a set that creates the same indexes as
    /// the measured one under other names, and plans every read alike, does the same work.
    func standing(for configuration: IndexConfiguration, label: String) -> MeasuredConfiguration {
        MeasuredConfiguration(label: label, configuration: configuration, measurements: measurements)
    }

    var json: [String: Any] {
        let m = last
        return ["label": label, "creates": configuration.creates, "drops": configuration.drops,
                "totalSeconds": ["median": total.median, "min": total.min, "max": total.max, "rounds": totals],
                "readSeconds": read, "writeSeconds": write, "indexesAdded": m.indexesAdded, "indexesDropped": m.indexesDropped,
                "bytesAdded": m.bytesAdded, "buildSeconds": m.buildSeconds, "fullScansLeft": m.fullScansLeft, "sortsLeft": m.sortsLeft,
                // Count × seconds of each workload entry (the median over the rounds), to see which statement a ratio comes from.
                "entrySeconds": entrySeconds]
    }
}

/// Our advice on a benchmark store, as a user gets it from `indexadvisor analyze`.
struct OurAdvice {
    var analysis: AnalysisResult
    var seconds: Double
    var creates: [String] { analysis.recommendations.map(\.sql) }
    var drops: [String] { analysis.existingIndexes.filter { $0.dropSQL != nil }.map(\.index) }
    var configuration: IndexConfiguration { IndexConfiguration(name: "ours", creates: creates, drops: drops) }

    /// Runs `Advisor.analyze` on `store` with the workload file `workload`, the default options but for
    /// `costSource`, its snapshot in `directory`.
    static func run(store: URL, workload: URL, costSource: CostSource = .wallClock, directory: URL) throws -> OurAdvice {
        let started = DispatchTime.now().uptimeNanoseconds
        var options = AnalysisOptions()
        options.temporaryDirectory = directory
        options.costSource = costSource
        let analysis = try Advisor.analyze(storeAt: store, workload: try WorkloadLoader.load([workload]), options: options)
        return OurAdvice(analysis: analysis, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }
}

/// The exhaustive search over our candidates, and the final rounds that compare configurations.
enum ConfigurationSearch {
    /// The search space: our recommendations, then our other candidates (measured ones by the net time
    /// they saved alone, then those set aside before measuring, in our order), up to `width`; our drops too.
    /// `also` adds other configurations' changes (another run's advice) so that the search covers them.
    static func elements(_ advice: OurAdvice, width: Int, also: [IndexConfiguration] = []) -> [IndexConfiguration] {
        let ourCreates = advice.creates
        var elements: [IndexConfiguration] = ourCreates.map { IndexConfiguration(name: "", creates: [$0]) }
        for extra in also {
            for create in extra.creates where !elements.contains(where: { $0.creates.map(IndexConfiguration.key) == [IndexConfiguration.key(create)] }) {
                elements.append(IndexConfiguration(name: "", creates: [create]))
            }
        }
        let wanted = max(width, elements.count)
        let others = advice.analysis.rejectedCandidates.enumerated()
            .filter { !ourCreates.contains($0.element.sql) }
            .sorted { a, b in
                let na = a.element.readSecondsSaved - a.element.writeSecondsAdded, nb = b.element.readSecondsSaved - b.element.writeSecondsAdded
                return na != nb ? na > nb : a.offset < b.offset
            }
            .map(\.element)
        for candidate in others where elements.count < wanted
            && !elements.contains(where: { $0.creates.map(IndexConfiguration.key) == [IndexConfiguration.key(candidate.sql)] }) {
            elements.append(IndexConfiguration(name: "", creates: [candidate.sql]))
        }
        var drops = advice.drops
        for extra in also { for drop in extra.drops where !drops.contains(drop) { drops.append(drop) } }
        return elements + drops.map { IndexConfiguration(name: "", drops: [$0]) }
    }

    /// Every subset of `elements` of up to `depth` changes, measured once each: depth-first, one change
    /// applied on the way down and reverted on the way up, so each subset costs one index build; a read whose
    /// plan was timed under another subset keeps that time. Returns the subsets with their workload time,
    /// fastest first.
    static func search(_ evaluator: WorkloadEvaluator, elements: [IndexConfiguration], depth: Int) throws -> [(IndexConfiguration, Double)] {
        var searched: [(IndexConfiguration, Double)] = []
        func search(_ current: IndexConfiguration, last: WorkloadEvaluator.Applied, from index: Int) throws {
            let measured = try evaluator.measureApplied(applied: last, cachingReads: true)
            searched.append((current, measured.totalSeconds))
            guard current.changeCount < depth else { return }
            for next in index..<elements.count {
                let step = try evaluator.apply(elements[next])
                defer { evaluator.revert(step) }
                var grown = current
                grown.creates += elements[next].creates
                grown.drops += elements[next].drops
                try search(grown, last: step, from: next + 1)
            }
        }
        try search(IndexConfiguration(name: "no new index"), last: .init(added: [], restore: [], buildSeconds: 0, bytes: 0), from: 0)
        return searched.sorted { $0.1 < $1.1 }
    }

    /// How many subsets of up to `depth` of `count` changes ``search(_:elements:depth:)`` measures (the empty one too).
    static func subsetCount(of count: Int, depth: Int) -> Int {
        var total = 0, term = 1  // term = C(count, k)
        for k in 0...max(0, min(depth, count)) {
            total += term
            term = term * (count - k) / (k + 1)
        }
        return total
    }

    /// The deepest search of `count` changes that measures at most `cap` subsets, but never shallower than
    /// `floor`: a full-size store of many candidates and drops (mature-chat: 12 changes, every subset of up
    /// to 8 is 3,797 builds and workload timings) would otherwise take hours.
    static func cappedDepth(count: Int, wanted: Int, floor: Int, cap: Int) -> Int {
        var depth = wanted
        while depth > floor, subsetCount(of: count, depth: depth) > cap { depth -= 1 }
        return depth
    }

    /// The neighbours of `configuration` among `elements`: each of its changes left out, each other element
    /// added, and each of its changes swapped for another element; none already in `known`. A search whose
    /// depth was capped below `configuration`'s size still asks whether one change more, less or other would
    /// beat it.
    static func neighbours(of configuration: IndexConfiguration, elements: [IndexConfiguration], known: [IndexConfiguration]) -> [IndexConfiguration] {
        func keys(_ c: IndexConfiguration) -> Set<String> { Set(c.creates.map(IndexConfiguration.key) + c.drops.map { "DROP \($0)" }) }
        let mine = keys(configuration)
        let inside = elements.filter { mine.isSuperset(of: keys($0)) }
        let outside = elements.filter { !mine.isSuperset(of: keys($0)) }
        var found: [IndexConfiguration] = []
        func add(_ removing: IndexConfiguration?, _ adding: IndexConfiguration?) {
            var next = IndexConfiguration(name: "")
            for element in inside where removing.map({ keys($0) != keys(element) }) ?? true {
                next.creates += element.creates
                next.drops += element.drops
            }
            if let adding {
                next.creates += adding.creates
                next.drops += adding.drops
            }
            guard !(known + found).contains(where: { IndexConfiguration.same($0, next) }) else { return }
            found.append(next)
        }
        for element in inside { add(element, nil) }
        for element in outside { add(nil, element) }
        for removed in inside { for added in outside { add(removed, added) } }
        return found
    }

    /// `configurations` measured once each on the evaluator's copy (applied, timed with reads cached by plan
    /// as in ``search(_:elements:depth:)``, reverted), with their workload time.
    static func measureEach(_ evaluator: WorkloadEvaluator, _ configurations: [IndexConfiguration]) throws -> [(IndexConfiguration, Double)] {
        try configurations.map { configuration in
            let applied = try evaluator.apply(configuration)
            defer { evaluator.revert(applied) }
            return (configuration, try evaluator.measureApplied(applied: applied, cachingReads: true).totalSeconds)
        }
    }

    /// `finalists` measured again in `rounds` rounds, interleaved by statement. Each configuration is built
    /// once, on a fresh copy of `store` of its own (as a user's migration builds it on theirs), and all the
    /// copies stay open; each round times one workload entry on every copy in turn (``WorkloadEvaluator/time(_:)``:
    /// median of `runs` after a warm-up) before it moves to the next entry, in an order rotated by round and
    /// entry (``roundOrder(_:count:)``). So the times of one statement under two configurations are taken
    /// milliseconds apart, and a load that changes over seconds weighs on both alike. Measured a whole
    /// configuration after another, one set's total moved 0.6–1.3× between rounds on a busy machine
    /// (teams-join, where one 7 ms read is 90 % of the workload), and an extra index that only slows a read
    /// came out 1.12× faster in the paired median of nine rounds. In one fixed order, a configuration
    /// measured right after a similar one was 20–30 % faster in every round (the pages its predecessor left
    /// in the OS cache): hence the rotation.
    /// - Throws: ``SQLiteError`` when a copy cannot be made, a change applied or a statement run.
    static func rounds(store: AdviceStore, directory: URL, runs: Int, finalists: [(String, IndexConfiguration)], rounds: Int,
                       say: (String) -> Void) throws -> [MeasuredConfiguration] {
        var evaluators: [WorkloadEvaluator] = []
        defer { for evaluator in evaluators { evaluator.removeCopy() } }
        var applied: [WorkloadEvaluator.Applied] = []
        for (index, finalist) in finalists.enumerated() {
            let evaluator = try WorkloadEvaluator(store: store, copyIn: directory, runs: runs, suffix: "-final\(index)")
            evaluators.append(evaluator)
            applied.append(try evaluator.apply(finalist.1))
        }
        let facts = try evaluators.map { try $0.planFacts() }
        let entries = store.entries
        var measurements = Array(repeating: [ConfigurationMeasurement](), count: finalists.count)
        for round in 0..<rounds {
            say("  final round \(round + 1) of \(rounds): \(finalists.count) configurations, by statement")
            var seconds = Array(repeating: [Double](repeating: 0, count: entries.count), count: finalists.count)
            for (position, entry) in entries.enumerated() {
                for index in roundOrder(round + position, count: finalists.count) {
                    seconds[index][position] = try evaluators[index].time(entry) * Double(entry.count)
                }
            }
            for index in finalists.indices {
                measurements[index].append(evaluators[index].measurement(applied: applied[index], entrySeconds: seconds[index], facts: facts[index]))
            }
        }
        return zip(finalists, measurements).map { MeasuredConfiguration(label: $0.0.0, configuration: $0.0.1, measurements: $0.1) }
    }

    /// The order in which round `round` measures `count` configurations: rotated by the round, and reversed
    /// in odd rounds, so that each configuration comes at another place and after another one.
    static func roundOrder(_ round: Int, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let rotated = (0..<count).map { ($0 + round) % count }
        return round % 2 == 1 ? rotated.reversed() : rotated
    }

    /// Rows of the store's largest table.
    static func largestTable(_ url: URL) throws -> Int {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        var largest = 0
        for row in try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            guard case .text(let table)? = row.first, case .integer(let count)? = try connection.scalar("SELECT count(*) FROM \(SQLIdentifier.quote(table))") else { continue }
            largest = max(largest, Int(count))
        }
        return largest
    }
}
