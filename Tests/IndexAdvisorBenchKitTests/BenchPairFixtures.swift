import Foundation
import IndexAdvisor
@testable import IndexAdvisorBenchKit

/// Small pairs built for the benchmark's own tests, each with one right answer, measured on SQLite's work
/// counters so that the answer does not move with the machine's load.
enum BenchPairFixtures {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("benchkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func pair(_ name: String, schema: String, workload: String, in directory: URL, seed: UInt64 = 11) throws -> BenchPair {
        let store = directory.appendingPathComponent("\(name).sqlite")
        try PairBuilder.build(schema: schema, at: store, seed: seed, scale: 1)
        return BenchPair(name: name, kind: .regression, summary: name, store: store,
                         statements: try PairFiles.statements(of: workload, file: name), seed: seed)
    }

    static var settings: PairEvaluation.Settings {
        var settings = PairEvaluation.Settings()
        settings.advisorRuns = 1
        settings.search.measure = .counters
        settings.search.valueSets = 3
        settings.search.depth = 3
        settings.search.width = 12
        settings.scorer.measure = .counters
        settings.scorer.rounds = 1
        settings.scorer.valueSets = 3
        settings.scorer.writesPerRound = 5
        settings.scorer.cold = false
        return settings
    }

    /// 3,000 log rows; 10,000 inserts and one rare count by kind: no index pays for its upkeep.
    static let insertHeavy = (schema: """
        CREATE TABLE log (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, ts INTEGER NOT NULL, body TEXT);
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000)
        INSERT INTO log SELECT i, bench_int(i, 1, 1, 50), i, bench_words(i, 2, 3) FROM c;
        """, workload: """
        -- freq: 10000
        -- draw uniform: 1 50
        -- draw uniform: 1 1000000
        INSERT INTO log (kind, ts, body) VALUES (?1, ?2, 'entry');
        -- freq: 1
        -- draw uniform: 1 50
        SELECT count(*) FROM log WHERE kind = ?1;
        """)

    /// A read-only table of 20,000 rows counted by a selective column: one single-column index is the answer.
    static let singleLookup = (schema: """
        CREATE TABLE item (id INTEGER PRIMARY KEY, code INTEGER NOT NULL, price REAL, note TEXT);
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
        INSERT INTO item SELECT i, bench_int(i, 1, 1, 5000), bench_int(i, 2, 1, 900) / 10.0, bench_words(i, 3, 4) FROM c;
        """, workload: """
        -- freq: 200
        -- draw: SELECT code FROM item
        SELECT count(*) FROM item WHERE code = ?1;
        """)

    /// 20,000 documents of which 1 % need an upload; 3,000 inserts of documents that do not, and the upload
    /// queue read in order: a partial index on the rare flag serves the read and is never written by the inserts.
    static let rareFlag = (schema: """
        CREATE TABLE doc (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, pending INTEGER NOT NULL, modified INTEGER NOT NULL, title TEXT);
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
        INSERT INTO doc SELECT i, bench_int(i, 1, 1, 400), CASE WHEN bench_rand(i, 2) < 0.01 THEN 1 ELSE 0 END, bench_int(i, 3, 1, 1000000), bench_words(i, 4, 3) FROM c;
        """, workload: """
        -- freq: 3000
        -- draw uniform: 1 400
        -- draw uniform: 1 1000000
        INSERT INTO doc (owner, pending, modified, title) VALUES (?1, 0, ?2, 'new');
        -- freq: 50
        -- hot
        SELECT id, modified FROM doc WHERE pending = 1 ORDER BY modified LIMIT 20;
        """)

    /// Events by venue read newest first with ties by id: only a key with `ts DESC` gives that order without a sort.
    static let newestFirst = (schema: """
        CREATE TABLE event (id INTEGER PRIMARY KEY, venue INTEGER NOT NULL, ts INTEGER NOT NULL, title TEXT);
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
        INSERT INTO event SELECT i, bench_zipf(i, 1, 40, 1.0), bench_int(i, 2, 1, 100000), bench_words(i, 3, 3) FROM c;
        """, workload: """
        -- freq: 100
        -- hot
        -- draw: SELECT venue FROM event
        SELECT id, ts, title FROM event WHERE venue = ?1 ORDER BY ts DESC, id LIMIT 10;
        """)

    /// 3,000 members and 20,000 loans without an index: the EXISTS reads every loan for every member
    /// (60 million rows, seconds), where an index on the loans answers in a few pages.
    static let quadraticExists = (schema: """
        CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE loan (id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL, book_id INTEGER NOT NULL);
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000)
        INSERT INTO member SELECT i, bench_words(i, 1, 2) FROM c;
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
        INSERT INTO loan SELECT i, bench_int(i, 2, 1, 3000), bench_int(i, 3, 1, 8000) FROM c;
        """, workload: """
        -- freq: 50
        -- draw: SELECT book_id FROM loan
        SELECT m.id FROM member m WHERE EXISTS (SELECT 1 FROM loan l WHERE l.member_id = m.id AND l.book_id = ?1);
        """)
}
