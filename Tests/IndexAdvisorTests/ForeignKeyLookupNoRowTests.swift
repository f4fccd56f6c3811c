import Testing
import Foundation
@testable import IndexAdvisor

/// Hostile round 8, F1: a parent's DELETE (or key UPDATE) under enforced foreign keys looks up the rows that
/// refer to each row it changes; without an index on the child's key that is a full scan of the child table,
/// printed as a top-level `SCAN child` of the write's own plan. Timed on values that change no row (the
/// snapshot holds no such parent), the write shows none of that work, so its time cannot make it hot: the
/// gate judges the lookup by how often the write runs, as it does a trigger's scan, and every format says
/// the write was timed as a no-op, whatever its WHERE compares.
@Suite("A write's foreign-key lookup is judged by how often it runs, and a write that changed no row says so")
struct ForeignKeyLookupNoRowTests {
    static let schema = """
        CREATE TABLE vendor (id INTEGER PRIMARY KEY, region TEXT NOT NULL, name TEXT);
        CREATE INDEX vendor_region ON vendor(region);
        CREATE TABLE product (id INTEGER PRIMARY KEY, vendor_id INTEGER REFERENCES vendor(id), label TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 800)
        INSERT INTO vendor SELECT i, CASE i % 4 WHEN 0 THEN 'north' WHEN 1 THEN 'south' WHEN 2 THEN 'east' ELSE 'west' END, 'v' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
        INSERT INTO product SELECT i, 1 + i % 800, 'p' || i FROM n;
        """

    static func workload(delete: String) -> Workload {
        WorkloadLoader.parse("""
            PRAGMA foreign_keys = ON;
            -- freq: 400
            SELECT label FROM product WHERE id = 77;
            -- freq: 40
            SELECT sum(length(label)) FROM product WHERE id BETWEEN 1 AND 30000;
            -- freq: 350
            \(delete);
            """, file: "vendors.sql", format: .sql)
    }

    @Test("check fails the DELETE whose lookup scans product, timed changing no row; it names the lookup and why")
    func checkFailsLookup() throws {
        let store = try FixtureStore(Self.schema)
        let before = try Data(contentsOf: store.url)
        let result = try Advisor.profile(storeAt: store.url, workload: Self.workload(delete: "DELETE FROM vendor WHERE region = 'arctic'"), options: quickOptions())
        let delete = try #require(result.statements.first { $0.kind == .delete })
        #expect(delete.planBefore?.steps.map(\.detail) == ["SEARCH vendor USING COVERING INDEX vendor_region (region=?)", "SCAN product"])
        #expect(delete.timingBefore?.rowsPerExecution == 0)
        #expect(delete.valueSetsChangingNoRow == delete.valueSetsTimed)
        let failures = CheckEvaluator.evaluate(result, baseline: nil, thresholds: CheckThresholds()).filter(\.isFailure)
        #expect(failures.map(\.kind) == [.fullTableScan])
        let message = try #require(failures.first?.message)
        #expect(message.contains("full table scan of product in a foreign key's lookup of the rows that refer to the changed ones"), "\(message)")
        #expect(message.contains("60,000 rows"), "\(message)")
        #expect(message.contains("it changed no row on the snapshot"), "\(message)")
        #expect(message.contains("×350, 44% of the workload's executions"), "\(message)")
        #expect(try Data(contentsOf: store.url) == before)
    }

    @Test("analyze warns that the write was timed as a no-op, in its note and its warning; a DELETE that removes rows gets neither")
    func noOpWarned() throws {
        let store = try FixtureStore(Self.schema)
        let noOp = try Advisor.analyze(storeAt: store.url, workload: Self.workload(delete: "DELETE FROM vendor WHERE region = 'arctic'"), options: quickOptions())
        let delete = try #require(noOp.statements.first { $0.kind == .delete })
        let warned = noOp.warnings.compactMap { warning -> String? in
            if case .statementFailed(_, _, let problem) = warning { return problem }
            return nil
        }
        #expect(warned.count == 1)
        #expect(warned.first?.hasPrefix("was timed on the app's own values of region in ") == true, "\(warned)")
        #expect(warned.first?.contains("which meet no row of vendor on the snapshot: those executions change no row") == true, "\(warned)")
        #expect(delete.notes.contains { note in
            if case .other(let text) = note { return text.contains("changing no row, so the work of the write, its triggers and its foreign keys' lookups is not in its time") }
            return false
        })
        // A DELETE of rows that exist (one vendor, its products looked up) is timed doing its work: no such word.
        let real = try Advisor.analyze(storeAt: store.url, workload: Self.workload(delete: "DELETE FROM vendor WHERE id = 12"), options: quickOptions())
        let realDelete = try #require(real.statements.first { $0.kind == .delete })
        #expect(realDelete.valueSetsChangingNoRow == nil)
        #expect((realDelete.timingBefore?.rowsPerExecution ?? 0) > 0)
        #expect(!real.warnings.contains { if case .statementFailed = $0 { true } else { false } })
    }
}
