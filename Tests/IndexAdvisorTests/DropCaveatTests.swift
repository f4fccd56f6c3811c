import Testing
import Foundation
@testable import IndexAdvisor

/// The words of each reason not to drop an existing index (issue 22: the review decides, the renderers word
/// it), exactly as the reports printed them before, and the JSON report's form.
@Suite("Drop caveats")
struct DropCaveatTests {
    @Test("each caveat in words")
    func words() {
        #expect(DropCaveat.enforcesConstraint(primaryKey: true).text == "it enforces a PRIMARY KEY constraint")
        #expect(DropCaveat.enforcesConstraint(primaryKey: false).text == "it enforces a UNIQUE constraint")
        #expect(DropCaveat.uniqueRule.text == "it is UNIQUE: dropping it drops the uniqueness rule")
        #expect(DropCaveat.ownedByCoreData.text == "Core Data creates it for a relationship or an entity hierarchy; the model cannot drop it")
        #expect(DropCaveat.workloadIsSample.text
                == "no statement of this workload used it; a workload is a sample, so check the app's other paths before dropping it")
        #expect(DropCaveat.readsSlowerWithout.text
                == "statements that use it get measurably slower without it (the wider index does not serve them as well)")
        #expect(DropCaveat.servesForeignKey.text.hasPrefix("statements that use it are faster without it, but it serves the child side of a foreign key"))
        #expect(DropCaveat.notMeasured.text == "could not be measured")
    }

    @Test("several caveats read as one, joined with a semicolon; none is no caveat")
    func joined() {
        var finding = ExistingIndexFinding(kind: .unusedInWorkload, index: "i", table: "t", columns: ["a"], supersededBy: nil,
                                           bytes: nil, dropSQL: nil)
        #expect(finding.caveat == nil)
        finding.caveats = [.workloadIsSample, .notMeasured]
        #expect(finding.caveat == "no statement of this workload used it; a workload is a sample, so check the app's other paths before dropping it; could not be measured")
        finding.caveat = "in words"
        #expect(finding.caveats == [.recorded("in words", kinds: [])])
    }

    @Test("the JSON report keeps `caveat` in words and adds `caveatKinds`; read back, both stay")
    func json() throws {
        let finding = ExistingIndexFinding(kind: .unusedInWorkload, index: "i", table: "t", columns: ["a"], supersededBy: nil,
                                           bytes: 4096, dropSQL: nil, caveats: [.workloadIsSample, .notMeasured])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(finding)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""caveatKinds":["workload-is-sample","not-measured"]"#))
        #expect(text.contains(#""caveat":"no statement of this workload used it; a workload is a sample, so check the app's other paths before dropping it; could not be measured""#))
        let decoded = try JSONDecoder().decode(ExistingIndexFinding.self, from: data)
        #expect(decoded.caveat == finding.caveat)
        #expect(decoded.caveats.flatMap(\.kinds) == ["workload-is-sample", "not-measured"])
        #expect(try encoder.encode(decoded) == data)
        // Without a caveat, neither field is written.
        let plain = ExistingIndexFinding(kind: .redundant, index: "i", table: "t", columns: ["a"], supersededBy: "j", bytes: nil,
                                         dropSQL: "DROP INDEX IF EXISTS \"i\"")
        #expect(!String(decoding: try encoder.encode(plain), as: UTF8.self).contains("caveat"))
    }
}
