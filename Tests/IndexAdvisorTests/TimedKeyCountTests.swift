import Testing
import Foundation
@testable import IndexAdvisor

/// Issue 39, hostile round 7, F8: a write whose workload keys match no row of the snapshot is timed on existing
/// rows' keys, and its note counted the value sets chosen (30) where the timing kept 3; and when no existing
/// row could stand in (an empty table, no row meeting the write's other conditions) the write was timed as a
/// no-op with a note at most (none at all for an empty table). A warehouse of my own: bins, and a stock log
/// their trigger keeps.
@Suite("Value sets timed on other keys, counted as timed")
struct TimedKeyCountTests {
    static let warehouse = """
        CREATE TABLE bin (code INTEGER PRIMARY KEY, qty INTEGER, zone TEXT, label TEXT);
        CREATE TABLE stock_log (id INTEGER PRIMARY KEY, label TEXT, seen INTEGER);
        CREATE TRIGGER bin_qty AFTER UPDATE OF qty ON bin BEGIN UPDATE stock_log SET seen = seen + 1 WHERE label = NEW.label; END;
        """

    /// The `code = N` of a timed execution's text.
    func code(_ execution: TimedExecution) -> Int? {
        execution.sql.components(separatedBy: "code = ").last.flatMap { Int($0.prefix { $0.isNumber }) }
    }

    @Test("a slow write timed with 3 of its 30 value sets counts the replaced keys among those 3")
    func countedAmongTimed() throws {
        let store = try FixtureStore(Self.warehouse + """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8000) INSERT INTO bin SELECT i, 0, 'a', 'L' || (i % 300) FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120000) INSERT INTO stock_log SELECT i, 'L' || (i % 3000), 0 FROM n;
            """)
        // Heaviest first; every other one a bin the app creates first (codes past 500,000), the others the store's.
        var text = "", workloadCodes: Set<Int> = []
        for i in 0..<30 {
            let code = i % 2 == 0 ? 500_000 + i : 10 + i
            workloadCodes.insert(code)
            text += "-- freq: \(60 - i)\nUPDATE bin SET qty = \(i) WHERE code = \(code);\n"
        }
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        expectTrueReport(result)
        let update = try #require(result.statements.first)
        let timed = try #require(update.timedExecutions)
        #expect(update.valueSetsTimed == 3 && timed.count == 3, "\(timed.map(\.sql))")
        let replaced = timed.filter { code($0).map { !workloadCodes.contains($0) } ?? false }.count
        #expect(replaced == 2, "\(timed.map(\.sql))")
        #expect(update.valueSetsOnExistingRows == 2)
        #expect(update.valueSetsChangingNoRow == nil)
        let notes = update.notes.map(\.text).filter { $0.contains("match no row") }
        #expect(notes == ["The workload's code values in 2 of the 3 value sets timed match no row of bin on the snapshot (rows the app creates before it changes them): those are timed on an existing row's code instead, a row the write changes, so that the write and its triggers do their work."], "\(notes)")
        #expect(!result.warnings.contains { $0.text.contains("no-op") })
    }

    @Test("a write to a table the snapshot holds no row of warns in every format that it times a no-op")
    func emptyTable() throws {
        let store = try FixtureStore(Self.warehouse + """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO stock_log SELECT i, 'L' || (i % 700), 0 FROM n;
            """)
        let text = (1...5).map { "-- freq: \(10 * $0)\nUPDATE bin SET qty = qty + 1 WHERE code = \(7_000 + $0);\n" }.joined()
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        let update = try #require(result.statements.first)
        #expect(update.valueSetsTimed == 5)
        #expect(update.valueSetsChangingNoRow == 5)
        #expect(update.valueSetsOnExistingRows == nil)
        #expect(update.notes.contains { $0.text == "The workload's code values match no row of bin on the snapshot, which has none: those are timed as the app ran them, changing no row, so the work of the write and its triggers is not in its time." },
                "\(update.notes.map(\.text))")
        let warning = "S1 (UPDATE bin SET qty = qty + 1 WHERE code = 7001) was timed on the app's own code in all 5 value sets timed, which match no row of bin on the snapshot, which has none: those executions change no row, so its figure times a no-op, not the app's write (nor its triggers' work); time it on a store that holds the rows it changes"
        #expect(result.warnings.map(\.text) == [warning], "\(result.warnings.map(\.text))")
        for format in [ReportFormat.markdown, .html, .json] {
            #expect(checkedRender(result, format).contains("so its figure times a no-op, not the app"), "\(format)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(result).utf8)) as? [String: Any]
        let statement = (json?["statements"] as? [[String: Any]])?.first
        #expect(statement?["valueSetsChangingNoRow"] as? Int == 5)
        #expect((json?["warnings"] as? [String]) == [warning])
    }

    @Test("value sets no row meets the other conditions of are counted apart, with their share of the figure's weight")
    func otherConditions() throws {
        let store = try FixtureStore(Self.warehouse + """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO bin SELECT i, 0, 'a', 'L' || (i % 50) FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO stock_log SELECT i, 'L' || (i % 50), 0 FROM n;
            """)
        // Zone 'b' holds no bin: those four stay the app's, three times as heavy as the four of zone 'a'.
        var text = ""
        for i in 1...4 {
            text += "-- freq: 30\nUPDATE bin SET qty = 5 WHERE code = \(90_000 + i) AND zone = 'b';\n"
            text += "-- freq: 10\nUPDATE bin SET qty = 5 WHERE code = \(80_000 + i) AND zone = 'a';\n"
        }
        let before = try store.fileState()
        let result = try Advisor.analyze(storeAt: store.url, workload: WorkloadLoader.parse(text, file: "w.sql", format: .sql), options: quickOptions())
        #expect(try store.fileState() == before)
        let update = try #require(result.statements.first)
        let timed = try #require(update.timedExecutions)
        #expect(update.valueSetsTimed == 8 && timed.count == 8)
        #expect(update.valueSetsOnExistingRows == 4)
        #expect(update.valueSetsChangingNoRow == 4)
        // The zone 'b' ones are timed on the app's codes; the zone 'a' ones on bins of the store.
        for execution in timed {
            let timedCode = try #require(code(execution))
            #expect(execution.sql.hasSuffix("zone = 'b'") ? (90_001...90_004).contains(timedCode) : (1...3_000).contains(timedCode), "\(execution.sql)")
        }
        let warnings = result.warnings.map(\.text).filter { $0.contains("no-op") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("was timed on the app's own code in 4 of the 8 value sets timed (75% of its figure's weight), which match no row of bin on the snapshot, and no existing row tried is one the write changes (none meets its other conditions on zone, or the write fails on it)") == true, "\(warnings)")
        #expect(update.notes.map(\.text).filter { $0.contains("values in 4 of the 8 value sets timed") }.count == 2, "\(update.notes.map(\.text))")
    }

    @Test("the keys' sources move and are trimmed with the value sets")
    func reorderedAndTrimmed() {
        let keys = ExistingRowKeys(table: "bin", columns: ["code"], otherColumns: [], tableIsEmpty: false,
                                   sources: [.existingRow, .own, .ownMatchingNoRow, .existingRow, .existingRow])
        #expect(keys.onExistingRows == 3 && keys.matchingNoRow == 1)
        let kept = keys.movingFirst(2).prefix(2)
        #expect(kept.sources == [.ownMatchingNoRow, .existingRow])
        #expect(kept.notes == [
            "The workload's code values in 1 of the 2 value sets timed match no row of bin on the snapshot (rows the app creates before it changes them): those are timed on an existing row's code instead, a row the write changes, so that the write and its triggers do their work.",
            "The workload's code values in 1 of the 2 value sets timed match no row of bin on the snapshot, and no existing row tried is one the write changes (the write fails on them): those are timed as the app ran them, changing no row, so the work of the write and its triggers is not in its time.",
        ])
        #expect(kept.noOpProblem(weights: [1, 3])?.hasPrefix("was timed on the app's own code in 1 of the 2 value sets timed (25% of its figure's weight), which") == true)
        #expect(keys.prefix(2).noOpProblem(weights: nil) == nil)
        #expect(keys.movingFirst(9) == keys)
    }
}
