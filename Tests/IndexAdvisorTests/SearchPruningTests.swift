import Foundation
import Testing
@testable import IndexAdvisor

/// The search asks and builds less without changing what it finds (issue 18): which statements an index
/// could serve at all, which candidates plan alike, and when repeated runs already agree.
@Suite("Search pruning")
struct SearchPruningTests {
    static func access(constraints: [String] = [], orderBy: [String] = [], reads: [String]) -> TableAccess {
        TableAccess(table: "t", constraints: constraints.map { ColumnConstraint(column: $0, op: .equal, collation: "BINARY", parameter: nil, isJoin: false) },
                    orderBy: orderBy.map { SortTerm(column: $0, isDescending: false, collation: "BINARY") }, readColumns: reads)
    }

    static let table = Table(name: "t", columns: [Column(name: "id", declaredType: "INTEGER", isRowidAlias: true), Column(name: "a", declaredType: "INTEGER"),
                                                  Column(name: "b", declaredType: "INTEGER"), Column(name: "c", declaredType: "TEXT")])

    static func candidate(_ columns: String...) -> IndexCandidate {
        IndexCandidate(table: "t", columns: columns.map { IndexColumn(name: $0) })
    }

    @Test("an index is asked about only where a term, a sort or a covering scan could use it (optoverview.html)")
    func plausibleUse() {
        let search = Self.access(constraints: ["a"], reads: ["id", "a", "b", "c"])
        #expect(PlausibleUse.could(Self.candidate("a", "b"), serve: search, table: Self.table, hasStatistics: false))
        #expect(!PlausibleUse.could(Self.candidate("b", "a"), serve: search, table: Self.table, hasStatistics: false))
        // A skip-scan needs sqlite_stat1: then a constrained later column is enough.
        #expect(PlausibleUse.could(Self.candidate("b", "a"), serve: search, table: Self.table, hasStatistics: true))
        let sorted = Self.access(orderBy: ["c"], reads: ["id", "a", "c"])
        #expect(PlausibleUse.could(Self.candidate("b", "c"), serve: sorted, table: Self.table, hasStatistics: false))
        // SELECT id, b FROM t: any index holding b covers it (the rowid is in every index).
        let narrow = Self.access(reads: ["id", "b"])
        #expect(PlausibleUse.could(Self.candidate("b"), serve: narrow, table: Self.table, hasStatistics: false))
        #expect(!PlausibleUse.could(Self.candidate("a"), serve: narrow, table: Self.table, hasStatistics: false))
        // A partial index is always asked about.
        var partial = Self.candidate("c")
        partial.partialPredicate = "a = 1"
        #expect(PlausibleUse.could(partial, serve: search, table: Self.table, hasStatistics: false))
    }

    @Test("a search's terms are a set: the two orders of two equalities plan alike; a sort or covering does not")
    func signatures() {
        func plan(_ details: String...) -> QueryPlan {
            QueryPlan(steps: details.enumerated().map { .init(id: $0.offset + 2, parent: 0, detail: $0.element) }, findings: [])
        }
        let ab = EquivalentCandidates.signature(of: plan("SEARCH t USING INDEX idx_1 (a=? AND b=?)"), index: "idx_1")
        let ba = EquivalentCandidates.signature(of: plan("SEARCH t USING INDEX idx_2 (b=? AND a=?)"), index: "idx_2")
        let covering = EquivalentCandidates.signature(of: plan("SEARCH t USING COVERING INDEX idx_3 (a=? AND b=?)"), index: "idx_3")
        let sorted = EquivalentCandidates.signature(of: plan("SEARCH t USING INDEX idx_4 (a=? AND b=?)", "USE TEMP B-TREE FOR ORDER BY"), index: "idx_4")
        #expect(ab == ba)
        #expect(ab == "0>SEARCH t USING INDEX • (a=? AND b=?)")
        #expect(ab != covering)
        #expect(ab != sorted)

        let candidates = [Self.candidate("a", "b", "c"), Self.candidate("b", "a"), Self.candidate("a", "b"), Self.candidate("c")]
        let chosen = EquivalentCandidates.choose(candidates, plans: [[1: ab], [1: ab], [1: ab], [1: covering]]) { candidate in
            candidate.columns.first?.name == "b" ? 0.001 : 0.002
        }
        // Of the three equal plans: the narrower pair, and of the pair the more selective lead (b).
        #expect(chosen.kept == [1, 3])
        #expect(chosen.leftOut == [0: 1, 2: 1])
    }

    @Test("runs stop early once they agree within the share: max − min against the median")
    func agreement() {
        #expect(StatementTimer.agree([1.00, 1.05, 0.97], within: 0.10))
        #expect(!StatementTimer.agree([1.00, 1.15, 0.97], within: 0.10))
        #expect(!StatementTimer.agree([], within: 0.10))
    }
}
