import Testing
import Foundation
@testable import IndexAdvisor

/// Regression (a breaking helper): `lower(s) = 'open'` searched through an expression index on `lower(s)`,
/// and the statement's note still said that no index on the column can serve it.
@Suite("A function an expression index serves gets no 'no index can serve it' note")
struct ExpressionIndexNoteTests {
    @Test("lower(email) with an index on lower(email): no note; upper(city) without one: the note")
    func expressionIndex() throws {
        let result = try analyze("""
            CREATE TABLE member (id INTEGER PRIMARY KEY, email TEXT NOT NULL, city TEXT NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO member SELECT i, 'Member' || i || '@Example.org', 'City' || (i % 90) FROM n;
            CREATE INDEX member_email_folded ON member(lower(email));
            """, workload: """
            -- freq: 40
            SELECT id FROM member WHERE lower(email) = 'member77@example.org';
            -- freq: 40
            SELECT id FROM member WHERE upper(city) = 'CITY7';
            """)
        let byEmail = try #require(result.statements.first { $0.sql.contains("lower(email)") })
        #expect(byEmail.planBefore?.findings.contains { ($0.constraints ?? "").contains("<expr>") } == true)
        #expect(!byEmail.notes.map(\.text).contains { $0.contains("an index on the column cannot serve it") })
        let byCity = try #require(result.statements.first { $0.sql.contains("upper(city)") })
        #expect(byCity.notes.map(\.text).contains { $0.contains("is filtered through upper(…) on a column: an index on the column cannot serve it") })
    }
}
