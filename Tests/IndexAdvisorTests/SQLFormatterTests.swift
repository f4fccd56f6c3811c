import Testing
import Foundation
@testable import IndexAdvisor

@Suite("SQL layout")
struct SQLFormatterTests {
    @Test("SQL is laid out one clause per line, conditions of WHERE and ON on their own lines, subqueries indented")
    func formatter() {
        #expect(SQLFormatter.format("SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 WHERE ( t0.ZFOLDERID = ? AND  t0.ZISARCHIVED = ?)") == """
            SELECT COUNT(DISTINCT t0.Z_PK)
            FROM ZNOTE t0
            WHERE (t0.ZFOLDERID = ?
              AND t0.ZISARCHIVED = ?)
            """)
        #expect(SQLFormatter.format("select a from t left outer join u on u.id = t.u and u.x = 1 where t.d between ? and ? and t.e in (select e from v where f = 2) group by a having count(*) > 1 order by a desc limit 10 offset 5") == """
            select a
            from t
            left outer join u on u.id = t.u
              and u.x = 1
            where t.d between ? and ?
              and t.e in (select e
              from v
              where f = 2)
            group by a
            having count(*) > 1
            order by a desc
            limit 10 offset 5
            """)
        #expect(SQLFormatter.format("UPDATE ZNOTE SET ZBODY = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?") == "UPDATE ZNOTE\nSET ZBODY = ?, Z_OPT = ?\nWHERE Z_PK = ?\n  AND Z_OPT = ?")
        #expect(SQLFormatter.format("INSERT INTO ZNOTE(Z_PK, Z_ENT) VALUES(?, ?)") == "INSERT INTO ZNOTE(Z_PK, Z_ENT)\nVALUES (?, ?)")
        #expect(SQLFormatter.format("DELETE FROM t WHERE a = 'x  FROM  y'") == "DELETE FROM t\nWHERE a = 'x  FROM  y'")
    }

    @Test("formatting changes only white space", arguments: [
        "SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE NSCoreDataStringSearch( t0.ZTITLE, ?, 385, 0) ORDER BY t0.ZTITLE COLLATE NSCollateFinderlike",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5) SELECT count(*) FROM c",
        "SELECT \"a b\", [c d], `e` FROM \"t\" -- trailing comment\nWHERE x = -1 AND y <> 'it''s' /* block */ OR z IS NOT NULL",
        "INSERT INTO t(a) VALUES (1) ON CONFLICT(a) DO UPDATE SET a = excluded.a RETURNING a",
        ReportFixture.sql,
    ])
    func formatterKeepsTokens(sql: String) {
        func tokens(_ text: String) -> [String] {
            let bytes = Array(text.utf8)
            return SQLTokenizer.tokenize(text).map { SQLTokenizer.text(of: $0, in: bytes) }.filter { !$0.allSatisfy(\.isWhitespace) }
        }
        let formatted = SQLFormatter.format(sql)
        #expect(tokens(formatted) == tokens(sql))
        #expect(formatted.split(separator: "\n").count > 1)
    }
}
