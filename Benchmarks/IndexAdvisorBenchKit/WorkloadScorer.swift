import Foundation
import IndexAdvisor
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures configurations of a pair the way the advisor does not: each configuration built on a fresh
/// copy of the store of its own; values drawn afresh from the workload's distributions (a seed neither the
/// advisor nor the search used); writes run as committed transactions (every configuration gets the same
/// writes with the same values, in the same order); and both a warm-cache total and a cold-cache one.
///
/// - **Warm**: in each round, statement by statement, every configuration's copy in turn (the order rotated
///   by round and statement, so that a load that changes over seconds weighs on all alike). A read's cost
///   is the mean over its value sets of the fastest of the timed runs; a write's, the mean of its committed
///   executions; the total is Σ count × cost.
/// - **Cold**: after the rounds, each statement once on a new connection right after the copy's file was
///   dropped from the operating system's page cache (`posix_fadvise(POSIX_FADV_DONTNEED)`), × its count: the
///   workload if every execution found the caches cold, where an index's size and the pages it saves count.
package final class WorkloadScorer {
    package struct Settings: Sendable {
        package var rounds = 3
        package var measure: CostMeasure = .wallClock(runs: 3)
        /// Value sets per read; committed executions per write per round.
        package var valueSets = 6
        package var writesPerRound = 12
        package var cold = true
        /// Most seconds one execution may run (``ExecutionTimer/cap``): a total with a statement stopped there
        /// is a lower bound (``Scored/capped``).
        package var executionCap: Double? = 2
        package init() {}
    }

    /// One configuration's measurements.
    package struct Scored: Sendable {
        package var label: String
        package var changes: ChangeSet
        /// The warm total of each round.
        package var rounds: [Double]
        /// Count × cost of each statement, the median over the rounds.
        package var statementCosts: [Double]
        package var readCost: Double
        package var writeCost: Double
        package var cold: Double?
        /// Bytes the change adds (the created indexes' pages less the dropped ones'), and seconds to build.
        package var bytesAdded: Int64
        package var buildSeconds: Double
        /// Reads marked hot that keep a full table scan (or an automatic index), by their text.
        package var hotScans: [String]
        package var fullScans: Int
        package var tempSorts: Int
        /// Each statement's plan (first value set), to say when two sets plan alike.
        package var plans: [PlanLines]
        /// The statements (positions) an execution of which reached the cap: the totals are then lower bounds.
        package var capped: [Int] = []

        package var median: Double { Self.median(rounds) }
        package var spread: (low: Double, high: Double) { (rounds.min() ?? 0, rounds.max() ?? 0) }

        static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }

        /// This total ÷ `other`'s in the same round, the median over the rounds: a load that moves from round
        /// to round cancels.
        package func pairedRatio(to other: Scored) -> Double {
            let ratios = zip(rounds, other.rounds).compactMap { mine, theirs in theirs > 0 ? mine / theirs : (mine == 0 ? 1 : nil) }
            return ratios.isEmpty ? 1 : Self.median(ratios)
        }

        package func coldRatio(to other: Scored) -> Double? {
            guard let mine = cold, let theirs = other.cold, theirs > 0 else { return nil }
            return mine / theirs
        }
    }

    let pair: BenchPair
    let settings: Settings
    let indexes: StoreIndexes

    package init(pair: BenchPair, settings: Settings) throws {
        self.pair = pair
        self.settings = settings
        let store = try SQLiteConnection(path: pair.store.path, mode: .readOnly)
        indexes = try StoreIndexes(connection: store)
    }

    /// Measures each of `configurations` (label, changes) in `directory`.
    /// - Throws: ``SQLiteError`` when a copy cannot be made, a change applied or a statement run.
    package func score(_ configurations: [(String, ChangeSet)], in directory: URL, say: (String) -> Void = { _ in }) throws -> [Scored] {
        var copies: [WorkCopy] = []
        defer { for copy in copies { copy.remove() } }
        var timers: [ExecutionTimer] = []
        var drawers: [ValueDrawer] = []
        var built: [(bytes: Int64, seconds: Double)] = []
        let store = try SQLiteConnection(path: pair.store.path, mode: .readOnly)
        StandIns.install(on: store, for: pair.statements)
        let dropSizes = Dictionary(try store.query("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").compactMap { row -> (String, Int64)? in
            guard let name = row[0].textValue, let size = row[1].integerValue else { return nil }
            return (name, size)
        }, uniquingKeysWith: { a, _ in a })
        for (index, configuration) in configurations.enumerated() {
            let copy = try WorkCopy(store: pair.store, at: directory.appendingPathComponent("score-\(pair.name)-\(index).sqlite"), indexes: indexes,
                                    statements: pair.statements)
            copies.append(copy)
            var creates: [String: String] = [:]
            var order: [String] = []
            for (k, create) in configuration.1.buildOrder.enumerated() {
                let name = ChangeSet.name(create) ?? "unnamed_\(k)"
                creates[name] = create
                order.append(name)
            }
            try copy.set(creates: creates, order: order, drops: Set(configuration.1.drops))
            let bytes = order.reduce(Int64(0)) { $0 + (copy.bytes[$1] ?? 0) } - configuration.1.drops.reduce(Int64(0)) { $0 + (dropSizes[$1] ?? 0) }
            built.append((bytes, order.reduce(0) { $0 + (copy.buildSeconds[$1] ?? 0) }))
            try copy.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            timers.append(ExecutionTimer(connection: copy.connection, measure: settings.measure, cap: settings.executionCap))
            drawers.append(ValueDrawer(connection: store, seed: pair.seed &+ 2_000_003, sequenceOffset: 10_000_000))
        }
        // The reads' value sets, the same for every configuration.
        let readDrawer = ValueDrawer(connection: store, seed: pair.seed &+ 3_000_017, sequenceOffset: 30_000_000)
        let readSets: [[[SQLValue]]] = try pair.statements.map { statement in
            guard !statement.isWrite else { return [] }
            return statement.parameterCount == 0 ? [[]] : try (0..<settings.valueSets).map { _ in try readDrawer.values(for: statement) }
        }
        let plans: [[PlanLines]] = try copies.map { copy in
            try pair.statements.enumerated().map { position, statement in
                let values = statement.isWrite ? try ValueDrawer(connection: store, seed: pair.seed &+ 5, sequenceOffset: 40_000_000).values(for: statement) : readSets[position][0]
                return (try? PlanLines.read(statement.sql, values: values, on: copy.connection)) ?? PlanLines(lines: ["(does not plan)"])
            }
        }
        // A write that cannot be committed twice (an INSERT with a literal primary key) is timed in a savepoint
        // that is rolled back, for every configuration alike: found by running it twice in a savepoint on the
        // first copy (undone), before any round.
        var rolledBack = Set<Int>()
        if let probe = copies.first {
            let drawer = ValueDrawer(connection: store, seed: pair.seed &+ 7, sequenceOffset: 50_000_000)
            let timer = ExecutionTimer(connection: probe.connection, measure: .counters)
            for (position, statement) in pair.statements.enumerated() where statement.isWrite {
                try probe.connection.execute("SAVEPOINT bench_probe")
                do {
                    for _ in 0..<2 { _ = try timer.once(statement.sql, values: try drawer.values(for: statement), isWrite: true, commits: true) }
                } catch {
                    rolledBack.insert(position)
                    say("  S\(position + 1) cannot be committed twice (\(error)): timed rolled back")
                }
                try probe.connection.execute("ROLLBACK TO bench_probe; RELEASE bench_probe")
            }
        }
        var totals = Array(repeating: [Double](), count: configurations.count)
        var perStatement = Array(repeating: Array(repeating: [Double](), count: pair.statements.count), count: configurations.count)
        for round in 0..<settings.rounds {
            say("  round \(round + 1) of \(settings.rounds): \(configurations.count) configurations, statement by statement")
            var sums = Array(repeating: 0.0, count: configurations.count)
            for (position, statement) in pair.statements.enumerated() {
                for c in Self.order(round + position, count: configurations.count) {
                    let cost: Double
                    if statement.isWrite {
                        let executions = max(1, min(settings.writesPerRound, statement.count))
                        var sum = 0.0
                        for _ in 0..<executions {
                            let values = try drawers[c].values(for: statement)
                            sum += try timers[c].cost(statement.sql, values: values, isWrite: true, commits: !rolledBack.contains(position))
                        }
                        cost = sum / Double(executions)
                    } else {
                        var sum = 0.0
                        for values in readSets[position] { sum += try timers[c].cost(statement.sql, values: values, isWrite: false) }
                        cost = sum / Double(max(1, readSets[position].count))
                    }
                    let weighted = cost * Double(statement.count)
                    sums[c] += weighted
                    perStatement[c][position].append(weighted)
                }
            }
            for c in configurations.indices { totals[c].append(sums[c]) }
        }
        var colds: [Double?] = Array(repeating: nil, count: configurations.count)
        var capped = timers.map(\.capped)
        if settings.cold {
            for (c, copy) in copies.enumerated() {
                let (total, stopped) = try coldTotal(copy, readSets: readSets, drawer: drawers[c], rolledBack: rolledBack)
                colds[c] = total
                capped[c].formUnion(stopped)
            }
        }
        return configurations.indices.map { c in
            let costs = perStatement[c].map(Scored.median)
            let writes = zip(pair.statements, costs).filter { $0.0.isWrite }.reduce(0) { $0 + $1.1 }
            let hot = zip(pair.statements, plans[c]).filter { $0.0.isHot && !$0.0.isWrite && $0.1.scansOrBuildsAutomaticIndex }.map(\.0.sql)
            return Scored(label: configurations[c].0, changes: configurations[c].1, rounds: totals[c], statementCosts: costs,
                          readCost: costs.reduce(0, +) - writes, writeCost: writes, cold: colds[c], bytesAdded: built[c].bytes,
                          buildSeconds: built[c].seconds, hotScans: hot,
                          fullScans: zip(pair.statements, plans[c]).filter { !$0.0.isWrite && $0.1.scansOrBuildsAutomaticIndex }.count,
                          tempSorts: plans[c].filter(\.sortsWithTempBTree).count, plans: plans[c],
                          capped: pair.statements.indices.filter { capped[c].contains(pair.statements[$0].sql) })
        }
    }

    /// The cold-cache total of the configuration on `copy` (see the type's documentation), and the statements
    /// stopped at the cap.
    func coldTotal(_ copy: WorkCopy, readSets: [[[SQLValue]]], drawer: ValueDrawer, rolledBack: Set<Int>) throws -> (Double, Set<String>) {
        try copy.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        var total = 0.0
        var capped = Set<String>()
        for (position, statement) in pair.statements.enumerated() {
            let connection = try SQLiteConnection(path: copy.url.path, mode: .readWrite)
            StandIns.install(on: connection, for: pair.statements)
            let timer = ExecutionTimer(connection: connection, measure: settings.measure == .counters ? .counters : .wallClock(runs: 0),
                                       cap: settings.executionCap)
            let values = statement.isWrite ? try drawer.values(for: statement) : readSets[position].first ?? []
            _ = try timer.statement(statement.sql)
            Self.dropFromPageCache(copy.url)
            // A write that cannot be committed twice (see ``score(_:in:say:)``) is timed rolled back here too.
            let cost = try timer.once(statement.sql, values: values, isWrite: statement.isWrite,
                                      commits: statement.isWrite && !rolledBack.contains(position))
            total += cost * Double(statement.count)
            capped.formUnion(timer.capped)
        }
        return (total, capped)
    }

    /// Asks the operating system to drop the file's cached pages (Linux: `posix_fadvise`; elsewhere nothing).
    static func dropFromPageCache(_ url: URL) {
        #if os(Linux)
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { return }
        fdatasync(fd)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
        close(fd)
        #endif
    }

    /// The order in which `count` configurations are measured: rotated, and reversed every other time.
    static func order(_ turn: Int, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let rotated = (0..<count).map { ($0 + turn) % count }
        return turn % 2 == 1 ? rotated.reversed() : rotated
    }
}
