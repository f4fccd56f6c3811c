import Foundation
import Testing
import IndexAdvisor
@testable import IndexAdvisorBenchKit

@Suite("The benchmark's own statement scanner and candidate space")
struct CandidateSpaceTests {
    let schema: [String: [String]] = [
        "ZTASK": ["Z_PK", "Z_ENT", "ZLIST", "ZDONE", "ZDUE", "ZTITLE", "ZFLAGS"],
        "ZLIST": ["Z_PK", "ZNAME", "ZOWNER"],
    ]

    @Test("equality, range, sort with its direction, a join and literal terms are read from the text")
    func scanner() {
        let sql = """
            SELECT t0.Z_PK FROM ZTASK t0 JOIN ZLIST t1 ON t1.Z_PK = t0.ZLIST
            WHERE t1.ZOWNER = ? AND t0.ZDONE = 0 AND t0.ZDUE > ? AND (t0.ZFLAGS & 4) != 0 ORDER BY t0.ZDUE DESC, t0.Z_PK
            """
        let accesses = StatementColumns.accesses(of: sql, schema: schema)
        let task = accesses.first { $0.table == "ZTASK" }
        let list = accesses.first { $0.table == "ZLIST" }
        #expect(task?.equality == ["ZLIST", "ZDONE"])
        #expect(task?.range == ["ZDUE"])
        #expect(task?.orderBy.map(\.column) == ["ZDUE", "Z_PK"])
        #expect(task?.orderBy.map(\.isDescending) == [true, false])
        #expect(task?.literalTerms == [#""ZDONE" = 0"#, #"("ZFLAGS" & 4) != 0"#])
        #expect(list?.equality == ["Z_PK", "ZOWNER"])
    }

    @Test("an OR at the top of WHERE gives no literal term; IN and LIKE are equality and range")
    func disjunction() {
        let accesses = StatementColumns.accesses(of: "SELECT * FROM ZTASK WHERE ZDONE = 1 OR ZTITLE LIKE 'a%' OR ZLIST IN (1, 2)", schema: schema)
        #expect(accesses.first?.literalTerms == [])
        #expect(accesses.first?.equality == ["ZDONE", "ZLIST"])
        #expect(accesses.first?.range == ["ZTITLE"])
    }

    @Test("the space holds a descending key, an equality-then-sort key and a partial variant under the literal term")
    func space() {
        let accesses = StatementColumns.accesses(of: "SELECT * FROM ZTASK WHERE ZLIST = ? AND ZDONE = 0 ORDER BY ZDUE DESC", schema: schema)
        let keys = IndependentCandidates.generate(for: accesses).map(ChangeSet.key)
        #expect(keys.contains("ztask(zdue DESC)"))
        #expect(keys.contains("ztask(zlist, zdone, zdue DESC)"))
        #expect(keys.contains("ztask(zlist, zdue DESC) WHERE zdone = 0"))
        #expect(keys.contains("ztask(zdue) WHERE zdone = 0"))
        #expect(Set(keys).count == keys.count)
    }

    @Test("a parameter is replaced by its literal, and a ? inside a string is left alone")
    func literals() {
        let statement = PairStatement(sql: "SELECT * FROM t WHERE a = ?1 AND b = 'what?' AND c = ?2", count: 1)
        #expect(statement.parameterCount == 2)
        #expect(statement.literalSQL([.integer(7), .text("it's")]) == "SELECT * FROM t WHERE a = 7 AND b = 'what?' AND c = 'it''s'")
    }

    @Test("a held-out pair whose file changed after it was committed is refused")
    func editedPairIsRefused() throws {
        let directory = try BenchPairFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("tiny")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let schema = "CREATE TABLE t (a INTEGER);\nINSERT INTO t VALUES (1);\n", workload = "-- freq: 3\nSELECT * FROM t WHERE a = 1;\n"
        try Data(schema.utf8).write(to: folder.appendingPathComponent("schema.sql"))
        try Data(workload.utf8).write(to: folder.appendingPathComponent("workload.sql"))
        let manifest = #"{"name": "tiny", "summary": "one row", "seed": 3, "advisorValues": "literals", "sha256": {"schema.sql": "\#(PairFiles.sha256(Data(schema.utf8)))", "workload.sql": "\#(PairFiles.sha256(Data(workload.utf8)))"}}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("pair.json"))
        let pair = try PairFiles.load(folder, kind: .heldOut, into: directory, scale: 1)
        #expect(pair.statements.map(\.count) == [3])
        try Data((workload + "-- freq: 1\nSELECT 1;\n").utf8).write(to: folder.appendingPathComponent("workload.sql"))
        #expect(throws: BenchmarkKitError.self) { try PairFiles.load(folder, kind: .heldOut, into: directory, scale: 1) }
    }
}
