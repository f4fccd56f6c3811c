import Testing
import Foundation
@testable import IndexAdvisor

/// The six real cases of shared/cases (copied to Fixtures/cases), each analysed end to end on its own store
/// and judged by the `-- fix` block of its expected.md, read here: every `CREATE INDEX` of the fix is
/// recommended — or, on a Core Data store, shown as an alternative the model cannot declare — with the same
/// table, key columns and predicate; every `DROP INDEX` is advised (dropped, or replaced by an alternative);
/// and nothing else is recommended but what its `-- also acceptable` block names.
@Suite("Shared cases: the documented fix")
struct SharedCaseTests {
    static let cases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/cases")

    /// One index of a fix, normalised: table, key columns (names, with DESC when descending; `COLLATE
    /// BINARY` and `ASC` are the defaults and dropped) and predicate, all case-folded, quotes removed.
    struct IndexForm: Hashable, CustomStringConvertible {
        var table: String
        var columns: [String]
        var predicate: String?
        var description: String { "\(table)(\(columns.joined(separator: ", ")))" + (predicate.map { " WHERE \($0)" } ?? "") }

        static func normalised(_ text: String) -> String {
            text.replacingOccurrences(of: "\"", with: "").lowercased()
                .replacingOccurrences(of: " collate binary", with: "").replacingOccurrences(of: " asc", with: "")
                .split(separator: " ").joined(separator: " ")
        }

        init(table: String, columns: [String], predicate: String?) {
            self.table = Self.normalised(table)
            self.columns = columns.map { Self.normalised($0).trimmingCharacters(in: .whitespaces) }
            self.predicate = predicate.map(Self.normalised)
        }

        /// From `CREATE INDEX [IF NOT EXISTS] name ON table (a COLLATE BINARY ASC, b) [WHERE …];`.
        init?(createSQL: String) {
            let pattern = #"(?i)^CREATE\s+INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?\S+\s+ON\s+"?(\w+)"?\s*\((.*?)\)\s*(?:WHERE\s+(.*?))?;?$"#
            guard let regex = try? NSRegularExpression(pattern: pattern),
                  let match = regex.firstMatch(in: createSQL, range: NSRange(createSQL.startIndex..., in: createSQL)),
                  let table = Range(match.range(at: 1), in: createSQL), let columns = Range(match.range(at: 2), in: createSQL) else { return nil }
            let predicate = Range(match.range(at: 3), in: createSQL).map { String(createSQL[$0]) }
            self.init(table: String(createSQL[table]), columns: createSQL[columns].split(separator: ",").map(String.init), predicate: predicate)
        }
    }

    /// The `-- fix` block: the index forms to create and the index names to drop.
    static func fix(of caseName: String) throws -> (creates: Set<IndexForm>, drops: Set<String>) {
        let expected = try String(contentsOf: cases.appendingPathComponent(caseName).appendingPathComponent("expected.md"), encoding: .utf8)
        let block = try #require(expected.components(separatedBy: "```sql\n-- fix\n").dropFirst().first?.components(separatedBy: "```").first)
        var creates: Set<IndexForm> = [], drops: Set<String> = []
        for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.hasPrefix("--") && !line.isEmpty {
            if line.uppercased().hasPrefix("CREATE INDEX") {
                creates.insert(try #require(IndexForm(createSQL: line), "unreadable fix line: \(line)"))
            } else if line.uppercased().hasPrefix("DROP INDEX") {
                drops.insert(String(line.dropFirst("DROP INDEX ".count)).trimmingCharacters(in: CharacterSet(charactersIn: "; ")).lowercased())
            } else {
                Issue.record("unexpected fix line: \(line)")
            }
        }
        return (creates, drops)
    }

    /// The index forms of an expected.md's `-- also acceptable` block (case 06's review accepts the NOCASE
    /// stand-in's index beside the fix), or none.
    static func alsoAcceptable(of caseName: String) throws -> Set<IndexForm> {
        let expected = try String(contentsOf: cases.appendingPathComponent(caseName).appendingPathComponent("expected.md"), encoding: .utf8)
        guard let block = expected.components(separatedBy: "```sql\n-- also acceptable\n").dropFirst().first?.components(separatedBy: "```").first else { return [] }
        return Set(block.split(separator: "\n").compactMap { IndexForm(createSQL: $0.trimmingCharacters(in: .whitespaces)) })
    }

    static func analyze(_ caseName: String) throws -> AnalysisResult {
        let folder = cases.appendingPathComponent(caseName)
        let store = try FixtureStore(try String(contentsOf: folder.appendingPathComponent("schema.sql"), encoding: .utf8))
        let workload = try WorkloadLoader.load([folder.appendingPathComponent("workload.sql")])
        return try Advisor.analyze(storeAt: store.url, workload: workload, options: quickOptions())
    }

    @Test("each case's fix block is what the analysis advises", arguments: [
        "01-coredata-isnotnull-scan", "04-coredata-equality-range-compound", "06-swiftdata-sort-collation-tempbtree",
        "09-sqlite-orderby-tempbtree-union", "11-sqlite-like-case-insensitive-prefix", "13-sqlite-redundant-prefix-indexes-write-cost",
    ])
    func documentedFix(caseName: String) throws {
        let fix = try Self.fix(of: caseName)
        let result = try Self.analyze(caseName)
        expectTrueReport(result)
        func form(_ table: String, _ columns: [RecommendedColumn], _ predicate: String?) -> IndexForm {
            IndexForm(table: table, columns: columns.map { $0.name + ($0.isDescending ? " desc" : "") + ($0.collation.uppercased() == "BINARY" ? "" : " collate \($0.collation)") },
                      predicate: predicate)
        }
        let recommended = result.recommendations.map { form($0.table, $0.columns, $0.partialPredicate) }
        let alternatives = (result.alternatives ?? []).map { form($0.table, $0.columns, $0.partialPredicate) }
        // Alternatives exist only on Core Data stores; on plain stores every form competes in one set.
        if !result.store.isCoreData { #expect(result.alternatives == nil) }
        // Every form of the fix, and beside it nothing but what the case calls also acceptable.
        let advised = Set(recommended + alternatives)
        let acceptable = try Self.alsoAcceptable(of: caseName)
        #expect(advised.isSuperset(of: fix.creates) && advised.subtracting(fix.creates).isSubset(of: acceptable),
                "advised \(recommended) + alternatives \(alternatives), the fix is \(fix.creates)")
        let dropped = Set(result.existingIndexes.filter { $0.dropSQL != nil }.map { $0.index.lowercased() })
        let replaced = Set((result.alternatives ?? []).flatMap(\.replaces).map { $0.lowercased() })
        #expect(dropped.union(replaced) == fix.drops)
    }

    @Test("the fix block reader reads the forms a fix is written in")
    func fixReader() throws {
        let form = try #require(IndexForm(createSQL: "CREATE INDEX IF NOT EXISTS Z_Movie_x ON ZMOVIE (ZADDED COLLATE BINARY ASC, ZTITLE DESC) WHERE ZADDED IS NOT NULL;"))
        #expect(form == IndexForm(table: "zmovie", columns: ["zadded", "ztitle desc"], predicate: "zadded is not null"))
        let fix = try Self.fix(of: "01-coredata-isnotnull-scan")
        #expect(fix.creates.count == 2)
        #expect(fix.drops == ["z_message_destructiondate", "z_message_expirationdate"])
    }
}
