import Foundation
import Testing
@testable import IndexAdvisor

/// A UNIQUE rule on `(a, b)` when `(a)` is unique already is redundant: the uniqueness audit says it is implied,
/// by which key, and never proposes dropping an index that backs a constraint of `CREATE TABLE`.
@Suite("implied uniqueness")
struct ImpliedUniquenessTests {
    static let schema = """
        CREATE TABLE account (id INTEGER PRIMARY KEY, handle TEXT UNIQUE, region INTEGER, code INTEGER, email TEXT, UNIQUE (handle, region));
        CREATE UNIQUE INDEX account_handle_code ON account (handle, code);
        CREATE UNIQUE INDEX account_id_region ON account (id, region);
        CREATE UNIQUE INDEX account_code_region ON account (code, region);
        CREATE UNIQUE INDEX account_handle_nocase_email ON account (handle COLLATE NOCASE, email);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO account SELECT i, 'user' || i, i % 11, i, 'u' || i || '@example.com' FROM n;
        """

    @Test("each UNIQUE index a narrower key implies says so; the others stay enforced; nothing backing CREATE TABLE is dropped")
    func audit() throws {
        let result = try analyze(Self.schema, workload: "-- freq: 20\nSELECT * FROM account WHERE region = 3;\n")
        func advice(_ columns: [String]) throws -> String {
            try #require(result.uniqueness.first { $0.table == "account" && $0.columns == columns }).advice
        }
        let constraint = try advice(["handle", "region"])
        #expect(constraint.contains("implied by the UNIQUE index sqlite_autoindex_account_1 on (handle)"), "\(constraint)")
        #expect(constraint.contains("declared in CREATE TABLE") && constraint.contains("nothing is proposed"))
        let index = try advice(["handle", "code"])
        #expect(index.contains("implied by the UNIQUE index sqlite_autoindex_account_1 on (handle)") && !index.contains("CREATE TABLE"), "\(index)")
        #expect(try advice(["id", "region"]).contains("implied by the INTEGER PRIMARY KEY id"))
        #expect(try advice(["code", "region"]) == "enforced by the UNIQUE index account_code_region")
        // Unique under BINARY is not unique under NOCASE ('Ann' and 'ann'): that rule is not implied.
        #expect(try advice(["handle", "email"]) == "enforced by the UNIQUE index account_handle_nocase_email")
        let autoindexes = result.existingIndexes.filter { $0.index.hasPrefix("sqlite_autoindex") }
        #expect(autoindexes.allSatisfy { $0.dropSQL == nil })
        _ = checkedRender(result, .markdown)
    }

    @Test("of two UNIQUE indexes on the same columns, only the second is implied, by the first")
    func twins() throws {
        let connection = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE t (a INTEGER, b INTEGER);
            CREATE UNIQUE INDEX t_ab ON t (a, b);
            CREATE UNIQUE INDEX t_ba ON t (b, a);
            """)
        let table = try #require(try SchemaReader.read(from: connection).table(named: "t"))
        let first = try #require(table.indexes.first { $0.name == "t_ab" })
        let second = try #require(table.indexes.first { $0.name == "t_ba" })
        let implying = [first, second].map { ImpliedUniqueness.implyingKey(for: $0.columns, named: $0.name, in: table)?.name }
        #expect(implying.compactMap { $0 }.count == 1)
        #expect(Set(implying.compactMap { $0 }).isSubset(of: ["t_ab", "t_ba"]))
    }
}
