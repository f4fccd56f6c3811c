import Testing
import Foundation
@testable import IndexAdvisor

/// "The planner no longer uses it once …" names the picks that took its statements, not every pick so far.
@Suite("A candidate the planner passes over names the picks that took its statements")
struct PlannerNoLongerUsesTests {
    // Regression (a new user's bookshop): `book(published)` was said to lose to an ISBN index, a shelf index
    // and others no statement of it touched. Shape of my own: a library with a shelf table beside the books.
    static let schema = """
        CREATE TABLE book (id INTEGER PRIMARY KEY, isbn TEXT NOT NULL, genre INTEGER NOT NULL, published REAL NOT NULL, title TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO book SELECT i, 'isbn-' || (i * 7919 % 1000003), i % 60, 1e9 + i * 17.0, 'Book ' || i FROM n;
        CREATE TABLE shelf (id INTEGER PRIMARY KEY, branch INTEGER, book_id INTEGER, qty INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
        INSERT INTO shelf SELECT i, i % 20, i, i % 7 FROM n;
        """
    static let workload = """
        -- freq: 500
        SELECT * FROM book WHERE isbn = 'isbn-4242';
        -- freq: 100
        SELECT id, title FROM book WHERE genre = 12 ORDER BY published DESC;
        -- freq: 80
        SELECT qty FROM shelf WHERE book_id = 77;
        """

    @Test("each such rejection names only picks its statements use")
    func namesServingPicks() throws {
        let result = try analyze(Self.schema, workload: Self.workload)
        expectTrueReport(result)
        let passedOver = result.rejectedCandidates.filter { $0.rejection.kind == "planner-no-longer-uses" }
        #expect(!passedOver.isEmpty)
        for entry in passedOver {
            guard case .plannerNoLongerUses(let picks) = entry.rejection else { continue }
            #expect(!picks.isEmpty)
            // Every pick named is on the candidate's table and used by a statement on that table.
            for name in picks {
                let pick = try #require(result.recommendations.first { $0.name == name })
                #expect(pick.table == entry.table, "\(entry.displayName): \(picks)")
            }
        }
        let genre = try #require(passedOver.first { $0.columns == ["genre"] })
        #expect(genre.reason == "the planner no longer uses it once idx_book_genre_published_title exists")
    }
}
