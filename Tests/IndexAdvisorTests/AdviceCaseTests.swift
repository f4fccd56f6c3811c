import Testing
import Foundation
@testable import IndexAdvisor

/// Real problems reduced to small stores (after the cases in the design notes), each analysed end to end.
/// The assertions are the right answers and the reasons for them.
@Suite("Advice on real problems")
struct AdviceCaseTests {
    @Test("a rare flag that frequent updates set and clear gets the partial index the updates skip, not a flag-led full index every update must move")
    func rareFlagUnderUpdates() throws {
        // A job queue: `retry` is NULL or 0 on 99.6 % of rows; a retry loop reads the rare 1s by time; every
        // finished job clears its flag and every heartbeat rewrites its row. The partial index serves the two
        // reads as well as (retry, queued_at) and costs the updates that leave `retry` off 1 no index entry.
        let result = try analyze("""
            CREATE TABLE job (id INTEGER PRIMARY KEY, worker INTEGER NOT NULL, queued_at REAL NOT NULL, retry INTEGER,
                              heartbeat REAL, payload TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
            INSERT INTO job SELECT i, i % 40, 800000000.0 + i * 7, CASE WHEN i % 250 = 0 THEN 1 WHEN i % 3 = 0 THEN 0 END,
                   NULL, printf('%.*c', 30 + i % 50, 'p') FROM n;
            """, workload: """
            -- freq: 200
            SELECT id, queued_at FROM job WHERE retry = 1 ORDER BY queued_at LIMIT 20;
            -- freq: 50
            SELECT count(*) FROM job WHERE retry = 1;
            -- freq: 400
            UPDATE job SET retry = 0 WHERE id = 6001;
            -- freq: 400
            UPDATE job SET heartbeat = 800100000.0, retry = NULL WHERE id = 3002;
            """)
        let picks = result.recommendations.map { ($0.columns.map(\.name), $0.partialPredicate) }
        #expect(picks.count == 1)
        #expect(picks.first?.1 == "\"retry\" = 1")
        #expect(picks.first?.0 == ["queued_at"])
        // The full form was measured and lost on the updates' work, not left unmeasured.
        let full = result.rejectedCandidates.first { $0.columns == ["retry", "queued_at"] && $0.partialPredicate == nil }
        #expect(full != nil)
    }

    @Test("an IS NOT NULL sweep on a Core Data hierarchy table gets a partial index (an alternative to the model), not a flag-led composite")
    func isNotNullSweep() throws {
        let result = try analyze("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1,'Message',0,0),(2,'TextMessage',1,0),(3,'AssetMessage',1,0);
            CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISOBFUSCATED INTEGER,
                                   ZSENDER INTEGER, ZSERVERTIMESTAMP TIMESTAMP, ZDESTRUCTIONDATE TIMESTAMP, ZTEXT VARCHAR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
            INSERT INTO ZMESSAGE SELECT i, 2 + i % 2, 1, CASE WHEN i % 977 = 0 THEN 1 ELSE 0 END, 1 + i % 300,
                   700000000.0 + i, CASE WHEN i % 500 = 0 THEN 700000000.0 + i + 3600 END, printf('%.*c', 60 + i % 100, 'x') FROM n;
            CREATE INDEX ZMESSAGE_Z_ENT_INDEX ON ZMESSAGE (Z_ENT);
            CREATE INDEX Z_Message_destructionDate ON ZMESSAGE (ZDESTRUCTIONDATE COLLATE BINARY ASC);
            """, workload: """
            -- freq: 5
            SELECT t0.Z_ENT, t0.Z_PK, t0.ZDESTRUCTIONDATE, t0.ZTEXT FROM ZMESSAGE t0 WHERE ( t0.ZDESTRUCTIONDATE IS NOT NULL AND  t0.ZISOBFUSCATED = 0);
            -- freq: 100
            INSERT INTO ZMESSAGE(Z_PK, Z_ENT, Z_OPT, ZISOBFUSCATED, ZSENDER, ZSERVERTIMESTAMP, ZTEXT) VALUES (60001, 2, 1, 0, 42, 710000000.0, 'hello');
            """)
        let sweep = try #require(result.statements.first)
        #expect(sweep.planBefore?.findings.map(\.kind) == [.fullTableScan])
        // #Index cannot declare a predicate: on a Core Data store the partial index is an alternative beside
        // the model's (here empty) set, shipped as a fetch index with a partial-index predicate.
        #expect(result.recommendations.isEmpty)
        let top = try #require(result.alternatives?.first)
        #expect(top.partialPredicate == "\"ZDESTRUCTIONDATE\" IS NOT NULL")
        #expect(top.columns.map(\.name) == ["ZDESTRUCTIONDATE"])  // not led by the flag that is 0 on nearly every row
        #expect(top.bytes < 100_000)  // one entry per ephemeral message
        #expect(top.howToShip.text.contains("partialIndexPredicate \"destructionDate != nil\""))
        // The full-column index the model declares is used by nothing: the partial one replaces it.
        #expect(top.replaces == ["Z_Message_destructionDate"])
        let unused = try #require(result.existingIndexes.first { $0.index == "Z_Message_destructionDate" })
        #expect(unused.kind == .unusedInWorkload)
        #expect(unused.dropSQL == nil)
        // Core Data owns its hierarchy index.
        #expect(result.existingIndexes.first { $0.index == "ZMESSAGE_Z_ENT_INDEX" }?.caveat?.contains("Core Data creates it") == true)
    }

    @Test("an alternative on a Core Data store does not replace the relationship index Core Data makes")
    func alternativeKeepsRelationshipIndex() throws {
        // A tasks store of my own, after a new user's: a list's open tasks by priority (descending) then date.
        // The model's (list, completed) is recommended; the mixed-direction form that also removes the sort is
        // an alternative. Core Data's ZTASK_ZLIST_INDEX is then used by no final plan, but the model cannot
        // drop it: the alternative said "drop that index (in the model too)" and its SQL carried the DROP,
        // beside the review's "the model cannot drop it" (3b21048's build still lists it as replaced).
        let result = try analyze("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1,'List',0,0),(2,'Task',0,0);
            CREATE TABLE ZLIST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOMPLETED INTEGER, ZPRIORITY INTEGER,
                                 ZLIST INTEGER, ZCREATEDAT TIMESTAMP, ZTITLE VARCHAR );
            CREATE INDEX ZTASK_ZLIST_INDEX ON ZTASK (ZLIST);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4) INSERT INTO ZLIST SELECT i, 1, 1, 'List ' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO ZTASK SELECT i, 2, 1, CASE WHEN i % 10 < 5 THEN 1 ELSE 0 END, i % 4, 1 + (i * 7919) % 4, 700000000.0 + i * 60, 'Task ' || i FROM n;
            """, workload: """
            -- freq: 300
            SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZPRIORITY, t0.ZCREATEDAT FROM ZTASK t0 WHERE ( t0.ZLIST = 3 AND t0.ZCOMPLETED = 0) ORDER BY t0.ZPRIORITY DESC, t0.ZCREATEDAT LIMIT 50;
            -- freq: 100
            UPDATE ZTASK SET ZCOMPLETED = 1, Z_OPT = Z_OPT + 1 WHERE Z_PK = 1234;
            """)
        expectTrueReport(result)
        #expect(result.recommendations.map { $0.columns.map(\.name) } == [["ZLIST", "ZCOMPLETED"]])
        let alternative = try #require(result.alternatives?.first)
        #expect(alternative.columns.map(\.name) == ["ZLIST", "ZCOMPLETED", "ZPRIORITY", "ZCREATEDAT"])
        #expect(alternative.replaces.isEmpty)
        #expect(!SQLReport.render(result, queryAdvice: false).contains("DROP INDEX IF EXISTS \"ZTASK_ZLIST_INDEX\""))
        let owned = try #require(result.existingIndexes.first { $0.index == "ZTASK_ZLIST_INDEX" })
        #expect(owned.dropSQL == nil)
        #expect(owned.caveat?.contains("Core Data creates it") == true)
    }

    @Test("equality, range and sort on a hierarchy table: the equality column first, the range/sort column last")
    func equalityRangeSort() throws {
        let result = try analyze("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1,'DateObject',0,0),(4,'EventObject',1,0),(6,'UserActivityObject',1,0),(7,'MetricObject',1,0);
            CREATE TABLE ZDATEOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDAY TIMESTAMP, ZPERIOD VARCHAR,
                                      ZNAME VARCHAR, ZVALUE FLOAT, ZPARAMS BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
            INSERT INTO ZDATEOBJECT SELECT i, CASE WHEN i % 10 < 6 THEN 4 WHEN i % 10 < 8 THEN 7 ELSE 6 END, 1,
                   CASE WHEN i % 10 >= 8 THEN 760000000.0 + ((i * 500) / 86400) * 86400.0 END,
                   CASE WHEN i % 10 >= 8 THEN CASE i % 3 WHEN 0 THEN 'daily' WHEN 1 THEN 'weekly' ELSE 'monthly' END END,
                   'event_' || (i % 120), (i % 1000) / 10.0, zeroblob(60 + i % 100) FROM n;
            CREATE INDEX ZDATEOBJECT_Z_ENT_INDEX ON ZDATEOBJECT (Z_ENT);
            """, workload: """
            -- freq: 60
            SELECT 0, t0.Z_PK, t0.ZDAY, t0.ZVALUE FROM ZDATEOBJECT t0 WHERE ( t0.ZPERIOD = 'daily' AND  t0.ZDAY >= 770000000.0 AND  t0.ZDAY < 775000000.0) AND t0.Z_ENT = 6 ORDER BY t0.ZDAY;
            -- freq: 300
            INSERT INTO ZDATEOBJECT(Z_PK, Z_ENT, Z_OPT, ZDAY, ZPERIOD, ZNAME, ZVALUE) VALUES (60001, 6, 1, 791596800.0, 'daily', 'active_users', 3.0);
            """)
        let chart = try #require(result.statements.first)
        #expect(chart.planBefore?.findings.map(\.kind) == [.indexSearch, .tempBTree])
        let top = try #require(result.recommendations.first)
        let names = top.columns.map(\.name)
        #expect(names.first == "ZPERIOD")
        // The range/sort column comes right after the equality columns (a covering column may follow it).
        let day = try #require(names.firstIndex(of: "ZDAY"))
        #expect(names[..<day].allSatisfy { $0 == "ZPERIOD" || $0 == "Z_ENT" })
        #expect(chart.planAfter?.findings.contains { $0.kind == .tempBTree } == false)
        // The fetch is for the sub-entity UserActivityObject (Z_ENT = 6): its class declares the key paths.
        #expect(top.entity == "UserActivityObject")
    }

    @Test("a sort under a Core Data collation is not claimed by an index; the binary sort gets SwiftData's index name")
    func collationSort() throws {
        let result = try analyze("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1,'Movie',0,0);
            CREATE TABLE ZMOVIE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZADDED VARCHAR, ZNAME VARCHAR, ZPLOT VARCHAR);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
            INSERT INTO ZMOVIE SELECT i, 1, 1, CASE WHEN i % 33 = 0 THEN NULL ELSE CAST(1600000000 + (i * 7919) % 140000000 AS TEXT) END,
                   'Title ' || i, printf('%.*c', 80 + i % 200, 'p') FROM n;
            CREATE INDEX Z_Movie_SwiftDataIndexOnBinaryname ON ZMOVIE (ZNAME COLLATE BINARY ASC);
            """, workload: """
            -- freq: 30
            SELECT 0, t0.Z_PK FROM ZMOVIE t0 WHERE  t0.ZADDED IS NOT NULL ORDER BY t0.ZADDED DESC;
            -- freq: 30
            SELECT 0, t0.Z_PK FROM ZMOVIE t0 WHERE  t0.ZADDED IS NOT NULL ORDER BY t0.ZADDED COLLATE NSCollateFinderlike DESC;
            """)
        let binary = result.statements[0]
        let localized = result.statements[1]
        #expect(binary.usesRecommendations.count == 1)
        // The plain index and a partial one over the 97 % non-NULL rows cost alike; the plain one, which
        // SwiftData can declare, wins the tie (costs are SQLite's counters: the same on every run).
        #expect(binary.usesRecommendations == ["Z_Movie_SwiftDataIndexOnBinaryadded"])
        #expect(result.recommendations.first?.swiftDataIndex == #"#Index<Movie>([\.added])"#)
        // The index may serve the localized statement's filter, never its sort: the temp B-tree stays.
        #expect(localized.planAfter?.findings.contains { $0.kind == .tempBTree } == true)
        #expect(binary.planAfter?.findings.contains { $0.kind == .tempBTree } == false)
        let binaryGain = try #require(binary.timingBefore).medianSeconds / #require(binary.timingAfter).medianSeconds
        let localizedGain = try #require(localized.timingBefore).medianSeconds / #require(localized.timingAfter).medianSeconds
        #expect(localizedGain < binaryGain)
        #expect(localized.notes.map(\.text).contains { $0.contains("COLLATE NSCollateFinderlike") && $0.contains("comparator: .lexical") })
    }

    @Test("a sorted list over two tables: each side gets an index with the sort column, and the first page stops sorting")
    func unionSort() throws {
        let result = try analyze("""
            CREATE TABLE loginsL (id INTEGER PRIMARY KEY, guid TEXT NOT NULL UNIQUE, hostname TEXT NOT NULL, username TEXT,
                                  password TEXT NOT NULL, is_deleted TINYINT NOT NULL DEFAULT 0);
            CREATE TABLE loginsM (id INTEGER PRIMARY KEY, guid TEXT NOT NULL UNIQUE, hostname TEXT NOT NULL, username TEXT,
                                  password TEXT NOT NULL, is_overridden TINYINT NOT NULL DEFAULT 0);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO loginsL SELECT i, printf('L%011d', i), printf('https://site%05d.example.com', (i * 7919) % 20000), 'user' || i,
                   hex(randomblob(12)), CASE WHEN i % 33 = 0 THEN 1 ELSE 0 END FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
            INSERT INTO loginsM SELECT i, printf('M%011d', i), printf('https://site%05d.example.com', (i * 104729) % 30000), 'user' || i,
                   hex(randomblob(12)), CASE WHEN i % 20 = 0 THEN 1 ELSE 0 END FROM n;
            """, workload: """
            -- freq: 30
            SELECT guid, username, password, hostname FROM loginsL WHERE is_deleted = 0 UNION ALL SELECT guid, username, password, hostname FROM loginsM WHERE is_overridden = 0 ORDER BY hostname ASC LIMIT 50;
            -- freq: 5
            INSERT INTO loginsL(guid, hostname, username, password, is_deleted) VALUES ('Lnew00000001', 'https://new.example.com', 'me', 'secret', 0);
            """)
        let page = try #require(result.statements.first)
        #expect(page.planBefore?.findings.filter { $0.kind == .tempBTree }.count == 2)
        #expect(page.planAfter?.findings.contains { $0.kind == .tempBTree } == false)
        #expect(Set(result.recommendations.map(\.table)) == ["loginsL", "loginsM"])
        #expect(result.recommendations.allSatisfy { $0.columns.contains { $0.name == "hostname" } })
        let after = try #require(page.timingAfter), before = try #require(page.timingBefore)
        #expect(after.medianSeconds * 10 < before.medianSeconds)
    }

    @Test("of a prefix the reads use and a composite no statement needs in full, the composite is dropped (the larger upkeep, no read slower); a prefix of a composite a read needs is dropped")
    func redundantPrefixes() throws {
        // Until the selector took store indexes out (issue 38) the review dropped every left prefix and kept
        // every composite. Here no statement filters on parent_id: the planner reads chat_id = ? through either,
        // and the composite (chat_id, parent_id) costs the burst insert more. By hand
        // (sqlite3 .timer on, five runs, a busy machine): the insert takes 0.067 s (median) with the prefix
        // dropped and 0.036 s with the composite dropped, and the chat read plans on the index left either way.
        let result = try analyze("""
            CREATE TABLE chat_message (id TEXT PRIMARY KEY, chat_id TEXT NOT NULL, user_id TEXT NOT NULL, parent_id TEXT,
                                       content TEXT, created_at INTEGER NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
            INSERT INTO chat_message SELECT printf('m%08d', i), printf('c%06d', (i * 7919) % 3000), printf('u%04d', (i * 104729) % 200),
                   CASE WHEN i % 20 = 0 THEN NULL ELSE printf('m%08d', i - 1) END, printf('%.*c', 50 + i % 200, 'w'), 1700000000 + i * 30 FROM n;
            CREATE INDEX chat_message_chat_id ON chat_message(chat_id);
            CREATE INDEX chat_message_user_id ON chat_message(user_id);
            CREATE INDEX chat_message_chat_parent ON chat_message(chat_id, parent_id);
            CREATE INDEX chat_message_user_created ON chat_message(user_id, created_at);
            """, workload: """
            -- freq: 100
            SELECT id, parent_id, content, created_at FROM chat_message WHERE chat_id = 'c001234';
            -- freq: 20
            SELECT id, chat_id, created_at FROM chat_message WHERE user_id = 'u0042' ORDER BY created_at DESC LIMIT 50;
            -- freq: 20
            INSERT INTO chat_message WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT printf('x%08d', i), printf('c%06d', (i * 31) % 3000), printf('u%04d', (i * 17) % 200), NULL, 'hello there', 1800000000 + i FROM n;
            """)
        #expect(result.recommendations.isEmpty)
        let drops = result.existingIndexes.filter { $0.dropSQL != nil }
        #expect(Set(drops.map(\.index)) == ["chat_message_chat_parent", "chat_message_user_id"])
        #expect(drops.first { $0.index == "chat_message_user_id" }?.supersededBy == "chat_message_user_created")
        #expect(drops.first { $0.index == "chat_message_user_id" }?.kind == .redundant)
        // The planner took the composite, created last, for chat_id = ?; without it, the prefix.
        #expect(drops.first { $0.index == "chat_message_chat_parent" }?.kind == .replaced)
        #expect(drops.first { $0.index == "chat_message_chat_parent" }?.supersededBy == "chat_message_chat_id")
        #expect(drops.allSatisfy { $0.dropSQL == "DROP INDEX IF EXISTS \"\($0.index)\"" && $0.readSecondsAdded == 0 && $0.writeSecondsSaved > 0 })
        // Measured: the burst insert was timed without each index.
        #expect(drops.allSatisfy { finding in finding.effects.contains { $0.statementID == result.statements[2].id } })
        #expect(!result.existingIndexes.contains { $0.index == "chat_message_chat_id" && $0.dropSQL != nil })
        #expect(result.statements[0].planAfter?.indexesUsed == ["chat_message_chat_id"])
        #expect(result.totals.writeSecondsAfter < result.totals.writeSecondsBefore)
    }

    @Test("a rare statement's index counts against what is left after the hot one is fixed, not the workload as it was")
    func minimumBenefitOfWhatIsLeft() throws {
        // Regression (benchmarks, recordings and shop stores): once the hot lookup's index had taken the
        // workload from seconds to milliseconds, an index saving most of what was left was turned down as
        // "below the 34 ms worth a schema change", 0.5 % of the workload before any index.
        let result = try analyze("""
            CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT NOT NULL, owner INTEGER NOT NULL, title TEXT NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO item SELECT i, printf('C-%06d', (i * 7919) % 100000), i % 5000, 'item ' || i FROM n;
            """, workload: """
            -- freq: 2000
            SELECT * FROM item WHERE code = 'C-004242';
            -- freq: 2
            SELECT id, title FROM item WHERE owner = 77;
            """)
        #expect(result.recommendations.map { $0.columns.first?.name } == ["code", "owner"])
        let rare = result.statements[1]
        #expect(rare.planAfter?.findings.contains { $0.kind == .fullTableScan } == false)
        let before = try #require(result.totals.totalSecondsBefore as Double?)
        // The second index saves far less than 0.5 % of the workload as it was, and far more than 1 ms.
        let second = result.recommendations[1]
        #expect(second.netSecondsSaved < before * 0.005)
        #expect(second.netSecondsSaved > 0.001)
    }

    // Regression (benchmarks, recordings store): the narrower (recordedAt) index won a near tie on net time
    // that came down to write figures inside the noise, and the covering (recordedAt, title) one, 4× faster
    // for the range query, was then left out. A measurably faster candidate on the same statements now wins
    // unless its extra write time is beyond the noise.
    @Test("a range query that reads one more column gets the covering index, not the narrower one")
    func coveringBeatsNarrower() throws {
        let result = try analyze("""
            CREATE TABLE recording (id INTEGER PRIMARY KEY, recordingID TEXT NOT NULL, recordedAt REAL NOT NULL, title TEXT NOT NULL, notes TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
            INSERT INTO recording SELECT i, printf('REC-%08X', i * 2654435761 % 4294967296), 1700000000.0 + (i * 7919 % 60000) * 30,
                'Recording ' || i, printf('%.*c', 120, 'n') FROM n;
            """, workload: """
            -- freq: 50
            SELECT id, title FROM recording WHERE recordedAt BETWEEN 1700300000 AND 1700600000 ORDER BY recordedAt;
            -- freq: 100
            INSERT INTO recording(recordingID, recordedAt, title, notes) VALUES ('REC-NEW', 1700000123.0, 'New recording', 'n');
            """)
        let recommendation = try #require(result.recommendations.first)
        #expect(recommendation.columns.map(\.name) == ["recordedAt", "title"])
    }

    @Test("a write-heavy event log with a rare read gets no new index, and the report says why")
    func writeHeavyEvents() throws {
        let result = try analyze("""
            CREATE TABLE event (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, device TEXT NOT NULL, ts REAL NOT NULL, payload BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO event SELECT i, 'kind' || (i % 40), 'dev' || (i % 500), 1700000000.0 + i, randomblob(40) FROM n;
            """, workload: """
            -- freq: 1
            SELECT count(*) FROM event WHERE device = 'dev42' AND ts > 1700010000.0;
            -- freq: 200000
            INSERT INTO event(kind, device, ts, payload) VALUES ('kind3', 'dev42', 1800000000.0, x'00112233');
            """)
        #expect(result.recommendations.isEmpty)
        let read = result.statements[0]
        #expect(read.planBefore?.findings.map(\.kind) == [.fullTableScan])
        #expect(read.notes.last?.text.hasPrefix("no index recommended:") == true)
        #expect(!result.rejectedCandidates.isEmpty)
        // Every candidate was turned down for what it costs or does not save — never for a budget.
        let reasons = ["outweighs", "worth a schema change", "prefix", "no statement got measurably faster", "no longer uses",
                       "did not save measurably", "makes statements slower"]
        #expect(result.rejectedCandidates.allSatisfy { candidate in reasons.contains { candidate.reason.contains($0) } },
                "\(result.rejectedCandidates.map(\.reason))")
    }

    @Test("a uniqueness rule the data breaks is reported with the number of rows breaking it")
    func uniquenessViolated() throws {
        var options = quickOptions()
        options.uniqueRules = [UniqueRule(table: "account", columns: ["email"]), try UniqueRule(parsing: "account(handle)")]
        let result = try analyze("""
            CREATE TABLE account (id INTEGER PRIMARY KEY, email TEXT, handle TEXT, name TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO account SELECT i, CASE WHEN i % 1000 = 0 THEN 'dup@example.com' WHEN i % 777 = 0 THEN NULL ELSE 'user' || i || '@example.com' END,
                   'h' || i, 'Name ' || i FROM n;
            """, workload: """
            -- freq: 50
            SELECT * FROM account WHERE handle = 'h42';
            """, options: options)
        let email = try #require(result.uniqueness.first { $0.columns == ["email"] })
        #expect(email.origin == .declared)
        #expect(email.duplicateValues == 1)
        #expect(email.violatingRows == 4)  // five rows share one address: four would be merged
        #expect(email.nullRows == 6)
        #expect(email.advice.hasPrefix("4 rows share their value with another row (1 repeated value)"))
        let handle = try #require(result.uniqueness.first { $0.columns == ["handle"] })
        #expect(handle.violatingRows == 0)
        #expect(handle.advice == "holds in the data (5,000 rows)")
    }
}

/// A literal on an evenly spread column of a few values (a line number, a weekday) is one of many the app
/// binds: it is a key column, not a filter to build a partial index on; and a value the snapshot lacks does not
/// make that column look more selective than a unique key (own shape, after a held-out report: ExtendDB's
/// propagation deletes got `(base_pk) WHERE base_sk_s = 'LINE#4'`).
@Suite("Advice on evenly spread few-valued columns")
struct EvenFewValuedColumnTests {
    static let schema = """
        CREATE TABLE shipment_line (id INTEGER PRIMARY KEY, order_ref TEXT NOT NULL, line_no INTEGER NOT NULL,
                                    sku TEXT NOT NULL, qty INTEGER NOT NULL, note TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
        INSERT INTO shipment_line SELECT i, printf('O-%06d', (i + 5) / 6), 1 + i % 6, printf('SKU%04d', i % 900), 1 + i % 5,
               printf('%.*c', 20 + i % 40, 'n') FROM n;
        """

    @Test("a literal line number gets the key led by the order, not a partial index on that one line", arguments: [4, 9])
    func lineNumberLiteral(line: Int) throws {
        // Line 9 is in no row: as rare as the rarest line there is, not rarer.
        let result = try analyze(Self.schema, workload: """
            -- freq: 300
            UPDATE shipment_line SET qty = 3 WHERE order_ref = 'O-004512' AND line_no = \(line);
            -- freq: 300
            INSERT INTO shipment_line(order_ref, line_no, sku, qty) VALUES ('O-009999', 2, 'SKU0042', 1);
            """)
        let pick = try #require(result.recommendations.first)
        #expect(result.recommendations.count == 1)
        #expect(pick.partialPredicate == nil)
        #expect(pick.columns.first?.name == "order_ref")
        #expect(!result.rejectedCandidates.contains { $0.partialPredicate?.contains("line_no") == true })
    }
}
