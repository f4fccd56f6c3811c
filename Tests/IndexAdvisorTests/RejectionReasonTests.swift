import Testing
import Foundation
@testable import IndexAdvisor

/// The words of each structured rejection reason (issue 22: the advisor decides, the renderers word it),
/// exactly as the reports printed them when the advisor wrote them itself, and the JSON report's form.
@Suite("Rejection reasons")
struct RejectionReasonTests {
    let slower = [StatementSlowdown(statement: "S3", beforeSeconds: 0.010, afterSeconds: 0.030)]

    @Test("budgets and limits name their option and value")
    func limits() {
        #expect(RejectionReason.indexLimit(5).text == "budget reached (--max-indexes 5)")
        #expect(RejectionReason.tableIndexLimit(3).text == "budget reached (--max-indexes-per-table 3)")
        #expect(RejectionReason.indexBytesLimit(1_000_000).text == "budget reached (--max-index-bytes 1000000)")
        #expect(RejectionReason.candidateLimit(40).text == "not measured: more than 40 candidates (--max-candidates)")
        #expect(RejectionReason.timeBudgetSpentBeforeMeasuring(seconds: 30).text
                == "not measured: the time budget (--time-budget 30 s) was spent on candidates for heavier statements")
        #expect(RejectionReason.timeBudgetSpentInSelection(seconds: 0).text
                == "not chosen: the time budget (--time-budget 0 s) ran out during the selection")
    }

    @Test("measured verdicts give their figures, and say when SQLite's counters decided")
    func measuredVerdicts() {
        #expect(RejectionReason.noMeasuredGain(byCounters: false).text == "no statement got measurably faster (differences inside the noise)")
        #expect(RejectionReason.noMeasuredGain(byCounters: true).text == "no statement got measurably faster by SQLite's work counters (under 5 %)")
        #expect(RejectionReason.belowMinimumBenefit(savedSeconds: 0.012, minimumSeconds: 0.0331, byCounters: false).text
                == "it saves 12.0 ms per workload, below the 33.1 ms worth a schema change")
        #expect(RejectionReason.belowMinimumBenefit(savedSeconds: 0.012, minimumSeconds: 0.0331, byCounters: true).text
                == "it saves 12.0 ms per workload by SQLite's work counters, below the 33.1 ms worth a schema change")
        #expect(RejectionReason.makesStatementsSlower(slower, byCounters: false).text == "it makes statements slower: S3 3.0× slower")
        #expect(RejectionReason.costOutweighsSaving(slower: [], churn: nil, byCounters: false).text
                == "its cost (writes) outweighs the time it saves.")
        let churn = ColumnChurn(column: "ZTITLE", share: 0.8, table: "ZNOTE")
        #expect(RejectionReason.costOutweighsSaving(slower: slower, churn: churn, byCounters: true).text
                == "its cost by SQLite's work counters (writes, S3 3.0× slower) outweighs the time it saves. ZTITLE changes on 80% of the writes to ZNOTE (UPDATE … SET it).")
        #expect(churn.note == "ZTITLE changes on 80% of the writes to ZNOTE (UPDATE … SET it), and each such write moves its entry in this index: that cost is in the write time above.")
    }

    // Issue 42: "ZDOMAIN has 3 distinct values and the values this workload looks up each match about 59 % of
    // the rows", for values matching 82 % and 14 %.
    @Test("an analysis sets aside a poor leading column with the range its looked-up values match and the heaviest")
    func poorLeadingColumnRange() throws {
        let result = try analyze("""
            CREATE TABLE page(id INTEGER PRIMARY KEY, domain TEXT NOT NULL, body TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO page SELECT i, CASE WHEN i % 50 < 41 THEN 'work' WHEN i % 50 < 48 THEN 'home' ELSE 'misc' END, 'body ' || i FROM n;
            """, workload: """
            -- freq: 20
            SELECT count(body) FROM page WHERE domain = 'work';
            -- freq: 20
            SELECT count(body) FROM page WHERE domain = 'home';
            """)
        let rejected = try #require(result.rejectedCandidates.first { $0.columns == ["domain"] })
        #expect(rejected.reason == "not measured: domain has 3 distinct values and the 2 values this workload looks up match 14 %–82 % of the rows each (the heaviest, 'work', 82 %; 48 % on average over the value sets), so the index would read a large part of the table per lookup")
    }

    @Test("candidates set aside or left out name what they were compared with")
    func setAside() {
        #expect(RejectionReason.poorLeadingColumn(column: "ZISARCHIVED", distinctValues: 2, share: 0.5).text
                == "not measured: ZISARCHIVED has 2 distinct values and the values this workload looks up match about 50% of the rows on average, so the index would read a large part of the table per lookup")
        // Issue 42: "each match about 59 %" was the mean of values matching 82 % and 14 %: the range and the
        // heaviest value instead.
        let spread = LookedUpShares(least: 0.14, most: 0.82, heaviest: .text("work"), values: 3)
        #expect(RejectionReason.poorLeadingColumn(column: "ZDOMAIN", distinctValues: 3, share: 0.59, lookedUp: spread).text
                == "not measured: ZDOMAIN has 3 distinct values and the 3 values this workload looks up match 14 %–82 % of the rows each (the heaviest, 'work', 82 %; 59 % on average over the value sets), so the index would read a large part of the table per lookup")
        // Two values that match the same share as printed (a held-out CRM store read "match 33 %–33 % of the rows each").
        let even = LookedUpShares(least: 0.3329, most: 0.3341, heaviest: .text("emea"), values: 2)
        #expect(RejectionReason.poorLeadingColumn(column: "region", distinctValues: 3, share: 0.333, lookedUp: even).text
                == "not measured: region has 3 distinct values and the values this workload looks up ('emea' and others) match 33 % of the rows each, so the index would read a large part of the table per lookup")
        let one = LookedUpShares(least: 0.9, most: 0.9, heaviest: .integer(0), values: 1)
        #expect(RejectionReason.poorLeadingColumn(column: "ZISARCHIVED", distinctValues: 2, share: 0.9, lookedUp: one).text
                == "not measured: ZISARCHIVED has 2 distinct values and the value this workload looks up (0) matches 90 % of the rows, so the index would read a large part of the table per lookup")
        #expect(RejectionReason.samePlanAsCandidate(table: "ZNOTE", columns: ["ZFOLDER", "ZDATE"], keptHasFewerColumns: true).text
                == "not built: every statement it serves gets the same what-if plan as with the candidate ZNOTE(ZFOLDER, ZDATE), which has fewer columns")
        #expect(RejectionReason.samePlanAsCandidate(table: "t", columns: ["a"], keptHasFewerColumns: false).text
                == "not built: every statement it serves gets the same what-if plan as with the candidate t(a), whose leading column is as selective or more")
        #expect(RejectionReason.unusedOnceOthersExist(others: ["i1"]).text == "no statement uses it once i1 exists")
        #expect(RejectionReason.unusedOnceOthersExist(others: ["i1", "i2"]).text == "no statement uses it once i1, i2 exist")
        #expect(RejectionReason.buildFailed(error: "disk I/O error").text == "could not be built on the snapshot: disk I/O error")
        #expect(RejectionReason.undeclarable(slower: [], byCounters: false).text
                == "no model can declare it (a partial, expression, descending, collation, covering or Core Data bookkeeping index on an entity table)")
        #expect(RejectionReason.undeclarable(slower: slower, byCounters: true).text.hasSuffix(", and it makes statements slower by SQLite's work counters: S3 3.0× slower"))
        #expect(RejectionReason.servedByEarlierPicks.text == "not chosen: the picks made before it were measured to serve its statements as well or better")
    }

    @Test("only the time budget's reasons count as the time budget's")
    func timeBudget() {
        #expect(RejectionReason.timeBudgetSpentBeforeMeasuring(seconds: 1).isTimeBudget)
        #expect(RejectionReason.timeBudgetSpentInSelection(seconds: 1).isTimeBudget)
        #expect(!RejectionReason.candidateLimit(3).isTimeBudget)
        #expect(RejectionReason.other("not measured: the time budget (--time-budget 2 s) …").isTimeBudget)
    }

    @Test("renaming an index reaches the names inside a reason")
    func renaming() {
        let renamed = RejectionReason.unusedOnceOthersExist(others: ["indexadvisor_a", "b"])
            .renamingNames { $0.replacingIdentifier("indexadvisor_a", with: "Z_Note_a") }
        #expect(renamed == .unusedOnceOthersExist(others: ["Z_Note_a", "b"]))
    }

    @Test("the JSON report keeps `reason` in words and adds `kind`; read back, the words and kind stay")
    func json() throws {
        let candidate = RejectedCandidate(sql: "CREATE INDEX i ON t (a)", table: "t", columns: ["a"], partialPredicate: nil,
                                          readSecondsSaved: 0.5, writeSecondsAdded: 0.25, rejection: .candidateLimit(3))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(candidate)
        #expect(String(decoding: data, as: UTF8.self)
                == #"{"columns":["a"],"kind":"candidate-limit","readSecondsSaved":0.5,"reason":"not measured: more than 3 candidates (--max-candidates)","sql":"CREATE INDEX i ON t (a)","table":"t","writeSecondsAdded":0.25}"#)
        let decoded = try JSONDecoder().decode(RejectedCandidate.self, from: data)
        #expect(decoded.rejection == .other("not measured: more than 3 candidates (--max-candidates)", kind: "candidate-limit"))
        #expect(decoded.reason == candidate.reason)
        #expect(try encoder.encode(decoded) == data)
        // A report made before `kind` existed reads back, and writes back, without one.
        let old = Data(#"{"columns":["a"],"readSecondsSaved":0,"reason":"some words","sql":"CREATE INDEX i ON t (a)","table":"t","writeSecondsAdded":0}"#.utf8)
        let read = try JSONDecoder().decode(RejectedCandidate.self, from: old)
        #expect(read.reason == "some words" && read.rejection.kind == nil)
        #expect(!String(decoding: try encoder.encode(read), as: UTF8.self).contains("kind"))
    }
}

@Suite("Rejection reasons of the greedy selection and the join sets")
struct SelectionRejectionReasonTests {
    @Test("the selection's reasons keep the words they were written in, and each has a kind")
    func selectionReasons() {
        let leftPrefix = RejectionReason.leftPrefixOfPick(wider: "idx_t_a_b")
        #expect(leftPrefix.text == "a left prefix of the recommended idx_t_a_b, which serves the same lookups")
        #expect(leftPrefix.kind == "left-prefix-of-pick")
        #expect(RejectionReason.entityColumnSavesNoPages.text
                == "it reads as many pages as the same key without Z_ENT, which a model can declare and which is recommended instead: Z_ENT only saves checking a column of rows read anyway")
        #expect(RejectionReason.notWorthBuilt(picks: [], minimumSeconds: 0.001).text
                == "built beside the existing indexes, it did not save measurably more than \(Figures.duration(0.001)) per workload")
        #expect(RejectionReason.notWorthBuilt(picks: ["a", "b"], minimumSeconds: 0.002).text
                == "built beside a, b, it did not save measurably more than \(Figures.duration(0.002)) per workload")
        #expect(RejectionReason.joinSetNotWorthBuilt(members: ["user(email)", "membership(user_id)"], statement: "S2", minimumSeconds: 0.001).text
                == "built with user(email) and membership(user_id) for S2's join, the set did not save measurably more than \(Figures.duration(0.001)) per workload")
        #expect(RejectionReason.plannerNoLongerUses(picks: ["a"]).text == "the planner no longer uses it once a exists")
        #expect(RejectionReason.plannerNoLongerUses(picks: ["a", "b"]).text == "the planner no longer uses it once a, b exist")
        #expect(RejectionReason.plannerNoLongerUses(picks: ["a"]).renamingNames { $0 == "a" ? "Z_Note_x" : $0 }
                == .plannerNoLongerUses(picks: ["Z_Note_x"]))
        let kinds = [RejectionReason.entityColumnSavesNoPages, .notWorthBuilt(picks: [], minimumSeconds: 0),
                     .joinSetNotWorthBuilt(members: [], statement: "S1", minimumSeconds: 0), .plannerNoLongerUses(picks: [])].compactMap(\.kind)
        #expect(kinds == ["entity-column-saves-no-pages", "not-worth-built", "join-set-not-worth-built", "planner-no-longer-uses"])
    }
}
