import Testing
import Foundation
@testable import IndexAdvisor

/// The words of each uniqueness verdict (issue 22: the audit counts, the renderers word it), exactly as the
/// reports printed them before, and the JSON report's form.
@Suite("Uniqueness verdicts in words")
struct UniquenessVerdictTests {
    func finding(_ verdict: UniquenessVerdict, violating: Int = 0, duplicates: Int = 0, nulls: Int = 0) -> UniquenessFinding {
        UniquenessFinding(origin: .proposed, table: "ZNOTE", columns: ["ZREMOTEID", "ZKIND"], violatingRows: violating,
                          duplicateValues: duplicates, nullRows: nulls, tableRows: 12_000, swiftDataUnique: nil, verdict: verdict)
    }

    @Test("each verdict, with the finding's own counts")
    func words() {
        #expect(finding(.notChecked).advice == "not checked: the store has no table ZNOTE with columns ZREMOTEID, ZKIND")
        #expect(finding(.enforced(index: "ZNOTE_UNIQUE")).advice == "enforced by the UNIQUE index ZNOTE_UNIQUE")
        #expect(finding(.broken, violating: 3, duplicates: 1).advice
                == "3 rows share their value with another row (1 repeated value): a unique rule on (ZREMOTEID, ZKIND) would be broken; in SwiftData, `#Unique` would merge those rows on the next save (upsert). Clean the data first.")
        #expect(finding(.cloudKitForbids).advice
                == "unique in the data, but the store syncs with CloudKit, which does not allow unique constraints: keep it unique in code")
        #expect(finding(.declareIt(withMacro: true)).advice
                == "looked up like an identifier and unique in the data (12,000 rows): declaring it unique lets SwiftData upsert by it and gives the lookup a unique index")
        #expect(finding(.declareIt(withMacro: false)).advice
                == "looked up like an identifier and unique in the data (12,000 rows): a UNIQUE index would keep it so and serve the lookup")
        #expect(finding(.holds).advice == "holds in the data (12,000 rows)")
    }

    @Test("NULLs are said after a measured verdict, and the model's declaration last")
    func nullsAndModel() {
        // Regression (a new user's report: "…gives the lookup a unique index 29971 rows have a NULL in…"): each
        // sentence ends with its full stop, and counts have their thousands separated.
        #expect(finding(.holds, nulls: 1).advice == "holds in the data (12,000 rows). 1 row has a NULL in (ZREMOTEID, ZKIND), which a unique rule does not restrict.")
        #expect(finding(.declareIt(withMacro: true), nulls: 29_971).advice.hasSuffix("gives the lookup a unique index. 29,971 rows have a NULL in (ZREMOTEID, ZKIND), which a unique rule does not restrict."))
        #expect(finding(.holds, nulls: 2).advice.hasSuffix(" 2 rows have a NULL in (ZREMOTEID, ZKIND), which a unique rule does not restrict."))
        #expect(finding(.enforced(index: "i"), nulls: 2).advice == "enforced by the UNIQUE index i")
        var declared = finding(.declareIt(withMacro: true))
        declared.modelDeclaresAt = "Note.swift:12"
        #expect(declared.advice.hasSuffix("gives the lookup a unique index. Your model already declares it (Note.swift:12), but the store has no UNIQUE index enforcing it."))
    }

    @Test("the JSON report keeps the advice in words, and reads it back")
    func json() throws {
        var original = finding(.holds, nulls: 2)
        original.modelDeclaresAt = "Note.swift:3"
        let data = try JSONEncoder().encode(original)
        let read = try JSONDecoder().decode(UniquenessFinding.self, from: data)
        #expect(read.verdict == .other(original.advice))
        #expect(read.advice == original.advice)
        #expect(read.nullRows == 2 && read.tableRows == 12_000)
    }
}
